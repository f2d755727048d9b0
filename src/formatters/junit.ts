import { type JunitCase, renderJunit } from "./junit-xml.js";
import { plural } from "../core/text.js";
import { omittedReason, shownProblems, type Formatter } from "./types.js";

/**
 * JUnit XML, for CI systems that show test reports (GitLab's `artifacts:reports:junit`, Jenkins):
 * one test suite per file, one failing test case per error, a passing one per warning (the
 * warning in its output, since warnings do not fail a run), a passing "valid" case for a clean
 * file, and an erroring case for a file that could not be read. The problems --max-problems leaves out are one case,
 * "more problems", that counts them, failing when errors are among them.
 */
export const formatJunit: Formatter = (report, { maxProblems }) => {
  const suites = report.files.map((file) => {
    const cases: JunitCase[] = [];
    const classname = file.path;
    const { shown, omitted, omittedErrors } = shownProblems(file, maxProblems);
    if (file.error !== undefined)
      cases.push({ classname, name: "read", error: { type: "io-error", message: file.error } });
    for (const p of shown) {
      const where = p.line > 0 ? `${p.file}:${p.line}${p.column !== undefined ? `:${p.column}` : ""}` : p.file;
      const name = `${p.line > 0 ? `line ${p.line}` : "file"}: ${p.ruleId}`;
      const detail = `${where}: ${p.message}${p.pointer === "" ? "" : ` (at ${p.pointer})`}`;
      if (p.severity === "error")
        cases.push({ classname, name, failure: { type: p.ruleId, message: p.message, body: detail } });
      else cases.push({ classname, name, output: `warning: ${detail}` });
    }
    if (omitted > 0) {
      // One case for what was left out, failing when errors are among it: the run fails on them, so the report must too.
      const counts = `${plural(omittedErrors, "error")}, ${plural(omitted - omittedErrors, "warning")}`;
      const message = `${plural(omitted, "more problem")} in this file not shown (${counts})`;
      const why = omittedReason(shown.length, maxProblems);
      cases.push(
        omittedErrors > 0
          ? { classname, name: "more problems", failure: { type: "max-problems", message, body: `${message}: ${why}` } }
          : { classname, name: "more problems", output: `${message}: ${why}` },
      );
    }
    if (cases.length === 0) cases.push({ classname, name: "valid" });
    return { name: file.path, cases };
  });
  return renderJunit("citation-targets", suites);
};
