/**
 * A publisher outside Australia whose records point at their own host. The wrong
 * host is said once per file, with the fix (the flag, the config key, the host found; or the schema
 * file in force); `schema` and `schema -o` take the config's legislationHost; `--print-config` says
 * which schema is used.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { buildRecordSchema, formatSchema } from "../src/core/schema/schema.js";
import { createFileCheck, type FileCheckOptions, type FileResult } from "../src/engine/check-file.js";
import { rules } from "../src/rules/index.js";
import { runBin, runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { fixtureRecords, type Rec, repoRoot, schemaCheck, toJsonl } from "./helpers/records.js";

const GERMAN = "https://www.gesetze-im-internet.de/mvfg/";
const FIX =
  '; its host www.gesetze-im-internet.de is not the legislation host in force (www.legislation.gov.au): if your legislation is published there, pass --legislation-host www.gesetze-im-internet.de, or set "legislationHost": "www.gesetze-im-internet.de" in the config file (.citation-targets.json)';
const REFUSED = `sourceTextUrl must be an https address on www.legislation.gov.au followed by a path (https://www.legislation.gov.au/…), got "${GERMAN}"`;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
});
afterEach(async () => cleanup());

/**
 * The German example dataset (21 records) with its records pointing at gesetze-im-internet.de, as a German publisher's
 * are.
 */
function german(edit: (records: Rec[]) => void = () => {}): string {
  const records = structuredClone(fixtureRecords("mvfg"));
  for (const record of records) record.sourceTextUrl = GERMAN;
  edit(records);
  return toJsonl(records);
}
const FILE = ".tooling/citation-targets/mvfg.jsonl";

