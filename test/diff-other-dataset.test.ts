/**
 * diff of two files of different slugs (two laws compared by mistake, or a slug changed) says so on the pair's dataset
 * line rather than calling the new file a new version of the old (docs/spec.md, section 12, `stylish`); the JSON report
 * names the old side's slug (`oldSlug`). Two versions of one dataset keep their "new version" line.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tempDir } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { repoRoot } from "./helpers/records.js";

const TOOLING = join(repoRoot, ".tooling/citation-targets");
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  for (const name of ["mvfg.jsonl", "privacy-act-1988.jsonl"])
    await writeFile(join(dir, name), await readFile(join(TOOLING, name)));
  // mvfg's next version: the same slug, another versionDate, its last record gone (a change, so the pair is shown).
  const lines = (await readFile(join(TOOLING, "mvfg.jsonl"), "utf8")).trimEnd().split("\n").slice(0, -1);
  await writeFile(
    join(dir, "mvfg-next.jsonl"),
    `${lines.map((line) => line.replaceAll('"versionDate":"2023-12-04"', '"versionDate":"2024-06-01"')).join("\n")}\n`,
  );
});

afterAll(async () => {
  await cleanup();
});

test("two laws: the dataset line says another slug, not a new version; json has oldSlug", async () => {
  const text = await runMain(["diff", "mvfg.jsonl", "privacy-act-1988.jsonl"], dir);
  const lines = text.stdout.split("\n");
  expect(lines[1]).toBe(
    "  dataset privacy-act-1988: compared with dataset mvfg, another slug: no new version of one dataset (21 → 42 records)",
  );
  expect(text.stdout).not.toMatch(/: new version /);
  const json = JSON.parse(
    (await runMain(["diff", "mvfg.jsonl", "privacy-act-1988.jsonl", "--format", "json"], dir)).stdout,
  );
  expect(json.pairs[0].dataset).toMatchObject({ slug: "privacy-act-1988", oldSlug: "mvfg" });
});

test("two versions of one dataset: a new version, and no oldSlug", async () => {
  const text = await runMain(["diff", "mvfg.jsonl", "mvfg-next.jsonl"], dir);
  expect(text.stdout.split("\n")[1]).toBe("  dataset mvfg: new version 2023-12-04 → 2024-06-01 (21 → 20 records)");
  const json = JSON.parse((await runMain(["diff", "mvfg.jsonl", "mvfg-next.jsonl", "--format", "json"], dir)).stdout);
  expect(json.pairs[0].dataset.oldSlug).toBeUndefined();
});
