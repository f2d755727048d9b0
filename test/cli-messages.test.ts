/**
 * What the commands say and how they behave in everyday use: every I/O error names its path, the summaries, a file of
 * the wrong kind, paths CI can map, links that work, diff showing the change, the library's checks of its options and
 * lazy loading, install and help, and no follow-on errors that send the user the wrong way.
 */
import { chmod, cp, mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { describeUnexpectedIoError } from "../src/node/errors.js";
import { canDropRoot, runCommand, runUnprivileged, runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const MVFG_MANIFEST = join(repoRoot, ".tooling/citation-targets/mvfg.lock.json");
const MVFG_JSONL = join(repoRoot, ".tooling/citation-targets/mvfg.jsonl");

const cli = (argv: string[], cwd = repoRoot) => runMain(argv, cwd);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  vi.restoreAllMocks();
  await chmod(dir, 0o755).catch(() => undefined);
  await cleanup();
});

/** A folder nobody may write in (readable by all, so that another user can run in it). */
async function readOnlyFolder(name: string): Promise<string> {
  await chmod(dir, 0o755);
  const folder = join(dir, name);
  await mkdir(folder, { recursive: true });
  await chmod(folder, 0o555);
  return folder;
}

describe("every I/O error names its path", () => {
  test.runIf(canDropRoot)("generate -o into a read-only folder names the file and the folder", async () => {
    const folder = await readOnlyFolder("ro");
    const result = await runUnprivileged(["generate", MVFG_MANIFEST, "-o", join(folder, "x.jsonl")], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `citation-targets: cannot write ${join(folder, "x.jsonl")}: permission denied (cannot create a file in ${folder})\n`,
    );
  });

  test.runIf(canDropRoot)(
    "update with a read-only .tooling/citation-targets names the file it could not write",
    async () => {
      await chmod(dir, 0o755);
      await mkdir(join(dir, ".git"));
      await cp(join(repoRoot, "fixtures"), join(dir, "fixtures"), { recursive: true });
      await cp(join(repoRoot, ".tooling"), join(dir, ".tooling"), { recursive: true });
      const markdown = join(dir, "fixtures/datasets/mvfg/mvfg.md");
      await writeFile(markdown, `${await readFile(markdown, "utf8")}\nNeu.\n`);
      await chmod(join(dir, ".tooling/citation-targets"), 0o555);
      const result = await runUnprivileged(["update", ".tooling/citation-targets/mvfg.lock.json"], dir);
      expect(result.code).toBe(2);
      const folder = join(dir, ".tooling/citation-targets");
      // update names every fault of every dataset, then says that it wrote nothing (all or nothing across datasets)
      expect(result.stderr).toBe(
        `citation-targets: cannot write ${join(folder, "mvfg.jsonl")}: permission denied (cannot create a file in ${folder})\ncitation-targets: nothing was written\n`,
      );
    },
  );

  test.runIf(canDropRoot)(
    "validate -o into a read-only folder shows the report, then names the report file (not its temporary file)",
    async () => {
      const folder = await readOnlyFolder("reports");
      const result = await runUnprivileged(
        ["validate", MVFG_JSONL, "--format", "json", "-o", join(folder, "r.json")],
        dir,
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toContain("✔ 1 file, 21 records: no problems");
      expect(result.stderr).toBe(
        `citation-targets: cannot write ${join(folder, "r.json")}: permission denied (cannot create a file in ${folder})\n`,
      );
    },
  );

  test("generate -o onto a folder names it", async () => {
    const result = await cli(["generate", MVFG_MANIFEST, "-o", dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`citation-targets: cannot write ${dir}: it is a folder, not a file\n`);
  });

  test("a full disk names the file being written (injected: the write fails with ENOSPC, as a file handle's does, without a path)", async () => {
    const handle = await open(MVFG_JSONL, "r");
    const prototype = Object.getPrototypeOf(handle) as { writeFile: (...args: unknown[]) => Promise<void> };
    await handle.close();
    vi.spyOn(prototype, "writeFile").mockRejectedValue(
      Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" }),
    );
    const output = join(dir, "x.jsonl");
    const result = await cli(["generate", MVFG_MANIFEST, "-o", output]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`citation-targets: cannot write ${output}: no space left on the device\n`);
  });

  test("lock --order with a missing file names it in plain words", async () => {
    const result = await cli(["lock", ".", "--order", "nope.txt"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("citation-targets: cannot read order file nope.txt: no such file or folder\n");
  });

  test("an I/O error that reaches the top names its path in plain words, never a bare code", () => {
    const systemError = Object.assign(new Error("Path is a directory: rm returned EISDIR (is a directory) /x/y"), {
      code: "ERR_FS_EISDIR",
      syscall: "rm",
      path: "/x/y",
    });
    expect(describeUnexpectedIoError(systemError)).toBe("cannot rm /x/y: it is a folder, not a file");
    // An error that crossed a thread keeps only its message: the path is taken from it.
    expect(
      describeUnexpectedIoError(
        Object.assign(new Error("EACCES: permission denied, open '/a/b.jsonl'"), { code: "EACCES" }),
      ),
    ).toBe("cannot access /a/b.jsonl: permission denied");
  });
});

describe("summaries", () => {
  test("--quiet with errors still counts the warnings it hides, in the stylish and the JSON summary", async () => {
    await writeFile(join(dir, "x.jsonl"), '{ "a": 1 }\nnot json\n');
    const args = ["validate", "--no-lock", "--rule", "non-canonical=warning", "--quiet", "x.jsonl"];
    const stylish = await cli(args, dir);
    expect(stylish.stdout).toContain("✖ 2 problems (2 errors; 1 warning not shown: --quiet) in 1 file, 1 record\n");
    const json = JSON.parse((await cli([...args, "--format", "json"], dir)).stdout);
    expect(json.summary).toEqual({ files: 1, records: 1, errors: 2, warnings: 0, unreadable: 0, hiddenWarnings: 1 });
    expect((await cli([...args, "--format", "github"], dir)).stdout).toContain(
      "1 file, 1 record: 2 errors, 1 warning not shown (--quiet)\n",
    );
  });

  test("a file that cannot be read is said plainly, and counted in a field of its own", async () => {
    const stylish = await cli(["validate", "nothere.jsonl"], dir);
    expect(stylish.code).toBe(2);
    expect(stylish.stdout).toBe(
      "nothere.jsonl\n  error  cannot read nothere.jsonl: no such file or folder\n\n✖ 1 of 1 file could not be read; no problems in the 0 records read\n",
    );
    const json = JSON.parse((await cli(["validate", "nothere.jsonl", "--format", "json"], dir)).stdout);
    expect(json.summary).toEqual({ files: 1, records: 0, errors: 0, warnings: 0, unreadable: 1 });
  });

  test("lock of one artifact says 1 artifact; a hint is said after the problems and not counted as one", async () => {
    await writeFile(join(dir, "only.md"), "# Title\n\nText.\n");
    const flags = [
      "--slug",
      "one",
      "--title-id",
      "T1",
      "--name",
      "One Act",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.legislation.gov.au/T1",
    ];
    const locked = await cli(["lock", ".", "-o", "one.lock.json", ...flags], dir);
    expect(locked.stderr).toMatch(
      /^citation-targets: wrote one\.lock\.json \(1 artifact, datasetDigest [0-9a-f]{64}\)\ncitation-targets: {3}new manifest with 1 artifact\n$/,
    );
    await writeFile(join(dir, "only.md"), "# Title\n\nOther text.\n");
    const generated = await cli(["generate", "one.lock.json"], dir);
    expect(generated.code).toBe(1);
    expect(generated.stderr).toBe(
      "citation-targets: only.md: changed since the lock manifest was written (its sha256 is no longer the one pinned)\n" +
        "citation-targets: hint: the lock manifest one.lock.json is out of date: run `citation-targets update one.lock.json` to refresh it and regenerate\n",
    );
  });
});

describe("the wrong kind of file", () => {
  test("validate of a markdown file of a dataset checks the dataset's JSONL", async () => {
    const result = await cli(["validate", "fixtures/datasets/mvfg/mvfg.md", "--format", "json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).files.map((f: { path: string }) => f.path)).toEqual([
      ".tooling/citation-targets/mvfg.jsonl",
    ]);
  });

  test("validate of a markdown file of no dataset says once what it looks like and what validate expects, then lists only a few", async () => {
    await cp(join(repoRoot, "fixtures/datasets/mvfg/mvfg.md"), join(dir, "mvfg.md"));
    const result = await cli(["validate", "mvfg.md", "--format", "json"], dir);
    expect(result.code).toBe(1);
    const [file] = JSON.parse(result.stdout).files;
    expect(file.problems).toHaveLength(4);
    expect(file.problems[0]).toEqual({
      line: 0,
      ruleId: "json-syntax",
      severity: "error",
      pointer: "",
      message:
        "this file looks like markdown (*.md), not a citation-targets JSONL file (one JSON record per line, named <slug>.jsonl, e.g. .tooling/citation-targets/*.jsonl): no line is a record; the first 3 of its 158 problems follow, the rest are not listed",
    });
    expect(file.problems.slice(1).map((p: { line: number }) => p.line)).toEqual([1, 2, 3]);
  });

  test("a glob over several markdown files lists a few problems of each, not thousands", async () => {
    const result = await cli(["validate", "fixtures/datasets/privacy-act-1988/**/*.md", "--format", "json"]);
    const { files, summary } = JSON.parse(result.stdout);
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) expect(file.problems.length).toBeLessThanOrEqual(4);
    expect(summary.errors).toBeLessThanOrEqual(4 * files.length);
  });

  test("a JSONL file is still checked line by line, however broken", async () => {
    await writeFile(join(dir, "bad.jsonl"), "not json\n".repeat(10));
    expect(
      JSON.parse((await cli(["validate", "--no-lock", "bad.jsonl", "--format", "json"], dir)).stdout).summary.errors,
    ).toBe(10);
  });

  test("update of a JSONL file updates the dataset of the manifest beside it", async () => {
    const result = await cli(["update", "--check", ".tooling/citation-targets/mvfg.jsonl"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "mvfg: up to date (.tooling/citation-targets/mvfg.lock.json, .tooling/citation-targets/mvfg.jsonl)\n",
    );
  });

  test("a JSONL file named where a lock manifest belongs (validate --lock) says so and names the one beside it", async () => {
    const result = await cli([
      "validate",
      ".tooling/citation-targets/mvfg.jsonl",
      "--lock",
      ".tooling/citation-targets/mvfg.jsonl",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      ".tooling/citation-targets/mvfg.jsonl is not a lock manifest: it looks like JSON Lines (*.jsonl: a JSON value per line), and a lock manifest is one JSON document; the lock manifest of .tooling/citation-targets/mvfg.jsonl is .tooling/citation-targets/mvfg.lock.json",
    );
  });
});

describe("update --check says why a manifest would be written", () => {
  test("a manifest that holds what lock writes, in another form (minified, CR LF, a member repeated): said, manifestFormOnly in JSON", async () => {
    await mkdir(join(dir, ".git"));
    await cp(join(repoRoot, ".tooling"), join(dir, ".tooling"), { recursive: true });
    await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
    const manifest = join(dir, ".tooling/citation-targets/mvfg.lock.json");
    const written = await readFile(manifest, "utf8");
    const says =
      "the lock manifest holds what lock writes, but not in its form (white space, member order, line endings or a repeated member): it would be written again as lock writes it";
    for (const form of [
      `${JSON.stringify(JSON.parse(written))}\n`,
      written.replaceAll("\n", "\r\n"),
      written.replace('"lockVersion": 1,', '"lockVersion": 1,\n  "lockVersion": 1,'),
    ]) {
      await writeFile(manifest, form);
      const text = await runMain(["update", "--check", "--no-cache", manifest], dir);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain(`  ${says}\n`);
      const json = await runMain(["update", "--check", "--no-cache", manifest, "--format", "json"], dir);
      expect(JSON.parse(json.stdout).datasets[0]).toMatchObject({ manifestChanged: true, manifestFormOnly: true });
    }
    // A change of contents is said as such, not as one of form: aliases taken from the front matter, a field.
    await writeFile(manifest, written);
    const aliased = await runMain(
      ["update", "--check", "--no-cache", manifest, "--alias", "jurabk", "--format", "json"],
      dir,
    );
    expect(aliased.code).toBe(1);
    expect(JSON.parse(aliased.stdout).datasets[0]).toMatchObject({ manifestChanged: true });
    expect(JSON.parse(aliased.stdout).datasets[0].manifestFormOnly).toBeUndefined();
    await writeFile(manifest, written.replace(/"versionDate": "[^"]*"/, '"versionDate": "2001-01-01"'));
    const changed = await runMain(["update", "--check", "--no-cache", manifest, "--format", "json"], dir);
    expect(changed.code).toBe(1);
    expect(JSON.parse(changed.stdout).datasets[0].manifestFormOnly).toBeUndefined();
    await writeFile(manifest, written);
    expect((await runMain(["update", "--check", "--no-cache", manifest], dir)).code).toBe(0);
  });
});

describe("paths CI can map", () => {
  /** A repository with a broken dataset file, and a subfolder to run from. */
  async function repositoryWithProblem(): Promise<string> {
    await mkdir(join(dir, ".git"));
    await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
    await mkdir(join(dir, "docs/sub"), { recursive: true });
    await writeFile(join(dir, ".tooling/citation-targets/x.jsonl"), "not json\n");
    return join(dir, "docs/sub");
  }

  test("from a subfolder, SARIF uris are relative to the repository root (with a uriBaseId) and annotations name the file from the root", async () => {
    const sub = await repositoryWithProblem();
    const sarif = JSON.parse((await cli(["validate", "--no-lock", "--format", "sarif"], sub)).stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: ".tooling/citation-targets/x.jsonl",
      uriBaseId: "%SRCROOT%",
    });
    const github = (await cli(["validate", "--no-lock", "--format", "github"], sub)).stdout;
    expect(github.split("\n")[0]).toMatch(
      /^::error file=\.tooling\/citation-targets\/x\.jsonl,line=1,col=1,title=json-syntax::/,
    );
    // The stylish report still shows paths from where the user is.
    expect((await cli(["validate", "--no-lock"], sub)).stdout.split("\n")[0]).toBe(
      "../../.tooling/citation-targets/x.jsonl",
    );
  });

  test("diff from a subfolder: annotations and SARIF name the new file from the repository root", async () => {
    const sub = await repositoryWithProblem();
    const lines = (await readFile(MVFG_JSONL, "utf8")).split("\n");
    await mkdir(join(dir, "old"));
    await writeFile(join(dir, "old/mvfg.jsonl"), `${lines.slice(0, -2).join("\n")}\n`);
    await writeFile(join(dir, ".tooling/citation-targets/mvfg.jsonl"), lines.join("\n"));
    const args = ["diff", "../../old/mvfg.jsonl", "../../.tooling/citation-targets/mvfg.jsonl"];
    expect((await cli([...args, "--format", "github"], sub)).stdout.split("\n")[0]).toMatch(
      /^::notice file=\.tooling\/citation-targets\/mvfg\.jsonl,line=21,/,
    );
    const sarif = JSON.parse((await cli([...args, "--format", "sarif"], sub)).stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: ".tooling/citation-targets/mvfg.jsonl",
      uriBaseId: "%SRCROOT%",
    });
  });

  test("--shard puts each file in the same shard from the root and from a subfolder", async () => {
    const sub = await repositoryWithProblem();
    for (let i = 0; i < 12; i++) await writeFile(join(dir, `.tooling/citation-targets/f${i}.jsonl`), "");
    const shards = async (cwd: string) => {
      const out: string[][] = [];
      for (let i = 1; i <= 3; i++) {
        const { files } = JSON.parse(
          (await cli(["validate", "--no-lock", "--format", "json", "--shard", `${i}/3`], cwd)).stdout,
        );
        out.push(files.map((f: { path: string }) => f.path.replace(/^(\.\.\/)+/, "")));
      }
      return out;
    };
    const fromRoot = await shards(dir);
    expect(await shards(sub)).toEqual(fromRoot);
    expect(fromRoot.flat().sort()).toHaveLength(13);
  });
});

describe("links that work", () => {
  test("SARIF has no helpUri while package.json names no repository", async () => {
    const packageJson = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    const sarif = JSON.parse((await cli(["validate", "--format", "sarif"])).stdout);
    for (const rule of sarif.runs[0].tool.driver.rules)
      expect(rule.helpUri).toBe(
        packageJson.repository === undefined
          ? undefined
          : expect.stringMatching(/^https:\/\/.*\/blob\/HEAD\/docs\/spec\.md#rule-/),
      );
  });

  test("a repository field becomes the https address of the repository", async () => {
    const { publicRepositoryUrl } = await import("../src/formatters/sarif.js");
    expect(publicRepositoryUrl({ type: "git", url: "git+https://github.com/o/r.git" })).toBe("https://github.com/o/r");
    expect(publicRepositoryUrl("github:o/r")).toBe("https://github.com/o/r");
    expect(publicRepositoryUrl("o/r")).toBe("https://github.com/o/r");
    expect(publicRepositoryUrl({ url: "git@github.com:o/r.git" })).toBeUndefined();
    expect(publicRepositoryUrl(undefined)).toBeUndefined();
  });
});

describe("diff shows the change", () => {
  /** mvfg's records, with a change made to the new copy. */
  async function pair(change: (records: Record<string, unknown>[]) => void): Promise<void> {
    const records = (await readFile(MVFG_JSONL, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    await writeFile(join(dir, "old.jsonl"), `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
    change(records);
    await writeFile(join(dir, "new.jsonl"), `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  }

  test("two long values that differ only at the end: the part that differs shows", async () => {
    const long = "§ 2 Aufklärung über die Rechte der Beteiligten im Verwaltungsverfahren nach diesem Ge";
    await pair((records) => {
      const record = records.find((r) => r.targetKind === "markdown-artifact" && typeof r.headingText === "string")!;
      record.headingText = `${long}setze`;
    });
    const old = (await readFile(join(dir, "old.jsonl"), "utf8")).split("\n");
    const index = old.findIndex(
      (line) => line.includes('"targetKind":"markdown-artifact"') && line.includes('"headingText":'),
    );
    const record = JSON.parse(old[index]!);
    record.headingText = `${long}setz`;
    old[index] = JSON.stringify(record);
    await writeFile(join(dir, "old.jsonl"), old.join("\n"));
    const result = await cli(["diff", "old.jsonl", "new.jsonl"], dir);
    expect(result.stdout).toContain('headingText: "…iesem Gesetz" → "…iesem Gesetze"');
  });

  test("two files that are not JSONL of records are a usage error, not 'no changes'", async () => {
    await writeFile(join(dir, "a.md"), "# A\n\ntext\n");
    await writeFile(join(dir, "b.md"), "# B\n\nother\n");
    const result = await cli(["diff", "a.md", "b.md"], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "citation-targets: a.md is not a citation-targets JSONL file: none of its 3 lines is a record (it looks like markdown (*.md)); diff compares JSONL files of records, or two record JSON Schemas with --schema\n",
    );
    // The same file twice (a lock manifest named for its JSONL): said so, not "no changes" with its lines as records.
    await writeFile(join(dir, "x.lock.json"), '{\n  "lockVersion": 1,\n  "slug": "x"\n}\n');
    const same = await cli(["diff", "x.lock.json", "x.lock.json"], dir);
    expect(same.code).toBe(2);
    expect(same.stdout).toBe("");
    expect(same.stderr).toContain("x.lock.json is not a citation-targets JSONL file: none of its 4 lines is a record");
  });

  test("two different laws get a warning; a failing gate names --approvals", async () => {
    const result = await cli([
      "diff",
      ".tooling/citation-targets/mvfg.jsonl",
      ".tooling/citation-targets/privacy-act-1988.jsonl",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'warning  the files are of different titles (titleId "BJNR012530976" and "C2004A03712")',
    );
    expect(result.stdout).toMatch(/fail the gate \(--fail-on breaking\)\n$/);
    expect(result.stderr).toMatch(/^citation-targets: hint: .*--approvals FILE/m);
  });
});

describe("the library checks its options and loads the commands when first used", () => {
  test("citation-targets/core holds the synchronous core, and generateRecords of the main entry gives its records", async () => {
    const [library, core] = await Promise.all([import("../src/index.js"), import("../src/core-api.js")]);
    const manifest = JSON.parse(await readFile(MVFG_MANIFEST, "utf8"));
    const read = (path: string) => readFile(join(repoRoot, "fixtures/datasets/mvfg", path));
    const viaMain: unknown[] = [];
    for await (const record of library.generateRecords(manifest, read)) viaMain.push(record);
    const viaCore: unknown[] = [];
    for await (const record of core.generateRecords(manifest, read)) viaCore.push(record);
    expect(viaMain).toEqual(viaCore);
    expect(viaMain.length).toBeGreaterThan(5);
    expect(typeof core.parseArtifact).toBe("function");
    expect(typeof core.compileRecordSchema).toBe("function");
  });

  test("validate with an unknown rule or severity throws OperationalError naming both", async () => {
    const library = await import("../src/index.js");
    const call = library.validate({ rules: { bogus: "error", "non-canonical": "loud" } as never, cwd: repoRoot });
    await expect(call).rejects.toBeInstanceOf(library.OperationalError);
    await expect(call).rejects.toThrow(
      `validate: rules: unknown rule "bogus" (rules: ${library.ruleIds.join(", ")}); rule "non-canonical": severity "loud" is not one of "error", "warning", "off"`,
    );
  });

  test("generate and checkGenerated with a wrong or missing option throw OperationalError, not TypeError", async () => {
    const library = await import("../src/index.js");
    await expect(library.generate({ manifest: 42 } as never)).rejects.toThrow(
      new library.OperationalError("generate: manifest: expected a non-empty string, got 42"),
    );
    await expect(library.checkGenerated({ manifest: MVFG_MANIFEST } as never)).rejects.toThrow(
      new library.OperationalError("checkGenerated: check is required"),
    );
    await expect(library.generate({ manifest: MVFG_MANIFEST, jobs: 0 })).rejects.toThrow(
      new library.OperationalError("generate: jobs: expected a whole number, 1 or more, got 0"),
    );
    await expect(library.validate({ pattern: ["x"] } as never)).rejects.toThrow(
      /^validate: unknown option "pattern" \(options: patterns, /,
    );
    await expect(library.diff({ failOn: "all" } as never)).rejects.toThrow(
      new library.OperationalError('diff: failOn: expected one of "breaking", "any", "none", got "all"'),
    );
  });

  test("importing the built library loads none of the commands' modules, nor the file walker", async () => {
    const traced = await runCommand(
      process.execPath,
      [
        "--import",
        join(repoRoot, "test/helpers/trace-loads.mjs"),
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(join(repoRoot, "dist/index.js"))});`,
      ],
      dir,
    );
    const loaded = traced.stderr.split("\n").filter((line) => line.startsWith("LOADED "));
    expect(loaded.some((line) => line.endsWith("/dist/index.js"))).toBe(true);
    for (const module of [
      "/dist/node/validate/validate.js",
      "/dist/node/generate/generate.js",
      "/dist/node/dataset/lock.js",
      "/dist/node/update/update.js",
      "/dist/node/diff/diff.js",
      "/dist/node/validate/validate-workers.js",
      "/dist/node/validate/file-validator.js",
      "/dist/node/generate/generated-lines.js",
      "/dist/node/diff/diff-pairs.js",
      "/dist/node/records/record-stream.js",
      "fast-glob",
      "markdown-it",
      "/yaml/",
      "/ajv/",
      "re2js",
      "piscina",
    ])
      expect(
        loaded.filter((line) => line.includes(module)),
        module,
      ).toEqual([]);
  });
});

describe("install and help", () => {
  test("the prepare step of a checkout whose build tools are not installed says to run npm ci there", async () => {
    const checkout = join(dir, "checkout");
    await mkdir(join(checkout, "scripts"), { recursive: true });
    await cp(join(repoRoot, "scripts/prepare.js"), join(checkout, "scripts/prepare.js"));
    await writeFile(join(checkout, "package.json"), JSON.stringify({ type: "module" }));
    const result = await runCommand(process.execPath, ["scripts/prepare.js"], checkout);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "citation-targets: this checkout is not built and its build tools are not installed: run `npm ci` in it first (that installs them and builds), then install it again\n",
    );
  });

  test("packing takes the prepare script out of the tarball's package.json and puts package.json back byte for byte", async () => {
    const before = await readFile(join(repoRoot, "package.json"), "utf8");
    const copy = join(dir, "pkg");
    await mkdir(join(copy, "scripts"), { recursive: true });
    await cp(join(repoRoot, "scripts/pack-manifest.js"), join(copy, "scripts/pack-manifest.js"));
    await writeFile(join(copy, "package.json"), before);
    expect((await runCommand(process.execPath, ["scripts/pack-manifest.js", "strip"], copy)).code).toBe(0);
    const stripped = JSON.parse(await readFile(join(copy, "package.json"), "utf8"));
    expect(stripped.scripts.prepare).toBeUndefined();
    expect(stripped.scripts.build).toBe(JSON.parse(before).scripts.build);
    expect((await runCommand(process.execPath, ["scripts/pack-manifest.js", "restore"], copy)).code).toBe(0);
    expect(await readFile(join(copy, "package.json"), "utf8")).toBe(before);
    expect(JSON.parse(before).scripts).toMatchObject({
      prepack: expect.stringContaining("pack-manifest.js strip"),
      postpack: "node scripts/pack-manifest.js restore",
    });
  });

  test("the pre-commit recipe pins no tag that does not exist", async () => {
    const readme = await readFile(join(repoRoot, "README.md"), "utf8");
    expect(readme).not.toMatch(/rev: v\d/);
    expect(readme).toMatch(/rev: [0-9a-f]{40} /);
  });

  test.each(["lock", "generate", "update"])(
    "%s --help is wrapped once (no short line mid-sentence) and shows no empty default",
    async (command) => {
      const { stdout } = await cli([command, "--help"]);
      expect(stdout).not.toMatch(/\(default: (\{\}|\[\])\)/);
      expect((await cli(["validate", "--help"])).stdout).not.toContain("(default: {})");
      const description = stdout.split("\n\n")[1]!.split("\n");
      // Wrapped once, at 80 columns: a line ends only where the next line's first word would not have fitted.
      for (let i = 0; i + 1 < description.length; i++)
        expect(description[i]!.length + 1 + description[i + 1]!.split(" ")[0]!.length, description[i]).toBeGreaterThan(
          80,
        );
    },
  );
});

describe("no follow-on errors that send you the wrong way", () => {
  /** A repository holding a copy of the example data. */
  async function repository(): Promise<string> {
    await mkdir(join(dir, ".git"));
    await cp(join(repoRoot, "fixtures"), join(dir, "fixtures"), { recursive: true });
    await cp(join(repoRoot, ".tooling"), join(dir, ".tooling"), { recursive: true });
    return dir;
  }
  const rulesOf = (stdout: string) =>
    new Set(
      (JSON.parse(stdout).files as { problems: { ruleId: string }[] }[]).flatMap((f) =>
        f.problems.map((p) => p.ruleId),
      ),
    );

  test("lines skipped for --max-line-bytes or --max-depth bring no lock-artifact-body or lock-artifacts problem", async () => {
    expect(rulesOf((await cli(["validate", "--format", "json", "--max-line-bytes", "1000"])).stdout)).toEqual(
      new Set(["line-length"]),
    );
    expect(rulesOf((await cli(["validate", "--format", "json", "--max-depth", "1"])).stdout)).toEqual(
      new Set(["nesting-depth"]),
    );
  });

  test("a record whose markdown was edited (its textDigest fixed) is reported on its own line", async () => {
    await repository();
    const { deriveTextDigest, serializeRecord } = await import("../src/core-api.js");
    const path = join(dir, ".tooling/citation-targets/mvfg.jsonl");
    const lines = (await readFile(path, "utf8")).split("\n");
    const record = JSON.parse(lines[7]!);
    record.markdown = record.markdown.replace(/[a-zäöü]+/, "Edited");
    record.textDigest = deriveTextDigest(record.markdown);
    lines[7] = serializeRecord(record).trimEnd();
    await writeFile(path, lines.join("\n"));
    const { files } = JSON.parse((await cli(["validate", "--format", "json"], dir)).stdout);
    const problems = files.flatMap((f: { problems: unknown[] }) => f.problems);
    expect(problems).toEqual([
      expect.objectContaining({
        ruleId: "lock-artifact-body",
        line: 8,
        message: expect.stringContaining(`(the first target that differs is on line 8: ${record.citationAddress})`),
      }),
      // and the field itself, against what generate writes (issue 31)
      expect.objectContaining({ ruleId: "lock-generated", line: 8, pointer: "/markdown" }),
    ]);
  });

  test("a record left out is reported at the line where it belongs (the next record's), or at the last line", async () => {
    await repository();
    const path = join(dir, ".tooling/citation-targets/mvfg.jsonl");
    const lines = (await readFile(path, "utf8")).split("\n");
    const middle = JSON.parse(lines[7]!).citationAddress as string;
    const lastIndex = lines.length - 2; // the file ends with a newline
    const last = JSON.parse(lines[lastIndex]!).citationAddress as string;
    await writeFile(path, lines.filter((_, k) => k !== 7 && k !== lastIndex).join("\n"));
    const { files } = JSON.parse((await cli(["validate", "--format", "json"], dir)).stdout);
    const missing = files
      .flatMap((f: { problems: { ruleId: string; message: string; line: number }[] }) => f.problems)
      .filter((p: { message: string }) => p.message.includes("which is not in this file"));
    expect(missing.map((p: { message: string; line: number }) => [p.message.split(" ")[6], p.line])).toEqual([
      [JSON.stringify(middle), 8],
      [JSON.stringify(last), lastIndex - 1],
    ]);
  });

  test("validate --lock of a file not named after the manifest's slug: the fix writes <slug>.jsonl, never over that file", async () => {
    await repository();
    const lines = (await readFile(join(dir, ".tooling/citation-targets/mvfg.jsonl"), "utf8")).split("\n");
    await writeFile(join(dir, "other.jsonl"), lines.filter((_, k) => k !== 3).join("\n"));
    const { files } = JSON.parse(
      (
        await cli(
          ["validate", "other.jsonl", "--lock", ".tooling/citation-targets/mvfg.lock.json", "--format", "json"],
          dir,
        )
      ).stdout,
    );
    const commands = files
      .flatMap((f: { problems: { message: string }[] }) => f.problems)
      .flatMap((p: { message: string }) => p.message.match(/`citation-targets generate [^`]*`/g) ?? []);
    expect(commands.length).toBeGreaterThan(0);
    expect(new Set(commands)).toEqual(
      new Set(["`citation-targets generate .tooling/citation-targets/mvfg.lock.json -o mvfg.jsonl`"]),
    );
  });

  test("records left out: five named one by one, the rest in one problem; an emptied file in one problem", async () => {
    await repository();
    const path = join(dir, ".tooling/citation-targets/mvfg.jsonl");
    const lines = (await readFile(path, "utf8")).split("\n");
    const addressAt = (k: number) => JSON.parse(lines[k]!).citationAddress as string;
    // Lines 3 to 10 (8 records) cut out.
    await writeFile(path, lines.filter((_, k) => k < 3 || k > 10).join("\n"));
    const generatedProblems = async () => {
      const { files } = JSON.parse((await cli(["validate", "--format", "json"], dir)).stdout);
      return files
        .flatMap((f: { problems: { ruleId: string; message: string; line: number }[] }) => f.problems)
        .filter((p: { ruleId: string }) => p.ruleId === "lock-generated");
    };
    const cut = await generatedProblems();
    expect(cut.map((p: { message: string }) => p.message.split(" ").slice(0, 7).join(" "))).toEqual([
      ...[3, 4, 5, 6, 7].map((k) => `generate writes a record with citationAddress ${JSON.stringify(addressAt(k))}`),
      "generate writes 3 more records that are",
    ]);
    expect(cut[5].message).toContain(`(the first of them citationAddress ${JSON.stringify(addressAt(8))}, record 9 of`);
    expect(cut[5].message).toContain("regenerate it with `citation-targets generate");
    expect(cut[5].line).toBe(4); // where they belong: before the record that follows them
    await writeFile(path, "");
    expect(await generatedProblems()).toEqual([
      expect.objectContaining({
        line: 0,
        message: expect.stringMatching(
          /^this file holds none of the 21 records generate writes from .*mvfg\.lock\.json \(the first citationAddress ".*"\): regenerate it with `citation-targets generate/,
        ),
      }),
    ]);
  });

  test("a markdown file whose name is not in NFC is told to be renamed first, not to run update (which refuses it)", async () => {
    await repository();
    const nfd = "Übergang.md".normalize("NFD");
    await writeFile(join(dir, "fixtures/datasets/mvfg", nfd), "# Übergang\n");
    const { files } = JSON.parse((await cli(["validate", "--format", "json"], dir)).stdout);
    const messages = files.flatMap((f: { problems: { message: string }[] }) => f.problems.map((p) => p.message));
    expect(messages).toEqual([
      expect.stringContaining(
        `its name is not in Unicode NFC, which lock and update refuse: rename it to its NFC form ("${nfd.normalize("NFC")}"), then run`,
      ),
    ]);
  });

  test("update after a hand-duplicated line says why the file changes", async () => {
    await repository();
    const path = join(dir, ".tooling/citation-targets/mvfg.jsonl");
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    await writeFile(path, `${[...lines, lines[2]].join("\n")}\n`);
    const result = await cli(["update", ".tooling/citation-targets/mvfg.lock.json"], dir);
    expect(result.stdout).toContain(
      "  records: 0 added, 0 removed, 0 changed (21 before, 21 after)\n    the old file repeated an address on 1 line (edited by hand?): dropped\n",
    );
  });
});
