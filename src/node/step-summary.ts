/**
 * Appends to a GitHub Actions job summary: the file `GITHUB_STEP_SUMMARY` names (docs/spec.md,
 * section 18). The runner reads that file after the step and renders it on the job's page; every
 * step of a job appends to its own file, so this is the one write of the tool that appends instead
 * of writing a temporary file and renaming it (a rename would drop what earlier commands of the
 * step wrote).
 */
import { appendFile } from "node:fs/promises";
import { describeIoError } from "./errors.js";

/**
 * Appends `markdown` when `GITHUB_STEP_SUMMARY` is set (and not empty); resolves to a warning for
 * stderr when the file cannot be written (the command's own result and exit code stand), else undefined.
 */
export async function appendStepSummary(
  env: Record<string, string | undefined>,
  markdown: () => string,
): Promise<string | undefined> {
  const path = env.GITHUB_STEP_SUMMARY;
  if (path === undefined || path === "") return undefined;
  try {
    await appendFile(path, markdown(), "utf8");
    return undefined;
  } catch (error) {
    return `${describeIoError(error, "append the job summary to", path)} (GITHUB_STEP_SUMMARY); the result above stands`;
  }
}
