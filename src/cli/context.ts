/**
 * What every command of the command line is given (cli/main.ts sets it up): the streams, the
 * working directory and environment, and how a command sets the exit code; and the notes and
 * helpers the commands share.
 */
import { readFileSync } from "node:fs";
import { maxJobs } from "../node/pool/thread-limits.js";
import { escapeControls } from "../core/text.js";
import type { createProgressLine } from "./progress.js";

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A Node stream's `once`, for waiting on "drain" when `write` returns false. */
  once?(event: "drain", listener: () => void): unknown;
}

/** Writes to a stream and, when its buffer is full, waits until it drains (so a slow pipe does not fill memory). */
export function writeAndDrain(stream: OutputStream, text: string): Promise<void> | undefined {
  if (stream.write(text) !== false || !stream.once) return undefined;
  return new Promise((resolve) => stream.once!("drain", resolve));
}

export interface MainContext {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Standard input, for `validate -` (the bin passes process.stdin). */
  stdin?: AsyncIterable<Uint8Array>;
}

export const PREFIX = "citation-targets: ";

/** What --allow-outside-repository says on stderr, every time. */
export const OUTSIDE_NOTE =
  "--allow-outside-repository: dataset folders and patterns may lead outside the repository; files there are read\n";

/** The note when a --jobs value was lowered to the cap (four threads per core). */
export function noteJobs(jobs: number | undefined, stderr: OutputStream): void {
  const max = maxJobs();
  if (jobs !== undefined && Number.isInteger(jobs) && jobs > max)
    stderr.write(`--jobs ${jobs}: lowered to ${max} (four threads per core; more only costs memory)\n`);
}

/**
 * Puts the program's name before every line of a message for stderr, as git and npm do, so that it stands out in a CI
 * log.
 */
export function prefixLines(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return `${body
    .split("\n")
    .map(escapeControls) // a name or value quoted from a file never reaches the terminal raw
    .map((line) => (line.startsWith(PREFIX) ? line : `${PREFIX}${line}`))
    .join("\n")}\n`;
}

export const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  repository?: unknown;
};

/** The config a command reads (node/config/config.ts, configOption), its module loaded only then. */
export async function configOf(option: string | boolean | undefined, cwd: string) {
  return option === false ? undefined : (await import("../node/config/config.js")).configOption(option, cwd);
}

/** The `onProgress` of update and adopt: datasets done of all, on the progress line when there is one. */
export function datasetProgress(
  progress: ReturnType<typeof createProgressLine> | undefined,
  verb: string,
): { onProgress?: (done: number, total: number) => void } {
  if (!progress) return {};
  return {
    onProgress: (done, total) =>
      progress.update({ files: total, filesDone: done, bytes: 0, bytesDone: 0, verb, unit: "dataset" }),
  };
}

/** What a command writes to and how it sets the exit code: stderr here puts the program's name before every line. */
export interface CommandIo {
  stdout: OutputStream;
  stderr: OutputStream;
  setExitCode(code: number): void;
}

/** What a command asked to be done when it ends (onRunEnd), whatever its outcome. */
const atRunEnd: (() => void)[] = [];

/**
 * Has `done` called when the command running ends (main.ts calls endRun): state a command keeps for its run only, such
 * as the folders' listings it keeps (folder-listing.ts), so that a later run in the same process starts afresh.
 */
export function onRunEnd(done: () => void): void {
  atRunEnd.push(done);
}

/** Ends the command's run: what it asked for with onRunEnd, in order. */
export function endRun(): void {
  for (const done of atRunEnd.splice(0)) done();
}
