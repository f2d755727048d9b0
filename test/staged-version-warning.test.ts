/**
 * The pre-commit hook (`update --check --staged`) after `update --version-date … --source-text-url …` with only the
 * markdown staged: the commit is stale and the advice is the `git add` of the regenerated files; it does not warn that
 * versionDate did not change (of the manifest not staged yet), which `update` was just given. Without the working tree
 * regenerated, the warning stays: the markdown changed, and no new version was set.
 */
import { execFileSync } from "node:child_process";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { committedMvfg, GIT_IDENTITY } from "./helpers/git.js";

let dir: string;
let cleanup: () => Promise<void>;
const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: { ...process.env, ...GIT_IDENTITY } });
const MARKDOWN = "fixtures/datasets/mvfg/mvfg.md";
const WARNING = "warning: mvfg: the markdown changed, but versionDate";

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await committedMvfg(dir);
});

afterAll(async () => {
  await cleanup();
});

test("regenerated with a new version, only the markdown staged: no versionDate warning, the git add to run", async () => {
  await appendFile(join(dir, MARKDOWN), "\nNeuer Absatz.\n");
  const updated = await runBin(
    [
      "update",
      "mvfg",
      "--version-date",
      "2024-06-01",
      "--source-text-url",
      "https://www.legislation.gov.au/mvfg/2024-06-01/text",
    ],
    dir,
  );
  expect(updated.code, updated.stderr).toBe(0);
  git("add", MARKDOWN);
  const hook = await runBin(["update", "--check", "--staged"], dir);
  expect(hook.code).toBe(1);
  expect(hook.stderr).not.toContain(WARNING);
  expect(hook.stderr).toContain(
    "not staged: the working tree holds this dataset regenerated, but the commit does not: stage it: `git add .tooling/citation-targets/mvfg.lock.json .tooling/citation-targets/mvfg.jsonl`",
  );
});

test("the markdown amended and staged, nothing regenerated: the warning stays, with the update to run", async () => {
  git("reset", "-q");
  git("checkout", "-q", "--", ".");
  await appendFile(join(dir, MARKDOWN), "\nNoch ein Absatz.\n");
  git("add", MARKDOWN);
  const hook = await runBin(["update", "--check", "--staged"], dir);
  expect(hook.code).toBe(1);
  expect(hook.stderr).toContain(WARNING);
  expect(hook.stderr).toContain(
    "not up to date: run `citation-targets update .tooling/citation-targets/mvfg.lock.json`",
  );
});
