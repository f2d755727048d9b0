import { plural, shownProblems, type Formatter } from "./types.js";

/** Text for XML character data and attributes: the five special characters escaped, characters XML 1.0 cannot hold replaced by U+FFFD. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * JUnit XML, for CI systems that show test reports (GitLab's `artifacts:reports:junit`, Jenkins):
 * one test suite per file, one failing test case per error, a passing one per warning (the
 * warning in its output, since warnings do not fail a run), a passing "valid" case for a clean
 * file, and an erroring case for a file that could not be read.
 */
export const formatJunit: Formatter = (report, { maxProblems }) => {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const file of report.files) {
    const cases: string[] = [];
    let fileFailures = 0;
    const { shown, omitted } = shownProblems(file, maxProblems);
    if (file.error !== undefined) {
      cases.push(`    <testcase classname="${xml(file.path)}" name="read"><error type="io-error" message="${xml(file.error)}"/></testcase>`);
      errors++;
    }
    for (const p of shown) {
      const where = p.line > 0 ? `${p.file}:${p.line}${p.column !== undefined ? `:${p.column}` : ""}` : p.file;
      const name = `${p.line > 0 ? `line ${p.line}` : "file"}: ${p.ruleId}`;
      const detail = `${where}: ${p.message}${p.pointer === "" ? "" : ` (at ${p.pointer})`}`;
      if (p.severity === "error") {
        cases.push(`    <testcase classname="${xml(file.path)}" name="${xml(name)}"><failure type="${xml(p.ruleId)}" message="${xml(p.message)}">${xml(detail)}</failure></testcase>`);
        fileFailures++;
      } else {
        cases.push(`    <testcase classname="${xml(file.path)}" name="${xml(name)}"><system-out>${xml(`warning: ${detail}`)}</system-out></testcase>`);
      }
    }
    if (omitted > 0)
      cases.push(`    <testcase classname="${xml(file.path)}" name="more problems"><system-out>${xml(`${plural(omitted, "more problem")} in this file not shown`)}</system-out></testcase>`);
    if (cases.length === 0) cases.push(`    <testcase classname="${xml(file.path)}" name="valid"/>`);
    tests += cases.length;
    failures += fileFailures;
    suites.push(`  <testsuite name="${xml(file.path)}" tests="${cases.length}" failures="${fileFailures}" errors="${file.error !== undefined ? 1 : 0}">\n${cases.join("\n")}\n  </testsuite>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="citation-targets" tests="${tests}" failures="${failures}" errors="${errors}">\n${suites.join("\n")}\n</testsuites>\n`;
};
