import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { formatSchema } from "../src/core/schema/schema.js";
import { buildConfigSchema, findConfig, loadConfig } from "../src/node/config/config.js";
import { OperationalError } from "../src/node/errors.js";
import { runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const cli = runMain;

describe("config", () => {
  test("schemas/ holds the config schema the code builds", async () => {
    expect(await readFile(join(repoRoot, "schemas/citation-targets.config.schema.json"), "utf8")).toBe(
      formatSchema(buildConfigSchema()),
    );
  });

  test("every example config in docs/examples passes the schema", async () => {
    const examples = (await readdir(join(repoRoot, "docs/examples"))).filter((f) => f.endsWith(".json"));
    expect(examples.length).toBeGreaterThan(1);
    for (const example of examples)
      await expect(loadConfig(join(repoRoot, "docs/examples", example))).resolves.toHaveProperty("config");
  });

  test("discovery: the first entry of the table in the nearest folder wins, up to the repository root", async () => {
    await mkdir(join(dir, ".git"));
    await mkdir(join(dir, "a/b"), { recursive: true });
    await writeFile(join(dir, "package.json"), JSON.stringify({ "citation-targets": { maxProblems: 1 } }));
    await writeFile(join(dir, "a/package.json"), JSON.stringify({ name: "no-config-here" }));
    expect((await findConfig(join(dir, "a/b")))?.path).toBe(join(dir, "package.json"));
    await writeFile(join(dir, "a/citation-targets.config.json"), JSON.stringify({ maxProblems: 2 }));
    await writeFile(join(dir, "a/.citation-targets.json"), JSON.stringify({ maxProblems: 3 }));
    expect(await findConfig(join(dir, "a/b"))).toEqual({
      path: join(dir, "a/.citation-targets.json"),
      config: { maxProblems: 3 },
    });
    await mkdir(join(dir, "a/b/.git"));
    expect(await findConfig(join(dir, "a/b"))).toBeUndefined();
  });

  test("an invalid config is a configuration error that names the path and the member", async () => {
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ rules: { "no-such-rule": "error", "text-digest": "fatal" }, colour: true }),
    );
    const error = await loadConfig(join(dir, ".citation-targets.json")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationalError);
    expect((error as Error).message).toMatch(/is not valid:\n/);
    expect((error as Error).message).toContain('unknown member "colour"');
    expect((error as Error).message).toContain("no-such-rule");
    expect((await cli(["validate"], dir)).code).toBe(2);
  });

  test("a misspelled member of an adopt section: one line, its place in the file and the member meant; no oneOf noise", async () => {
    const config = join(dir, ".citation-targets.json");
    await writeFile(
      config,
      '{ "adopt": [ { "datasets": ["laws/*"], "titleID": "{front.jurabk}",\n  "name": "{front.title}" } ] }\n',
    );
    const error = await loadConfig(config).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `config ${config} is not valid:\n  /adopt/0: unknown member "titleID" (line 1, column 40): did you mean "titleId"?`,
    );
    // A package.json's section is placed in the package.json; a value of no type the member takes names the types.
    await writeFile(config, "{}");
    await writeFile(
      join(dir, "package.json"),
      '{\n  "citation-targets": {\n    "adopt": "laws/*", "lock": 1\n  }\n}\n',
    );
    const inPackage = await loadConfig(join(dir, "package.json")).catch((e: unknown) => e);
    expect((inPackage as Error).message.split("\n").slice(1)).toEqual([
      "  /lock (line 3, column 24) must be a string or false",
      "  /adopt (line 3, column 5) must be an object or an array",
    ]);
    // `true` where a string or false is taken: the branches named, not "must be false" (true is a boolean too).
    await writeFile(join(dir, "package.json"), '{ "citation-targets": { "lock": true } }\n');
    const truly = await loadConfig(join(dir, "package.json")).catch((e: unknown) => e);
    expect((truly as Error).message.split("\n").slice(1)).toEqual([
      "  /lock (line 1, column 25) must be a string or false",
    ]);
    // validate reads no adopt section, but a config at fault stops it too (exit 2), saying so.
    await writeFile(config, '{ "adopt": { "titleID": "x" } }');
    const validated = await cli(["validate"], dir);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toContain('/adopt: unknown member "titleID" (line 1, column 14): did you mean "titleId"?');
  });

  test("validate applies the config; flags win; --no-config ignores it", async () => {
    await mkdir(join(dir, "data"));
    await writeFile(join(dir, "data/x.jsonl"), '{"b":1,"a":2}\n');
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({ patterns: ["data/*.jsonl"], rules: { "non-canonical": "warning", schema: "off" } }),
    );
    await mkdir(join(dir, "sub"));
    const fromConfig = await cli(["validate", "--format", "json", "--verbose"], join(dir, "sub"));
    expect(fromConfig.code).toBe(0);
    expect(JSON.parse(fromConfig.stdout).files[0]).toMatchObject({
      path: "../data/x.jsonl",
      problems: [{ ruleId: "non-canonical", severity: "warning" }],
    });
    expect(fromConfig.stderr).toContain(`config: ${join(dir, ".citation-targets.json")}`);
    const flagWins = await cli(["validate", "--format", "json", "--rule", "non-canonical=error", "data/x.jsonl"], dir);
    expect(flagWins.code).toBe(1);
    const noConfig = await cli(["validate", "--format", "json", "--no-config", "data/x.jsonl"], dir);
    expect(JSON.parse(noConfig.stdout).summary.errors).toBeGreaterThan(1);
  });
});
