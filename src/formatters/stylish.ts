import type { Problem } from "../core/report/problem.js";
import { escapeControls, escapeControlsByLine, plural, shellQuote } from "../core/text.js";
import { omittedReason, shownProblems, type Formatter } from "./types.js";

/**
 * The problems that only say a dataset is not up to date with its markdown (an artifact changed, a markdown file added
 * or removed): `update` fixes each. The stylish report names two or more such datasets in one closing line instead of a
 * paragraph each (the other formats keep every problem).
 */
const STALE: Readonly<Record<string, readonly string[]>> = {
  "lock-artifact-body": ["changed"],
  "lock-dataset-files": ["missing", "unlisted"],
};
const isStale = (p: Problem) => STALE[p.ruleId]?.includes(p.messageId) ?? false;

/** From this many stale datasets on, their problems are folded into the closing line. */
const FOLD_STALE_FROM = 2;

/** Up to this many stale datasets are named in the closing line's command; more, and it is plain `update`. */
const NAMED_STALE = 3;

/** Human output grouped by file, with a summary line; coloured when the context's colour is on. */
export const formatStylish: Formatter = (report, { color, maxProblems }) => {
  const out: string[] = [];
  /**
   * The files of the datasets not up to date, in report order: from two on, named in one closing line (one dataset's
   * problems are shown, naming what changed).
   */
  const stale = report.files.filter((file) => file.problems.some(isStale)).map((file) => file.path);
  const fold = stale.length >= FOLD_STALE_FROM;
  for (const reported of report.files) {
    const fresh = fold ? reported.problems.filter((p) => !isStale(p)) : reported.problems;
    const file = fresh.length < reported.problems.length ? { ...reported, problems: fresh } : reported;
    if (file.problems.length === 0 && file.error === undefined) continue;
    // Every value from the files checked (names, messages quoting records) is shown with its controls escaped.
    out.push(color.underline(escapeControls(file.path)));
    if (file.error !== undefined) out.push(`  ${color.red("error")}  ${escapeControlsByLine(file.error)}`);
    const { shown, omitted } = shownProblems(file, maxProblems);
    const where = (p: { line: number; column?: number }) =>
      p.column === undefined ? `${p.line}` : `${p.line}:${p.column}`;
    let width = 3; // a loop, not Math.max(...list): a spread of 100,000 arguments overflows the stack
    for (const p of shown) width = Math.max(width, where(p).length);
    for (const p of shown) {
      const at = where(p).padEnd(width);
      const severity = p.severity === "error" ? color.red("error  ") : color.yellow("warning");
      const pointer = p.pointer === "" ? "" : color.dim(` at ${escapeControls(p.pointer)}`);
      out.push(`  ${color.dim(at)}  ${severity}  ${escapeControlsByLine(p.message)}${pointer}  ${color.dim(p.ruleId)}`);
      if (p.excerpt) {
        // A short code frame: the offending piece of the line, with a caret under the column (of the text as shown).
        const indent = " ".repeat(width + 4);
        out.push(`${indent}${color.dim("│")} ${escapeControls(p.excerpt.text)}`);
        if (p.excerpt.column !== undefined) {
          const column = escapeControls(p.excerpt.text.slice(0, p.excerpt.column - 1)).length;
          out.push(`${indent}${color.dim("│")} ${" ".repeat(column)}${color.red("^")}`);
        }
      }
    }
    if (omitted > 0) {
      const why = omittedReason(shown.length, maxProblems);
      out.push(color.dim(`  … and ${plural(omitted, "more problem")} in this file (not shown: ${why})`));
    }
    out.push("");
  }
  if (fold) {
    const named =
      stale.length <= NAMED_STALE ? stale.map((path) => ` ${shellQuote(escapeControls(path))}`).join("") : "";
    out.push(
      `${stale.length} datasets are not up to date with their markdown: run \`citation-targets update${named}\` to refresh the lock and regenerate`,
      "",
    );
  }
  const { files, records, errors, warnings } = report.summary;
  const unreadable = report.files.filter((f) => f.error !== undefined).length;
  const scope = `${plural(files, "file")}, ${plural(records, "record")}`;
  const total = errors + warnings;
  const hidden = report.hiddenWarnings ?? 0;
  if (total === 0 && unreadable === 0) {
    out.push(
      color.green(
        hidden > 0
          ? `✔ ${scope}: no errors (${plural(hidden, "warning")} not shown: --quiet)`
          : `✔ ${scope}: no problems`,
      ),
    );
  } else {
    // With --quiet, the warnings left out are still counted, so that the summary never says "0 warnings" of a file that
    // has some.
    const counts =
      hidden > 0
        ? `${plural(errors, "error")}; ${plural(hidden, "warning")} not shown: --quiet`
        : `${plural(errors, "error")}, ${plural(warnings, "warning")}`;
    const problems = `${plural(total, "problem")} (${counts})`;
    // A file that could not be read is not a problem found in it: it is said on its own.
    const notRead = `${unreadable} of ${plural(files, "file")} could not be read`;
    const line =
      unreadable === 0
        ? `✖ ${problems} in ${scope}`
        : total === 0
          ? `✖ ${notRead}; no problems in the ${plural(records, "record")} read`
          : `✖ ${problems} in ${scope}; ${notRead}`;
    out.push(errors > 0 || unreadable > 0 ? color.red.bold(line) : color.yellow.bold(line));
  }
  return `${out.join("\n")}\n`;
};
