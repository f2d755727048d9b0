/**
 * `diff --format junit` (a suite per pair, a case per change, failures for
 * what fails the gate, approved changes skipped) and `diff --write-approvals FILE` (an approvals file
 * for the unapproved breaking changes, with placeholder reasons that approve nothing until edited).
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { DiffReport } from "../src/core/diff/diff.js";
import { createColor } from "../src/formatters/color.js";
import { diffFormatters } from "../src/formatters/diff.js";
import { diff } from "../src/node/diff/diff.js";
import { runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const fixtures = join(repoRoot, "test/fixtures-diff");
const plain = createColor(0);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** Section 1 repealed (approved) and section 1A inserted, as in test/diff.test.ts; plus a stale approval. */
async function sample(failOn: "breaking" | "any" = "any"): Promise<DiffReport> {
  const lines = (await readFile(join(fixtures, "records/record-added/new.jsonl"), "utf8")).split("\n");
  await mkdir(join(dir, "new"), { recursive: true });
  await writeFile(
    join(dir, "new/example-act.jsonl"),
    lines.filter((line) => !line.includes('"citationAddress":"example-act/part-1/section-1.md#1"')).join("\n"),
  );
  await cp(join(fixtures, "records/record-added/old.jsonl"), join(dir, "example-act.jsonl"));
  await writeFile(
    join(dir, "approvals.json"),
    JSON.stringify({
      approvals: [
        {
          dataset: "example-act",
          versionDate: "2024-07-01",
          address: "example-act/part-1/section-1.md#1",
          reason: "repealed by Act No. 1, 2025 & <Sch 1>",
        },
        { address: "example-act/gone.md#9", reason: "old" },
      ],
    }),
  );
  return diff({ cwd: dir, paths: ["example-act.jsonl", "new/example-act.jsonl"], approvals: "approvals.json", failOn });
}

/** The test cases of a JUnit document, each as its opening tag and what it holds. */
function cases(xml: string): string[] {
  return [...xml.matchAll(/<testcase [^>]*?(?:\/>|>.*?<\/testcase>)/gs)].map((m) => m[0]);
}

