import { escapeData, escapeProperty } from "./github.js";
import { repositoryPath } from "./types.js";
import {
  changeLevel,
  type DiffFormatter,
  describeField,
  moreMoveCandidates,
  describeTextChange,
  newSidePath,
  summaryLine,
} from "./diff-common.js";

const COMMAND = { error: "error", warning: "warning", note: "notice" } as const;

/**
 * GitHub Actions workflow commands: one annotation per change, on the new file (with the line of the
 * record where there is one): `::error` when it fails the gate, `::warning` when it is breaking but
 * approved (or the gate is off), `::notice` when it is additive. Then the summary.
 */
export const formatDiffGithub: DiffFormatter = (report, { cwdInRepository }) => {
  const out: string[] = [];
  for (const pair of report.pairs) {
    const file = pair.newMissing ? undefined : repositoryPath(newSidePath(pair, report), cwdInRepository).path; // GitHub places an annotation by its path from the repository root
    for (const change of pair.changes) {
      const properties: string[] = [];
      if (file !== undefined) properties.push(`file=${escapeProperty(file)}`);
      if (file !== undefined && change.file === pair.new && change.line !== undefined)
        properties.push(`line=${change.line}`);
      properties.push(`title=${escapeProperty(`${change.kind} (${change.class})`)}`);
      const details = [
        moreMoveCandidates(change), // the message names where it likely moved
        describeTextChange(change),
        ...(change.fields ?? []).map(describeField),
        change.approved ? `approved: ${change.approved.reason}` : undefined,
      ].filter((d) => d !== undefined);
      const text = details.length > 0 ? `${change.message}\n${details.join("\n")}` : change.message;
      out.push(`::${COMMAND[changeLevel(change, report)]} ${properties.join(",")}::${escapeData(text)}`);
    }
    for (const warning of pair.warnings)
      out.push(`::warning${file !== undefined ? ` file=${escapeProperty(file)}` : ""}::${escapeData(warning)}`);
  }
  for (const warning of report.warnings) out.push(`::warning::${escapeData(warning)}`);
  out.push(summaryLine(report));
  return `${out.join("\n")}\n`;
};
