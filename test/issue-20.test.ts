/** Issue #20: trusted with other people's data. Each item's promises (SECURITY.md names these tests). */
import { execFileSync } from "node:child_process";
import { chmod, cp, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
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
