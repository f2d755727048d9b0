/**
 * Issue 21, the diff parts: `diff --format junit` (a suite per pair, a case per change, failures for
 * what fails the gate, approved changes skipped) and `diff --write-approvals FILE` (an approvals file
 * for the unapproved breaking changes, with placeholder reasons that approve nothing until edited).
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { DiffReport } from "../src/core/diff.js";
import { createColor } from "../src/formatters/color.js";
import { diffFormatters } from "../src/formatters/diff.js";
import { diff } from "../src/node/diff.js";
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
  await writeFile(join(dir, "new/example-act.jsonl"), lines.filter((line) => !line.includes('"citationAddress":"example-act/part-1/section-1.md#1"')).join("\n"));
  await cp(join(fixtures, "records/record-added/old.jsonl"), join(dir, "example-act.jsonl"));
  await writeFile(
    join(dir, "approvals.json"),
    JSON.stringify({
      approvals: [
        { address: "example-act/part-1/section-1.md#1", reason: "repealed by Act No. 1, 2025 & <Sch 1>" },
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
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="citation-targets diff" tests="3" failures="1" errors="0" skipped="1">\n')).toBe(true);
    expect(xml).toContain('  <testsuite name="new/example-act.jsonl" tests="2" failures="1" errors="0" skipped="1">\n    <properties>\n');
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
    expect(stale).toContain("<system-out>warning: approval {&quot;address&quot;:&quot;example-act/gone.md#9&quot;} matches no change (is it still needed?)</system-out>");
    expect(cases(xml)).toHaveLength(3);
  });

  test("with --fail-on breaking the additive change passes; a pair without changes is one passing case", async () => {
    const xml = diffFormatters.junit(await sample("breaking"), { color: plain });
    expect(xml).toContain('tests="3" failures="0" errors="0" skipped="1"');
    expect(cases(xml)[1]).toContain("<system-out>additive change, does not fail the gate (--fail-on breaking)\n");
    const same = await diff({ cwd: fixtures, paths: ["records/record-added/old.jsonl", "records/record-removed/old.jsonl"] });
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
    const report = await diff({ cwd: fixtures, schema: true, paths: ["schema/field-removed/old.schema.json", "schema/field-removed/new.schema.json"] });
    const xml = diffFormatters.junit(report, { color: plain });
    expect(xml).toContain('<property name="type" value="schema"/>');
    expect(cases(xml).some((c) => /name="field-removed \/\$defs\/[^"]+"><failure type="field-removed"/.test(c))).toBe(true);
  });

  test("the command: --format junit on stdout, the gate's exit code", async () => {
    const failed = await runMain(["diff", "--format", "junit", "records/record-removed/old.jsonl", "records/record-removed/new.jsonl"], fixtures);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^<\?xml[\s\S]*<failure type="record-removed"[\s\S]*<\/testsuites>\n$/);
    const passed = await runMain(["diff", "--format", "junit", "records/record-added/old.jsonl", "records/record-added/new.jsonl"], fixtures);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain('failures="0"');
  });
});
