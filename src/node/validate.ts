import { createReadStream } from "node:fs";
import { createFileCheck } from "../core/check-file.js";
import type { LockContext } from "../core/lock-context.js";
import type { Problem, RuleSetting } from "../core/problem.js";
import type { RecordSchemaCheck } from "../core/schema-issues.js";
import type { RuleId } from "../rules/index.js";
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { DEFAULT_PATTERN, displayPath, expandInputs, findRepositoryRoot, STDIN_NAME, type InputFile } from "./files.js";
import { mapWithLimit } from "./concurrency.js";
import { describeIoError, OperationalError } from "./errors.js";
import { loadLockContext } from "./manifest-io.js";
import { loadSchema, type SchemaSource } from "./schema-source.js";

export interface ValidateOptions {
  /** Files, directories or globs; default `.tooling/citation-targets/*.jsonl`. */
  patterns?: string[];
  cwd?: string;
  /** The folder patterns are relative to, when not cwd (patterns from a config file); paths are still shown relative to cwd. */
  patternsCwd?: string;
  /** A schema file that replaces the repository's and the bundled one. */
  schema?: string;
  /** Host that `sourceTextUrl` must be on (bundled schema only); default www.legislation.gov.au. */
  legislationHost?: string;
  /** Per-rule severity: "error", "warning" or "off". */
  rules?: Partial<Record<RuleId, RuleSetting>>;
  /** Do not fail when a pattern matches no file. */
  allowUnmatched?: boolean;
  /** Called as the run advances (after each chunk read, or each file done in worker threads). */
  onProgress?: (progress: { files: number; filesDone: number; bytes: number; bytesDone: number }) => void;
  /** Worker threads to spread files over; default: one per core for 200+ files or 32+ MB, else 1. */
  jobs?: number;
  /**
   * A lock manifest to check every file against (the manifest rules). Without it, a file
   * `<name>.jsonl` is checked against `<name>.lock.json` beside it when that exists; `false` turns that off.
   */
  lock?: string | false;
  /** Check these bytes (standard input) instead of files; `name` is the path they stand for (display, file-name rule, lock manifest beside it). */
  stdin?: { stream: AsyncIterable<Uint8Array>; name?: string };
}

export interface FileReport {
  path: string;
  records: number;
  problems: Problem[];
  /** Problems counted but not kept (more than 10,000 in the file). */
  unstored?: { errors: number; warnings: number };
  /** Set when the file could not be read; its problems are then incomplete. */
  error?: string;
  /** The lock manifest the file was checked against, as shown in messages. */
  lockManifest?: string;
  /** Why the artifact checks of the lock manifest were skipped (its dataset folder is not there), when they were. */
  artifactChecksSkipped?: string;
}

export interface Summary {
  files: number;
  records: number;
  errors: number;
  warnings: number;
}

export interface Report {
  files: FileReport[];
  summary: Summary;
  schemaSource: SchemaSource;
  /** Threads the files were checked in: 1, or the number of worker threads. */
  threads: number;
  /** Warnings left out by `onlyErrors` (--quiet), so that the summary can say so. */
  hiddenWarnings?: number;
}

const CHUNK_SIZE = 1 << 20;
const FILES_AT_ONCE = 8;
const FILES_AT_ONCE_PER_WORKER = 4;

/** Validates JSONL files and resolves to a report; throws OperationalError only for bad options, schema or patterns. */
export async function validate(options: ValidateOptions = {}): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  const { schemaSource, check } = await createFileValidator({ ...options, cwd });
  const inputs = options.stdin
    ? [stdinInput(options.stdin.name, cwd)]
    : options.patterns?.length
      ? await expandInputs(options.patterns, cwd, options.allowUnmatched, options.patternsCwd)
      : await expandInputs([DEFAULT_PATTERN], cwd, options.allowUnmatched, (await findRepositoryRoot(cwd)) ?? cwd); // like git: the default is the repository's, from any subfolder
  // File sizes, read once, when the choice of threads or the progress needs them.
  const sizes = options.onProgress || options.jobs === undefined ? await sizesOf(inputs) : undefined;
  const jobs = options.stdin ? 1 : chooseJobs(inputs, options.jobs, sizes);
  const progress = options.onProgress ? startProgress(inputs, sizes!, options.onProgress) : undefined;
  const inWorkers = jobs > 1 ? await validateInWorkers(inputs, { ...options, cwd }, jobs, progress && { tracker: progress, sizes: sizes! }) : undefined;
  const files =
    inWorkers ??
    (await mapWithLimit(inputs, FILES_AT_ONCE, async (input) => {
      const report = await check(input, progress?.read);
      progress?.fileDone();
      return report;
    }));
  return { files, summary: summarize(files), schemaSource, threads: inWorkers ? jobs : 1 };
}