describe("diff --format junit", () => {
  test("a suite per pair, a case per change: a failure when it fails the gate, skipped when approved; the counts add up", async () => {
    const xml = diffFormatters.junit(await sample(), { color: plain });
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="citation-targets diff" tests="3" failures="1" errors="0" skipped="1">\n',
      ),
    ).toBe(true);
    expect(xml).toContain(
      '  <testsuite name="new/example-act.jsonl" tests="2" failures="1" errors="0" skipped="1">\n    <properties>\n',
    );
    expect(xml).toContain('<property name="old" value="example-act.jsonl"/>');
    expect(xml).toContain('<property name="records" value="6 → 6"/>');
    const [removed, added, stale] = cases(xml);
    // Approved: skipped, the reason as the message (escaped), the details in the output.
    expect(removed).toMatch(
      /^<testcase classname="new\/example-act.jsonl" name="record-removed example-act\/part-1\/section-1.md#1"><skipped type="approved" message="approved: repealed by Act No. 1, 2025 &amp; &lt;Sch 1&gt;"\/><system-out>/,
    );
    expect(removed).toContain("heading: &quot;1 Short title&quot;");
    // --fail-on any: the additive change fails the gate.
    expect(added).toMatch(
      /name="record-added example-act\/part-1\/section-1a.md#1a"><failure type="record-added" message="example-act\/part-1\/section-1a.md#1a added">additive change, fails the gate \(--fail-on any\)\n/,
    );
    expect(added).toContain("at new/example-act.jsonl:3");
    // The approval that matched nothing: a passing case in the last suite.
    expect(xml).toContain('<testsuite name="warnings" tests="1" failures="0" errors="0">');
    expect(stale).toContain(
      "<system-out>warning: approval {&quot;address&quot;:&quot;example-act/gone.md#9&quot;} matches no change (is it still needed?)</system-out>",
    );
    expect(cases(xml)).toHaveLength(3);
  });

  test("with --fail-on breaking the additive change passes; a pair without changes is one passing case", async () => {
    const xml = diffFormatters.junit(await sample("breaking"), { color: plain });
    expect(xml).toContain('tests="3" failures="0" errors="0" skipped="1"');
    expect(cases(xml)[1]).toContain("<system-out>additive change, does not fail the gate (--fail-on breaking)\n");
    const same = await diff({
      cwd: fixtures,
      paths: ["records/record-added/old.jsonl", "records/record-removed/old.jsonl"],
    });
    expect(diffFormatters.junit(same, { color: plain })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="citation-targets diff" tests="1" failures="0" errors="0">',
        '  <testsuite name="records/record-removed/old.jsonl" tests="1" failures="0" errors="0">',
        "    <properties>",
        '      <property name="type" value="records"/>',
        '      <property name="old" value="records/record-added/old.jsonl"/>',
        '      <property name="records" value="6 → 6"/>',
        "    </properties>",
        '    <testcase classname="records/record-removed/old.jsonl" name="no changes"/>',
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  test("a schema pair: cases named by kind and pointer", async () => {
    const report = await diff({
      cwd: fixtures,
      schema: true,
      paths: ["schema/field-removed/old.schema.json", "schema/field-removed/new.schema.json"],
    });
    const xml = diffFormatters.junit(report, { color: plain });
    expect(xml).toContain('<property name="type" value="schema"/>');
    expect(cases(xml).some((c) => /name="field-removed \/\$defs\/[^"]+"><failure type="field-removed"/.test(c))).toBe(
      true,
    );
  });

  test("the command: --format junit on stdout, the gate's exit code", async () => {
    const failed = await runMain(
      ["diff", "--format", "junit", "records/record-removed/old.jsonl", "records/record-removed/new.jsonl"],
      fixtures,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^<\?xml[\s\S]*<failure type="record-removed"[\s\S]*<\/testsuites>\n$/);
    const passed = await runMain(
      ["diff", "--format", "junit", "records/record-added/old.jsonl", "records/record-added/new.jsonl"],
      fixtures,
    );
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain('failures="0"');
  });
});

/** A file's records as of the law's next version: each record's versionDate 2024-07-01 made 2025-07-01. */
const newVersion = (text: string) => text.replaceAll('"versionDate":"2024-07-01"', '"versionDate":"2025-07-01"');

describe("diff --write-approvals", () => {
  /**
   * An old and a new file: section 1 repealed, section 2 amended, section 1A inserted; the new side is the law's new
   * version (2025-07-01), as entries by version approve only changes that bring one.
   */
  async function amended(): Promise<void> {
    const old = await readFile(join(fixtures, "records/record-changed/old.jsonl"), "utf8");
    const changed = newVersion(await readFile(join(fixtures, "records/record-changed/new.jsonl"), "utf8")).split("\n");
    await writeFile(join(dir, "old.jsonl"), old);
    await writeFile(
      join(dir, "new.jsonl"),
      changed.filter((line) => !line.includes('"citationAddress":"example-act/part-1/section-1.md#1"')).join("\n"),
    );
  }
  const args = ["diff", "old.jsonl", "new.jsonl"];

  test("writes an entry per unapproved breaking change, scoped to the law's version, with a placeholder reason that approves nothing", async () => {
    await amended();
    const first = await runMain([...args, "--write-approvals", "approvals.json"], dir);
    expect(first.code).toBe(1); // the gate still fails: nothing is approved yet
    expect(first.stderr).toContain("citation-targets: wrote approvals.json: 2 approvals to review\n");
    expect(first.stderr).toContain('each new reason is a placeholder ("TODO: …") and approves nothing');
    const text = await readFile(join(dir, "approvals.json"), "utf8");
    expect(text).toBe(
      [
        "{",
        '  "approvals": [',
        '    { "dataset": "example-act", "versionDate": "2025-07-01", "kind": "record-changed", "reason": "TODO: say why this change is right (e.g. the amending Act), then remove TODO" },',
        '    { "dataset": "example-act", "versionDate": "2025-07-01", "address": "example-act/part-1/section-1.md#1", "kind": "record-removed", "reason": "TODO: say why this change is right (e.g. the amending Act), then remove TODO" }',
        "  ]",
        "}",
        "",
      ].join("\n"),
    );
    // Passed as it is, it approves nothing: the gate fails and each placeholder is named.
    const unedited = await runMain([...args, "--approvals", "approvals.json", "--format", "json"], dir);
    expect(unedited.code).toBe(1);
    const report = JSON.parse(unedited.stdout);
    expect(report.summary).toMatchObject({ breaking: 2, approved: 0, failing: 2, passed: false });
    expect(report.warnings).toEqual([
      'approval {"kind":"record-changed","dataset":"example-act","versionDate":"2025-07-01"} has the placeholder reason "TODO: say why this change is right (e.g. the amending Act), then remove TODO": it approves nothing until its reason says why the change is right',
      'approval {"kind":"record-removed","address":"example-act/part-1/section-1.md#1","dataset":"example-act","versionDate":"2025-07-01"} has the placeholder reason "TODO: say why this change is right (e.g. the amending Act), then remove TODO": it approves nothing until its reason says why the change is right',
    ]);
    // The hint is the step left: the reasons, not writing the file again. It goes to standard error with the others
    // (every line prefixed), never into the report on standard output.
    const stylish = await runMain([...args, "--approvals", "approvals.json"], dir);
    expect(stylish.stderr).toContain(
      'citation-targets: hint: replace each placeholder reason ("TODO: …") in the approvals file',
    );
    expect(stylish.stderr).not.toContain("--write-approvals FILE writes one");
    expect(stylish.stdout).not.toContain("hint:");
    expect(stylish.stdout).toContain("fail the gate");
    // One reason edited: that change passes, the other still fails.
    await writeFile(
      join(dir, "approvals.json"),
      text.replace(/"reason": "TODO[^"]*"/, '"reason": "amended by Act No. 3, 2025"'),
    );
    const half = JSON.parse(
      (await runMain([...args, "--approvals", "approvals.json", "--format", "json"], dir)).stdout,
    );
    expect(half.summary).toMatchObject({ approved: 1, failing: 1, passed: false });
    expect(half.pairs[0].changes[0].approved).toEqual({ reason: "amended by Act No. 3, 2025" });
    // Both edited: the gate passes.
    await writeFile(join(dir, "approvals.json"), text.replace(/"reason": "TODO[^"]*"/g, '"reason": "Act No. 3, 2025"'));
    expect((await runMain([...args, "--approvals", "approvals.json"], dir)).code).toBe(0);
  });

  test("an existing file: its entries (and $schema) kept first, placeholders not repeated, new changes appended; nothing to add leaves it as it was", async () => {
    await amended();
    const existing = {
      $schema: "./approvals.schema.json",
      approvals: [
        { reason: "repealed by Act No. 3, 2025", kind: "record-removed", address: "example-act/part-1/section-1.md#1" },
        { address: "example-act/somewhere-else.md#9", reason: "kept although stale" },
      ],
    };
    await writeFile(join(dir, "approvals.json"), JSON.stringify(existing));
    const run = await runMain([...args, "--approvals", "approvals.json", "--write-approvals", "approvals.json"], dir);
    expect(run.stderr).toContain("wrote approvals.json: 1 approval to review; kept the 2 entries it had\n");
    const written = await readFile(join(dir, "approvals.json"), "utf8");
    expect(written.split("\n").slice(0, 6)).toEqual([
      "{",
      '  "$schema": "./approvals.schema.json",',
      '  "approvals": [',
      '    { "address": "example-act/part-1/section-1.md#1", "kind": "record-removed", "reason": "repealed by Act No. 3, 2025" },',
      '    { "address": "example-act/somewhere-else.md#9", "reason": "kept although stale" },',
      '    { "dataset": "example-act", "versionDate": "2025-07-01", "kind": "record-changed", "reason": "TODO: say why this change is right (e.g. the amending Act), then remove TODO" }',
    ]);
    // Run again: the placeholder entry names the change already, so nothing is added and the bytes stay.
    const again = await runMain([...args, "--approvals", "approvals.json", "--write-approvals", "approvals.json"], dir);
    expect(again.stderr).toContain(
      "approvals.json: nothing to add: every change that needs an approval is approved or named there (left as it was)\n",
    );
    expect(await readFile(join(dir, "approvals.json"), "utf8")).toBe(written);
  });

  test("additive changes only with --fail-on any; a schema change by pointer and kind; nothing to approve writes no file", async () => {
    await cp(join(fixtures, "records/record-added/old.jsonl"), join(dir, "a-old.jsonl"));
    await writeFile(
      join(dir, "a-new.jsonl"),
      newVersion(await readFile(join(fixtures, "records/record-added/new.jsonl"), "utf8")),
    );
    const none = await runMain(["diff", "a-old.jsonl", "a-new.jsonl", "--write-approvals", "out/approvals.json"], dir);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain(
      "out/approvals.json: nothing to add: every change that needs an approval is approved (not written)\n",
    );
    await expect(readFile(join(dir, "out/approvals.json"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    await runMain(
      ["diff", "--fail-on", "any", "a-old.jsonl", "a-new.jsonl", "--write-approvals", "out/approvals.json"],
      dir,
    );
    expect(await readFile(join(dir, "out/approvals.json"), "utf8")).toContain(
      '{ "dataset": "example-act", "versionDate": "2025-07-01", "kind": "record-added", "reason": "TODO:',
    );
    const schema = await runMain(
      [
        "diff",
        "--schema",
        join(fixtures, "schema/field-removed/old.schema.json"),
        join(fixtures, "schema/field-removed/new.schema.json"),
        "--write-approvals",
        "s.json",
      ],
      dir,
    );
    expect(schema.code).toBe(1);
    expect(await readFile(join(dir, "s.json"), "utf8")).toMatch(
      /\{ "pointer": "\/\$defs\/[^"]+", "kind": "field-removed", "reason": "TODO:/,
    );
  });

  test("refusals: a malformed existing file is named and left alone; never over a compared file", async () => {
    await amended();
    await writeFile(join(dir, "approvals.json"), '{"approvals": [{"address": "x", "reason": "ok", "because": 1}]}');
    const bad = await runMain([...args, "--write-approvals", "approvals.json"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'citation-targets: approvals file approvals.json is not valid, so it was not written:\ncitation-targets:   approvals[0]: unknown member "because"',
    );
    expect(await readFile(join(dir, "approvals.json"), "utf8")).toBe(
      '{"approvals": [{"address": "x", "reason": "ok", "because": 1}]}',
    );
    const over = await runMain([...args, "--write-approvals", "new.jsonl"], dir);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(
      "refusing to write new.jsonl: it is the compared file new.jsonl, an input of this run",
    );
    const old = await runMain([...args, "--write-approvals", "old.jsonl"], dir);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain(
      "refusing to write old.jsonl: it is the compared file old.jsonl, an input of this run",
    );
  });

  test("a reason that starts with TODO (any case) approves nothing, written by hand or not", async () => {
    await amended();
    await writeFile(
      join(dir, "a.json"),
      JSON.stringify({
        approvals: [
          { kind: "record-removed", reason: "todo ask the drafter" },
          { kind: "record-changed", reason: "Amended; TODO later: link" },
        ],
      }),
    );
    const report = JSON.parse((await runMain([...args, "--approvals", "a.json", "--format", "json"], dir)).stdout);
    expect(report.summary).toMatchObject({ approved: 1, failing: 1 });
    expect(
      report.pairs[0].changes.map((c: { kind: string; approved?: unknown }) => [c.kind, c.approved !== undefined]),
    ).toEqual([
      ["record-changed", true],
      ["record-removed", false],
    ]);
  });
});

describe("the library", () => {
  test("writeApprovals writes what --write-approvals writes; a bad argument is an OperationalError", async () => {
    const library = await import("../src/index.js");
    const report = await library.diff({
      cwd: fixtures,
      paths: ["records/record-removed/old.jsonl", "records/record-removed/new.jsonl"],
    });
    const written = await library.writeApprovals(report, "approvals.json", dir);
    expect(written).toMatchObject({
      written: true,
      kept: 0,
      added: [{ kind: "record-removed", reason: library.PLACEHOLDER_REASON }],
    });
    expect(library.isPlaceholderReason(library.PLACEHOLDER_REASON)).toBe(true);
    expect(library.isPlaceholderReason("repealed; TODO: cite")).toBe(false);
    expect(JSON.parse(await readFile(join(dir, "approvals.json"), "utf8")).approvals).toHaveLength(1);
    await expect(library.writeApprovals(report, "" as string, dir)).rejects.toThrow(
      new library.OperationalError('writeApprovals: file: expected a non-empty string, got ""'),
    );
    await expect(library.writeApprovals({} as never, "a.json", dir)).rejects.toBeInstanceOf(library.OperationalError);
  });
});
