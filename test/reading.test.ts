/**
 * Reading is one step of the engine (src/engine/read-records.ts), and gives the reports the line
 * rules gave before it: hostile files (test/data/reading/inputs: BOMs, CR LF, bad UTF-8 on lines of
 * valid runs and of invalid ones, blank lines, broken JSON, values too deep, duplicate keys, lines
 * over the cap, files of the wrong kind, dataset-level fields folded) checked with every reading rule
 * on, each one off, all off, all warnings, and under tight caps, in every format, and through the
 * library in chunks as small as a byte. The expectation, test/data/reading/expected.json.gz, is what
 * main's built CLI and library gave at commit 9952171, before the change (capture.mjs there); the SARIF run's rule list
 * since holds rule directional-control (issue 32), its results unchanged; rewritten once more when carriage-return
 * became one problem per file with a hint at .gitattributes (issue 31: every difference was of that rule).
 */
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RuleSetting } from "../src/core/report/problem.js";
import { createFileCheck } from "../src/engine/check-file.js";
import { READING_RULE_IDS } from "../src/engine/read-records.js";
import { rules } from "../src/rules/index.js";
import { runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot, schemaCheck } from "./helpers/records.js";

interface Expected {
  runs: { args: string[]; code: number; stdout: string; stderr: string }[];
  engine: { file: string; chunk: number; settings: Partial<Record<string, RuleSetting>>; result: unknown }[];
}

const data = join(repoRoot, "test/data/reading");
const VERSION = (JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const expected: Expected = JSON.parse(gunzipSync(await readFile(join(data, "expected.json.gz"))).toString("utf8"));

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await cp(join(data, "inputs"), dir, { recursive: true });
});
afterAll(async () => cleanup());

describe("the expectation covers what it should", () => {
  test("every reading rule turned off by itself, all of them off, and every format", () => {
    const offAlone = expected.runs
      .filter((run) => run.args.filter((a) => a.endsWith("=off")).length === 1)
      .map((run) => run.args.find((a) => a.endsWith("=off")));
    expect(offAlone).toEqual(expect.arrayContaining(READING_RULE_IDS.map((id) => `${id}=off`)));
    expect(expected.runs.some((run) => READING_RULE_IDS.every((id) => run.args.includes(`${id}=off`)))).toBe(true);
    const formats = new Set(expected.runs.map((run) => run.args[run.args.indexOf("--format") + 1]));
    expect([...formats].sort()).toEqual(["github", "json", "junit", "sarif", "stylish"]);
  });

  test("the reading rules are the registry's rules of scope reading", () => {
    expect(
      rules
        .filter((rule) => rule.scope === "reading")
        .map((rule) => rule.id)
        .sort(),
    ).toEqual([...READING_RULE_IDS].sort());
  });
});

describe("validate gives main's reports, byte for byte", () => {
  test.each(
    expected.runs.map((run) => [run.args.filter((a) => a.startsWith("--") || a.includes("=")).join(" "), run] as const),
  )("%s", async (_name, run) => {
    const got = await runMain(run.args, dir);
    // SARIF names the tool's version, which was 0.1.0 when the expectation was captured.
    expect(got.stdout).toBe(run.stdout.replace('"version": "0.1.0"', `"version": "${VERSION}"`));
    expect(got.stderr).toBe(run.stderr);
    expect(got.code).toBe(run.code);
  });
});

describe("the engine gives main's results in any chunks", () => {
  test.each(expected.engine.map((c) => [c.file, c.chunk, JSON.stringify(c.settings), c] as const))(
    "%s in chunks of %i, %s",
    async (file, chunk, _settings, c) => {
      const bytes = await readFile(join(data, "inputs", file));
      const check = createFileCheck({
        rules,
        file,
        schemaCheck,
        ruleSettings: c.settings,
        limits: { maxLineBytes: 300, maxDepth: 5 },
      });
      for (let at = 0; at < bytes.length; at += chunk) check.push(bytes.subarray(at, at + chunk));
      // Through JSON, as it was captured: an absent member and one set to undefined are the same.
      expect(JSON.parse(JSON.stringify(check.end()))).toEqual(c.result);
    },
  );
});
