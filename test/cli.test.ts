import { execFile } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { runMain } from "./helpers/in-process.js";
import { copyFixture, PRIVACY_ACT_LOCK_FLAGS, tempDir } from "./helpers/datasets.js";
import { runBin, runCommand } from "./helpers/bin.js";
import { repoRoot } from "./helpers/records.js";

const run = promisify(execFile);

async function cli(argv: string[], cwd = repoRoot, env: Record<string, string | undefined> = {}) {
  return runMain(argv, cwd, env);
}

const child = (args: string[], cwd = repoRoot) => runBin(args, cwd);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe("the built bin", () => {
  test("validates the shipped example dataset with exit 0 and the JSON output contract", async () => {
    const { code, stdout } = await child(["validate", "--format", "json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(["files", "summary"]);
    expect(report.summary).toEqual({ files: 2, records: 63, errors: 0, warnings: 0, unreadable: 0 });
    expect(report.files.map((f: { path: string }) => f.path)).toEqual([
      ".tooling/citation-targets/mvfg.jsonl",
      ".tooling/citation-targets/privacy-act-1988.jsonl",
    ]);
    for (const file of report.files) expect(Object.keys(file)).toEqual(["path", "records", "problems"]);
  });

  test("files spread over worker threads give the same report, in the same order", async () => {
    const good = await readFile(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), "utf8");
    for (let i = 0; i < 6; i++) await writeFile(join(dir, `f${i}.jsonl`), i % 2 ? good : `${good}[${i}]\n`);
    await writeFile(join(dir, "mvfg.jsonl"), good);
    const one = await child(["validate", "--format", "json", "--no-lock", "--jobs", "1", "*.jsonl"], dir);
    const two = await child(["validate", "--format", "json", "--no-lock", "--jobs", "2", "--verbose", "*.jsonl"], dir);
    expect(two.code).toBe(1);
    expect(two.stderr).toMatch(/checked in \d+ ms in 2 threads \(this one and 1 worker thread\)/);
    expect(two.stdout).toBe(one.stdout);
    // six files are not named after their slug, three have a line that is not a record
    expect(JSON.parse(two.stdout).summary).toEqual({ files: 7, records: 147, errors: 9, warnings: 0, unreadable: 0 });
    const many = await child(
      ["validate", "--format", "json", "--no-lock", "--jobs", "2", "--schema", "missing.json", "*.jsonl"],
      dir,
    );
    expect(many.code).toBe(2);
  });

  test("a worker thread that crashes ends the run with exit 2, naming it, and no stack trace", async () => {
    const good = await readFile(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), "utf8");
    for (let i = 0; i < 6; i++) await writeFile(join(dir, `f${i}.jsonl`), good);
    // Every worker exits as it starts, before it can take a task: the crash does not depend on scheduling.
    const args = [
      "--import",
      join(repoRoot, "test/helpers/fail-reads.mjs"),
      join(repoRoot, "bin/citation-targets.js"),
      "validate",
      "--no-lock",
      "--jobs",
      "2",
      "*.jsonl",
    ];
    const crashed = await runCommand(process.execPath, args, dir, { FAIL_WORKER_START: "1" });
    expect(crashed.code).toBe(2);
    expect(crashed.stderr).toMatch(/^citation-targets: a worker thread stopped: .+\n$/);
  });

  test("validate of named files loads none of the heavy libraries (start-up: glob, markdown, YAML and schema compilers load only when needed)", async () => {
    const file = join(repoRoot, ".tooling/citation-targets/mvfg.jsonl");
    const record = join(dir, "requires.txt");
    const traced = await runCommand(
      process.execPath,
      [
        "--import",
        join(repoRoot, "test/helpers/trace-loads.mjs"),
        "--require",
        join(repoRoot, "test/helpers/record-requires.cjs"),
        join(repoRoot, "bin/citation-targets.js"),
        "validate",
        "--no-lock",
        file,
      ],
      dir,
      { RECORD_REQUIRES: record },
    );
    expect(traced.code).toBe(0);
    // What the ES module loader loaded, and what was required (the bundle is CommonJS: scripts/bundle-cli.js).
    const loaded = [
      ...traced.stderr.split("\n").filter((line) => line.startsWith("LOADED ")),
      ...(await readFile(record, "utf8")).split("\n").map((line) => `LOADED ${line}`),
    ];
    expect(loaded.some((line) => line.includes("/dist/node/cli.cjs"))).toBe(true); // the trace works, on the bundled command line
    for (const heavy of ["fast-glob", "markdown-it", "/yaml/", "/ajv/", "re2js"])
      expect(
        loaded.filter((line) => line.includes(heavy)),
        heavy,
      ).toEqual([]);
  });

  test("reports problems in the JSON contract and exits 1", async () => {
    const lines = (await readFile(join(repoRoot, ".tooling/citation-targets/privacy-act-1988.jsonl"), "utf8")).split(
      "\n",
    );
    lines[2] = lines[2]!.replace('"textDigestAlgorithm":"sha256"', '"textDigestAlgorithm":"md5"');
    lines[4] = "{not json";
    await writeFile(join(dir, "privacy-act-1988.jsonl"), lines.join("\n"));
    const { code, stdout } = await child(
      ["validate", "--format", "json", "--no-lock", join(dir, "privacy-act-1988.jsonl")],
      dir,
    );
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.files[0].path).toBe("privacy-act-1988.jsonl");
    expect(report.files[0].problems).toEqual([
      {
        line: 3,
        ruleId: "schema",
        severity: "error",
        message: 'textDigestAlgorithm is "md5": expected "sha256"',
        pointer: "/textDigestAlgorithm",
      },
      {
        line: 5,
        column: 2,
        ruleId: "json-syntax",
        severity: "error",
        message: 'invalid JSON: unexpected "n": expected a quoted key',
        pointer: "",
      },
    ]);
    expect(report.summary).toEqual({ files: 1, records: 41, errors: 2, warnings: 0, unreadable: 0 });
  });

  test("the library is importable by its package name and returns data", async () => {
    const script = `import("citation-targets").then(async (m) => { const r = await m.validate({ patterns: [".tooling/citation-targets/*.jsonl"] }); console.log(JSON.stringify({ names: ["validate", "generate", "lock", "checkGenerated", "generateRecords", "parseAddress"].map((n) => typeof m[n]), summary: r.summary, exit: m.exitCodeFor(r) })); })`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot });
    expect(JSON.parse(stdout)).toEqual({
      names: Array(6).fill("function"),
      summary: { files: 2, records: 63, errors: 0, warnings: 0 },
      exit: 0,
    });
  });

  test("--version and --help exit 0; no command exits 2 with help", async () => {
    expect((await child(["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await child(["validate", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit codes: 0 no errors");
    expect((await child([])).code).toBe(2);
  });

  test("every command's --help says its exit codes, 2 among them", async () => {
    for (const command of ["validate", "schema", "lock", "generate", "update", "adopt", "diff", "view", "resolve"]) {
      const help = await child([command, "--help"]);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/\nExit codes: 0 [^\n]*, 2 usage[^\n]*\n/);
    }
  });
});

