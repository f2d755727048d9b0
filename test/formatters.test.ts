import { readFileSync } from "node:fs";
import { join } from "node:path";
import AjvDraft04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import { describe, expect, test } from "vitest";
import { repoRoot } from "./helpers/records.js";

// Both ship CommonJS with `exports.default`; under NodeNext the default import is the module object.
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: unknown }).default ??
  AjvDraft04Module) as typeof import("ajv-draft-04").default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof import("ajv-formats").default;
import type { Problem } from "../src/core/report/problem.js";
import { createColor } from "../src/formatters/color.js";
import { colorLevel } from "../src/formatters/color.js";
import { FORMAT_NAMES, formatters } from "../src/formatters/index.js";
import { excerptOf } from "../src/core/text.js";
import type { Report } from "../src/core/report/report.js";
import { ruleDocsUrl, rules } from "../src/rules/index.js";

const problem = (line: number, ruleId: string, message: string, extra: Partial<Problem> = {}): Problem => ({
  ruleId,
  messageId: "m",
  data: {},
  message,
  severity: "error",
  file: "data/a,b:c.jsonl",
  line,
  pointer: "",
  ...extra,
});

/** One canonical problem set, run through every formatter. */
const report: Report = {
  files: [
    {
      path: "data/a,b:c.jsonl",
      records: 3,
      problems: [
        problem(1, "json-syntax", "invalid JSON: unexpected end", { column: 7 }),
        problem(2, "text-digest", "textDigest is 00 but the SHA-256 of markdown is ff", { pointer: "/textDigest" }),
        problem(3, "non-canonical", "100% not canonical\nsecond line", { severity: "warning", column: 2 }),
      ],
    },
    { path: "ok.jsonl", records: 5, problems: [] },
    { path: "gone.jsonl", records: 0, problems: [], error: "cannot read gone.jsonl: no such file or folder" },
  ],
  summary: { files: 3, records: 8, errors: 2, warnings: 1 },
  schemaSource: { kind: "bundled", legislationHost: "www.legislation.gov.au" },
  threads: 1,
  rules: rules.map((rule) => ({
    id: rule.id,
    description: rule.meta.description,
    defaultSeverity: rule.meta.defaultSeverity,
    docs: ruleDocsUrl(rule.id),
  })),
};
const plain = { color: createColor(0) };

