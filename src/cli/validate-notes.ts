/**
 * What validate (and update --check) say on standard error besides their report: artifact checks skipped as asked,
 * temporary files an interrupted write left.
 */
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Report } from "../core/report/report.js";
import { plural } from "../core/text.js";
import { displayPath } from "../node/files/files.js";
import { leftoverTemporaries } from "../node/writes/interrupted-writes.js";
import { type TwinFacts, twinDatasetWarnings } from "../node/update/twin-datasets.js";

/**
 * The line that says the artifact checks were skipped as asked (`--no-artifacts`, or the config's `"artifacts":
 * false`), with the number of datasets whose artifacts were not checked: never a silent pass.
 */
export function skippedArtifactsNote(report: Report, by: "flag" | "config"): string {
  const datasets = report.files.filter((file) => file.artifactChecksSkipped !== undefined).length;
  return `citation-targets: artifact checks skipped for ${plural(datasets, "dataset")} (${by === "flag" ? "--no-artifacts" : 'config "artifacts": false'})\n`;
}

/** The most leftover temporary files named one by one. */
const LEFTOVERS_NAMED = 20;

/**
 * The warning about temporary files an interrupted write left in the folders of `paths` (the files checked, their
 * manifests): their count and the first 20, so that `git add -A` does not commit them. Empty when there are none; the
 * exit code is not changed.
 */
export function leftoverNote(paths: Iterable<string>, cwd: string): string {
  const found = leftoverTemporaries([...paths].map((path) => dirname(resolve(cwd, path))));
  if (found.length === 0) return "";
  const named = found.slice(0, LEFTOVERS_NAMED).map((path) => `  ${displayPath(path, cwd)}\n`);
  const more = found.length > LEFTOVERS_NAMED ? `  … and ${found.length - LEFTOVERS_NAMED} more\n` : "";
  return `citation-targets: warning: ${plural(found.length, "temporary file")} left by an interrupted write (remove them, or \`git add -A\` commits them):\n${named.join("")}${more}`;
}

/** Writes leftoverNote's warning, when there is one. */
export function warnLeftovers(stream: { write(text: string): unknown }, paths: Iterable<string>, cwd: string): void {
  const note = leftoverNote(paths, cwd);
  if (note !== "") stream.write(note);
}

/** Warns of datasets that look like one law twice (twin-datasets.ts), among the lock manifests in force. */
export function warnTwins(
  stream: { write(text: string): unknown },
  manifests: Iterable<string>,
  cwd: string,
  known?: ReadonlyMap<string, TwinFacts>,
): void {
  for (const warning of twinDatasetWarnings(manifests, cwd, known))
    stream.write(`citation-targets: warning: ${warning}\n`);
}

/** The lock manifests (`*.lock.json`) of a folder, as absolute paths; none when it cannot be read. */
export function manifestsIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith(".lock.json"))
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}
