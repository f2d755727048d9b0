/**
 * JUnit XML as validate's and diff's junit formats both write it: the escaping, a test case, the suites and their
 * counts.
 */

/**
 * Text for XML character data and attributes: the five special characters escaped, characters XML 1.0 cannot hold
 * replaced by U+FFFD.
 */
export function xml(text: string): string {
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
 * One test case: it fails (`failure`), could not run (`error`), was let through on purpose (`skipped`), or passes;
 * `output` goes to `<system-out>`.
 */
export interface JunitCase {
  classname: string;
  name: string;
  failure?: { type: string; message: string; body: string };
  error?: { type: string; message: string };
  skipped?: { type: string; message: string };
  output?: string;
}

export interface JunitSuite {
  name: string;
  /** `<property>` elements, in order (omitted when empty). */
  properties?: [string, string][];
  cases: JunitCase[];
}

function renderCase(c: JunitCase): string {
  const body = [
    c.failure
      ? `<failure type="${xml(c.failure.type)}" message="${xml(c.failure.message)}">${xml(c.failure.body)}</failure>`
      : "",
    c.error ? `<error type="${xml(c.error.type)}" message="${xml(c.error.message)}"/>` : "",
    c.skipped ? `<skipped type="${xml(c.skipped.type)}" message="${xml(c.skipped.message)}"/>` : "",
    c.output !== undefined ? `<system-out>${xml(c.output)}</system-out>` : "",
  ].join("");
  const open = `    <testcase classname="${xml(c.classname)}" name="${xml(c.name)}"`;
  return body === "" ? `${open}/>` : `${open}>${body}</testcase>`;
}

/**
 * The document: `<testsuites>` with the totals, a `<testsuite>` per suite with its own (`skipped`
 * only where a case was skipped, so that a report without any keeps the attributes it always had).
 */
export function renderJunit(name: string, suites: readonly JunitSuite[]): string {
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const rendered = suites.map((suite) => {
    const failures = suite.cases.filter((c) => c.failure).length;
    const errors = suite.cases.filter((c) => c.error).length;
    const skipped = suite.cases.filter((c) => c.skipped).length;
    total.tests += suite.cases.length;
    total.failures += failures;
    total.errors += errors;
    total.skipped += skipped;
    const properties =
      suite.properties && suite.properties.length > 0
        ? [
            `    <properties>`,
            ...suite.properties.map(([key, value]) => `      <property name="${xml(key)}" value="${xml(value)}"/>`),
            `    </properties>`,
          ]
        : [];
    const counts = `tests="${suite.cases.length}" failures="${failures}" errors="${errors}"${skipped > 0 ? ` skipped="${skipped}"` : ""}`;
    return [
      `  <testsuite name="${xml(suite.name)}" ${counts}>`,
      ...properties,
      ...suite.cases.map(renderCase),
      `  </testsuite>`,
    ].join("\n");
  });
  const counts = `tests="${total.tests}" failures="${total.failures}" errors="${total.errors}"${total.skipped > 0 ? ` skipped="${total.skipped}"` : ""}`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(name)}" ${counts}>\n${rendered.join("\n")}\n</testsuites>\n`;
}
