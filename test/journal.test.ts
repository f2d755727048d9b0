/**
 * Issue #32, item 1: a committed journal never deletes or renames a file. Recovery acts only on what a run of this tool
 * really wrote (each temporary and backup by device, inode, size and modification time, with the tool's names, beside a
 * target inside the repository after resolving links, never under `.git`); a journal that git tracks is refused; adopt
 * puts the journal's name in `.gitignore` (SECURITY.md, "update is all or nothing").
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { bin, runBin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const JOURNAL = ".citation-targets-update.journal.json";
const JSONL = ".tooling/citation-targets/mvfg.jsonl";
const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";

let dir: string;
let outside: string;
let cleanup: () => Promise<void>;
let cleanupOutside: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  ({ dir: outside, cleanup: cleanupOutside } = await tempDir());
});
afterEach(async () => {
  await cleanup();
  await cleanupOutside();
});

const git = (args: string[], cwd = dir) =>
  execFileSync("git", ["-c", "user.email=t@example.org", "-c", "user.name=T", ...args], { cwd, stdio: "pipe" });

/** A git repository holding the mvfg dataset, committed. */
async function repository(): Promise<void> {
  git(["init", "-q", "."]);
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
  git(["add", "-A"]);
  git(["commit", "-q", "-m", "dataset"]);
}

/** What a journal entry records of a file: here the real identity of the file named, the strongest forgery. */
function recorded(path: string) {
  const info = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return {
    path,
    dev: String(info?.dev ?? 1n),
    ino: String(info?.ino ?? 1n),
    size: String(info?.size ?? 1n),
    mtimeNs: String(info?.mtimeNs ?? 1n),
  };
}

/** An entry that says "renamed, and there was no file before": the target itself, as the temporary renamed. */
function deleting(target: string, folder = join(target, "..")) {
  const name = target.slice(folder.length + 1);
  return { target, temporary: recorded(target), temporaryPath: join(folder, `.${name}.1.0123abcd.tmp`) };
}

async function writeJournal(entries: ReturnType<typeof deleting>[], version = 2): Promise<void> {
  await writeFile(
    join(dir, JOURNAL),
    JSON.stringify({
      journal: "citation-targets update",
      version,
      direction: "back",
      entries: entries.map((e) => ({ target: e.target, temporary: { ...e.temporary, path: e.temporaryPath } })),
    }),
  );
}