describe("a German publisher's first validate", () => {
  test("one problem with the fix, and one for the other 20 records: the rule id and the counts hold", async () => {
    await writeFile(join(dir, FILE), german());
    const stylish = await runMain(["validate"], dir);
    expect(stylish.code).toBe(1);
    expect(stylish.stdout).toContain(`  1    error    ${REFUSED}${FIX} at /sourceTextUrl  schema\n`);
    expect(stylish.stdout).toContain(
      "  2    error    sourceTextUrl: the same problem as on line 1, on 20 more records (lines 2 to 21) at /sourceTextUrl  schema\n",
    );
    expect(stylish.stdout).toContain("✖ 2 problems (2 errors, 0 warnings) in 1 file, 21 records");
    const json = JSON.parse((await runMain(["validate", "--format", "json"], dir)).stdout);
    expect(json.files[0].problems).toEqual([
      { line: 1, ruleId: "schema", severity: "error", message: `${REFUSED}${FIX}`, pointer: "/sourceTextUrl" },
      {
        line: 2,
        ruleId: "schema",
        severity: "error",
        message: "sourceTextUrl: the same problem as on line 1, on 20 more records (lines 2 to 21)",
        pointer: "/sourceTextUrl",
        repeated: { records: 20, firstLine: 1, lastLine: 21 },
      },
    ]);
    expect(json.summary).toEqual({ files: 1, records: 21, errors: 2, warnings: 0, unreadable: 0 });
    // The fix works as said: the flag, or the config key.
    expect((await runMain(["validate", "--legislation-host", "www.gesetze-im-internet.de"], dir)).code).toBe(0);
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ legislationHost: "www.gesetze-im-internet.de" }),
    );
    expect((await runMain(["validate"], dir)).code).toBe(0);
  });

  test("only the same problem folds: another value is its own problem; other fields and rules are reported per record", async () => {
    await writeFile(
      join(dir, FILE),
      german((records) => {
        records[5]!.sourceTextUrl = "https://www.gesetze-im-internet.de/other/";
        records[7]!.textDigest = "0".repeat(64);
        records[9]!.textDigest = "0".repeat(64);
      }),
    );
    const problems = JSON.parse((await runMain(["validate", "--format", "json"], dir)).stdout).files[0].problems as {
      line: number;
      ruleId: string;
      message: string;
      repeated?: unknown;
    }[];
    expect(problems.map((p) => [p.line, p.ruleId, p.repeated ?? null])).toEqual([
      [1, "schema", null],
      [2, "schema", { records: 19, firstLine: 1, lastLine: 21 }],
      [6, "dataset-fields", null],
      [6, "schema", null],
      [8, "text-digest", null],
      [10, "text-digest", null],
    ]);
    expect(problems[3]!.message).toContain(
      'got "https://www.gesetze-im-internet.de/other/"; its host www.gesetze-im-internet.de is not the legislation host in force',
    );
    expect(problems[1]!.message).toBe(
      "sourceTextUrl: the same problem as on line 1, on 19 more records (lines 2 to 21)",
    );
  });

  test("a missing dataset field folds too; one repeat says 'line', not 'lines'", async () => {
    const all = structuredClone(fixtureRecords("privacy-act-1988"));
    const records = [
      all.find((r) => r.targetKind === "structural-container")!,
      all.find((r) => r.targetKind === "markdown-artifact")!,
    ];
    for (const record of records) delete record.titleId;
    await writeFile(join(dir, ".tooling/citation-targets/two.jsonl"), toJsonl(records));
    const problems = JSON.parse(
      (
        await runMain(
          ["validate", "--format", "json", "--rule", "file-name=off", ".tooling/citation-targets/two.jsonl"],
          dir,
        )
      ).stdout,
    ).files[0].problems;
    expect(
      problems
        .filter((p: { ruleId: string }) => p.ruleId === "schema")
        .map((p: { line: number; message: string }) => [p.line, p.message]),
    ).toEqual([
      [1, 'missing required field "titleId" (every field of a structural-container record is required)'],
      [2, 'missing required field "titleId" (every field of a markdown-artifact record is required)'],
    ]);
    // Same field, different message (the variant differs): not folded. Two records of one variant: folded, "line 3".
    const three = [records[1]!, structuredClone(records[1]!), structuredClone(records[1]!)];
    await writeFile(join(dir, ".tooling/citation-targets/two.jsonl"), toJsonl(three));
    const folded = JSON.parse(
      (
        await runMain(
          ["validate", "--format", "json", "--rule", "file-name=off", ".tooling/citation-targets/two.jsonl"],
          dir,
        )
      ).stdout,
    ).files[0].problems;
    expect(folded.find((p: { repeated?: unknown }) => p.repeated)).toMatchObject({
      line: 2,
      message: "titleId: the same problem as on line 1, on 2 more records (lines 2 to 3)",
    });
    await writeFile(join(dir, ".tooling/citation-targets/two.jsonl"), toJsonl(three.slice(0, 2)));
    const one = JSON.parse(
      (
        await runMain(
          ["validate", "--format", "json", "--rule", "file-name=off", ".tooling/citation-targets/two.jsonl"],
          dir,
        )
      ).stdout,
    ).files[0].problems;
    expect(one.find((p: { repeated?: unknown }) => p.repeated)).toMatchObject({
      line: 2,
      message: "titleId: the same problem as on line 1, on 1 more record (line 2)",
    });
  });

  test("the fix names the schema in force: the repository's (with the command that rebuilds it) or --schema's; none for a URL on the right host", async () => {
    await writeFile(join(dir, FILE), german());
    await mkdir(join(dir, ".tooling/schemas"));
    await writeFile(join(dir, ".tooling/schemas/citation-targets.schema.json"), formatSchema(buildRecordSchema()));
    const repository = await runMain(
      ["validate", "--format", "json", "--legislation-host", "www.gesetze-im-internet.de"],
      join(dir, ".tooling"),
    );
    expect(repository.code).toBe(1);
    expect(JSON.parse(repository.stdout).files[0].problems[0].message).toBe(
      `${REFUSED}; the repository's schema schemas/citation-targets.schema.json is used, and --legislation-host does not change it: if your legislation is published on www.gesetze-im-internet.de, rebuild it with \`citation-targets schema --legislation-host www.gesetze-im-internet.de -o schemas/citation-targets.schema.json\``,
    );
    await writeFile(join(dir, "mine.schema.json"), formatSchema(buildRecordSchema()));
    const option = await runMain(["validate", "--format", "json", "--schema", "mine.schema.json"], dir);
    expect(JSON.parse(option.stdout).files[0].problems[0].message).toBe(
      `${REFUSED}; the schema mine.schema.json is used (--schema or the config's "schema"), and --legislation-host does not change it: if your legislation is published on www.gesetze-im-internet.de, that schema must accept it`,
    );
    // The right host, but nothing after it: no word about hosts.
    await writeFile(
      join(dir, FILE),
      german((records) => {
        for (const record of records) record.sourceTextUrl = "https://www.legislation.gov.au/";
      }),
    );
    const message = JSON.parse(
      (await runMain(["validate", "--format", "json", "--no-config", "--schema", "mine.schema.json"], dir)).stdout,
    ).files[0].problems[0].message;
    expect(message).toBe(
      'sourceTextUrl must be an https address on www.legislation.gov.au followed by a path (https://www.legislation.gov.au/…), got "https://www.legislation.gov.au/"',
    );
  });

  test("the built command line says it too (worker threads included)", async () => {
    await writeFile(join(dir, FILE), german());
    const { code, stdout } = await runBin(["validate", "--jobs", "2", "--format", "json"], dir);
    expect(code).toBe(1);
    const problems = JSON.parse(stdout).files[0].problems;
    expect(problems).toHaveLength(2);
    expect(problems[0].message).toBe(`${REFUSED}${FIX}`);
  });
});

