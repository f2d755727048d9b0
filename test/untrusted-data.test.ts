/** Trusted with other people's data: the promises of SECURITY.md that these tests hold (SECURITY.md names each block). */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, onTestFinished, test } from "vitest";
import { bin, canDropRoot, isRoot, runCommand, runUnprivileged, runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const cli = runMain;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  execFileSync("chmod", ["-R", "u+rwX", dir]);
  await cleanup();
});

/**
 * A repository (a `.git` folder) holding the mvfg dataset: `.tooling/citation-targets/mvfg.{jsonl,lock.json}` and
 * `fixtures/datasets/mvfg`.
 */
async function repository(): Promise<string> {
  await chmod(dir, 0o755);
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
  return dir;
}

const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";
const JSONL = ".tooling/citation-targets/mvfg.jsonl";

describe("validate never passes with a check that could not run", () => {
  test.runIf(canDropRoot)(
    "an unreadable subfolder next to a tampered artifact is an error on the file, naming the folder (run as another user)",
    async () => {
      await repository();
      const markdown = join(dir, "fixtures/datasets/mvfg/mvfg.md");
      await writeFile(markdown, `${await readFile(markdown, "utf8")}\nTampered.\n`);
      await mkdir(join(dir, "fixtures/datasets/mvfg/drafts"));
      await writeFile(join(dir, "fixtures/datasets/mvfg/drafts/draft.md"), "# Draft\n");
      await chmod(join(dir, "fixtures/datasets/mvfg/drafts"), 0o000);
      const result = await runUnprivileged(["validate", JSONL], dir);
      expect(result.code).toBe(2);
      expect(result.stdout).not.toContain("no problems");
      expect(result.stdout).toContain(
        `the artifact checks of ${MANIFEST} (dataset folder fixtures/datasets/mvfg) could not run: cannot read the folder drafts: permission denied`,
      );
    },
  );

  test.runIf(canDropRoot)("an unreadable artifact is an error on the file, naming it", async () => {
    await repository();
    await chmod(join(dir, "fixtures/datasets/mvfg/mvfg.md"), 0o000);
    const result = await runUnprivileged(["validate", JSONL], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("could not run: cannot read fixtures/datasets/mvfg/mvfg.md: permission denied");
  });

  test.runIf(canDropRoot)(
    "an artifact that cannot be read is exit 2 in generate, update and lock too, named from the working directory: the checkout is at fault, not the dataset",
    async () => {
      await repository();
      await chmod(join(dir, "fixtures/datasets/mvfg/mvfg.md"), 0o000);
      for (const args of [
        ["generate", MANIFEST],
        ["generate", MANIFEST, "--check", JSONL],
        ["update", "--check"],
        ["lock", "fixtures/datasets/mvfg", "--check", "-o", MANIFEST],
      ]) {
        const result = await runUnprivileged(args, dir);
        expect(result.code, args.join(" ")).toBe(2);
        expect(result.stderr, args.join(" ")).toContain(
          "cannot read fixtures/datasets/mvfg/mvfg.md: permission denied",
        );
      }
    },
  );

  test("a dataset folder with many unlisted markdown files is walked without recursion or spread (a small stack stands for a huge folder)", async () => {
    await repository();
    const many = join(dir, "fixtures/datasets/mvfg/many");
    await mkdir(many);
    for (let i = 0; i < 20_000; i++) await writeFile(join(many, `f${i}.md`), "");
    const result = await runCommand(
      process.execPath,
      ["--stack-size=120", bin, "validate", JSONL, "--format", "json"],
      dir,
    );
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    expect(report.files[0].error).toBeUndefined();
    expect(
      report.files[0].problems.filter((p: { ruleId: string }) => p.ruleId === "lock-dataset-files").length,
    ).toBeGreaterThan(0);
  }, 60_000);
});

describe("only regular files are read", () => {
  test("validate /dev/zero, and a JSONL symlinked to it, are refused by name", async () => {
    const result = await cli(["validate", "--no-lock", "/dev/zero"], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      "cannot read /dev/zero: it is a character device, not a regular file: only regular files are read",
    );
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
    const fifo = "cannot read fixtures/datasets/mvfg/mvfg.md: it is a FIFO (named pipe), not a regular file";
    expect(artifact.stdout).toContain(`could not run: ${fifo}`);
    const generated = await cli(["generate", MANIFEST], dir);
    expect(generated.code).toBe(2);
    expect(generated.stderr).toContain(fifo);
    const updated = await cli(["update"], dir);
    expect(updated.code).toBe(2);
    expect(updated.stderr).toContain(`${MANIFEST}: ${fifo}`);
  });
});

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
const DATASETS = 9;

/**
 * A repository of nine datasets (d1 … d9, each a copy of the mvfg markdown), locked and generated; then every dataset's
 * markdown amended, so that an update changes all eighteen files.
 */
async function nineDatasets(root: string): Promise<void> {
  await mkdir(join(root, ".git"), { recursive: true });
  for (let i = 1; i <= DATASETS; i++) {
    await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(root, `fixtures/d${i}`), { recursive: true });
    expect(
      (
        await cli(
          ["lock", `fixtures/d${i}`, "-o", `.tooling/citation-targets/d${i}.lock.json`, "--slug", `d${i}`, ...FIELDS],
          root,
        )
      ).code,
    ).toBe(0);
  }
  expect((await cli(["update", "--no-cache"], root)).code).toBe(0);
  for (let i = 1; i <= DATASETS; i++)
    await writeFile(
      join(root, `fixtures/d${i}/mvfg.md`),
      `${await readFile(join(root, `fixtures/d${i}/mvfg.md`), "utf8")}\nNeu ${i}.\n`,
    );
}

