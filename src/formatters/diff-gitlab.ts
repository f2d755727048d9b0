/**
 * diff's `gitlab` format: GitLab's Code Quality report (see gitlab-common.ts), one issue per change on the new file
 * (the line of the record where there is one): `major` when it fails the gate, `minor` when it is breaking but does
 * not, `info` when it is additive; a pair's warnings are `info`.
 */
import { type CodeQualityEntry, type CodeQualitySeverity, renderCodeQuality } from "./gitlab-common.js";
import { repositoryPath } from "./types.js";
import { changeLevel, type DiffFormatter, moreMoveCandidates, describeTextChange, newSidePath } from "./diff-common.js";

const SEVERITY = { error: "major", warning: "minor", note: "info" } as const satisfies Record<
  string,
  CodeQualitySeverity
>;

export const formatDiffGitlab: DiffFormatter = (report, { cwdInRepository }) => {
  const entries: CodeQualityEntry[] = [];
  for (const pair of report.pairs) {
    const path = repositoryPath(pair.newMissing ? pair.old : newSidePath(pair, report), cwdInRepository).path;
    for (const change of pair.changes) {
      const details = [
        moreMoveCandidates(change), // the message names where it likely moved
        describeTextChange(change),
        change.approved ? `approved: ${change.approved.reason}` : undefined,
      ].filter((d) => d !== undefined);
      entries.push({
        description: details.length > 0 ? `${change.message} (${details.join("; ")})` : change.message,
        check: change.kind,
        severity: SEVERITY[changeLevel(change, report)],
        path,
        line: change.file === pair.new && change.line !== undefined ? change.line : 1,
        place: `${change.address ?? ""}\u0000${change.targetKind ?? ""}\u0000${change.pointer ?? ""}`,
      });
    }
    for (const warning of pair.warnings)
      entries.push({ description: warning, check: "diff-warning", severity: "info", path, line: 1, place: warning });
  }
  return renderCodeQuality(entries);
};
