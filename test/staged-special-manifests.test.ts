// `--staged` reads every lock manifest of the default folder to map a staged markdown file to its datasets
// (src/node/git/staged.ts, datasetRootOf): one that is a FIFO or a link to a device, committed by someone else, is
// refused, named by update, and never waited on.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { datasetRootOf, readSmallText } from "../src/node/files/files.js";
import { runCommand, runMain } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const HOST = "www.gesetze-im-internet.de";
const git = (args: string[], cwd: string) =>
  runCommand(
    "git",
    ["-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args],
    cwd,
  );

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** A git repository (on `main`) with one law, laws/gg, adopted and committed. */
async function adoptedRepository(): Promise<void> {
  await git(["init", "-q", "-b", "main"], dir);
  await writeTree(dir, { "laws/gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n" });
  const adopted = await runMain(
    ["adopt", "laws/*", "--title-id", "{folder|upper}", "--name", "{folder}", "--version-date", "2024-01-01"].concat([
      "--source-text-url",
      `https://${HOST}/{folder}/`,
      "--legislation-host",
      HOST,
    ]),
    dir,
  );
  expect(adopted.code, adopted.stderr).toBe(0);
  await git(["add", "-A"], dir);
  await git(["commit", "-qm", "adopt"], dir);
}

describe("the manifests --staged reads", () => {
  test("readSmallText reads a regular file of any size and refuses a FIFO or a device without waiting", async () => {
    // Past the buffer of the thread, with a two-byte character across its end.
    const text = `${"a".repeat(64 * 1024 - 1)}\u00e4${"b".repeat(10)}`;
    writeFileSync(join(dir, "large.json"), text);
    expect(readSmallText(join(dir, "large.json"))).toBe(text);
    // Read by the size its stat gives: exactly the buffer's size, one byte, none.
    for (const sized of ["x".repeat(64 * 1024), "y", ""]) {
      writeFileSync(join(dir, "sized.json"), sized);
      expect(readSmallText(join(dir, "sized.json"))).toBe(sized);
    }
    // A file whose stat says 0 bytes but that holds some, given in pieces of a page (/proc's): read to its end.
    if (process.platform === "linux") {
      const maps = readSmallText("/proc/self/maps");
      expect(maps.length).toBeGreaterThan(4096);
      expect(maps).toMatch(/\[stack\]\n/);
    }
    writeFileSync(join(dir, "small.json"), '{"datasetRoot":"../laws/a"}');
    expect(datasetRootOf(join(dir, "small.json"))).toBe(join(dir, "..", "laws/a"));
    execFileSync("mkfifo", [join(dir, "fifo.lock.json")]);
    await symlink("/dev/zero", join(dir, "zero.lock.json"));
    for (const name of ["fifo.lock.json", "zero.lock.json"]) {
      expect(() => readSmallText(join(dir, name))).toThrow(/not a regular file/);
      expect(datasetRootOf(join(dir, name))).toBeUndefined();
    }
  });

  test("update --check --staged with a FIFO among the manifests ends, naming it", async () => {
    await adoptedRepository();
    execFileSync("mkfifo", [join(dir, ".tooling/citation-targets/zz.lock.json")]);
    await writeFile(join(dir, "laws/gg/index.md"), "# Grundgesetz\n\n## Art 1\n\nText, geändert.\n");
    await git(["add", "laws/gg/index.md"], dir);
    // The built CLI in a child process: before, it waited for ever on the FIFO (readFileSync).
    const checked = await runCommand(
      process.execPath,
      [join(repoRoot, "bin/citation-targets.js"), "update", "--check", "--staged"],
      dir,
    );
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain("zz.lock.json");
  }, 30_000);

  test("a merge stopped at a conflict: validate --staged and update --check --staged say so once (exit 2), never 'no problems'", async () => {
    await adoptedRepository();
    await git(["checkout", "-qb", "side"], dir);
    await writeFile(join(dir, "laws/gg/index.md"), "# Grundgesetz\n\n## Art 1\n\nText, so.\n");
    expect((await runMain(["update"], dir)).code).toBe(0);
    await git(["commit", "-qam", "side"], dir);
    await git(["checkout", "-q", "main"], dir);
    await writeFile(join(dir, "laws/gg/index.md"), "# Grundgesetz\n\n## Art 1\n\nText, anders.\n");
    expect((await runMain(["update"], dir)).code).toBe(0);
    await git(["commit", "-qam", "main"], dir);
    await git(["merge", "-q", "side"], dir); // stops at the conflicts
    for (const args of [
      ["validate", "--staged"],
      ["update", "--check", "--staged"],
    ]) {
      const run = await runMain(args, dir);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout, args.join(" ")).toBe("");
      expect(run.stderr, args.join(" ")).toBe(
        "citation-targets: --staged: the index holds unmerged paths (a merge or rebase stopped at a conflict): .tooling/citation-targets/gg.jsonl, .tooling/citation-targets/gg.lock.json, laws/gg/index.md: resolve the conflicts and stage the files (git add), then check again\n",
      );
    }
  }, 30_000);

  test("a staged lock manifest broken by hand (not JSON) is checked with its JSONL and said: validate --staged fails", async () => {
    await adoptedRepository();
    await writeFile(join(dir, ".tooling/citation-targets/gg.lock.json"), '{"slug": "gg",\n');
    await git(["add", "-A"], dir);
    const run = await runMain(["validate", "--staged", "--format", "json"], dir);
    expect(run.code).toBe(2);
    const files = (JSON.parse(run.stdout) as { files: { path: string; error?: string }[] }).files;
    expect(files.map((f) => f.path)).toEqual([".tooling/citation-targets/gg.jsonl"]);
    expect(files[0]!.error).toContain(".tooling/citation-targets/gg.lock.json");
  }, 30_000);
});
