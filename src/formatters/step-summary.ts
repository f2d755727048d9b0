/**
 * The Markdown that `validate` and `diff` append to a GitHub Actions job summary (the file
 * `GITHUB_STEP_SUMMARY` names; docs/spec.md, section 18): a heading with the verdict, the counts,
 * and the first problems or changes as a table, with a note of how many more. Pure.
 */
import { datasetLine } from "../core/diff/datasets.js";
import type { DiffChange, DiffReport } from "../core/diff/diff.js";
import type { Report } from "../core/report/report.js";
import { changeLevel, summaryLine } from "./diff-common.js";
import { escapeControls, plural } from "../core/text.js";

/** Rows a summary's table shows at most; the rest are counted. */
export const SUMMARY_ROWS = 10;

/**
 * Text for a table cell: one line, its controls escaped (`\u202e`), Markdown's punctuation escaped with a backslash and
 * HTML's `<` and `&` written as entities (GitHub renders the summary as HTML-sanitised Markdown), cut to 200
 * characters.
 */
/** Our own words (a summary line), one line: `|` escaped, `<` and `&` as entities; no Markdown of a value is in them. */
function ownText(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/\|/g, "\\|");
}

export function cell(text: string): string {
  const line = escapeControls(text.replace(/\r?\n/g, " "));
  const cut = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  // Every ASCII punctuation character is escaped, so that nothing in a value is Markdown: no image or link
  // (`![x](https://…)`), no emphasis, no autolink (`https\://…`), no HTML.
  return cut.replace(/[!-/:-@[-`{-~]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : `\\${c}`));
}

/** Text in a code span of a cell: backticks cannot be escaped there, so a value holding one is shown as plain text. */
const code = (text: string) =>
  text.includes("`") ? cell(text) : `\`${escapeControls(text.replace(/\r?\n/g, " ")).replace(/\|/g, "\\|")}\``;

/** The job summary of a validate run. */
export function validateStepSummary(report: Report): string {
  const { files, records, errors, warnings } = report.summary;
  const unreadable = report.files.filter((file) => file.error !== undefined);
  const failed = errors > 0 || unreadable.length > 0;
  const verdict = failed
    ? `✖ ${plural(errors, "error")}, ${plural(warnings, "warning")}`
    : warnings > 0
      ? `✔ no errors, ${plural(warnings, "warning")}`
      : "✔ no problems";
  const out = [
    `### citation-targets validate: ${verdict}`,
    "",
    `${plural(files, "file")}, ${plural(records, "record")}: ${plural(errors, "error")}, ${plural(warnings, "warning")}.`,
  ];
  if (unreadable.length > 0) out.push("");
  for (const file of unreadable) out.push(`- ${code(file.path)} could not be read: ${cell(file.error!)}`);
  const problems = report.files.flatMap((file) => file.problems);
  const counted = errors + warnings;
  if (problems.length > 0) {
    out.push("", "| file | line | severity | rule | message |", "|---|---|---|---|---|");
    for (const p of problems.slice(0, SUMMARY_ROWS)) {
      out.push(
        `| ${code(p.file)} | ${p.column === undefined ? p.line : `${p.line}:${p.column}`} | ${p.severity} | ${code(p.ruleId)} | ${cell(p.message)} |`,
      );
    }
  }
  const shown = Math.min(problems.length, SUMMARY_ROWS);
  if (counted > shown) out.push("", `… and ${plural(counted - shown, "more problem")}: the job's log has them all.`);
  return `${out.join("\n")}\n\n`;
}

const GATE = { error: "fails", warning: "approved or allowed", note: "passes" } as const;

/** The job summary of a diff run: the verdict, the summary line, and the first changes, breaking first. */
export function diffStepSummary(report: DiffReport): string {
  const { summary } = report;
  const verdict = summary.passed
    ? "✔ the gate passes"
    : `✖ ${summary.failing} ${summary.failing === 1 ? "change fails" : "changes fail"} the gate`;
  const against = report.against
    ? ` against \`${report.against.revision}\` (${report.against.commit.slice(0, 12)})`
    : "";
  const to = report.to ? ` → \`${report.to.revision}\` (${report.to.commit.slice(0, 12)})` : "";
  const out = [`### citation-targets diff${against}${to}: ${verdict}`, "", ownText(summaryLine(report))];
  // A dataset added, removed or given a new version: a line of its own, before its record changes.
  const datasets = report.pairs.flatMap((pair) => {
    const line = datasetLine(pair);
    if (line === undefined) return [];
    const failing = pair.changes.filter((change) => changeLevel(change, report) === "error").length;
    const changes = `${plural(pair.changes.length, "change")}${failing > 0 ? `, ${failing} failing the gate` : ""}`;
    return [`- ${cell(line)}: ${changes} (${code(pair.new)} below)`];
  });
  if (datasets.length > 0) out.push("", ...datasets.slice(0, SUMMARY_ROWS));
  if (datasets.length > SUMMARY_ROWS) out.push(`- … and ${plural(datasets.length - SUMMARY_ROWS, "more dataset")}`);
  const changes: { file: string; change: DiffChange }[] = [];
  for (const pair of report.pairs) for (const change of pair.changes) changes.push({ file: pair.new, change });
  // Breaking first across the datasets, each group in the report's order.
  changes.sort((a, b) => Number(a.change.class !== "breaking") - Number(b.change.class !== "breaking"));
  if (changes.length > 0) {
    out.push("", "| class | kind | file | address | heading | gate |", "|---|---|---|---|---|---|");
    for (const { file, change } of changes.slice(0, SUMMARY_ROWS)) {
      const level = changeLevel(change, report);
      const gate = change.approved ? `approved: ${cell(change.approved.reason)}` : GATE[level];
      const subject = change.address !== undefined ? code(change.address) : cell(change.message);
      out.push(
        `| ${change.class} | ${change.kind} | ${code(file)} | ${subject} | ${cell(change.headingText ?? "")} | ${gate} |`,
      );
    }
  }
  if (changes.length > SUMMARY_ROWS)
    out.push("", `… and ${plural(changes.length - SUMMARY_ROWS, "more change")}: the job's log has them all.`);
  return `${out.join("\n")}\n\n`;
}