/** Every file of the repository (and of `.git`) with its bytes. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name !== JOURNAL) files.set(path, (await readFile(path)).toString("base64"));
    }
  };
  await walk(root);
  return files;
}

describe("item 1: a committed journal deletes nothing", () => {
  test("entries naming .git/HEAD and .git/config (with their real device, inode, size and time) are refused by name, by update --recover and a plain update; nothing is deleted", async () => {
    await repository();
    await writeJournal([deleting(join(dir, ".git/HEAD")), deleting(join(dir, ".git/config"))]);
    const before = await snapshot(dir);
    for (const argv of [["update", "--recover"], ["update"]]) {
      const result = await runBin(argv, dir);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr).toContain(`${JOURNAL} names files which no update of this repository writes`);
      expect(result.stderr).toContain(`"${join(dir, ".git/HEAD")}": under .git`);
      expect(result.stderr).toContain(`"${join(dir, ".git/config")}": under .git`);
      expect(result.stderr).not.toContain("restored");
      expect(await snapshot(dir)).toEqual(before);
    }
    expect(git(["rev-parse", "HEAD"]).toString()).toMatch(/^[0-9a-f]{40}\n$/); // still a repository
  });

  test("an entry under a committed symbolic link to a folder outside is refused: the outside file stays", async () => {
    await repository();
    await writeFile(join(outside, "victim.txt"), "keep me\n");
    await symlink(outside, join(dir, "shared"));
    git(["add", "shared"]);
    git(["commit", "-q", "-m", "link"]);
    await writeJournal([deleting(join(dir, "shared/victim.txt"), join(dir, "shared"))]);
    const result = await runBin(["update", "--recover"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `"${join(dir, "shared/victim.txt")}": its folder resolves to ${outside}, outside the repository`,
    );
    expect(await readFile(join(outside, "victim.txt"), "utf8")).toBe("keep me\n");
  });

  test("an entry inside the repository whose target is not the file the update renamed there is refused; the file stays", async () => {
    await repository();
    const entry = deleting(join(dir, JSONL));
    entry.temporary.ino = String(BigInt(entry.temporary.ino) + 1n); // a file this run never made
    await writeJournal([entry]);
    const result = await runBin(["update", "--recover"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `"${join(dir, JSONL)}": not the file the update renamed there (device, inode, size and modification time)`,
    );
    expect(existsSync(join(dir, JSONL))).toBe(true);
  });

  test("a journal of the shape without identities (version 1, the issue's reproduction) is refused", async () => {
    await repository();
    await writeFile(
      join(dir, JOURNAL),
      JSON.stringify({
        journal: "citation-targets update",
        version: 1,
        direction: "back",
        entries: [
          { temporary: join(dir, ".tooling/citation-targets/.mvfg.jsonl.1.0123abcd.tmp"), target: join(dir, JSONL) },
        ],
      }),
    );
    const result = await runBin(["update", "--recover"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${JOURNAL}: not a journal this version of citation-targets wrote`);
    expect(existsSync(join(dir, JSONL))).toBe(true);
  });

  test("a journal that git tracks is refused by name, however well formed", async () => {
    await repository();
    await writeJournal([deleting(join(dir, JSONL))]);
    git(["add", JOURNAL]);
    const result = await runBin(["update", "--recover"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `citation-targets: ${join(dir, JOURNAL)} is tracked by git: a journal of citation-targets is never committed (a pull request may carry one to delete files), so it is not followed; remove it (git rm ".citation-targets-update.journal.json")\n`,
    );
    expect(existsSync(join(dir, JSONL))).toBe(true);
    // The other commands say what it is, not that an update was interrupted: nothing runs while it is there.
    for (const command of [["validate"], ["update", "--check"]]) {
      const gated = await runBin(command, dir);
      expect(gated.code, command.join(" ")).toBe(2);
      expect(gated.stderr, command.join(" ")).toBe(
        `citation-targets: ${JOURNAL} is tracked by git: a journal of citation-targets is never committed (a pull request may carry one to delete files); nothing runs while it is there, and it is never followed: remove it (git rm ".citation-targets-update.journal.json")\n`,
      );
    }
  });

  test("a journal that is a FIFO or a symbolic link is refused by name, without waiting on it or following it", async () => {
    await repository();
    execFileSync("mkfifo", [join(dir, JOURNAL)]);
    const fifo = await runBin(["update", "--recover"], dir);
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain(`${JOURNAL}: the journal of an interrupted update cannot be read (it is a FIFO`);
    await rm(join(dir, JOURNAL));
    await writeFile(join(outside, "journal.json"), "{}");
    await symlink(join(outside, "journal.json"), join(dir, JOURNAL));
    const linked = await runBin(["update", "--recover"], dir);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain("cannot be read (a symbolic link)");
  });

  test("a real interrupted run's journal whose backup was swapped for another file (same name and bytes) is refused, naming the backup", async () => {
    await repository();
    await writeFile(
      join(dir, "fixtures/datasets/mvfg/mvfg.md"),
      `${await readFile(join(dir, "fixtures/datasets/mvfg/mvfg.md"), "utf8")}\nNeu.\n`,
    );
    const failed = await runCommand(
      process.execPath,
      ["--import", join(repoRoot, "test/helpers/fail-renames.mjs"), bin, "update", "--no-cache"],
      dir,
      { FAIL_RENAME_FROM: "2" },
    );
    expect(failed.code).toBe(2);
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    const journal = JSON.parse(await readFile(join(dir, JOURNAL), "utf8")) as {
      entries: { target: string; backup?: { path: string } }[];
    };
    const backup = journal.entries.find((e) => e.target === join(dir, MANIFEST))!.backup!.path;
    const original = await readFile(backup);
    await rm(backup);
    await writeFile(backup, original); // the same name and bytes, another file
    const refused = await runBin(["update", "--recover"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `"${backup}": not the file the journal recorded (device, inode, size and modification time)`,
    );
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    expect(await readFile(backup)).toEqual(original);
  });
});

describe("a dataset file that is a committed symbolic link", () => {
  const amend = async () =>
    writeFile(
      join(dir, "fixtures/datasets/mvfg/mvfg.md"),
      `${await readFile(join(dir, "fixtures/datasets/mvfg/mvfg.md"), "utf8")}\nNeu.\n`,
    );
  const leftovers = async () =>
    (await readdir(join(dir, ".tooling/citation-targets"))).filter((name) => /\.(bak|tmp)$/.test(name));

  test("a link is replaced by the file written, never written through: the files it led to (data, a hook) stay as they were; no backup is left", async () => {
    await repository();
    await mkdir(join(dir, "data"));
    await mkdir(join(dir, ".husky"));
    await cp(join(dir, JSONL), join(dir, "data/mvfg.jsonl"));
    await writeFile(join(dir, ".husky/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    await cp(join(dir, MANIFEST), join(dir, "data/mvfg.lock.json"));
    // The JSONL a link to a hook (a pull request's), the manifest a link to a copy of itself in the repository.
    await rm(join(dir, JSONL));
    await symlink("../../.husky/pre-commit", join(dir, JSONL));
    await rm(join(dir, MANIFEST));
    await symlink("../../data/mvfg.lock.json", join(dir, MANIFEST));
    git(["add", "-A"]);
    git(["commit", "-q", "-m", "links"]);
    const kept = {
      hook: await readFile(join(dir, ".husky/pre-commit")),
      data: await readFile(join(dir, "data/mvfg.jsonl")),
      manifest: await readFile(join(dir, "data/mvfg.lock.json")),
    };
    await amend();
    const updated = await runBin(["update", "--no-cache"], dir);
    expect(updated.code, updated.stderr).toBe(0);
    for (const path of [JSONL, MANIFEST]) expect(lstatSync(join(dir, path)).isFile(), path).toBe(true);
    expect(await readFile(join(dir, ".husky/pre-commit"))).toEqual(kept.hook);
    expect(await readFile(join(dir, "data/mvfg.jsonl"))).toEqual(kept.data);
    expect(await readFile(join(dir, "data/mvfg.lock.json"))).toEqual(kept.manifest);
    expect(await leftovers()).toEqual([]);
    expect((await runBin(["validate", "--no-cache"], dir)).code).toBe(0);
  });

  test("a dangling link in the JSONL's place is replaced by the file; its backup goes on success, and comes back when the renames are undone", async () => {
    await repository();
    await rm(join(dir, JSONL));
    await symlink("../../data/gone.jsonl", join(dir, JSONL));
    await amend();
    const failed = await runCommand(
      process.execPath,
      ["--import", join(repoRoot, "test/helpers/fail-renames.mjs"), bin, "update", "--no-cache"],
      dir,
      { FAIL_RENAME_AT: "2" },
    );
    expect(failed.code).toBe(2);
    // Undone: the link is back as it was, and neither backup nor journal is left.
    expect(lstatSync(join(dir, JSONL)).isSymbolicLink()).toBe(true);
    expect(await leftovers()).toEqual([]);
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    const updated = await runBin(["update", "--no-cache"], dir);
    expect(updated.code).toBe(0);
    expect(lstatSync(join(dir, JSONL)).isFile()).toBe(true);
    expect(await leftovers()).toEqual([]);
    expect((await runBin(["validate", "--no-cache"], dir)).code).toBe(0);
  });
});

describe("item 1: adopt keeps the journal and the writer lock out of git", () => {
  test("adopt adds both names to the repository's .gitignore, once, keeping what it holds", async () => {
    git(["init", "-q", "."]);
    await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "laws/mvfg"), { recursive: true });
    await writeFile(join(dir, ".gitignore"), "node_modules");
    const argv = [
      "adopt",
      "laws/*",
      "--title-id",
      "T1",
      "--name",
      "Test Act",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.legislation.gov.au/{folder}/2024-01-01/text",
    ];
    expect((await runBin(argv, dir)).code).toBe(0);
    const expected = "node_modules\n/.citation-targets-update.journal.json\n/.citation-targets-writer.lock\n";
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe(expected);
    expect((await runBin(argv, dir)).code).toBe(0);
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe(expected);
    expect(git(["check-ignore", JOURNAL]).toString()).toBe(`${JOURNAL}\n`);
  });
});
