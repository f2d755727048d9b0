/**
 * Fuzzing (FUZZING.md): arbitrary bytes and arbitrary mutations of valid records go to validate,
 * which never throws and puts every problem on a line of the file. `npm run fuzz` runs the same
 * properties for much longer (FUZZ_RUNS); the suite runs a short campaign.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateRecords } from "../src/core/records/parse-artifact.js";
import { DatasetError } from "../src/core/errors.js";
import { serializeRecord } from "../src/core/records/record-line.js";
import { createFileCheck } from "../src/engine/check-file.js";
import { lock } from "../src/node/dataset/lock.js";
import { readFile } from "node:fs/promises";
import { writeTree } from "./helpers/datasets.js";
import { rules } from "../src/rules/index.js";
import { check, fixtureRecords, schemaCheck } from "./helpers/records.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** Long campaigns need more than the suite's per-test time. */
const TIMEOUT = Math.max(60_000, RUNS * 100);
const encoder = new TextEncoder();

/** Checks bytes in chunks of the given sizes; returns the result, or the error it threw. */
function checkBytes(bytes: Uint8Array, chunk: number, limits?: { maxLineBytes?: number; maxDepth?: number }) {
  const check = createFileCheck({ rules, file: "privacy-act-1988.jsonl", schemaCheck, ...(limits ? { limits } : {}) });
  for (let i = 0; i < bytes.length; i += chunk) check.push(bytes.subarray(i, i + chunk));
  return check.end();
}

/** Lines of a file as validate numbers them: LF-terminated, plus a last one without LF. */
function lineCount(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === 0x0a) count++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? count + 1 : count;
}

function expectWellFormed(bytes: Uint8Array, result: ReturnType<typeof checkBytes>) {
  const lines = lineCount(bytes);
  for (const problem of result.problems) {
    expect(problem.line).toBeGreaterThanOrEqual(0);
    expect(problem.line).toBeLessThanOrEqual(lines);
    expect(problem.message).not.toMatch(/\{\{\w+\}\}/); // every placeholder filled
    if (problem.column !== undefined) expect(problem.column).toBeGreaterThanOrEqual(1);
  }
  expect(result.records).toBeLessThanOrEqual(lines);
}

const valid = fixtureRecords("privacy-act-1988");
const validText = `${valid.map((r) => JSON.stringify(r)).join("\n")}\n`;

/**
 * A mutation of one valid record: a field removed, retyped, replaced by a hostile value, or the line's bytes cut,
 * doubled or spliced.
 */
const hostileValue = fc.oneof(
  fc.constantFrom(
    null,
    true,
    -0,
    1e308,
    2 ** 53 + 1,
    "",
    "\u0000",
    "\ud800",
    "x".repeat(5000),
    "__proto__",
    [],
    {},
    { __proto__: null },
    [[[[[[]]]]]],
  ),
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);

