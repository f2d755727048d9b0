/** Issue #20: trusted with other people's data. Each item's promises (SECURITY.md names these tests). */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { bin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

async function cli(argv: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await main({ argv, cwd, env: {}, stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  execFileSync("chmod", ["-R", "u+rwX", dir]);
  await cleanup();
});

/** A repository (a `.git` folder) holding the mvfg dataset: `.tooling/citation-targets/mvfg.{jsonl,lock.json}` and `fixtures/datasets/mvfg`. */
async function repository(): Promise<string> {
  await chmod(dir, 0o755);
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"]) await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
  return dir;
}

const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";
const JSONL = ".tooling/citation-targets/mvfg.jsonl";

/** Root reads everything: as root, the built bin runs as nobody (setpriv), so that a folder's permissions apply. */
const isRoot = process.getuid?.() === 0;
function hasSetpriv(): boolean {
  try {
    execFileSync("setpriv", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const canDropRoot = !isRoot || hasSetpriv();
function runUnprivileged(args: string[], cwd: string) {
  if (!isRoot) return runCommand(process.execPath, [bin, ...args], cwd);
  return runCommand("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, bin, ...args], cwd);
}

describe("item 1: validate never passes with a check that could not run", () => {
  test.runIf(canDropRoot)("an unreadable subfolder next to a tampered artifact is an error on the file, naming the folder (run as another user)", async () => {
    await repository();
    const markdown = join(dir, "fixtures/datasets/mvfg/mvfg.md");
    await writeFile(markdown, `${await readFile(markdown, "utf8")}\nTampered.\n`);
    await mkdir(join(dir, "fixtures/datasets/mvfg/drafts"));
    await writeFile(join(dir, "fixtures/datasets/mvfg/drafts/draft.md"), "# Draft\n");
    await chmod(join(dir, "fixtures/datasets/mvfg/drafts"), 0o000);
    const result = await runUnprivileged(["validate", JSONL], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain("no problems");
    expect(result.stdout).toContain(`the artifact checks of ${MANIFEST} (dataset folder fixtures/datasets/mvfg) could not run: cannot read the folder drafts: permission denied`);
  });

  test.runIf(canDropRoot)("an unreadable artifact is an error on the file, naming it", async () => {
    await repository();
    await chmod(join(dir, "fixtures/datasets/mvfg/mvfg.md"), 0o000);
    const result = await runUnprivileged(["validate", JSONL], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("could not run: mvfg.md: cannot read mvfg.md: permission denied");
  });

  test("a dataset folder with many unlisted markdown files is walked without recursion or spread (a small stack stands for a huge folder)", async () => {
    await repository();
    const many = join(dir, "fixtures/datasets/mvfg/many");
    await mkdir(many);
    for (let i = 0; i < 20_000; i++) await writeFile(join(many, `f${i}.md`), "");
    const result = await runCommand(process.execPath, ["--stack-size=120", bin, "validate", JSONL, "--format", "json"], dir);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    expect(report.files[0].error).toBeUndefined();
    expect(report.files[0].problems.filter((p: { ruleId: string }) => p.ruleId === "lock-dataset-files").length).toBeGreaterThan(0);
  }, 60_000);
});

describe("item 4: only regular files are read", () => {
  test("validate /dev/zero, and a JSONL symlinked to it, are refused by name", async () => {
    const result = await cli(["validate", "--no-lock", "/dev/zero"], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("cannot read /dev/zero: it is a character device, not a regular file: only regular files are read");
    await symlink("/dev/zero", join(dir, "zero.jsonl"));
    const linked = await cli(["validate", "--no-lock", "zero.jsonl"], dir);
    expect(linked.code).toBe(2);
    expect(linked.stdout).toContain("cannot read zero.jsonl: it is a character device, not a regular file");
  });

  test("a FIFO as the JSONL, as --schema, --lock, --config or an artifact is refused by name, never waited on", async () => {
    await repository();
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const asJsonl = await cli(["validate", "--no-lock", "fifo"], dir);
    expect(asJsonl.stdout).toContain("cannot read fifo: it is a FIFO (named pipe), not a regular file");
    for (const option of ["--schema", "--lock", "--config"]) {
      const result = await cli(["validate", JSONL, option, "fifo"], dir);
      expect(result.code, option).toBe(2);
      expect(`${result.stdout}${result.stderr}`, option).toContain("it is a FIFO (named pipe), not a regular file");
    }
    await rm(join(dir, "fixtures/datasets/mvfg/mvfg.md"));
    execFileSync("mkfifo", [join(dir, "fixtures/datasets/mvfg/mvfg.md")]);
    const artifact = await cli(["validate", JSONL], dir);
    expect(artifact.code).toBe(2);
    expect(artifact.stdout).toContain("could not run: mvfg.md: cannot read mvfg.md: it is a FIFO (named pipe), not a regular file");
    const generated = await cli(["generate", MANIFEST], dir);
    expect(generated.code).not.toBe(0);
    expect(generated.stderr).toContain("mvfg.md");
    expect(generated.stderr).toContain("not a regular file");
  });
});

const FIELDS = ["--title-id", "T1", "--name", "Test Act", "--version-date", "2024-01-01", "--source-text-url", "https://www.legislation.gov.au/T1/2024-01-01/text"];
const DATASETS = 9;

/** A repository of nine datasets (d1 … d9, each a copy of the mvfg markdown), locked and generated; then every dataset's markdown amended, so that an update changes all eighteen files. */
async function nineDatasets(root: string): Promise<void> {
  await mkdir(join(root, ".git"), { recursive: true });
  for (let i = 1; i <= DATASETS; i++) {
    await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(root, `fixtures/d${i}`), { recursive: true });
    expect((await cli(["lock", `fixtures/d${i}`, "-o", `.tooling/citation-targets/d${i}.lock.json`, "--slug", `d${i}`, ...FIELDS], root)).code).toBe(0);
  }
  expect((await cli(["update", "--no-cache"], root)).code).toBe(0);
  for (let i = 1; i <= DATASETS; i++) await writeFile(join(root, `fixtures/d${i}/mvfg.md`), `${await readFile(join(root, `fixtures/d${i}/mvfg.md`), "utf8")}\nNeu ${i}.\n`);
}

/** The eighteen dataset files' contents, by name. */
async function datasetFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (let i = 1; i <= DATASETS; i++) for (const name of [`d${i}.jsonl`, `d${i}.lock.json`]) files.set(name, await readFile(join(root, ".tooling/citation-targets", name), "utf8"));
  return files;
}

/** "old" when every dataset file is as before, "new" when every one is as a full update writes it; anything else is a torn update. */
function stateOf(now: Map<string, string>, old: Map<string, string>, fresh: Map<string, string>): string {
  const names = [...now.keys()];
  if (names.every((name) => now.get(name) === old.get(name))) return "old";
  if (names.every((name) => now.get(name) === fresh.get(name))) return "new";
  return `torn: ${names.filter((name) => now.get(name) === fresh.get(name)).join(", ")} new`;
}

async function restore(root: string, files: Map<string, string>): Promise<void> {
  for (const [name, text] of files) await writeFile(join(root, ".tooling/citation-targets", name), text);
}

const failRenames = join(repoRoot, "test/helpers/fail-renames.mjs");
const JOURNAL = ".citation-targets-update.journal.json";

describe("item 3: update is all or nothing across datasets", () => {
  test("a rename failing on the third file (injected EIO) restores the two renamed before it: nothing is written, nothing is left", async () => {
    await nineDatasets(dir);
    const old = await datasetFiles(dir);
    const result = await runCommand(process.execPath, ["--import", failRenames, bin, "update", "--no-cache"], dir, { FAIL_RENAME_AT: "3" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot write .*: input\/output error\ncitation-targets: nothing was written\n$/);
    expect(stateOf(await datasetFiles(dir), old, old)).toBe("old");
    const leftovers = (await readdir(join(dir, ".tooling/citation-targets"))).filter((name) => name.startsWith("."));
    expect(leftovers).toEqual([]);
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
  });

  test("when restoring fails too, the journal stays: every command names it, and update --recover rolls it back", async () => {
    await nineDatasets(dir);
    const old = await datasetFiles(dir);
    const result = await runCommand(process.execPath, ["--import", failRenames, bin, "update", "--no-cache"], dir, { FAIL_RENAME_FROM: "3" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("could not be restored");
    expect(result.stderr).toContain("citation-targets update --recover");
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    const pending = `citation-targets: an interrupted update left its journal ${JOURNAL}: the datasets it names are half renamed until \`citation-targets update --recover\` completes it (nothing else runs until then)\n`;
    for (const argv of [["validate"], ["generate", ".tooling/citation-targets/d1.lock.json"], ["lock", "fixtures/d1"], ["diff", "a.jsonl", "b.jsonl"], ["update", "--check"]]) {
      const refused = await cli(argv, dir);
      expect(refused.code, argv.join(" ")).toBe(2);
      expect(refused.stderr, argv.join(" ")).toBe(pending);
    }
    const recovered = await cli(["update", "--recover"], dir);
    expect(recovered.code).toBe(0);
    expect(recovered.stderr).toBe(`citation-targets: completed the interrupted update of ${JOURNAL}: 18 files restored as they were (rolled back)\n`);
    expect(stateOf(await datasetFiles(dir), old, old)).toBe("old");
    expect((await readdir(join(dir, ".tooling/citation-targets"))).filter((name) => name.startsWith("."))).toEqual([]);
    expect((await cli(["update", "--recover"], dir)).stderr).toBe("citation-targets: no interrupted update to complete\n");
  });

  test("SIGTERM, SIGINT and SIGKILL at spread-out moments: after the run (and, after a SIGKILL, the next one) every dataset is old or every one new", async () => {
    await nineDatasets(dir);
    const old = await datasetFiles(dir);
    expect((await cli(["update", "--no-cache"], dir)).code).toBe(0);
    const fresh = await datasetFiles(dir);
    await restore(dir, old);
    // The moments are spread over how long a whole run takes here (measured once, never asserted), start-up included.
    const started = performance.now();
    await runAndSignal(["update", "--check", "--no-cache"], dir, 60_000, "SIGKILL");
    const whole = performance.now() - started;
    const signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGKILL"];
    const seen = new Set<string>();
    for (const [i, share] of [0.1, 0.95, 0.5, 0.85, 0.3, 1.0, 0.7, 0.9, 0.6, 0.8, 0.97, 0.75].entries()) {
      const ms = Math.round(whole * share);
      await runAndSignal(["update", "--no-cache"], dir, ms, signals[i % 3]!);
      if (existsSync(join(dir, JOURNAL))) {
        seen.add("journal");
        expect((await cli(["validate"], dir)).code).toBe(2);
        expect((await cli(["update", "--recover"], dir)).code).toBe(0);
      }
      const state = stateOf(await datasetFiles(dir), old, fresh);
      expect(state).not.toMatch(/^torn/);
      seen.add(state);
      await restore(dir, old);
    }
  }, 120_000);
});

/** Runs the built bin and sends it `signal` after `ms` milliseconds (unless it is done by then). */
function runAndSignal(args: string[], cwd: string, ms: number, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: "ignore" });
    const timer = setTimeout(() => child.kill(signal), ms);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe("item 5: outputs never over inputs", () => {
  test("generate -o onto its manifest or an artifact, and validate --output-file onto the file checked, are refused, naming the input; nothing changes", async () => {
    await repository();
    const manifest = await readFile(join(dir, MANIFEST), "utf8");
    const markdown = await readFile(join(dir, "fixtures/datasets/mvfg/mvfg.md"), "utf8");
    const jsonl = await readFile(join(dir, JSONL), "utf8");
    const overManifest = await cli(["generate", MANIFEST, "-o", MANIFEST], dir);
    expect(overManifest.code).toBe(2);
    expect(overManifest.stderr).toBe(`citation-targets: refusing to write ${MANIFEST}: it is the lock manifest ${MANIFEST}, an input of this run; write the output elsewhere\n`);
    const overArtifact = await cli(["generate", MANIFEST, "-o", "fixtures/datasets/mvfg/mvfg.md"], dir);
    expect(overArtifact.code).toBe(2);
    expect(overArtifact.stderr).toContain(`it is the artifact mvfg.md of ${MANIFEST}, an input of this run`);
    const overChecked = await cli(["validate", JSONL, "--output-file", JSONL], dir);
    expect(overChecked.code).toBe(2);
    expect(overChecked.stderr).toContain(`refusing to write ${JSONL}: it is the file checked ${JSONL}, an input of this run`);
    const overLock = await cli(["validate", JSONL, "--output-file", MANIFEST], dir);
    expect(overLock.stderr).toContain(`it is the lock manifest ${MANIFEST}, an input of this run`);
    expect(await readFile(join(dir, MANIFEST), "utf8")).toBe(manifest);
    expect(await readFile(join(dir, "fixtures/datasets/mvfg/mvfg.md"), "utf8")).toBe(markdown);
    expect(await readFile(join(dir, JSONL), "utf8")).toBe(jsonl);
  });

  test("a replaced output keeps its mode and group", async () => {
    await repository();
    const output = join(dir, "out.jsonl");
    await writeFile(output, "old\n");
    await chmod(output, 0o664);
    if (isRoot) execFileSync("chown", ["0:65534", output]);
    expect((await cli(["generate", MANIFEST, "-o", "out.jsonl"], dir)).code).toBe(0);
    const info = await stat(output);
    expect(info.mode & 0o777).toBe(0o664);
    if (isRoot) expect(info.gid).toBe(65534);
  });

  test("a folder named like a stale temporary file does not stop generate -o", async () => {
    await repository();
    await mkdir(join(dir, "out/.x.jsonl.999999999.0123abcd.tmp"), { recursive: true });
    const result = await cli(["generate", MANIFEST, "-o", "out/x.jsonl"], dir);
    expect(result.stderr).toBe("citation-targets: wrote out/x.jsonl (21 records)\n");
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "out/.x.jsonl.999999999.0123abcd.tmp"))).toBe(true);
  });
});
