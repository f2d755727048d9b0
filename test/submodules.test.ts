/**
 * Issue #32, item 6: a git submodule added inside a dataset folder. The pre-commit hooks' `--staged` saw nothing staged
 * for a dataset; now a staged gitlink under a dataset folder selects that dataset, and lock (refusing) and validate
 * (lock-dataset-files) name the submodule's path: its files are not the dataset's artifacts.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const JSONL = ".tooling/citation-targets/mvfg.jsonl";
const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";
const DATASET = "fixtures/datasets/mvfg";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const git = (args: string[], cwd: string) =>
  execFileSync(
    "git",
    ["-c", "user.email=t@example.org", "-c", "user.name=T", "-c", "protocol.file.allow=always", ...args],
    {
      cwd,
      stdio: "pipe",
    },
  );

/** A repository holding the mvfg dataset, committed, and a submodule (its own markdown) added inside its folder. */
async function withSubmodule(): Promise<string> {
  const repository = join(dir, "repository");
  const other = join(dir, "other");
  await mkdir(other);
  git(["init", "-q", "."], other);
  await writeFile(join(other, "evil.md"), "# 1 Not a law of this dataset\n");
  git(["add", "-A"], other);
  git(["commit", "-q", "-m", "other"], other);
  await mkdir(join(repository, ".tooling/citation-targets"), { recursive: true });
  git(["init", "-q", "."], repository);
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(repository, ".tooling/citation-targets", name));
  await cp(join(repoRoot, DATASET), join(repository, DATASET), { recursive: true });
  git(["add", "-A"], repository);
  git(["commit", "-q", "-m", "dataset"], repository);
  git(["submodule", "add", "-q", other, `${DATASET}/vendor`], repository);
  return repository;
}

const message = `.tooling/citation-targets/mvfg.jsonl\n  0    error    folder "vendor" in the dataset folder ${DATASET} is a git submodule (or another repository), not an artifact: its files are not the dataset's and lock refuses it; move it out of the dataset folder, or leave it out with \`citation-targets lock --ignore 'vendor/**'\`  lock-dataset-files\n`;

describe("item 6: a submodule inside a dataset folder", () => {
  test("update --check --staged and validate --staged select the dataset of a staged gitlink and name the submodule", async () => {
    const repository = await withSubmodule();
    const update = await runBin(["update", "--check", "--staged"], repository);
    expect(update.stderr).not.toContain("nothing staged belongs to a dataset");
    expect(update.code).toBe(1);
    expect(update.stderr).toContain(
      `${MANIFEST}: vendor: a git submodule (or another repository) inside the dataset folder, not an artifact`,
    );
    const validate = await runBin(["validate", "--staged"], repository);
    expect(validate.stderr).not.toContain("nothing staged belongs to a dataset");
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(message);
  });

  test("validate names the submodule (lock-dataset-files), and lock refuses it by name, until it is left out with --ignore", async () => {
    const repository = await withSubmodule();
    const validate = await runBin(["validate", JSONL], repository);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(message);
    expect(validate.stdout).not.toContain("evil.md");
    const lock = await runBin(["lock", DATASET], repository);
    expect(lock.code).toBe(1);
    expect(lock.stderr).toBe(
      "citation-targets: vendor: a git submodule (or another repository) inside the dataset folder, not an artifact: its files are not the dataset's; move it out of the dataset folder, or leave it out with --ignore 'vendor/**'\n",
    );
    expect((await runBin(["lock", DATASET, "--ignore", "vendor/**"], repository)).code).toBe(0);
    const after = await runBin(["validate", JSONL], repository);
    expect(after.stdout).toContain("no problems");
    expect(after.code).toBe(0);
  });

  test("a folder of the dataset that is another clone (.git a folder) is named the same way, with an ignore glob in force too", async () => {
    const repository = await withSubmodule();
    await mkdir(join(repository, DATASET, "drafts"));
    git(["init", "-q", "."], join(repository, DATASET, "drafts"));
    await writeFile(join(repository, DATASET, "drafts/draft.md"), "# Draft\n");
    const lock = await runBin(["lock", DATASET, "--ignore", "vendor/**"], repository);
    expect(lock.code).toBe(1);
    expect(lock.stderr).toContain("citation-targets: drafts: a git submodule (or another repository)");
    expect(lock.stderr).not.toContain("vendor");
  });
});