describe("fuzzing validate", () => {
  test(
    "arbitrary bytes: no throw, every problem on a line of the file",
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 2000 }), fc.integer({ min: 1, max: 300 }), (bytes, chunk) => {
          expectWellFormed(bytes, checkBytes(bytes, chunk));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  test(
    "arbitrary text made of JSON pieces and line breaks: no throw, lines in range",
    () => {
      const piece = fc.constantFrom(
        '{"a":1}',
        "{",
        "}",
        "[",
        "]",
        '"',
        "\\",
        "\\u",
        "\ud83d",
        "\n",
        "\r\n",
        "\ufeff",
        " ",
        ",",
        ":",
        "1e400",
        '"__proto__":1',
        "null",
        '{"a":1,"a":2}',
      );
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 1, max: 64 }), (pieces, chunk) => {
          const bytes = encoder.encode(pieces.join(""));
          expectWellFormed(bytes, checkBytes(bytes, chunk, { maxLineBytes: 64, maxDepth: 8 }));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  test(
    "arbitrary mutations of valid records: no throw, lines in range, and the untouched lines stay clean of line-level problems",
    () => {
      const fields = Object.keys(valid[5]!);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: valid.length - 1 }),
          fc.oneof(
            fc.record({ kind: fc.constant("delete" as const), field: fc.constantFrom(...fields) }),
            fc.record({
              kind: fc.constant("set" as const),
              field: fc.constantFrom(...fields, "__proto__", "extra"),
              value: hostileValue,
            }),
            fc.record({ kind: fc.constant("bytes" as const), at: fc.nat(), insert: fc.uint8Array({ maxLength: 8 }) }),
          ),
          fc.integer({ min: 1, max: 4096 }),
          (index, mutation, chunk) => {
            const lines = validText.split("\n");
            const record = { ...valid[index]! } as Record<string, unknown>;
            let line: Uint8Array;
            if (mutation.kind === "delete") delete record[mutation.field];
            if (mutation.kind === "set")
              Object.defineProperty(record, mutation.field, {
                value: mutation.value,
                enumerable: true,
                configurable: true,
                writable: true,
              });
            if (mutation.kind === "bytes") {
              const original = encoder.encode(lines[index]!);
              const at = mutation.at % (original.length + 1);
              line = new Uint8Array([...original.subarray(0, at), ...mutation.insert, ...original.subarray(at)]);
            } else {
              line = encoder.encode(JSON.stringify(record) ?? "null");
            }
            const before = encoder.encode(
              lines
                .slice(0, index)
                .map((l) => `${l}\n`)
                .join(""),
            );
            const after = encoder.encode(lines.slice(index + 1).join("\n"));
            const bytes = new Uint8Array([...before, ...line, 0x0a, ...after]);
            const result = checkBytes(bytes, chunk);
            expectWellFormed(bytes, result);
            const lineLevel = new Set([
              "invalid-utf8",
              "bom",
              "carriage-return",
              "blank-line",
              "json-syntax",
              "record-not-object",
              "duplicate-key",
              "line-length",
              "nesting-depth",
            ]);
            const inserted = mutation.kind === "bytes" ? mutation.insert.filter((b) => b === 0x0a).length : 0;
            for (const problem of result.problems)
              if (lineLevel.has(problem.ruleId))
                expect(
                  problem.line - 1 >= index && problem.line - 1 <= index + inserted,
                  `${problem.ruleId} on line ${problem.line}`,
                ).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("fuzzing lock and generate", () => {
  const frontMatter = fc.constantFrom(
    "",
    "---\ntitle: Gesetz\n---\n",
    "---\ntitle: [unclosed\n---\n",
    "---\na: &a [x, y]\nb: [*a, *a, *a]\n---\n",
    `---\nx: &x [1]\nmany: [${Array(1100).fill("*x").join(",")}]\n---\n`,
    "---\nnever closed\n",
    "\ufeff---\nk: v\n---\n",
    "---\r\nk: v\r\n---\r\n",
    "---\nk: \u0000\n---\n",
  );
  const block = fc.constantFrom(
    "# § 1 Eins\n",
    "## Abschnitt 1\n",
    "Text.\n",
    "\n",
    "- a\n  - b\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "Fußnote\n-----\n",
    "<div>\n",
    "</div>\n",
    "```\ncode\n",
    "> zitat\n",
    "#\n",
    "\r\n",
    "\u0000",
  );
  const file = fc.tuple(frontMatter, fc.array(block, { maxLength: 12 })).map(([fm, blocks]) => fm + blocks.join(""));
  const tree = fc.dictionary(
    fc.constantFrom("a/index.md", "a/b.md", "c.md", "d/e/index.md", "d/e/f.md", "README.md"),
    file,
    { minKeys: 1, maxKeys: 5 },
  );

  test(
    "arbitrary markdown trees, hostile front matter included, come out valid or are refused with a message naming the file",
    async () => {
      const base = await mkdtemp(join(tmpdir(), "citation-targets-fuzz-"));
      let run = 0;
      try {
        await fc.assert(
          fc.asyncProperty(tree, async (files) => {
            const root = join(base, `d${run++}`);
            await writeTree(root, files);
            const locked = await lock({
              dir: root,
              slug: "t",
              titleId: "T",
              name: "T",
              versionDate: "2024-01-01",
              sourceTextUrl: "https://www.legislation.gov.au/T/text",
            });
            const lines: string[] = [];
            try {
              for await (const record of generateRecords(locked.manifest, (path) =>
                readFile(join(root, ...path.split("/"))),
              ))
                lines.push(serializeRecord(record));
            } catch (error) {
              expect(error).toBeInstanceOf(DatasetError);
              for (const problem of (error as DatasetError).problems)
                expect(Object.keys(files).some((path) => problem.startsWith(`${path}: `))).toBe(true);
              return;
            }
            expect(check(lines.join(""), { file: "t.jsonl" }).problems).toEqual([]);
            await rm(root, { recursive: true, force: true });
          }),
          { numRuns: Math.max(20, Math.round(RUNS / 10)) },
        );
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});