describe("folding is the engine's: before the cap", () => {
  const bytes = new TextEncoder().encode(
    german((records) => {
      records[12]!.sourceTextUrl = "https://www.gesetze-im-internet.de/x/";
    }),
  );
  const check = (extra: Partial<FileCheckOptions> = {}): FileResult => {
    const run = createFileCheck({ rules, file: "mvfg.jsonl", schemaCheck, ...extra });
    run.push(bytes);
    return run.end();
  };

  test("the cap counts the folded problem once", () => {
    const capped = check({ limits: { maxStoredProblems: 2 } });
    expect(capped.problems.map((p) => p.line)).toEqual([1, 2]);
    expect(capped.unstored).toEqual({ errors: 2, warnings: 0 }); // line 13: dataset-fields and its own schema problem
  });

  test("the folded problem stands for every later record with the same problem, whatever the chunks", () => {
    const whole = check();
    expect(whole.problems.find((p) => p.repeated)?.repeated).toEqual({ records: 19, firstLine: 1, lastLine: 21 });
    for (const size of [1, 7, 4096]) {
      const run = createFileCheck({ rules, file: "mvfg.jsonl", schemaCheck });
      for (let at = 0; at < bytes.length; at += size) run.push(bytes.subarray(at, at + size));
      expect(run.end()).toEqual(whole);
    }
  });
});

