import { datasetLine } from "../core/diff/datasets.js";
import type { DiffChange, DiffPair } from "../core/diff/diff.js";
import { escapeControls } from "../core/text.js";
import {
  changeLevel,
  type DiffFormatter,
  describeField,
  describeMoves,
  describeUnits,
  describeTextChange,
  summaryLine,
} from "./diff-common.js";

function header(pair: DiffPair): string {
  if (pair.newMissing) return `deleted (was ${pair.old})`;
  if (pair.oldMissing) return `new (not in ${pair.old.replace(/ \(bundled schema\)$/, "")})`;
  const records = pair.records ? `, ${pair.records.before} → ${pair.records.after} records` : "";
  return `against ${pair.old}${records}`;
}

function subject(change: DiffChange): string {
  if (change.address !== undefined) return change.address;
  return change.message;
}

/**
 * Human output: each pair with changes, one line per change and indented details, then the summary; coloured when the
 * context's colour is on. The hints of a failing gate are not part of it: they go to standard
 * error (diffHints, cli/diff-output.ts).
 */
export const formatDiffStylish: DiffFormatter = (report, { color }) => {
  const out: string[] = [];
  for (const pair of report.pairs) {
    if (pair.changes.length === 0 && pair.warnings.length === 0) continue;
    // Every value from the files compared (names, addresses, headings, approval reasons) is shown with its controls
    // escaped.
    out.push(
      `${color.underline(escapeControls(pair.new.replace(/ \(bundled schema\)$/, "")))}  ${color.dim(`(${escapeControls(header(pair))})`)}`,
    );
    if (pair.digests) {
      const { schema, contract } = pair.digests;
      const digest = (d: { before: string; after: string }) =>
        d.before === d.after
          ? `${d.after.slice(0, 12)}… (unchanged)`
          : `${d.before.slice(0, 12)}… → ${d.after.slice(0, 12)}…`;
      out.push(color.dim(`  schema digest ${digest(schema)}, contract digest ${digest(contract)}`));
    }
    const dataset = datasetLine(pair);
    if (dataset !== undefined) out.push(`  ${color.bold(dataset)}`);
    let width = 0; // a loop, not Math.max(...list): a spread of 100,000 arguments overflows the stack
    for (const c of pair.changes) width = Math.max(width, c.kind.length);
    for (const change of pair.changes) {
      const level = changeLevel(change, report);
      const paint = level === "error" ? color.red : level === "warning" ? color.yellow : color.green;
      const heading =
        change.headingText !== undefined && change.headingText !== ""
          ? color.dim(`  ${escapeControls(JSON.stringify(change.headingText))}`)
          : "";
      out.push(
        `  ${paint(change.class.padEnd(8))}  ${change.kind.padEnd(width)}  ${escapeControls(subject(change))}${heading}`,
      );
      const indent = " ".repeat(2 + 8 + 2 + width + 2);
      const details: string[] = [];
      const moves = describeMoves(change);
      if (moves) details.push(escapeControls(moves));
      const units = describeUnits(change, pair.changes);
      if (units) details.push(escapeControls(units));
      const editorial = describeTextChange(change);
      if (editorial !== undefined) details.push(color.cyan(editorial));
      for (const field of change.fields ?? []) details.push(escapeControls(describeField(field)));
      if (change.approved) details.push(color.yellow(`approved: ${escapeControls(change.approved.reason)}`));
      for (const line of details) out.push(`${indent}${line}`);
    }
    for (const warning of pair.warnings) out.push(`  ${color.yellow("warning")}  ${escapeControls(warning)}`);
    out.push("");
  }
  for (const warning of report.warnings) out.push(`${color.yellow("warning")}  ${escapeControls(warning)}`);
  if (report.warnings.length > 0) out.push("");
  const line = summaryLine(report);
  out.push(report.summary.passed ? color.green(line) : color.red.bold(line));
  return `${out.join("\n")}\n`;
};
