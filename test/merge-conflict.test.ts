/**
 * Generated files left in a git merge conflict (two branches amended one law, git merged the markdown and not the
 * JSONL or its manifest): every command says so and what to do, and the records are checked against the host the
 * manifest names, not the default one (docs/spec.md, "json-syntax"; README, "Exit codes").
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { conflictMarkerLines, isConflictMarker } from "../src/core/lines.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => cleanup());

/** Both sides of a conflict of `text` (`ours` and `theirs` replace line `at`), as git writes it. */
function conflicted(text: string, ours: string, theirs: string): string {
  return text.replace(ours, `<<<<<<< HEAD\n${ours}=======\n${theirs}>>>>>>> b\n`);
}

test("conflict markers: the three kinds, alone or with a label; not a longer run or a setext underline of six", () => {
  expect(["<<<<<<< HEAD", "=======", ">>>>>>> b", ">>>>>>>", "=======\r", "||||||| base"].every(isConflictMarker)).toBe(
    true,
  );
  expect(["========", "======", "<<<<<<<<", ">>>>>>>x", " ======="].some(isConflictMarker)).toBe(false);
  expect(conflictMarkerLines("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> x\n")).toEqual([2, 4, 6]);
});

test("validate and update of a JSONL and manifest in conflict: the advice, and no problem of another host", async () => {
  await writeTree(dir, {
    ".git/HEAD": "ref: refs/heads/main\n",
    "law/index.md": "# § 1 Eins\n\nText.\n\n# § 2 Zwei\n\nText.\n",
  });
  const locked = await runMain(
    [
      "lock",
      "law",
      "--slug",
      "gg",
      "--title-id",
      "GG",
      "--name",
      "GG",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.gesetze-im-internet.de/gg/",
      "--legislation-host",
      "www.gesetze-im-internet.de",
    ],
    dir,
  );
  expect(locked.code, locked.stderr).toBe(0);
  expect((await runMain(["generate", "gg", "-o", ".tooling/citation-targets/gg.jsonl"], dir)).code).toBe(0);
  const jsonl = join(dir, ".tooling/citation-targets/gg.jsonl");
  const manifest = join(dir, ".tooling/citation-targets/gg.lock.json");
  const lines = (await readFile(jsonl, "utf8")).split(/(?<=\n)/);
  await writeFile(jsonl, conflicted(lines.join(""), lines.at(-1)!, lines.at(-1)!.replace("Text.", "Neu.")));
  const manifestText = await readFile(manifest, "utf8");
  const digestLine = manifestText.split(/(?<=\n)/).find((l) => l.includes('"datasetDigest"'))!;
  await writeFile(
    manifest,
    conflicted(manifestText, digestLine, digestLine.replace(/"[0-9a-f]{64}"/, `"${"0".repeat(64)}"`)),
  );

  const validated = await runMain(["validate", ".tooling/citation-targets/gg.jsonl"], dir);
  expect(validated.code).toBe(2);
  expect(validated.stdout).toContain(
    "invalid JSON: a git merge conflict marker: generated files are not merged by hand",
  );
  expect(validated.stdout).toContain("git checkout --ours -- FILES, or --theirs");
  // The manifest names its host: the records are not held to the default one (www.legislation.gov.au).
  expect(validated.stdout).not.toContain("www.legislation.gov.au");
  expect(validated.stderr + validated.stdout).toMatch(
    /gg\.lock\.json holds a git merge conflict \(markers on lines \d+, \d+, \d+\)/,
  );

  // diff and view refuse the JSONL: compared or shown, it would hold both sides' records.
  await writeFile(join(dir, "old.jsonl"), lines.join(""));
  const diffed = await runMain(["diff", "old.jsonl", ".tooling/citation-targets/gg.jsonl"], dir);
  expect(diffed.code).toBe(2);
  expect(diffed.stderr).toContain(".tooling/citation-targets/gg.jsonl holds a git merge conflict (3 marker lines)");
  const viewed = await runMain(["view", ".tooling/citation-targets/gg.jsonl", "-o", "page.html"], dir);
  expect(viewed.code).toBe(2);
  expect(viewed.stderr).toContain("holds a git merge conflict (3 marker lines)");

  const updated = await runMain(["update", "gg"], dir);
  expect(updated.code).toBe(2);
  expect(updated.stderr).toMatch(
    /lock manifest \.tooling\/citation-targets\/gg\.lock\.json holds a git merge conflict \(markers on lines \d+, \d+, \d+\): generated files are not merged by hand/,
  );
});

test("a config in conflict is told to be resolved, not regenerated", async () => {
  await writeTree(dir, {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".citation-targets.json":
      '<<<<<<< HEAD\n{ "legislationHost": "a.example" }\n=======\n{ "legislationHost": "b.example" }\n>>>>>>> b\n',
  });
  const run = await runMain(["validate"], dir);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("holds a git merge conflict (markers on lines 1, 3, 5): resolve the conflict");
  expect(run.stderr).not.toContain("generated files");
});