describe("schema takes the config's legislationHost", () => {
  test("stdout and -o: the flag wins, then the config (found, --config FILE, none with --no-config), then the default; -o says which", async () => {
    const germanSchema = formatSchema(buildRecordSchema("www.gesetze-im-internet.de"));
    const australian = formatSchema(buildRecordSchema());
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ legislationHost: "www.gesetze-im-internet.de" }),
    );
    await mkdir(join(dir, "sub"));
    expect((await runMain(["schema"], join(dir, "sub"))).stdout).toBe(germanSchema);
    expect((await runMain(["schema", "--no-config"], dir)).stdout).toBe(australian);
    expect((await runMain(["schema", "--legislation-host", "www.legislation.gov.au"], dir)).stdout).toBe(australian);
    await writeFile(join(dir, "other.json"), JSON.stringify({ legislationHost: "www.ris.bka.gv.at" }));
    expect((await runMain(["schema", "--config", "other.json"], dir)).stdout).toBe(
      formatSchema(buildRecordSchema("www.ris.bka.gv.at")),
    );
    const written = await runMain(["schema", "-o", ".tooling/schemas/citation-targets.schema.json"], dir);
    expect(written.code).toBe(0);
    expect(written.stderr).toBe(
      "citation-targets: wrote .tooling/schemas/citation-targets.schema.json: the record schema for legislation host www.gesetze-im-internet.de (legislationHost of the config .citation-targets.json)\n",
    );
    expect(await readFile(join(dir, ".tooling/schemas/citation-targets.schema.json"), "utf8")).toBe(germanSchema);
    // The German records now pass against the repository schema written from the config.
    await writeFile(join(dir, FILE), german());
    expect((await runMain(["validate", "--no-config"], dir)).code).toBe(0);
    // A bad config is an error naming it, not a stack trace.
    await writeFile(join(dir, ".citation-targets.json"), JSON.stringify({ legislationHost: "Not A Host" }));
    const bad = await runMain(["schema"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^citation-targets: config .*\.citation-targets\.json is not valid:\ncitation-targets: {3}\/legislationHost/,
    );
  });
});

describe("--print-config says which schema is used", () => {
  const printed = async (args: string[], cwd = dir) =>
    JSON.parse((await runMain(["validate", "--print-config", ...args], cwd)).stdout).settings;

  test("bundled with its host, the repository's, --schema or the config's schema", async () => {
    expect((await printed([])).schema).toEqual({
      value: "bundled",
      from: "default",
      used: "the bundled schema, built for legislation host www.legislation.gov.au (no .tooling/schemas/citation-targets.schema.json from here up to the repository root), or for the legislationHost a dataset's lock manifest names",
    });
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ legislationHost: "www.gesetze-im-internet.de" }),
    );
    const config = await printed([]);
    expect(config.legislationHost).toEqual({
      value: "www.gesetze-im-internet.de",
      from: "config .citation-targets.json",
    });
    expect(config.schema.used).toBe(
      "the bundled schema, built for legislation host www.gesetze-im-internet.de (no .tooling/schemas/citation-targets.schema.json from here up to the repository root), or for the legislationHost a dataset's lock manifest names",
    );
    expect((await printed(["--legislation-host", "example.org"])).schema.used).toContain(
      "built for legislation host example.org",
    );
    await mkdir(join(dir, ".tooling/schemas"));
    await writeFile(join(dir, ".tooling/schemas/citation-targets.schema.json"), formatSchema(buildRecordSchema()));
    await mkdir(join(dir, "sub"));
    expect((await printed([], join(dir, "sub"))).schema).toEqual({
      value: "../.tooling/schemas/citation-targets.schema.json",
      from: "repository",
      used: "the repository's schema ../.tooling/schemas/citation-targets.schema.json (found from here up to the repository root; legislationHost does not apply to it)",
    });
    expect((await printed(["--schema", "mine.json"])).schema).toEqual({
      value: "mine.json",
      from: "command line",
      used: "mine.json, named by --schema (legislationHost does not apply to it)",
    });
    await writeFile(join(dir, ".citation-targets.json"), JSON.stringify({ schema: "schemas/mine.json" }));
    expect((await printed([])).schema).toEqual({
      value: "schemas/mine.json",
      from: "config .citation-targets.json",
      used: 'schemas/mine.json, named by the config\'s "schema" (legislationHost does not apply to it)',
    });
  });
});

