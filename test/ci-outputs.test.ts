/** CI outputs: the github format by default in GitHub Actions, --output-file, --shard and --print-config. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runMain } from "./helpers/in-process.js";
import { rules } from "../src/rules/index.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

async function cli(argv: string[], cwd = repoRoot, env: Record<string, string | undefined> = {}) {
  return runMain(argv, cwd, env);
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe("CI outputs", () => {
  test("in GitHub Actions the format is github unless one is named", async () => {
    await writeFile(join(dir, "x.jsonl"), "not json\n");
    const inActions = await cli(["validate", "--no-lock", "x.jsonl"], dir, { GITHUB_ACTIONS: "true" });
    expect(inActions.code).toBe(1);
    expect(inActions.stdout).toMatch(/^::error file=x\.jsonl,line=1,col=1,title=json-syntax::/);
    const named = await cli(["validate", "--no-lock", "--format", "json", "x.jsonl"], dir, { GITHUB_ACTIONS: "true" });
    expect(JSON.parse(named.stdout).summary.errors).toBe(1);
    const elsewhere = await cli(["validate", "--no-lock", "x.jsonl"], dir);
    expect(elsewhere.stdout).toContain("✖ 1 problem (1 error, 0 warnings) in 1 file, 0 records");
  });

  test("--output-file writes the chosen report atomically while the terminal gets the stylish report", async () => {
    await writeFile(join(dir, "x.jsonl"), "not json\n");
    const result = await cli(
      ["validate", "--no-lock", "--format", "junit", "--output-file", "reports/citation-targets.xml", "x.jsonl"],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("json-syntax");
    expect(result.stdout).toContain("✖ 1 problem");
    const xml = await readFile(join(dir, "reports/citation-targets.xml"), "utf8");
    expect(xml).toContain('<failure type="json-syntax"');
  });

  test("--shard i/n: every file lands in exactly one shard, the same on every run; a bad shard is a usage error", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `file-${i}.jsonl`);
    for (const name of names) await writeFile(join(dir, name), "");
    const seen = new Map<string, number>();
    for (let i = 1; i <= 4; i++) {
      const result = await cli(["validate", "--no-lock", "--format", "json", "--shard", `${i}/4`, "*.jsonl"], dir);
      const paths = (JSON.parse(result.stdout).files as { path: string }[]).map((f) => f.path);
      expect(paths.length).toBeGreaterThan(0); // 40 files over 4 shards: none is empty
      for (const path of paths) seen.set(path, (seen.get(path) ?? 0) + 1);
      const again = await cli(["validate", "--no-lock", "--format", "json", "--shard", `${i}/4`, "*.jsonl"], dir);
      expect(again.stdout).toBe(result.stdout);
    }
    expect([...seen.keys()].sort()).toEqual([...names].sort());
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    for (const bad of ["0/4", "5/4", "x", "1/0"]) expect((await cli(["validate", "--shard", bad], dir)).code).toBe(2);
  });

  test("--print-config shows each effective setting and where it came from", async () => {
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ maxProblems: 5, rules: { "non-canonical": "warning" } }),
    );
    const result = await cli(["validate", "--print-config", "--rule", "bom=off", "data/*.jsonl"], dir);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.config).toBe(".citation-targets.json");
    expect(printed.settings.patterns).toEqual({ value: ["data/*.jsonl"], from: "command line" });
    expect(printed.settings.maxProblems).toEqual({ value: 5, from: "config .citation-targets.json" });
    expect(printed.settings.format).toEqual({ value: "stylish", from: "default" });
    expect(printed.settings.rules["non-canonical"]).toEqual({
      value: "warning",
      from: "config .citation-targets.json",
    });
    expect(printed.settings.rules.bom).toEqual({ value: "off", from: "command line" });
    expect(printed.settings.rules.schema).toEqual({ value: "error", from: "default" });
    expect(Object.keys(printed.settings.rules)).toEqual(rules.map((r) => r.id));
  });
});
