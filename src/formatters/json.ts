import { shownProblems, type Formatter } from "./types.js";

/**
 * The JSON contract (README, "validate"; docs/spec.md, section 12): `{ files: [{ path, records, problems: [{ line,
 * column?, ruleId, severity, message, pointer }] }], summary: { files, records, errors, warnings } }`. Fields are only
 * ever added: `error` on a file that could not be read, `problemsOmitted` when --max-problems cut the list,
 * `summary.unreadable` (the files that could not be read), `summary.hiddenWarnings` (with --quiet: the warnings left
 * out), `repeated: { records, firstLine, lastLine }` on a problem that stands for the same problem on more records.
 */
export const formatJson: Formatter = (report, { maxProblems }) => {
  const files = report.files.map((file) => {
    const { shown, omitted } = shownProblems(file, maxProblems);
    const problems = shown.map((p) => ({
      line: p.line,
      ...(p.column !== undefined ? { column: p.column } : {}),
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.pointer,
      ...(p.repeated !== undefined ? { repeated: p.repeated } : {}),
    }));
    return {
      path: file.path,
      records: file.records,
      problems,
      ...(omitted > 0 ? { problemsOmitted: omitted } : {}),
      ...(file.error !== undefined ? { error: file.error } : {}),
    };
  });
  const summary = {
    ...report.summary,
    unreadable: report.files.filter((file) => file.error !== undefined).length,
    ...(report.hiddenWarnings !== undefined ? { hiddenWarnings: report.hiddenWarnings } : {}),
  };
  return `${JSON.stringify({ files, summary }, null, 2)}\n`;
};