describe("formatters", () => {
  test("every format name has a formatter", () => {
    expect(Object.keys(formatters).sort()).toEqual([...FORMAT_NAMES].sort());
  });

  test("stylish: grouped by file, line:column, severity, pointer, rule, summary", () => {
    expect(formatters.stylish(report, plain)).toBe(
      [
        "data/a,b:c.jsonl",
        "  1:7  error    invalid JSON: unexpected end  json-syntax",
        "  2    error    textDigest is 00 but the SHA-256 of markdown is ff at /textDigest  text-digest",
        "  3:2  warning  100% not canonical\nsecond line  non-canonical",
        "",
        "gone.jsonl",
        "  error  cannot read gone.jsonl: no such file or folder",
        "",
        "✖ 3 problems (2 errors, 1 warning) in 3 files, 8 records; 1 of 3 files could not be read",
        "",
      ].join("\n"),
    );
  });

  test("json: the brief's contract, fields only added", () => {
    const parsed = JSON.parse(formatters.json(report, plain));
    expect(parsed).toEqual({
      files: [
        {
          path: "data/a,b:c.jsonl",
          records: 3,
          problems: [
            {
              line: 1,
              column: 7,
              ruleId: "json-syntax",
              severity: "error",
              message: "invalid JSON: unexpected end",
              pointer: "",
            },
            {
              line: 2,
              ruleId: "text-digest",
              severity: "error",
              message: "textDigest is 00 but the SHA-256 of markdown is ff",
              pointer: "/textDigest",
            },
            {
              line: 3,
              column: 2,
              ruleId: "non-canonical",
              severity: "warning",
              message: "100% not canonical\nsecond line",
              pointer: "",
            },
          ],
        },
        { path: "ok.jsonl", records: 5, problems: [] },
        { path: "gone.jsonl", records: 0, problems: [], error: "cannot read gone.jsonl: no such file or folder" },
      ],
      summary: { files: 3, records: 8, errors: 2, warnings: 1, unreadable: 1 },
    });
  });

  test("github: workflow commands with escaped properties and data", () => {
    expect(formatters.github(report, plain).split("\n")).toEqual([
      "::error file=data/a%2Cb%3Ac.jsonl,line=1,col=7,title=json-syntax::invalid JSON: unexpected end",
      "::error file=data/a%2Cb%3Ac.jsonl,line=2,title=text-digest::textDigest is 00 but the SHA-256 of markdown is ff (at /textDigest)",
      "::warning file=data/a%2Cb%3Ac.jsonl,line=3,col=2,title=non-canonical::100%25 not canonical%0Asecond line",
      "::error file=gone.jsonl,title=io-error::cannot read gone.jsonl: no such file or folder",
      "3 files, 8 records: 2 errors, 1 warning; 1 could not be read",
      "",
    ]);
  });

  test("sarif: SARIF 2.1.0 with every rule described, one result per problem, unreadable files as notifications", () => {
    const log = JSON.parse(formatters.sarif(report, { ...plain, toolVersion: "9.9.9" }));
    expect(log.version).toBe("2.1.0");
    const run = log.runs[0];
    expect(run.tool.driver).toMatchObject({ name: "citation-targets", version: "9.9.9" });
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(rules.map((r) => r.id));
    expect(run.results).toHaveLength(3);
    expect(run.results[0]).toEqual({
      ruleId: "json-syntax",
      ruleIndex: rules.findIndex((r) => r.id === "json-syntax"),
      level: "error",
      message: { text: "invalid JSON: unexpected end" },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: "data/a,b:c.jsonl" }, region: { startLine: 1, startColumn: 7 } },
        },
      ],
      properties: { pointer: "", messageId: "m" },
    });
    expect(run.results[2].level).toBe("warning");
    expect(run.invocations[0]).toMatchObject({
      executionSuccessful: false,
      toolExecutionNotifications: [
        { level: "error", message: { text: "cannot read gone.jsonl: no such file or folder" } },
      ],
    });
  });

  test("sarif: valid against the SARIF 2.1.0 JSON Schema; a helpUri to each rule's section of docs/spec.md only with a public repository", () => {
    const sarifSchema = JSON.parse(readFileSync(join(repoRoot, "test/data/sarif-2.1.0-rtm.5.json"), "utf8"));
    const ajv = new AjvDraft04({ allErrors: true, strict: false, validateFormats: true, unicodeRegExp: false }); // the schema has a language pattern that is not valid with the u flag;
    addFormats(ajv as never);
    const check = ajv.compile(sarifSchema);
    const log = JSON.parse(formatters.sarif(report, { ...plain, toolVersion: "9.9.9" }));
    expect(check(log), JSON.stringify(check.errors, null, 1)).toBe(true);
    const cut = JSON.parse(formatters.sarif(report, { ...plain, maxProblems: 1 })); // with a notification of what was left out
    expect(check(cut), JSON.stringify(check.errors, null, 1)).toBe(true);
    // The schema does catch a broken log.
    expect(check({ ...log, runs: [{ ...log.runs[0], results: [{ level: "fatal" }] }] })).toBe(false);
    for (const rule of log.runs[0].tool.driver.rules) expect(rule.helpUri).toBeUndefined(); // no repository: no link to a place that may not exist
    const linked = JSON.parse(
      formatters.sarif(report, {
        ...plain,
        toolVersion: "9.9.9",
        repositoryUrl: "https://github.com/o/citation-targets",
        cwdInRepository: "sub",
      }),
    );
    expect(check(linked), JSON.stringify(check.errors, null, 1)).toBe(true);
    for (const rule of linked.runs[0].tool.driver.rules)
      expect(rule.helpUri).toBe(`https://github.com/o/citation-targets/blob/HEAD/docs/spec.md#rule-${rule.id}`);
  });

  test("junit: a suite per file, a failure per error, warnings as output, unreadable files as errors; special characters escaped", () => {
    const xml = formatters.junit(report, plain);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="citation-targets" tests="')).toBe(
      true,
    );
    expect(xml).toContain('<testsuite name="data/a,b:c.jsonl" tests="3" failures="2" errors="0">');
    expect(xml).toContain(
      '<failure type="json-syntax" message="invalid JSON: unexpected end">data/a,b:c.jsonl:1:7: invalid JSON: unexpected end</failure>',
    );
    expect(xml).toContain("<system-out>warning: data/a,b:c.jsonl:3:2: 100% not canonical\nsecond line</system-out>");
    expect(xml).toContain(
      '<testcase classname="gone.jsonl" name="read"><error type="io-error" message="cannot read gone.jsonl: no such file or folder"/></testcase>',
    );
    expect(xml).toContain(
      '<testsuite name="ok.jsonl" tests="1" failures="0" errors="0">\n    <testcase classname="ok.jsonl" name="valid"/>',
    );
    const tricky = formatters.junit(
      { ...report, files: [{ path: "x.jsonl", records: 1, problems: [problem(1, "schema", 'a <b> & "c" \u0001')] }] },
      plain,
    );
    expect(tricky).toContain('message="a &lt;b&gt; &amp; &quot;c&quot; \ufffd"');
  });

  test("every formatter honours --max-problems", () => {
    for (const name of FORMAT_NAMES) {
      const text = formatters[name](report, { ...plain, maxProblems: 1 });
      expect(text, name).not.toContain("textDigest is 00");
    }
  });

  test("sarif and junit say what --max-problems left out; junit fails on the errors among it", () => {
    const three: Report = {
      ...report,
      files: [
        {
          path: "bad.jsonl",
          records: 3,
          problems: [1, 2, 3].map((line) => problem(line, "json-syntax", `bad line ${line}`, { file: "bad.jsonl" })),
        },
      ],
      summary: { files: 1, records: 3, errors: 3, warnings: 0 },
    };
    const log = JSON.parse(formatters.sarif(three, { ...plain, maxProblems: 1 }));
    expect(log.runs[0].results).toHaveLength(1);
    expect(log.runs[0].invocations[0]).toEqual({
      executionSuccessful: true, // every file was read: problems left out are no failure of the tool
      toolExecutionNotifications: [
        {
          level: "warning",
          message: { text: "2 more problems in this file not shown (2 errors, 0 warnings): --max-problems 1" },
          locations: [{ physicalLocation: { artifactLocation: { uri: "bad.jsonl" } } }],
          properties: { problemsOmitted: 2, errorsOmitted: 2 },
        },
      ],
    });
    const xml = formatters.junit(three, { ...plain, maxProblems: 1 });
    expect(xml).toContain('<testsuite name="bad.jsonl" tests="2" failures="2" errors="0">');
    expect(xml).toContain(
      '<testcase classname="bad.jsonl" name="more problems"><failure type="max-problems" message="2 more problems in this file not shown (2 errors, 0 warnings)">',
    );
    // Only warnings left out: a passing case that counts them.
    const warned = formatters.junit(report, { ...plain, maxProblems: 2 });
    expect(warned).toContain(
      '<testcase classname="data/a,b:c.jsonl" name="more problems"><system-out>1 more problem in this file not shown (0 errors, 1 warning): --max-problems 2</system-out>',
    );
  });

  test("colour only on a TTY; NO_COLOR and FORCE_COLOR decide first", () => {
    expect(colorLevel({}, false)).toBe(0);
    expect(colorLevel({}, true)).toBe(1);
    expect(colorLevel({ NO_COLOR: "1" }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: "1" }, false)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: "0" }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: "1" }, true, false)).toBe(0);
  });
});