describe("validate through main()", () => {
  test("stylish output without a TTY has no colour and ends with a summary", async () => {
    const { code, stdout } = await cli(["validate"]);
    expect(code).toBe(0);
    expect(stdout).toBe("✔ 2 files, 63 records: no problems\n");
  });

  test("FORCE_COLOR colours stylish output; NO_COLOR wins over a TTY", async () => {
    await writeFile(join(dir, "x.jsonl"), "[1]\n");
    expect((await cli(["validate", join(dir, "x.jsonl")], dir, { FORCE_COLOR: "1" })).stdout).toContain("\u001b[");
    let out = "";
    await main({
      argv: ["validate", join(dir, "x.jsonl")],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: { write: (s: string) => (out += s), isTTY: true },
      stderr: { write: () => true },
    });
    expect(out).not.toContain("\u001b[");
  });

  test("github format: one annotation per problem with file and line", async () => {
    await writeFile(join(dir, "x.jsonl"), '{"b":1,"a":2}\n');
    const { code, stdout } = await cli(["validate", "--format", "github", "--rule", "schema=off", "x.jsonl"], dir);
    expect(code).toBe(1);
    expect(stdout.split("\n")[0]).toBe(
      '::error file=x.jsonl,line=1,col=8,title=non-canonical::not in canonical form (RFC 8785): keys not in sorted order ("a" comes after "b"); expected keys sorted by UTF-16 code units (at /a)',
    );
  });

  test("--max-problems caps what is shown, not what is counted", async () => {
    await writeFile(join(dir, "x.jsonl"), "[1]\n[2]\n[3]\n[4]\n");
    const { stdout } = await cli(["validate", "--format", "json", "--max-problems", "2", "x.jsonl"], dir);
    const report = JSON.parse(stdout);
    expect(report.files[0].problems).toHaveLength(2);
    expect(report.files[0].problemsOmitted).toBe(2);
    expect(report.summary.errors).toBe(4);
    expect((await cli(["validate", "--max-problems", "1", "x.jsonl"], dir)).stdout).toContain(
      "… and 3 more problems in this file",
    );
  });

  test("at most 10,000 problems are kept per file; the rest are counted", async () => {
    await writeFile(join(dir, "x.jsonl"), "[1]\n".repeat(10_050));
    const report = JSON.parse((await cli(["validate", "--format", "json", "x.jsonl"], dir)).stdout);
    expect(report.files[0].problems).toHaveLength(10_000);
    expect(report.files[0].problemsOmitted).toBe(50);
    expect(report.summary.errors).toBe(10_050);
    expect((await cli(["validate", "x.jsonl"], dir)).stdout).toContain(
      "… and 50 more problems in this file (not shown: the rest were counted, not kept: raise --max-stored-problems to see them)",
    );
  });

  test("--rule downgrades to a warning: warnings alone exit 0; --quiet hides them", async () => {
    await writeFile(join(dir, "x.jsonl"), '{"b":1,"a":2}\n');
    const warned = await cli(["validate", "--rule", "non-canonical=warning", "--rule", "schema=off", "x.jsonl"], dir);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain("1 problem (0 errors, 1 warning)");
    expect(
      (await cli(["validate", "--quiet", "--rule", "non-canonical=warning", "--rule", "schema=off", "x.jsonl"], dir))
        .stdout,
    ).toBe("✔ 1 file, 1 record: no errors (1 warning not shown: --quiet)\n");
  });

  test("usage, configuration and I/O errors exit 2 with a message, never a stack trace", async () => {
    const cases: [string[], RegExp][] = [
      [["validate", "--format", "xml"], /argument 'xml' is invalid/],
      [["validate", "--rule", "nonsense=error"], /unknown rule "nonsense"/],
      [["validate", "--legislation-host", "http://x"], /expected a lowercase host name/],
      [["validate", "nothing-here/*.jsonl"], /no files match "nothing-here\/\*\.jsonl"/],
      [["validate", "--schema", "missing.json", "x.jsonl"], /cannot read schema/],
      [["validate", "--bogus"], /unknown option/],
      [
        ["generate", "missing.lock.json"],
        /missing\.lock\.json: no dataset by that name: tried a file and a folder \(missing\.lock\.json: no such file or folder\) and a slug/,
      ],
    ];
    await writeFile(join(dir, "x.jsonl"), "");
    for (const [argv, message] of cases) {
      const { code, stderr } = await cli(argv, dir);
      expect(code, argv.join(" ")).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  test("a missing file among others is reported, the others are still checked, exit 2", async () => {
    await writeFile(join(dir, "ok.jsonl"), "");
    await writeFile(join(dir, "bad.jsonl"), "[1]\n");
    const { code, stdout } = await cli(["validate", "--format", "json", "ok.jsonl", "gone.jsonl", "bad.jsonl"], dir);
    expect(code).toBe(2);
    const report = JSON.parse(stdout);
    expect(
      report.files.map((f: { path: string; error?: string; problems: unknown[] }) => [
        f.path,
        f.error,
        f.problems.length,
      ]),
    ).toEqual([
      ["bad.jsonl", undefined, 1],
      ["gone.jsonl", "cannot read gone.jsonl: no such file or folder", 0],
      ["ok.jsonl", undefined, 0],
    ]);
  });

  test("a broken lock manifest beside one file is that file's error; the file and the others are still checked", async () => {
    await writeFile(join(dir, "a.jsonl"), "[1]\n");
    await writeFile(join(dir, "a.lock.json"), "{ not json");
    await writeFile(join(dir, "b.jsonl"), "[2]\n");
    const { code, stdout } = await cli(["validate", "--format", "json", "a.jsonl", "b.jsonl"], dir);
    expect(code).toBe(2);
    const report = JSON.parse(stdout);
    expect(report.files[0]).toMatchObject({
      path: "a.jsonl",
      problems: [expect.objectContaining({ ruleId: "record-not-object" })],
      error: expect.stringContaining("lock manifest"),
    });
    expect(report.files[1].problems).toHaveLength(1);
  });

  test("a schema that does not compile is a configuration error", async () => {
    await writeFile(
      join(dir, "bad-schema.json"),
      JSON.stringify({ type: "object", properties: { a: { type: "strin" } } }),
    );
    await writeFile(join(dir, "x.jsonl"), "");
    const { code, stderr } = await cli(["validate", "--schema", "bad-schema.json", "x.jsonl"], dir);
    expect(code).toBe(2);
    expect(stderr).toContain("the schema does not compile");
  });

  test("the repository's .tooling/schemas copy is found from a subfolder; --verbose says which schema", async () => {
    await mkdir(join(dir, ".git"));
    await mkdir(join(dir, ".tooling/schemas"), { recursive: true });
    await mkdir(join(dir, "sub"));
    const { stdout: schema } = await cli(["schema", "--legislation-host", "www.gesetze-im-internet.de"]);
    await writeFile(join(dir, ".tooling/schemas/citation-targets.schema.json"), schema);
    await writeFile(join(dir, "sub/x.jsonl"), "");
    const { stderr } = await cli(["validate", "--verbose", "x.jsonl"], join(dir, "sub"));
    expect(stderr).toContain(`schema: repository schema ${join(dir, ".tooling/schemas/citation-targets.schema.json")}`);
    const bundled = await cli(
      ["validate", "--verbose", "--no-lock", join(repoRoot, ".tooling/citation-targets/mvfg.jsonl")],
      repoRoot,
    );
    expect(bundled.stderr).toContain(
      "schema: bundled schema (legislation host www.legislation.gov.au; a dataset whose lock manifest names its legislationHost: that host's)",
    );
  });

  test("the legislation host is a setting", async () => {
    const text = await readFile(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), "utf8");
    await writeFile(join(dir, "mvfg.jsonl"), text);
    const { code, stdout } = await cli(
      ["validate", "--format", "json", "--legislation-host", "www.gesetze-im-internet.de", "mvfg.jsonl"],
      dir,
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout).files[0].problems[0]).toMatchObject({ ruleId: "schema", pointer: "/sourceTextUrl" });
  });
});

describe("schema, lock and generate through main()", () => {
  test("schema prints the bundled schema and -o writes it", async () => {
    const printed = await cli(["schema"]);
    expect(printed.stdout).toBe(await readFile(join(repoRoot, "schemas/citation-targets.schema.json"), "utf8"));
    await cli(["schema", "-o", join(dir, "s.json"), "--legislation-host", "example.org"]);
    expect(await readFile(join(dir, "s.json"), "utf8")).toContain("^https://example\\\\.org/");
  });

  test("lock, generate -o, generate --check and validate with the manifest found beside the file", async () => {
    const root = await copyFixture("privacy-act-1988", dir);
    await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
    await cp(join(repoRoot, ".tooling/citation-targets/privacy-act-1988.lock.json"), join(dir, "committed.lock.json"));
    const manifest = ".tooling/citation-targets/privacy-act-1988.lock.json";
    const locked = await cli(
      [
        "lock",
        "privacy-act-1988",
        "-o",
        manifest,
        "--order",
        join(repoRoot, "fixtures/datasets/privacy-act-1988.order"),
        ...PRIVACY_ACT_LOCK_FLAGS,
      ],
      dir,
    );
    expect(locked).toMatchObject({ code: 0 });
    expect(await readFile(join(dir, manifest), "utf8")).toBe(
      await readFile(join(dir, "committed.lock.json"), "utf8").then((t) =>
        t.replace("../../fixtures/datasets/privacy-act-1988", "../../privacy-act-1988"),
      ),
    );
    expect((await cli(["lock", "privacy-act-1988", "-o", manifest, "--check"], dir)).code).toBe(0);

    const out = ".tooling/citation-targets/privacy-act-1988.jsonl";
    expect((await cli(["generate", manifest, "-o", out], dir)).code).toBe(0);
    expect(await readFile(join(dir, out), "utf8")).toBe(await readFile(join(repoRoot, out), "utf8"));
    expect((await cli(["generate", manifest, "--check", out], dir)).code).toBe(0);
    const printed = await cli(["generate", manifest], dir);
    expect(printed.stdout).toBe(await readFile(join(dir, out), "utf8"));

    expect((await cli(["validate", "--format", "json"], dir)).code).toBe(0);
    await writeFile(
      join(root, "part-i/section-1.md"),
      "### 1 Short title\n\nThis Act may be cited as the Privacy Act.\n",
    );
    const stale = await cli(["validate", "--format", "json"], dir);
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout).files[0].problems).toEqual([
      expect.objectContaining({
        ruleId: "lock-artifact-body",
        line: 6,
        message: expect.stringContaining(
          'artifact "part-i/section-1.md" has changed since the lock manifest was written',
        ),
      }),
    ]);
    expect((await cli(["lock", "privacy-act-1988", "-o", manifest, "--check"], dir)).code).toBe(1);
    const check = await cli(["generate", manifest, "--check", out], dir);
    expect(check.code).toBe(1);
    // One fault, then the hint, which is not counted as a problem.
    expect(check.stderr).toBe(
      "citation-targets: part-i/section-1.md: changed since the lock manifest was written (its sha256 is no longer the one pinned)\n" +
        `citation-targets: hint: the lock manifest ${manifest} is out of date: run \`citation-targets update ${manifest}\` to refresh it and regenerate\n`,
    );
  });
});