/** The eighteen dataset files' contents, by name. */
async function datasetFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (let i = 1; i <= DATASETS; i++)
    for (const name of [`d${i}.jsonl`, `d${i}.lock.json`])
      files.set(name, await readFile(join(root, ".tooling/citation-targets", name), "utf8"));
  return files;
}

/**
 * "old" when every dataset file is as before, "new" when every one is as a full update writes it; anything else is a
 * torn update.
 */
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

describe("update is all or nothing across datasets", () => {
  test("a rename failing on the third file (injected EIO) restores the two renamed before it: nothing is written, nothing is left", async () => {
    await nineDatasets(dir);
    const old = await datasetFiles(dir);
    const result = await runCommand(process.execPath, ["--import", failRenames, bin, "update", "--no-cache"], dir, {
      FAIL_RENAME_AT: "3",
    });
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
    const result = await runCommand(process.execPath, ["--import", failRenames, bin, "update", "--no-cache"], dir, {
      FAIL_RENAME_FROM: "3",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("could not be restored");
    expect(result.stderr).toContain("citation-targets update --recover");
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    const pending = `citation-targets: an interrupted update left its journal ${JOURNAL}: the datasets it names are half renamed until \`citation-targets update --recover\` completes it (nothing else runs until then)\n`;
    for (const argv of [
      ["validate"],
      ["generate", ".tooling/citation-targets/d1.lock.json"],
      ["lock", "fixtures/d1"],
      ["diff", "a.jsonl", "b.jsonl"],
      ["update", "--check"],
    ]) {
      const refused = await cli(argv, dir);
      expect(refused.code, argv.join(" ")).toBe(2);
      expect(refused.stderr, argv.join(" ")).toBe(pending);
    }
    const recovered = await cli(["update", "--recover"], dir);
    expect(recovered.code).toBe(0);
    expect(recovered.stderr).toBe(
      `citation-targets: completed the interrupted update of ${JOURNAL}: 18 files restored as they were (rolled back)\n`,
    );
    expect(stateOf(await datasetFiles(dir), old, old)).toBe("old");
    expect((await readdir(join(dir, ".tooling/citation-targets"))).filter((name) => name.startsWith("."))).toEqual([]);
    expect((await cli(["update", "--recover"], dir)).stderr).toBe(
      "citation-targets: no interrupted update to complete\n",
    );
  });

  test("a journal that names anything but this tool's temporaries beside targets in the repository is refused, and nothing is renamed", async () => {
    await repository();
    const outside = join(dir, "..", "victim.jsonl");
    const made = (path: string) => ({ path, dev: "1", ino: "1", size: "1", mtimeNs: "1" });
    for (const entry of [
      { temporary: made(join(dir, "x")), target: outside },
      { temporary: made(join(dir, "elsewhere/.mvfg.jsonl.1.0123abcd.tmp")), target: join(dir, JSONL) },
      {
        temporary: made(join(dir, ".tooling/citation-targets/.mvfg.jsonl.1.0123abcd.tmp")),
        target: join(dir, JSONL),
        backup: made("/etc/passwd"),
      },
    ]) {
      await writeFile(
        join(dir, JOURNAL),
        JSON.stringify({ journal: "citation-targets update", version: 2, direction: "back", entries: [entry] }),
      );
      const result = await cli(["update", "--recover"], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("which no update of this repository writes");
      expect(existsSync(join(dir, JSONL))).toBe(true);
    }
  });

  test.each(["SIGTERM", "SIGINT"])(
    "%s in the middle of the renames (sent by the process itself before the third) waits until every rename is done, then ends the run",
    async (signal) => {
      await nineDatasets(dir);
      const old = await datasetFiles(dir);
      const child = spawn(process.execPath, ["--import", failRenames, bin, "update", "--no-cache"], {
        cwd: dir,
        stdio: "ignore",
        env: { ...process.env, SIGNAL_RENAME_AT: "3", SIGNAL_RENAME: signal },
      });
      const ended = await new Promise<string | null>((resolve) =>
        child.on("exit", (_code, received) => resolve(received)),
      );
      expect(ended).toBe(signal);
      const now = await datasetFiles(dir);
      for (const [name, text] of now) expect(text, name).not.toBe(old.get(name)); // every dataset new
      expect(existsSync(join(dir, JOURNAL))).toBe(false);
      expect((await readdir(join(dir, ".tooling/citation-targets"))).filter((name) => name.startsWith("."))).toEqual(
        [],
      );
    },
  );

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

describe("outputs never over inputs", () => {
  test("generate -o onto its manifest or an artifact, and validate --output-file onto the file checked, are refused, naming the input; nothing changes", async () => {
    await repository();
    const manifest = await readFile(join(dir, MANIFEST), "utf8");
    const markdown = await readFile(join(dir, "fixtures/datasets/mvfg/mvfg.md"), "utf8");
    const jsonl = await readFile(join(dir, JSONL), "utf8");
    const overManifest = await cli(["generate", MANIFEST, "-o", MANIFEST], dir);
    expect(overManifest.code).toBe(2);
    expect(overManifest.stderr).toBe(
      `citation-targets: refusing to write ${MANIFEST}: it is the lock manifest ${MANIFEST}, an input of this run; write the output elsewhere\n`,
    );
    const overArtifact = await cli(["generate", MANIFEST, "-o", "fixtures/datasets/mvfg/mvfg.md"], dir);
    expect(overArtifact.code).toBe(2);
    expect(overArtifact.stderr).toContain(`it is the artifact mvfg.md of ${MANIFEST}, an input of this run`);
    const overChecked = await cli(["validate", JSONL, "--output-file", JSONL], dir);
    expect(overChecked.code).toBe(2);
    expect(overChecked.stderr).toContain(
      `refusing to write ${JSONL}: it is the file checked ${JSONL}, an input of this run`,
    );
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

describe("datasets and patterns are confined to the repository", () => {
  async function outsideData(): Promise<string> {
    const elsewhere = join(dir, "elsewhere");
    await mkdir(elsewhere, { recursive: true });
    await cp(join(repoRoot, "fixtures/datasets/mvfg/mvfg.md"), join(elsewhere, "mvfg.md"));
    await writeFile(join(elsewhere, "pin.md"), "PIN 1234\n");
    return elsewhere;
  }

  test("a datasetRoot leading out of the repository is refused by validate, update and generate, naming it; nothing outside is listed or copied", async () => {
    const root = join(dir, "repo");
    await mkdir(root);
    await outsideData();
    await mkdir(join(root, ".git"));
    await mkdir(join(root, ".tooling/citation-targets"), { recursive: true });
    const manifest = JSON.parse(await readFile(join(repoRoot, MANIFEST), "utf8"));
    await writeFile(join(root, MANIFEST), JSON.stringify({ ...manifest, datasetRoot: "../../../elsewhere" }));
    await cp(join(repoRoot, JSONL), join(root, JSONL));
    const expected = `outside the repository ${root}: datasets are confined to the repository (--allow-outside-repository allows more)`;
    const validated = await cli(["validate", JSONL], root);
    expect(validated.code).toBe(2);
    expect(validated.stdout).toContain(
      `lock manifest ${MANIFEST}: its dataset folder (datasetRoot "../../../elsewhere") is ${join(dir, "elsewhere")}, ${expected}`,
    );
    expect(validated.stdout).not.toContain("pin.md");
    const updated = await cli(["update"], root);
    expect(updated.code).toBe(2);
    expect(updated.stderr).toContain(expected);
    expect(await readFile(join(root, JSONL), "utf8")).not.toContain("PIN");
    const generated = await cli(["generate", MANIFEST], root);
    expect(generated.code).toBe(2);
    expect(generated.stdout).toBe("");
    // The flag allows it, and says so.
    const allowed = await cli(["validate", JSONL, "--allow-outside-repository"], root);
    expect(allowed.stderr).toContain(
      "--allow-outside-repository: dataset folders and patterns may lead outside the repository",
    );
    expect(allowed.stdout).toContain("pin.md");
  });

  test('a committed symbolic link in place of the dataset folder, and datasetRoot "/", are refused', async () => {
    await repository();
    const other = await tempDir();
    const elsewhere = join(other.dir, "elsewhere");
    await cp(join(dir, "fixtures/datasets/mvfg"), elsewhere, { recursive: true });
    onTestFinished(other.cleanup);
    await rm(join(dir, "fixtures/datasets/mvfg"), { recursive: true });
    await symlink(elsewhere, join(dir, "fixtures/datasets/mvfg"));
    const linked = await cli(["validate", JSONL], dir);
    expect(linked.code).toBe(2);
    expect(linked.stdout).toContain(`is ${elsewhere}, outside the repository`);
    expect((await cli(["update"], dir)).code).toBe(2);
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8"));
    await writeFile(join(dir, MANIFEST), JSON.stringify({ ...manifest, datasetRoot: "/" }));
    const slash = await cli(["validate", JSONL, "--format", "json"], dir);
    expect(slash.code).toBe(2);
    const report = JSON.parse(slash.stdout);
    expect(report.files[0].error).toContain('(datasetRoot "/") is /, outside the repository');
    expect(report.files[0].problems.filter((p: { ruleId: string }) => p.ruleId === "lock-dataset-files")).toEqual([]);
  });

  test("config patterns that lead out of the repository (.., an absolute path, a symbolic link) are refused, naming them", async () => {
    await repository();
    await outsideData();
    const inner = join(dir, "inner");
    await mkdir(join(inner, ".git"), { recursive: true });
    await cp(join(repoRoot, JSONL), join(dir, "elsewhere/x.jsonl"));
    for (const pattern of ["../elsewhere/*.jsonl", join(dir, "elsewhere/*.jsonl"), "../**/*.jsonl"]) {
      await writeFile(join(inner, ".citation-targets.json"), JSON.stringify({ patterns: [pattern] }));
      const result = await cli(["validate", "--no-lock"], inner);
      expect(result.code, pattern).toBe(2);
      expect(result.stderr, pattern).toBe(
        pattern.includes("..")
          ? `citation-targets: pattern "${pattern}" has a ".." segment: the patterns of a config are confined to the repository ${inner} and name files from the config's folder down, never up (name such files on the command line; --allow-outside-repository allows more)\n`
          : `citation-targets: pattern "${pattern}" leads outside the repository ${inner}: patterns from a config are confined to the repository (--allow-outside-repository allows more)\n`,
      );
    }
    // A ".." that stays in the repository is refused the same way, and said so: never "outside the repository".
    await mkdir(join(inner, "cfg"));
    await writeFile(join(inner, "cfg/c.json"), JSON.stringify({ patterns: ["../.tooling/citation-targets/*.jsonl"] }));
    const within = await cli(["validate", "--no-lock", "--config", "cfg/c.json"], inner);
    expect(within.code).toBe(2);
    expect(within.stderr).toContain('has a ".." segment');
    expect(within.stderr).not.toContain("leads outside");
    await symlink(join(dir, "elsewhere"), join(inner, "data"));
    await writeFile(join(inner, ".citation-targets.json"), JSON.stringify({ patterns: ["**/*.jsonl"] }));
    const linked = await cli(["validate", "--no-lock"], inner);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(
      `data/x.jsonl is outside the repository ${inner} (it resolves to ${join(dir, "elsewhere/x.jsonl")})`,
    );
  });

  test("a repository file whose name starts with two dots is inside the repository (diff, shard keys, shown paths)", async () => {
    await repository();
    await cp(join(dir, JSONL), join(dir, "..mvfg.jsonl"));
    const { isInside, shardKey, displayPath } = await import("../src/node/files/files.js");
    expect(isInside(dir, join(dir, "..mvfg.jsonl"))).toBe(true);
    expect(isInside(dir, join(dir, "../x"))).toBe(false);
    expect(shardKey(join(dir, "..mvfg.jsonl"), dir)).toBe("..mvfg.jsonl");
    expect(displayPath(join(dir, "..mvfg.jsonl"), dir)).toBe("..mvfg.jsonl");
    const git = join(dir, "g");
    await mkdir(git);
    await cp(join(repoRoot, JSONL), join(git, "..mvfg.jsonl"));
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    };
    for (const args of [
      ["init", "-q"],
      ["add", "."],
      ["commit", "-qm", "x"],
    ])
      execFileSync("git", args, { cwd: git, env, stdio: "ignore" });
    const diffed = await cli(["diff", "--against", "HEAD", "..mvfg.jsonl"], git);
    expect(diffed.stderr).not.toContain("not inside the repository");
    expect(diffed.code).toBe(0);
  });
});

describe("bounded inputs", () => {
  test("brace expansion is counted, not performed: a pattern from the command line, a config or a manifest's ignore over the cap is refused", async () => {
    const { braceExpansions, MAX_BRACE_EXPANSIONS } = await import("../src/node/files/globs.js");
    expect(braceExpansions("{a,b}".repeat(20))).toBe(2 ** 20);
    expect(braceExpansions("*.jsonl")).toBe(1);
    expect(braceExpansions("{a,{b,c}}/{x,y}")).toBe(6);
    expect(braceExpansions("{1..100}")).toBe(100);
    expect(braceExpansions("\\{a,b}")).toBe(1);
    expect(braceExpansions("{a,b")).toBe(2);
    const bomb = "{a,b}".repeat(20);
    const fromCli = await cli(["validate", `${bomb}.jsonl`], dir);
    expect(fromCli.code).toBe(2);
    expect(fromCli.stderr).toBe(
      `citation-targets: pattern "${bomb}.jsonl": its braces expand to ${2 ** 20} patterns, more than the cap of ${MAX_BRACE_EXPANSIONS}: write fewer alternatives\n`,
    );
    await writeFile(join(dir, ".citation-targets.json"), JSON.stringify({ patterns: [`${bomb}.jsonl`] }));
    expect((await cli(["validate"], dir)).stderr).toContain("more than the cap");
    await rm(join(dir, ".citation-targets.json"));
    await repository();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8"));
    await writeFile(join(dir, MANIFEST), JSON.stringify({ ...manifest, ignore: [bomb] })); // ignore is not digested: the manifest stays valid
    const validated = await cli(["validate", JSONL], dir);
    expect(validated.code).toBe(2);
    expect(validated.stdout).toContain(`ignore glob "${bomb}": its braces expand to ${2 ** 20} patterns`);
    const updated = await cli(["update"], dir);
    expect(updated.code).toBe(2);
    expect(updated.stderr).toContain("more than the cap");
  });

  test("a manifest listing 100,000 missing artifacts: validate does not crash, generate names 20 and counts the rest", async () => {
    await repository();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8"));
    const artifacts = Array.from({ length: 100_000 }, (_, i) => ({ path: `missing-${i}.md`, sha256: "0".repeat(64) }));
    await writeFile(
      join(dir, MANIFEST),
      JSON.stringify({ ...manifest, artifacts: [...manifest.artifacts, ...artifacts] }),
    );
    const validated = await cli(["validate", JSONL, "--format", "json", "--max-problems", "5"], dir);
    expect(validated.code).toBe(1);
    expect(JSON.parse(validated.stdout).files[0].error).toBeUndefined();
    const generated = await cli(["generate", MANIFEST], dir);
    expect(generated.code).toBe(1);
    const lines = generated.stderr.trimEnd().split("\n");
    expect(lines.length).toBeLessThan(30);
    expect(generated.stderr).toContain("missing-19.md: missing");
    expect(generated.stderr).not.toContain("missing-20.md: missing");
    expect(generated.stderr).toContain("… and 99980 more artifacts missing");
  }, 60_000);

  test("--jobs over four per core is lowered, with a note on stderr", async () => {
    await repository();
    const { maxJobs } = await import("../src/node/pool/pool.js");
    const result = await cli(["generate", MANIFEST, "--jobs", "100000"], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `citation-targets: --jobs 100000: lowered to ${maxJobs()} (four threads per core; more only costs memory)\n`,
    );
    expect((await cli(["validate", JSONL, "--jobs", "100000"], dir)).stderr).toContain("lowered to");
    expect((await cli(["update", "--check", "--jobs", "100000"], dir)).stderr).toContain("lowered to");
    expect((await cli(["generate", MANIFEST, "--jobs", String(maxJobs())], dir)).stderr).toBe("");
  });
});

describe("an empty manifest, and an artifact swapped for a link while lock runs", () => {
  test("generate refuses a manifest with no artifacts, naming it", async () => {
    await repository();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8"));
    await writeFile(join(dir, MANIFEST), JSON.stringify({ ...manifest, artifacts: [] }));
    const result = await cli(["generate", MANIFEST, "-o", "out.jsonl"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `citation-targets: ${MANIFEST}: the lock manifest lists no artifacts: there is nothing to generate (lock refuses an empty dataset too)\n`,
    );
    expect(existsSync(join(dir, "out.jsonl"))).toBe(false);
  });

  test("lock never pins an outside file while an artifact is swapped between a file and a link to it (bounded loop)", async () => {
    const root = join(dir, "dataset");
    await mkdir(root);
    await writeFile(join(root, "a.md"), "# Inside\n");
    const outside = join(dir, "outside.md");
    await writeFile(outside, "# Outside: a secret\n");
    const { sha256Hex } = await import("../src/core/bytes.js");
    const outsideDigest = sha256Hex(Buffer.from("# Outside: a secret\n"));
    const { lock } = await import("../src/node/dataset/lock.js");
    // A separate process swaps a.md between a regular file and a link to the outside file, as fast as it can, until
    // killed.
    const swapper = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("fs"); const p = require("path"); const r = ${JSON.stringify(root)};
         for (;;) { fs.symlinkSync(${JSON.stringify(outside)}, p.join(r, ".l")); fs.renameSync(p.join(r, ".l"), p.join(r, "a.md"));
                    fs.writeFileSync(p.join(r, ".f"), "# Inside\\n"); fs.renameSync(p.join(r, ".f"), p.join(r, "a.md")); }`,
      ],
      { stdio: "ignore" },
    );
    try {
      for (let i = 0; i < 150; i++) {
        const result = await lock({
          dir: root,
          check: true,
          slug: "s",
          titleId: "T1",
          name: "N",
          versionDate: "2024-01-01",
          sourceTextUrl: "https://www.legislation.gov.au/T1",
        }).catch((error: unknown) => error);
        if (result instanceof Error) continue; // refused (a link out of the root, or replaced while read): never pinned
        expect(
          (result as { manifest: { artifacts: { sha256: string }[] } }).manifest.artifacts.map((a) => a.sha256),
        ).not.toContain(outsideDigest);
      }
    } finally {
      swapper.kill("SIGKILL");
    }
  }, 60_000);
});
