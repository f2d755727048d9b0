import type { DiffChange, DiffPair } from "../core/diff/diff.js";
import { datasetLine } from "../core/diff/datasets.js";
import { changeLevel, type DiffFormatter, describeField, describeMoves, describeTextChange } from "./diff-common.js";
import { type JunitCase, type JunitSuite, renderJunit } from "./junit-xml.js";

/** The new side as shown, without the note a missing repository schema carries. */
const shownNew = (pair: DiffPair) => pair.new.replace(/ \(bundled schema\)$/, "");

/** What a change is about, for the test case's name: its address, else its pointer, else its message. */
function subject(change: DiffChange): string {
  return change.address ?? change.pointer ?? change.message;
}

/**
 * The change in full, a line each: the message, where it is, the heading, the likely moves, the fields, the approval.
 */
function details(change: DiffChange): string {
  const moves = describeMoves(change);
  return [
    change.message,
    ...(change.file !== undefined && change.line !== undefined ? [`at ${change.file}:${change.line}`] : []),
    ...(change.headingText !== undefined && change.headingText !== ""
      ? [`heading: ${JSON.stringify(change.headingText)}`]
      : []),
    ...(moves !== undefined ? [moves] : []),
    ...(change.textChange !== undefined
      ? [
          `text change: ${change.textChange}${describeTextChange(change) !== undefined ? ` (${describeTextChange(change)})` : ""}`,
        ]
      : []),
    ...(change.fields ?? []).map(describeField),
    ...(change.approved ? [`approved: ${change.approved.reason}`] : []),
  ].join("\n");
}

/**
 * JUnit XML for CI test reports (GitLab's `artifacts:reports:junit`, Jenkins), built as validate's
 * junit format is: one test suite per compared pair (named by its new side; the old side, the type
 * and the record counts as properties), one test case per change, in the report's order, named
 * `<kind> <address or pointer>`: a failure when the change fails the gate; skipped when an approval
 * lets it through, with the approval's reason as the message (as pytest reports an expected
 * failure); passing otherwise (a breaking change the gate does not fail on, an additive one); the
 * details in its output. A pair without changes is one passing case, "no changes"; a warning is a
 * passing case with the warning as its output (approvals that matched nothing: a last suite, "warnings").
 */
export const formatDiffJunit: DiffFormatter = (report) => {
  const failOn = report.summary.failOn;
  const suites: JunitSuite[] = report.pairs.map((pair) => {
    const classname = shownNew(pair);
    const cases: JunitCase[] = pair.changes.map((change) => {
      const name = `${change.kind} ${subject(change)}`;
      const body = details(change);
      if (change.approved)
        return {
          classname,
          name,
          skipped: { type: "approved", message: `approved: ${change.approved.reason}` },
          output: `${change.class} change, approved\n${body}`,
        };
      if (changeLevel(change, report) === "error")
        return {
          classname,
          name,
          failure: {
            type: change.kind,
            message: change.message,
            body: `${change.class} change, fails the gate (--fail-on ${failOn})\n${body}`,
          },
        };
      return {
        classname,
        name,
        output: `${change.class} change, does not fail the gate (--fail-on ${failOn})\n${body}`,
      };
    });
    if (pair.changes.length === 0) cases.push({ classname, name: "no changes" });
    pair.warnings.forEach((warning, index) => {
      cases.push({ classname, name: `warning ${index + 1}`, output: `warning: ${warning}` });
    });
    const properties: [string, string][] = [
      ["type", pair.type],
      ["old", pair.old],
    ];
    if (pair.records) properties.push(["records", `${pair.records.before} → ${pair.records.after}`]);
    if (pair.oldMissing) properties.push(["oldMissing", "true"]);
    if (pair.newMissing) properties.push(["newMissing", "true"]);
    const dataset = datasetLine(pair);
    if (dataset !== undefined) properties.push(["dataset", dataset]);
    return { name: classname, properties, cases };
  });
  if (report.warnings.length > 0)
    suites.push({
      name: "warnings",
      cases: report.warnings.map((warning, index) => ({
        classname: "warnings",
        name: `warning ${index + 1}`,
        output: `warning: ${warning}`,
      })),
    });
  return renderJunit("citation-targets diff", suites);
};
