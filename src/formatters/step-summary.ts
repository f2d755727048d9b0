/**
 * The Markdown that `validate` and `diff` append to a GitHub Actions job summary (the file
 * `GITHUB_STEP_SUMMARY` names; docs/spec.md, section 18): a heading with the verdict, the counts,
 * and the first problems or changes as a table, with a note of how many more. Pure.
 */
import { datasetLine } from "../core/diff/datasets.js";
import type { DiffReport } from "../core/diff/diff.js";
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
const LEVEL_ORDER = { error: 0, warning: 1, note: 2 } as const;

/** A file name in a code span outside a table (a heading, a paragraph): no `|` to escape there. */
const codeText = (text: string) =>
  text.includes("`") ? cell(text) : `\`${escapeControls(text.replace(/\r?\n/g, " "))}\``;

/**
 * The job summary of a diff run: the verdict, the summary line, and then each compared file with changes (or whose
 * dataset was added, removed or given a new version) under a heading of its own, the dataset's line (else the file's
 * name), with a table of its changes under it. The files with changes that fail the gate come first, and within a file
 * the changes that fail the gate, then the other breaking ones, each group in the report's order; ten changes are
 * shown in all.
 */
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
  const groups = report.pairs
    .map((pair) => {
      const changes = pair.changes
        .map((change) => ({ change, level: changeLevel(change, report) }))
        .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
      const failing = changes.filter((c) => c.level === "error").length;
      return { pair, line: datasetLine(pair), changes, failing };
    })
    .filter((group) => group.changes.length > 0 || group.line !== undefined)
    // The files with changes that fail the gate first, each group in the report's order (the sort is stable).
    .sort((a, b) => Number(a.failing === 0) - Number(b.failing === 0));
  let rows = 0;
  let shownGroups = 0;
  for (const { pair, line, changes, failing } of groups) {
    if (rows >= SUMMARY_ROWS || shownGroups >= SUMMARY_ROWS) break;
    shownGroups++;
    const counted =
      changes.length === 0
        ? "no record changes"
        : `${plural(changes.length, "change")}${failing > 0 ? `, ${failing} failing the gate` : ""}`;
    // A dataset added, removed or given a new version: its line is the heading, the file is named under it.
    out.push("", `#### ${line !== undefined ? cell(line) : codeText(pair.new)}`, "");
    out.push(
      line !== undefined ? `${codeText(pair.new)}: ${counted}` : `${counted[0]!.toUpperCase()}${counted.slice(1)}`,
    );
    if (changes.length === 0) continue;
    out.push("", "| class | kind | address | heading | gate |", "|---|---|---|---|---|");
    for (const { change, level } of changes.slice(0, SUMMARY_ROWS - rows)) {
      const gate = change.approved ? `approved: ${cell(change.approved.reason)}` : GATE[level];
      const subject = change.address !== undefined ? code(change.address) : cell(change.message);
      out.push(`| ${change.class} | ${change.kind} | ${subject} | ${cell(change.headingText ?? "")} | ${gate} |`);
      rows++;
    }
  }
  let total = 0;
  for (const group of groups) total += group.changes.length;
  const hiddenChanges = total - rows;
  const hiddenGroups = groups.length - shownGroups;
  if (hiddenChanges > 0 || hiddenGroups > 0) {
    const more = [
      ...(hiddenChanges > 0 ? [plural(hiddenChanges, "more change")] : []),
      ...(hiddenGroups > 0 ? [`${plural(hiddenGroups, "more file")} not shown`] : []),
    ];
    out.push("", `… and ${more.join(", ")}: the job's log has them all.`);
  }
  return `${out.join("\n")}\n\n`;
}
