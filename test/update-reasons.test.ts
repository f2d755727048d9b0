/**
 * `update --check` says why a dataset is not up to date when no record changed (README, "update"; docs/spec.md,
 * section 15): the first line not as generate writes it, or a JSONL that is not there.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";

let dir: string;
let cleanup: () => Promise<void>;
const jsonl = () => join(dir, ".tooling/citation-targets/gg.jsonl");
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    ".git/HEAD": "ref: refs/heads/main\n",
    "law/index.md": "# Gesetz\n\n## § 1 Eins\n\nText.\n\n## § 2 Zwei\n\nText.\n",
  });
  const fields = ["--slug", "gg", "--title-id", "GG", "--name", "GG", "--version-date", "2024-01-01"];
  const locked = await runMain(
    ["lock", "law", ...fields, "--source-text-url", "https://www.legislation.gov.au/gg/text"],
    dir,
  );
  expect(locked.code, locked.stderr).toBe(0);
  expect((await runMain(["generate", "gg", "-o", ".tooling/citation-targets/gg.jsonl"], dir)).code).toBe(0);
});
afterEach(async () => cleanup());

test("a record edited by hand into another form: no record changed, and the line named", async () => {
  const lines = (await readFile(jsonl(), "utf8")).split("\n");
  lines[2] = lines[2]!.replace(/^\{"/, '{ "');
  await writeFile(jsonl(), lines.join("\n"));
  const text = await runMain(["update", "--check", "gg"], dir);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain("records: 0 added, 0 removed, 0 changed (3 before, 3 after)");
  expect(text.stdout).toContain(
    "no record changed, but line 3 of the old file is not as generate writes it (edited by hand? validate names how, e.g. non-canonical): regenerating rewrites it",
  );
  const json = JSON.parse((await runMain(["update", "--check", "gg", "--format", "json"], dir)).stdout);
  expect(json.datasets[0].records.firstDifferentLine).toBe(3);
  // Up to date again once updated: the line is no more.
  expect((await runMain(["update", "gg"], dir)).code).toBe(0);
  const again = JSON.parse((await runMain(["update", "--check", "gg", "--format", "json"], dir)).stdout);
  expect(again.datasets[0].status).toBe("up-to-date");
  expect(again.datasets[0].records).not.toHaveProperty("firstDifferentLine");
});

test("a new version rewrites every line for its ids: no line is said to be edited by hand", async () => {
  const updated = await runMain(["update", "gg", "--version-date", "2025-01-01", "--check"], dir);
  expect(updated.code).toBe(1);
  expect(updated.stdout).toContain("versionDate: 2024-01-01 → 2025-01-01");
  expect(updated.stdout).not.toContain("edited by hand");
});

test("a JSONL deleted: said so, with what to do if the law was withdrawn", async () => {
  await rm(jsonl());
  const text = await runMain(["update", "--check", "gg"], dir);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain(
    ".tooling/citation-targets/gg.jsonl is not there (not generated yet, or deleted?): update writes it; if the law was withdrawn, remove its lock manifest too (git rm .tooling/citation-targets/gg.lock.json)",
  );
  const json = JSON.parse((await runMain(["update", "--check", "gg", "--format", "json"], dir)).stdout);
  expect(json.datasets[0].outputMissing).toBe(true);
  expect(json.datasets[0].records).not.toHaveProperty("firstDifferentLine");
  // update itself writes it, saying nothing of a deletion (after lock, a JSONL was never there).
  const written = await runMain(["update", "gg"], dir);
  expect(written.code).toBe(0);
  expect(written.stdout).not.toContain("is not there");
});
