/**
 * Appends to a GitHub Actions job summary: the file `GITHUB_STEP_SUMMARY` names (docs/spec.md,
 * section 18). The runner reads that file after the step and renders it on the job's page; every
 * step of a job appends to its own file, so this is the one write of the tool that appends instead
 * of writing a temporary file and renaming it (a rename would drop what earlier commands of the
 * step wrote). It is never an input of the run (the rule of `-o`), and only a regular file: a FIFO
 * is opened without waiting for a reader, a device is not written (SECURITY.md).
 */
import { closeSync, constants, fstatSync, openSync, statSync, writeSync } from "node:fs";
import { describeIoError } from "../errors.js";
import { fileKind } from "../files/regular-file.js";

/**
 * Appends `markdown` when `GITHUB_STEP_SUMMARY` is set (and not empty); resolves to a warning for
 * stderr when the file cannot be written, is not a regular file or is one of `inputs` (the command's
 * own result and exit code stand), else undefined.
 */
export async function appendStepSummary(
  env: Record<string, string | undefined>,
  markdown: () => string,
  inputs: readonly { path: string; what: string }[] = [],
): Promise<string | undefined> {
  const path = env.GITHUB_STEP_SUMMARY;
  if (path === undefined || path === "") return undefined;
  const unwritten = (why: string) =>
    `not appending the job summary to ${path} (GITHUB_STEP_SUMMARY): ${why}; the result above stands`;
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0),
      0o666,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENXIO")
      return unwritten("it is a FIFO (named pipe) with no reader, not a regular file");
    return `${describeIoError(error, "append the job summary to", path)} (GITHUB_STEP_SUMMARY); the result above stands`;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return unwritten(`it is ${fileKind(info)}, not a regular file`);
    for (const input of inputs) {
      const other = statSync(input.path, { throwIfNoEntry: false });
      if (other !== undefined && other.dev === info.dev && other.ino === info.ino)
        return unwritten(`it is ${input.what}, an input of this run`);
    }
    const bytes = Buffer.from(markdown(), "utf8");
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    return undefined;
  } catch (error) {
    return `${describeIoError(error, "append the job summary to", path)} (GITHUB_STEP_SUMMARY); the result above stands`;
  } finally {
    closeSync(fd);
  }
}