/**
 * Everything needed to check one file after another: the schema (loaded once), the rule
 * settings and the lock manifest in force. Worker threads each build their own from the same
 * options, which is why the options are plain data.
 */
export async function createFileValidator(options: ValidateOptions & { cwd: string }): Promise<{ schemaSource: SchemaSource; check: (input: InputFile, onRead?: (bytes: number) => void) => Promise<FileReport> }> {
  const { cwd } = options;
  const schema = await loadSchema({ cwd, ...(options.schema ? { schemaPath: options.schema } : {}), ...(options.legislationHost ? { legislationHost: options.legislationHost } : {}) });
  const explicitLock = typeof options.lock === "string" ? await loadLockContext(resolve(cwd, options.lock), displayPath(resolve(cwd, options.lock), cwd), cwd) : undefined;
  const lockFor = async (input: InputFile): Promise<LockContext | undefined> => {
    if (explicitLock || options.lock === false) return explicitLock;
    if (input.stdin && input.display === STDIN_NAME) return undefined;
    const sibling = input.absolute.replace(/\.jsonl$/, "") + ".lock.json";
    if (sibling === input.absolute || !(await stat(sibling).catch(() => undefined))?.isFile()) return undefined;
    return loadLockContext(sibling, displayPath(sibling, cwd), cwd);
  };
  const check = async (input: InputFile, onRead?: (bytes: number) => void): Promise<FileReport> => {
    let lockContext: LockContext | undefined;
    try {
      lockContext = await lockFor(input);
    } catch (error) {
      // A broken manifest beside one file is that file's I/O error: the file is still checked without it, and so are the others.
      if (!(error instanceof OperationalError)) throw error;
      const report = await validateFile(input, { ...options, schemaCheck: schema.check, lockContext: undefined, onRead });
      return { ...report, error: error.message };
    }
    const report = await validateFile(input, { ...options, schemaCheck: schema.check, lockContext, onRead });
    if (!lockContext) return report;
    return { ...report, lockManifest: lockContext.manifestPath, ...(lockContext.artifactsSkipped !== undefined ? { artifactChecksSkipped: lockContext.artifactsSkipped } : {}) };
  };
  return { schemaSource: schema.source, check };
}

interface ProgressTracker {
  read(bytes: number): void;
  fileDone(bytesOfFile?: number): void;
}

async function sizesOf(inputs: InputFile[]): Promise<number[]> {
  return mapWithLimit(inputs, 32, async (input) => (await stat(input.absolute).catch(() => undefined))?.size ?? 0);
}

/** Reports progress after each read or finished file. */
function startProgress(inputs: InputFile[], sizes: number[], onProgress: NonNullable<ValidateOptions["onProgress"]>): ProgressTracker {
  const state = { files: inputs.length, filesDone: 0, bytes: sizes.reduce((a, b) => a + b, 0), bytesDone: 0 };
  return {
    read(n) {
      state.bytesDone += n;
      onProgress({ ...state });
    },
    fileDone(bytesOfFile = 0) {
      state.filesDone++;
      state.bytesDone += bytesOfFile;
      onProgress({ ...state });
    },
  };
}

/** Worker threads pay off for many files or much data: 200 files, or 32 MB in all. */
const WORKERS_FROM_FILES = 200;
const WORKERS_FROM_BYTES = 32 * 2 ** 20;

function chooseJobs(inputs: InputFile[], jobs: number | undefined, sizes: number[] | undefined): number {
  if (jobs !== undefined) return Math.max(1, Math.min(jobs, inputs.length));
  const cores = availableParallelism();
  if (cores < 2 || inputs.length < 2) return 1;
  const bytes = (sizes ?? []).reduce((a, b) => a + b, 0);
  return inputs.length >= WORKERS_FROM_FILES || bytes >= WORKERS_FROM_BYTES ? Math.min(cores, inputs.length) : 1;
}

/**
 * Spreads whole files over worker threads, each asking for the next file when it is done, and puts
 * the reports back in input order. Undefined when the worker script is not built (tests run the
 * TypeScript sources), so the caller checks in this thread instead.
 */
