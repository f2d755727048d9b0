import { escapeControlsByLine, plural } from "../core/text.js";
import { repositoryPath, shownProblems, type Formatter } from "./types.js";

/**
 * A workflow command's message, escaped: controls and directional characters from data shown as `\u001b` (the job log
 * is read on a terminal-like viewer that acts on escape sequences: SECURITY.md; CR among them), then GitHub Actions'
 * own escapes (`%`; a line break stays one, written `%0A`).
 */
export const escapeData = (text: string) => escapeControlsByLine(text).replace(/%/g, "%25").replace(/\n/g, "%0A");
/** A workflow command's property value, escaped (the message's escapes, and `:` and `,`). */
export const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** GitHub Actions workflow commands: one `::error` / `::warning` annotation per problem, with file and line. */
export const formatGithub: Formatter = (report, { maxProblems, cwdInRepository }) => {
  const out: string[] = [];
  const at = (shown: string) => escapeProperty(repositoryPath(shown, cwdInRepository).path); // GitHub places an annotation by its path from the repository root
  for (const file of report.files) {
    if (file.error !== undefined) out.push(`::error file=${at(file.path)},title=io-error::${escapeData(file.error)}`);
    const { shown, omitted } = shownProblems(file, maxProblems);
    for (const p of shown) {
      const properties = [`file=${at(p.file)}`];
      if (p.line > 0) properties.push(`line=${p.line}`);
      if (p.column !== undefined) properties.push(`col=${p.column}`);
      properties.push(`title=${escapeProperty(p.ruleId)}`);
      const pointer = p.pointer === "" ? "" : ` (at ${p.pointer})`;
      out.push(`::${p.severity} ${properties.join(",")}::${escapeData(p.message + pointer)}`);
    }
    if (omitted > 0)
      out.push(`::notice file=${at(file.path)},title=max-problems::${omitted} more problems in this file not shown`);
  }
  const { files, records, errors, warnings } = report.summary;
  const hidden = report.hiddenWarnings ?? 0;
  const unreadable = report.files.filter((file) => file.error !== undefined).length;
  const counts = `${plural(errors, "error")}, ${hidden > 0 ? `${plural(hidden, "warning")} not shown (--quiet)` : plural(warnings, "warning")}`;
  out.push(
    `${plural(files, "file")}, ${plural(records, "record")}: ${counts}${unreadable > 0 ? `; ${unreadable} could not be read` : ""}`,
  );
  return `${out.join("\n")}\n`;
};