describe("progress", () => {
  test("only on a TTY, never in CI or on a dumb terminal", async () => {
    const { progressEnabled } = await import("../src/cli/progress.js");
    expect(progressEnabled({}, true)).toBe(true);
    expect(progressEnabled({}, false)).toBe(false);
    expect(progressEnabled({}, undefined)).toBe(false);
    expect(progressEnabled({ CI: "true" }, true)).toBe(false);
    expect(progressEnabled({ TERM: "dumb" }, true)).toBe(false);
  });

  test("shown after half a second, redrawn at most every 100 ms, erased at the end", async () => {
    const { createProgressLine } = await import("../src/cli/progress.js");
    let t = 0;
    const out: string[] = [];
    const line = createProgressLine(
      (s) => out.push(s),
      () => t,
    );
    const p = (bytesDone: number) => ({ files: 2, filesDone: 1, bytes: 20e6, bytesDone });
    line.update(p(1e6));
    t = 600;
    line.update(p(5e6));
    t = 650;
    line.update(p(6e6));
    t = 750;
    line.update(p(10e6));
    line.done();
    expect(out).toEqual([
      "\rchecking 1/2 files, 5.0/20 MB (25%)\u001b[K",
      "\rchecking 1/2 files, 10/20 MB (50%)\u001b[K",
      "\r\u001b[K",
    ]);
  });

  test("nothing is drawn or erased for a short run", async () => {
    const { createProgressLine } = await import("../src/cli/progress.js");
    const out: string[] = [];
    const line = createProgressLine(
      (s) => out.push(s),
      () => 0,
    );
    line.update({ files: 1, filesDone: 1, bytes: 1, bytesDone: 1 });
    line.done();
    expect(out).toEqual([]);
  });

  test("validate reports progress up to every byte and file", async () => {
    const { validate } = await import("../src/node/validate/validate.js");
    const { repoRoot } = await import("./helpers/records.js");
    const seen: { filesDone: number; bytesDone: number; bytes: number }[] = [];
    await validate({ cwd: repoRoot, lock: false, jobs: 1, onProgress: (p) => seen.push(p) });
    const last = seen[seen.length - 1]!;
    expect(last.filesDone).toBe(2);
    expect(last.bytesDone).toBe(last.bytes);
    expect(seen.every((p, i) => i === 0 || p.bytesDone >= seen[i - 1]!.bytesDone)).toBe(true);
  });
});

