/** validate's `gitlab` format: GitLab's Code Quality report, one issue per problem (see gitlab-common.ts). */
import { type CodeQualityEntry, renderCodeQuality } from "./gitlab-common.js";
import { repositoryPath, shownProblems, type Formatter } from "./types.js";

export const formatGitlab: Formatter = (report, { maxProblems, cwdInRepository }) => {
  const entries: CodeQualityEntry[] = [];
  const at = (shown: string) => repositoryPath(shown, cwdInRepository).path; // GitLab places an issue by its path from the repository root
  for (const file of report.files) {
    if (file.error !== undefined)
      entries.push({
        description: file.error,
        check: "io-error",
        severity: "critical",
        path: at(file.path),
        line: 1,
        place: "",
      });
    const { shown, omitted } = shownProblems(file, maxProblems);
    for (const p of shown)
      entries.push({
        description: p.pointer === "" ? p.message : `${p.message} (at ${p.pointer})`,
        check: p.ruleId,
        severity: p.severity === "error" ? "major" : "minor",
        path: at(p.file),
        line: p.line,
        place: `${p.line}\u0000${p.column ?? ""}\u0000${p.pointer}\u0000${p.messageId}`,
      });
    if (omitted > 0)
      entries.push({
        description: `${omitted} more problems in this file not shown`,
        check: "max-problems",
        severity: "info",
        path: at(file.path),
        line: 1,
        place: "",
      });
  }
  return renderCodeQuality(entries);
};
