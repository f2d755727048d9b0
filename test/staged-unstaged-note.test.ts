/**
 * `validate --staged` checks the working tree: when it finds a problem in a dataset whose files hold edits that are not
 * staged, it says so (the finding may be in them and not in the commit), and how to check what the commit holds. When
 * nothing of those datasets is unstaged it says nothing more (nor, without asking git, when it finds nothing).
 */
import { execFileSync } from "node:child_process";
import { appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { committedMvfg, GIT_IDENTITY } from "./helpers/git.js";

let dir: string;
let cleanup: () => Promise<void>;
const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: { ...process.env, ...GIT_IDENTITY } });
const MARKDOWN = "fixtures/datasets/mvfg/mvfg.md";
const NOTE = "note: 1 file of these datasets has changes that are not staged (fixtures/datasets/mvfg/mvfg.md)";

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await committedMvfg(dir);
});
afterAll(async () => cleanup());

test("a problem in a dataset with unstaged edits is said with them; without them, not", async () => {
  // The law amended and staged without update (the JSONL stale), then edited again and not staged.
  await appendFile(join(dir, MARKDOWN), "\nEin neuer Satz.\n");
  git("add", MARKDOWN);
  await appendFile(join(dir, MARKDOWN), "\nNoch ein Satz.\n");
  const stale = await runBin(["validate", "--staged"], dir);
  expect(stale.code).toBe(1);
  expect(stale.stdout).toContain("lock-artifact-body");
  expect(stale.stderr).toContain(NOTE);
  expect(stale.stderr).toContain("git stash --keep-index");
  // The second edit set aside: the working tree is what the commit holds, still stale, and nothing more is said.
  git("stash", "-q", "--keep-index");
  const staged = await runBin(["validate", "--staged"], dir);
  expect(staged.code).toBe(1);
  expect(staged.stdout).toContain("lock-artifact-body");
  expect(staged.stderr).not.toContain("not staged");
  git("stash", "drop", "-q");
  // An untracked file in the dataset folder is read too (an unlisted file): named, and set aside with it.
  await writeFile(join(dir, "fixtures/datasets/mvfg/notes\u001b[31m.md"), "Entwurf.\n");
  const untracked = await runBin(["validate", "--staged"], dir);
  expect(untracked.code).toBe(1);
  expect(untracked.stderr).toContain("note: 1 file of these datasets has changes that are not staged");
  expect(untracked.stderr).toContain("notes\\u001b[31m.md"); // its control character shown escaped, never raw
  expect(untracked.stderr).not.toContain("\u001b");
  expect(untracked.stderr).toContain("git stash --keep-index --include-untracked");
  // From a subfolder, the file is named from there, as the report names files.
  const below = await runBin(["validate", "--staged"], join(dir, "fixtures"));
  expect(below.stderr).toContain("(datasets/mvfg/notes\\u001b[31m.md)");
});
