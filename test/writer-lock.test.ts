/**
 * Issue #32, item 2: one writer at a time. `update --recover` while an update renames tore the tree; now every command
 * that writes under the tooling folder (update, update --recover, adopt, lock) takes the writer lock
 * (`.citation-targets-writer.lock`, pid and host): a second writer is refused naming the holder, a holder gone on this
 * host is taken over (said), and a lock file git tracks is ignored with a warning.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { bin, runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const LOCK = ".citation-targets-writer.lock";
const JOURNAL = ".citation-targets-update.journal.json";
const FIELDS = [
  "--title-id",
  "T1",
  "--name",
  "Test Act",
  "--version-date",
  "2024-01-01",
  "--source-text-url",
  "https://www.legislation.gov.au/T1/2024-01-01/text",
];

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const git = (args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.org", "-c", "user.name=T", ...args], { cwd: dir, stdio: "pipe" });

/** A git repository of three datasets, locked and generated, then each one's markdown amended. */
async function datasets(): Promise<void> {
  git(["init", "-q", "."]);
  for (let i = 1; i <= 3; i++) {
    await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, `laws/d${i}`), { recursive: true });
    const locked = await runBin(
      ["lock", `laws/d${i}`, "-o", `.tooling/citation-targets/d${i}.lock.json`, "--slug", `d${i}`, ...FIELDS],
      dir,
    );
    expect(locked.code, locked.stderr).toBe(0);
  }
  expect((await runBin(["update", "--no-cache"], dir)).code).toBe(0);
  for (let i = 1; i <= 3; i++) {
    const file = join(dir, `laws/d${i}/mvfg.md`);
    await writeFile(file, `${await readFile(file, "utf8")}\nNeu ${i}.\n`);
  }
}

async function files(): Promise<string[]> {
  const out: string[] = [];
  for (let i = 1; i <= 3; i++)
    for (const name of [`d${i}.jsonl`, `d${i}.lock.json`])
      out.push(await readFile(join(dir, ".tooling/citation-targets", name), "utf8"));
  return out;
}

/** A lock file as a writer writes it. */
const holder = (pid: number, host = hostname(), command = "update") =>
  `${JSON.stringify({ lock: "citation-targets writer", pid, host, command, token: "0123456789abcdef" })}\n`;

describe("item 2: one writer at a time", () => {
  test("update --recover while an update is in the middle of its renames is refused, naming the update; the update then completes every dataset", async () => {
    await datasets();
    const old = await files();
    const gate = join(dir, "..", `${dir.split("/").pop()}-go`);
    const child = spawn(
      process.execPath,
      ["--import", join(repoRoot, "test/helpers/fail-renames.mjs"), bin, "update", "--no-cache"],
      {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1", PAUSE_RENAME_AT: "3", PAUSE_FILE: gate },
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Paused before its third rename: the journal is written and two files are renamed.
    for (let waited = 0; !existsSync(`${gate}.paused`) && waited < 60_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    const recover = await runBin(["update", "--recover"], dir);
    expect(recover.code).toBe(2);
    expect(recover.stderr).toBe(
      `citation-targets: another citation-targets writes in this repository: ${LOCK} is held by process ${child.pid} (update) on host ${hostname()}; run again once it has ended (if it is gone, remove ${LOCK})\n`,
    );
    for (const argv of [["update"], ["adopt", "laws/*", ...FIELDS]]) {
      const refused = await runBin(argv, dir);
      expect(refused.code, argv.join(" ")).toBe(2);
      expect(refused.stderr, argv.join(" ")).toContain(`${LOCK} is held by process ${child.pid} (update)`);
    }
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    await writeFile(gate, "");
    expect(await ended).toBe(0);
    expect(stderr).not.toContain("nothing was written");
    expect(stderr).not.toContain("writer lock");
    const now = await files();
    for (const [i, text] of now.entries()) expect(text).not.toBe(old[i]); // every file new: none torn
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  }, 120_000);

  test("a lock held by a running process on this host refuses update, update --recover and lock, naming it; --check runs", async () => {
    await datasets();
    await writeFile(join(dir, LOCK), holder(process.pid, hostname(), "adopt"));
    const message = `citation-targets: another citation-targets writes in this repository: ${LOCK} is held by process ${process.pid} (adopt) on host ${hostname()}; run again once it has ended (if it is gone, remove ${LOCK})\n`;
    for (const argv of [
      ["update"],
      ["update", "--recover"],
      ["lock", "laws/d1", "-o", ".tooling/citation-targets/d1.lock.json"],
    ]) {
      const refused = await runBin(argv, dir);
      expect(refused.code, argv.join(" ")).toBe(2);
      expect(refused.stderr, argv.join(" ")).toBe(message);
    }
    expect((await runBin(["update", "--check"], dir)).code).toBe(1); // a check writes nothing: no lock
    expect(await readFile(join(dir, LOCK), "utf8")).toBe(holder(process.pid, hostname(), "adopt"));
  });

  test("a lock on another host is refused, naming the host", async () => {
    await datasets();
    await writeFile(join(dir, LOCK), holder(4242, "ci-runner-7"));
    const refused = await runBin(["update"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`is held by process 4242 (update) on host ci-runner-7`);
  });

  test("a lock whose process is gone on this host is taken over, saying so, and removed at the end", async () => {
    await datasets();
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.on("exit", resolve));
    await writeFile(join(dir, LOCK), holder(gone.pid!));
    const result = await runBin(["update", "--no-cache"], dir);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n").filter((line) => line.includes(LOCK))).toEqual([
      `citation-targets: took over the writer lock ${LOCK} of process ${gone.pid} (update) on host ${hostname()}, which is no longer running`,
    ]);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });

  test("a lock file that git tracks (a pull request's) is ignored with a warning, and left as it is", async () => {
    await datasets();
    await writeFile(join(dir, LOCK), holder(process.pid));
    git(["add", LOCK]);
    const result = await runBin(["update", "--no-cache"], dir);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n").filter((line) => line.includes(LOCK))).toEqual([
      `citation-targets: ${LOCK} is tracked by git: a writer lock is never committed, so it is ignored (remove it: git rm "${LOCK}")`,
    ]);
    expect(await readFile(join(dir, LOCK), "utf8")).toBe(holder(process.pid));
  });

  test("a lock file that is not a writer lock (a FIFO) is refused by name, without waiting on it", async () => {
    await datasets();
    execFileSync("mkfifo", [join(dir, LOCK)]);
    const result = await runBin(["update"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${LOCK} is there but is not a writer lock of citation-targets (not a regular file)`,
    );
  });
});