describe("code frames", () => {
  test("stylish shows the excerpt of a problem under it, with a caret at the column", () => {
    const framed: Report = {
      ...report,
      files: [
        {
          path: "x.jsonl",
          records: 1,
          problems: [
            problem(4, "non-canonical", "not canonical", { column: 8, excerpt: { text: '{"a":1, "b":2}', column: 8 } }),
          ],
        },
      ],
      summary: { files: 1, records: 1, errors: 1, warnings: 0 },
    };
    expect(formatters.stylish(framed, plain).split("\n").slice(1, 4)).toEqual([
      "  4:8  error    not in canonical form  non-canonical".replace("not in canonical form", "not canonical"),
      '       │ {"a":1, "b":2}',
      "       │        ^",
    ]);
  });

  test("an excerpt of a long line is a window around the column, cut with an ellipsis, control characters shown as U+FFFD", () => {
    const line = `{"markdown":"${"x".repeat(5000)}\u0001y","z":1}`;
    const at = line.indexOf("\u0001") + 1;
    const excerpt = excerptOf(line, at);
    expect(excerpt.text.length).toBeLessThanOrEqual(74);
    expect(excerpt.text.startsWith("…")).toBe(true);
    expect(excerpt.text.endsWith("…")).toBe(false);
    expect(excerpt.text[excerpt.column! - 1]).toBe("\ufffd");
    expect(excerptOf("short", 3)).toEqual({ text: "short", column: 3 });
    expect(excerptOf("y".repeat(200)).text).toBe(`${"y".repeat(72)}…`);
  });
});