describe("the other formats say it once too", () => {
  test("sarif carries repeated in the result's properties; github and junit one annotation and one failure for the 20 records", async () => {
    await writeFile(join(dir, FILE), german());
    const sarif = JSON.parse((await runMain(["validate", "--format", "sarif"], dir)).stdout);
    expect(sarif.runs[0].results).toHaveLength(2);
    expect(sarif.runs[0].results[1].properties).toEqual({
      pointer: "/sourceTextUrl",
      messageId: "repeated",
      repeated: { records: 20, firstLine: 1, lastLine: 21 },
    });
    const github = (await runMain(["validate", "--format", "github"], dir)).stdout
      .split("\n")
      .filter((line) => line.startsWith("::error"));
    expect(github).toHaveLength(2);
    expect(github[1]).toContain("line=2,");
    const junit = (await runMain(["validate", "--format", "junit"], dir)).stdout;
    expect(junit).toContain(
      '<testsuite name=".tooling/citation-targets/mvfg.jsonl" tests="2" failures="2" errors="0">',
    );
  });
});

describe("README, as written", () => {
  test("the German example of 'Said once per file' is what validate prints", async () => {
    const readme = await readFile(join(repoRoot, "README.md"), "utf8");
    const block = /\*\*Said once per file\.\*\*[\s\S]*?```text\n([\s\S]*?)```/.exec(readme)![1];
    await writeFile(join(dir, FILE), german());
    expect((await runMain(["validate"], dir)).stdout).toBe(block);
  });
});

describe("writing the schema (or approvals) where no folder can be made", () => {
  test.runIf(process.platform === "linux")(
    "under /proc: an error naming the folder at once, not the endless retry of Node's recursive mkdir",
    async () => {
      const started = performance.now();
      const result = await runMain(["schema", "-o", "/proc/citation-targets-nope/x.json"], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "citation-targets: cannot write /proc/citation-targets-nope/x.json: no such file or folder (cannot create its folder /proc/citation-targets-nope)\n",
      );
      expect(performance.now() - started).toBeLessThan(5_000);
    },
  );

  test("missing folders are made, level by level", async () => {
    expect((await runMain(["schema", "-o", "a/b/c/schema.json"], dir)).code).toBe(0);
    expect(await readFile(join(dir, "a/b/c/schema.json"), "utf8")).toBe(formatSchema(buildRecordSchema()));
  });
});

describe("a lock manifest that fails its schema", () => {
  test("is reported once; its records are still checked against the host it names, not the default one", async () => {
    await mkdir(join(dir, "laws/mvfg"), { recursive: true });
    await writeFile(join(dir, "laws/mvfg/mvfg.md"), await readFile(join(repoRoot, "fixtures/datasets/mvfg/mvfg.md")));
    const manifest = ".tooling/citation-targets/mvfg.lock.json";
    const locked = await runMain(
      [
        "lock",
        "laws/mvfg",
        "--slug",
        "mvfg",
        "--title-id",
        "mvfg",
        "--name",
        "Musterfeststellungsverfahrensgesetz",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        GERMAN,
        "--legislation-host",
        "www.gesetze-im-internet.de",
        "-o",
        manifest,
      ],
      dir,
    );
    expect(locked.code, locked.stderr).toBe(0);
    expect((await runMain(["generate", manifest, "-o", FILE], dir)).code).toBe(0);
    expect((await runMain(["validate", "--no-cache"], dir)).code).toBe(0);
    // A hand edit the manifest's schema refuses: the name is no longer a string.
    const data = JSON.parse(await readFile(join(dir, manifest), "utf8"));
    await writeFile(join(dir, manifest), `${JSON.stringify({ ...data, name: 5 }, null, 2)}\n`);
    const result = await runMain(["validate", "--no-cache", "--format", "json"], dir);
    expect(result.code).toBe(2);
    const [file] = JSON.parse(result.stdout).files;
    expect(file.error).toContain("mvfg.lock.json");
    expect(file.problems.filter((p: { pointer?: string }) => p.pointer === "/sourceTextUrl")).toEqual([]);
  });
});
