/** What validate says on standard error besides its report (issue 31): artifact checks skipped as asked. */
import type { Report } from "../core/report/report.js";
import { plural } from "../formatters/types.js";

/**
 * The line that says the artifact checks were skipped as asked (`--no-artifacts`, or the config's `"artifacts":
 * false`), with the number of datasets whose artifacts were not checked: never a silent pass.
 */
export function skippedArtifactsNote(report: Report, by: "flag" | "config"): string {
  const datasets = report.files.filter((file) => file.artifactChecksSkipped !== undefined).length;
  return `citation-targets: artifact checks skipped for ${plural(datasets, "dataset")} (${by === "flag" ? "--no-artifacts" : 'config "artifacts": false'})\n`;
}
