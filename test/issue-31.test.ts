/** Issue #31: validate proves what it says. Each reproduction of the issue is a test here. */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { computeDatasetDigest, type LockManifest } from "../src/core/lock/manifest.js";
import { bin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";
const JSONL = ".tooling/citation-targets/mvfg.jsonl";

/**
 * A git repository holding the mvfg dataset (German federal law): `.tooling/citation-targets/mvfg.{jsonl,lock.json}`
 * and `fixtures/datasets/mvfg`.
 */
async function repository(): Promise<string> {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
  return dir;
}

/** A manifest of `count` artifacts none of which is there, beside a JSONL of one record. */
async function manifestOfMissing(count: number): Promise<void> {
  const artifacts = [];
  for (let i = 0; i < count; i++) artifacts.push({ path: `a${String(i).padStart(6, "0")}.md`, sha256: "0".repeat(64) });
  const manifest = {
    lockVersion: 1,
    slug: "big",
    titleId: "BIG",
    name: "Big",
    versionDate: "2024-12-31",
    sourceTextUrl: "https://www.legislation.gov.au/big/2024-12-31/text",
    datasetRoot: "../data",
    artifacts,
  } as unknown as LockManifest;
  manifest.datasetDigest = computeDatasetDigest(manifest);
  await mkdir(join(dir, "data"), { recursive: true });
  await mkdir(join(dir, "t"), { recursive: true });
  await writeFile(join(dir, "t/big.lock.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, "t/big.jsonl"), "{}\n");
}

describe("item 3: no crash past 50,000 items", () => {
  test("a lock manifest of many missing artifacts: every problem counted, the cap kept, no stack overflow (a small stack stands for 100,000)", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    await manifestOfMissing(30_000);
    const stylish = await runCommand(
      process.execPath,
      ["--stack-size=120", bin, "validate", "t/big.jsonl", "--no-cache", "--max-stored-problems", "20000"],
      dir,
    );
    expect(stylish.stderr).toBe("");
    expect(stylish.code).toBe(1);
    expect(stylish.stdout).toContain("✖ 60001 problems (60001 errors, 0 warnings) in 1 file, 1 record");
    const json = await runMain(["validate", "t/big.jsonl", "--no-cache", "--format", "json"], dir);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    // 10,000 of the lines' own problems at most, and as many of those found at the end: the cap applies to them too.
    expect(report.files[0].problems.length).toBeLessThanOrEqual(20_000);
    expect(report.summary.errors).toBe(60_001);
  }, 120_000);

  test("generate of many setext headings in one artifact: no stack overflow (a small stack stands for a million)", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const parts = ["# Titel\n\n"];
    for (let i = 0; i < 30_000; i++) parts.push(`Abschnitt ${i}\n---\n\n`);
    await mkdir(join(dir, "law"));
    await writeFile(join(dir, "law/index.md"), parts.join(""));
    const lock = await runMain(
      [
        "lock",
        "law",
        "-o",
        "t/x.lock.json",
        "--slug",
        "x",
        "--title-id",
        "X",
        "--name",
        "X",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        "https://www.legislation.gov.au/x/text",
      ],
      dir,
    );
    expect(lock.code).toBe(0);
    const result = await runCommand(
      process.execPath,
      ["--stack-size=120", bin, "generate", "t/x.lock.json", "-o", "t/x.jsonl", "--jobs", "1"],
      dir,
    );
    expect(result.stderr).not.toContain("Maximum call stack");
    expect(result.code).toBe(0);
    const lines = (await readFile(join(dir, "t/x.jsonl"), "utf8")).split("\n").length - 1;
    expect(lines).toBe(30_001);
  }, 120_000);
});