async function validateInWorkers(
  inputs: InputFile[],
  options: ValidateOptions & { cwd: string },
  jobs: number,
  progress?: { tracker: ProgressTracker; sizes: number[] },
): Promise<FileReport[] | undefined> {
  const script = new URL("./validate-worker.js", import.meta.url);
  if (!(await stat(fileURLToPath(script)).catch(() => undefined))) return undefined;
  const files: FileReport[] = new Array(inputs.length);
  let next = 0;
  const { patterns: _patterns, patternsCwd: _patternsCwd, onProgress: _onProgress, ...workerOptions } = options;
  await Promise.all(
    Array.from({ length: jobs }, () =>
      new Promise<void>((done, fail) => {
        const worker = new Worker(script, { workerData: workerOptions });
        let inFlight = 0;
        let closed = false;
        const send = () => {
          if (next < inputs.length) {
            inFlight++;
            worker.postMessage({ index: next, input: inputs[next++] });
          } else if (inFlight === 0 && !closed) {
            closed = true;
            worker.postMessage(null);
          }
        };
        worker.on("message", (message: { ready?: true; index?: number; report?: FileReport; error?: { name: string; message: string } }) => {
          if (message.error) {
            fail(message.error.name === "OperationalError" ? new OperationalError(message.error.message) : new Error(message.error.message));
            void worker.terminate();
            return;
          }
          if (message.index !== undefined) {
            files[message.index] = message.report!;
            inFlight--;
            progress?.tracker.fileDone(progress.sizes[message.index]);
            send();
          } else {
            for (let i = 0; i < FILES_AT_ONCE_PER_WORKER; i++) send(); // ready: a few files in flight, so reads overlap checks
          }
        });
        worker.on("error", fail);
        worker.on("exit", () => done());
      }),
    ),
  );
  return files;
}

async function validateFile(input: InputFile, options: ValidateOptions & { schemaCheck: RecordSchemaCheck; lockContext: LockContext | undefined; onRead?: ((bytes: number) => void) | undefined }): Promise<FileReport> {
  const check = createFileCheck({
    file: input.display,
    ...(input.stdin && input.display === STDIN_NAME ? { fileNameUnknown: true } : {}),
    schemaCheck: options.schemaCheck,
    ...(options.rules ? { ruleSettings: options.rules } : {}),
    ...(options.lockContext ? { lock: options.lockContext } : {}),
  });
  try {
    const stream = input.stdin && options.stdin ? options.stdin.stream : createReadStream(input.absolute, { highWaterMark: CHUNK_SIZE });
    for await (const chunk of stream) {
      check.push(chunk as Buffer);
      options.onRead?.((chunk as Buffer).length);
    }
  } catch (error) {
    const result = check.end();
    return { ...result, error: describeIoError(error, "read", input.display) };
  }
  return check.end();
}

function stdinInput(name: string | undefined, cwd: string): InputFile {
  if (name === undefined) return { absolute: resolve(cwd, STDIN_NAME), display: STDIN_NAME, stdin: true };
  const absolute = resolve(cwd, name);
  return { absolute, display: displayPath(absolute, cwd), stdin: true };
}

/** The report with warnings left out (--quiet): a new report, counted as if the warnings had never been found, with how many were hidden. */
export function onlyErrors(report: Report): Report {
  const files = report.files.map((file) => ({
    ...file,
    problems: file.problems.filter((p) => p.severity === "error"),
    ...(file.unstored ? { unstored: { errors: file.unstored.errors, warnings: 0 } } : {}),
  }));
  return { ...report, files, summary: summarize(files), hiddenWarnings: report.summary.warnings + (report.hiddenWarnings ?? 0) };
}

/** Counts files, records, errors and warnings. */
export function summarize(files: FileReport[]): Summary {
  let records = 0;
  let errors = 0;
  let warnings = 0;
  for (const file of files) {
    records += file.records;
    for (const problem of file.problems) problem.severity === "error" ? errors++ : warnings++;
    errors += file.unstored?.errors ?? 0;
    warnings += file.unstored?.warnings ?? 0;
  }
  return { files: files.length, records, errors, warnings };
}

/** 2 when a file could not be read, 1 when any error was found, else 0 (warnings alone pass). */
export function exitCodeFor(report: Report): 0 | 1 | 2 {
  if (report.files.some((file) => file.error !== undefined)) return 2;
  return report.summary.errors > 0 ? 1 : 0;
}
