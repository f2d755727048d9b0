/**
 * The engine and the rule contract: typed message ids, rules given (not imported), --quiet as a pure filter, one upward
 * search.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { onlyErrors, type Report } from "../src/core/report/report.js";
import { createFileCheck } from "../src/engine/check-file.js";
import { findConfig } from "../src/node/config/config.js";
import { findRepositorySchema } from "../src/node/config/schema-source.js";
import { defineRule } from "../src/rules/define.js";
import { rules } from "../src/rules/index.js";
import { tempDir } from "./helpers/datasets.js";
import { schemaCheck } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe("the rule contract", () => {
  test("a rule's report takes only its own message ids: a misspelling does not compile, and an unknown id throws", () => {
    const misspelt = defineRule({
      id: "test-rule",
      scope: "record",
      meta: { description: "test", defaultSeverity: "error" },
      messages: { found: "found {{what}}" },
      create(context) {
        return {
          record({ line }) {
            // @ts-expect-error "fonud" is not one of this rule's message ids (the type check of test/ fails if this compiles)
            context.report({ messageId: "fonud", line, pointer: "" });
          },
        };
      },
    });
    const check = createFileCheck({ rules: [misspelt], file: "x.jsonl", schemaCheck });
    expect(() => check.push(new TextEncoder().encode("{}\n"))).toThrow(
      'rule test-rule reported an unknown messageId "fonud"',
    );
  });

  test("the engine runs the rules it is given, and only those", () => {
    const onlyJson = rules.filter((rule) => rule.id === "json-syntax" || rule.id === "final-newline");
    const check = createFileCheck({ rules: onlyJson, file: "x.jsonl", schemaCheck });
    check.push(new TextEncoder().encode('not json\n{"a":1}'));
    expect(check.end().problems.map((p) => `${p.line} ${p.ruleId}`)).toEqual(["1 json-syntax", "2 final-newline"]);
  });

  test("reading does not depend on the rules given: without any reading rule, a line that is not JSON is still no record, and a BOM is still taken off", () => {
    const seen: string[] = [];
    const spy = defineRule({
      id: "spy",
      scope: "record",
      meta: { description: "spy", defaultSeverity: "error" },
      messages: { seen: "seen" },
      create: () => ({
        record: ({ record, line, schemaValid }) => void seen.push(`${line} ${JSON.stringify(record)} ${schemaValid}`),
        skipped: (line) => void seen.push(`${line} skipped`),
      }),
    });
    for (const given of [[spy], [...rules.filter((rule) => rule.scope === "reading"), spy]]) {
      seen.length = 0;
      const check = createFileCheck({
        rules: given,
        file: "x.jsonl",
        schemaCheck,
        ruleSettings: { "json-syntax": "off", bom: "off" },
      });
      check.push(new TextEncoder().encode('not json\n\ufeff{"a":1}\n\n[1]\n'));
      expect(check.end()).toMatchObject({
        records: 1,
        problems:
          given.length === 1
            ? []
            : [
                { line: 2, ruleId: "schema" },
                { line: 3, ruleId: "blank-line" },
                { line: 4, ruleId: "record-not-object" },
              ],
      });
      expect(seen).toEqual(["1 skipped", '2 {"a":1} false', "3 skipped", "4 skipped"]);
    }
  });

  test("a rule of scope reading names a problem the reader finds, and has no handlers", () => {
    const stray = defineRule({
      id: "tabs",
      scope: "reading",
      meta: { description: "tabs", defaultSeverity: "error" },
      messages: { tab: "tab" },
    });
    expect(() => createFileCheck({ rules: [stray], file: "x.jsonl", schemaCheck })).toThrow(
      'rule tabs has scope "reading", but the reader finds only the problems of line-length, final-newline',
    );
    const withCode = { ...rules.find((rule) => rule.id === "bom")!, create: () => ({}) };
    expect(() => createFileCheck({ rules: [withCode], file: "x.jsonl", schemaCheck })).toThrow(
      'rule bom has scope "reading"',
    );
  });
});

describe("--quiet", () => {
  test("is a pure filter: the report is not changed, and hidden warnings are not counted as omitted problems", () => {
    const warning = {
      ruleId: "non-canonical",
      messageId: "nonCanonical",
      data: {},
      message: "w",
      severity: "warning" as const,
      file: "a.jsonl",
      line: 1,
      pointer: "",
    };
    const error = { ...warning, ruleId: "schema", severity: "error" as const, line: 2 };
    const report: Report = {
      files: [{ path: "a.jsonl", records: 2, problems: [warning, error], unstored: { errors: 1, warnings: 5 } }],
      summary: { files: 1, records: 2, errors: 2, warnings: 6 },
      schemaSource: { kind: "bundled" },
      threads: 1,
      rules: [],
    };
    const quiet = onlyErrors(report);
    expect(quiet.files[0]!.problems).toEqual([error]);
    expect(quiet.files[0]!.unstored).toEqual({ errors: 1, warnings: 0 });
    expect(quiet.summary).toEqual({ files: 1, records: 2, errors: 2, warnings: 0 });
    expect(quiet.hiddenWarnings).toBe(6);
    expect(report.files[0]!.problems).toHaveLength(2); // the input is untouched
  });
});

describe("the search up to the repository root", () => {
  test("stops at a folder whose .git is a file (a worktree or submodule), for the config and the schema alike", async () => {
    const outer = dir;
    const repo = join(outer, "checkout");
    await mkdir(join(repo, "sub"), { recursive: true });
    await writeFile(join(repo, ".git"), "gitdir: ../elsewhere/.git/worktrees/checkout\n");
    // Above the root: a config and a schema that must not be found.
    await writeFile(join(outer, ".citation-targets.json"), "{}");
    await mkdir(join(outer, ".tooling/schemas"), { recursive: true });
    await writeFile(join(outer, ".tooling/schemas/citation-targets.schema.json"), "{}");
    expect(await findConfig(join(repo, "sub"))).toBeUndefined();
    expect(await findRepositorySchema(join(repo, "sub"))).toBeUndefined();
    // At the root: both are found.
    await writeFile(join(repo, ".citation-targets.json"), "{}");
    await mkdir(join(repo, ".tooling/schemas"), { recursive: true });
    await writeFile(join(repo, ".tooling/schemas/citation-targets.schema.json"), "{}");
    expect((await findConfig(join(repo, "sub")))?.path).toBe(join(repo, ".citation-targets.json"));
    expect(await findRepositorySchema(join(repo, "sub"))).toBe(
      join(repo, ".tooling/schemas/citation-targets.schema.json"),
    );
  });
});
