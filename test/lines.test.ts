import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { scanJson } from "../src/core/json/json-scan.js";
import { LineSplitter, type Line } from "../src/core/lines.js";
import { check, sampleRecord, summary, toJsonl } from "./helpers/records.js";

const good = () => toJsonl([sampleRecord("markdown-artifact", 0)]).trimEnd();
const lineProblems = (text: string | Uint8Array) =>
  check(text).problems.filter((p) =>
    [
      "invalid-utf8",
      "bom",
      "carriage-return",
      "blank-line",
      "final-newline",
      "json-syntax",
      "record-not-object",
      "duplicate-key",
      "non-canonical",
    ].includes(p.ruleId),
  );

describe("line splitting", () => {
  test("line numbers, offsets and the last unterminated line, whatever the chunking", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary-ascii" }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 7 }),
        (parts, size) => {
          const text = parts.join("\n");
          const bytes = new TextEncoder().encode(text);
          const lines: Line[] = [];
          const splitter = new LineSplitter((l) => lines.push({ ...l, bytes: l.bytes.slice() }));
          for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
          splitter.end();
          const expected = text === "" ? [] : text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
          expect(lines.map((l) => new TextDecoder().decode(l.bytes))).toEqual(expected);
          expect(lines.map((l) => l.number)).toEqual(expected.map((_, i) => i + 1));
          let offset = 0;
          for (const line of lines) {
            expect(line.offset).toBe(offset);
            offset += line.bytes.length + 1;
          }
          if (lines.length > 0) expect(lines[lines.length - 1]!.terminated).toBe(text.endsWith("\n"));
        },
      ),
    );
  });

  test("checking a file in one-byte chunks gives the same problems as in one chunk", () => {
    const text = `${good()}\n{"b":1,"a":2}\n\n[1]\n${good()}`;
    expect(check(text, { chunkSize: 1 }).problems).toEqual(check(text).problems);
  });
});

describe("line-level problems", () => {
  test("an empty file is valid", () => {
    expect(check("")).toMatchObject({ records: 0, problems: [] });
  });

  test("a valid line gives no problem", () => {
    expect(check(`${good()}\n`).problems).toEqual([]);
  });

  test("invalid UTF-8 is reported with line and column, and the next line is still checked", () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"a":"ü'),
      0xff,
      ...new TextEncoder().encode('"}\n[1]\n'),
    ]);
    expect(lineProblems(bytes).map((p) => [p.line, p.ruleId, p.column])).toEqual([
      [1, "invalid-utf8", 8],
      [2, "record-not-object", undefined],
    ]);
    expect(lineProblems(bytes)[0]!.message).toContain("0xff");
  });

  test.each([
    ["overlong encoding", [0xc0, 0xaf]],
    ["UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["truncated sequence", [0xe2, 0x82]],
    ["beyond U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
  ])("%s is invalid UTF-8", (_, bad) => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, ...bad, 0x22, 0x7d, 0x0a]);
    expect(lineProblems(bytes)[0]).toMatchObject({ ruleId: "invalid-utf8", line: 1, column: 7 });
  });

  test("a BOM is reported, and the line is still read as a record", () => {
    const result = check(`\uFEFF${good()}\n`);
    expect(summary(result)).toEqual(["1 bom "]);
    expect(result.records).toBe(1);
  });

  test("CR LF line endings are reported on each line", () => {
    expect(
      summary(check(`${good()}\r\n${good().replace('"documentOrder":0', '"documentOrder":1')}\r\n`)).filter((s) =>
        s.includes("carriage"),
      ).length,
    ).toBe(2);
  });

  test("blank and whitespace-only lines are reported", () => {
    expect(lineProblems(`${good()}\n\n  \n`).map((p) => [p.line, p.ruleId])).toEqual([
      [2, "blank-line"],
      [3, "blank-line"],
    ]);
  });

  test("a missing final newline is reported on the last line", () => {
    expect(lineProblems(good()).map((p) => [p.line, p.ruleId])).toEqual([[1, "final-newline"]]);
  });

  test.each([
    ['{"a":}', 6, "expected a JSON value"],
    ['{"a":1,}', 8, "expected a quoted key"],
    ['{"a" 1}', 6, 'expected ":"'],
    ['{"a":1} {"b":2}', 9, "one JSON value per line"],
    ['{"a":"\\x"}', 7, "invalid escape"],
    ['{"a":tru}', 6, "expected a JSON value"],
    ['{"a":01}', 7, 'expected "," or "}"'],
    ['{"a":"x', 6, "unterminated string"],
  ])("invalid JSON %j is reported at column %i", (line, column, message) => {
    const [problem] = lineProblems(`${line}\n`);
    expect(problem).toMatchObject({ ruleId: "json-syntax", line: 1, column });
    expect(problem!.message).toContain(message);
  });

  test.each([
    ["[]", "an array"],
    ['"text"', "a string"],
    ["42", "a number"],
    ["true", "a boolean"],
    ["null", "null"],
  ])("%s is not a record", (line, got) => {
    expect(lineProblems(`${line}\n`)[0]).toMatchObject({
      ruleId: "record-not-object",
      message: `line holds ${got}: expected one JSON object per line`,
    });
  });

  test("duplicate keys are reported with the pointer of the repeat, nested too", () => {
    const problems = lineProblems('{"a":{"x":1,"x":2},"a":3}\n');
    expect(problems.map((p) => [p.ruleId, p.pointer, p.column])).toEqual([
      ["duplicate-key", "/a/x", 13],
      ["duplicate-key", "/a", 20],
    ]);
  });

  test("__proto__ is an ordinary key: a duplicate of it is found, and it does not pollute", () => {
    const problems = lineProblems('{"__proto__":1,"__proto__":2}\n');
    expect(problems[0]).toMatchObject({ ruleId: "duplicate-key", pointer: "/__proto__" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test.each([
    ['{"b":1,"a":2}', "keys not in sorted order", "/a", 8],
    ['{"a": 1}', "whitespace outside strings", "/a", 6],
    [' {"a":1}', "whitespace outside strings", "", 1],
    ['{"a":"\\u00e9"}', "string escapes not in canonical form", "/a", 6],
    ['{"a":"\\/"}', "string escapes not in canonical form", "/a", 6],
    ['{"a":1.0}', "number not in canonical form", "/a", 6],
    ['{"a":1E2}', "number not in canonical form", "/a", 6],
    ['{"a":[1,2.50]}', "number not in canonical form", "/a/1", 9],
  ])("non-canonical %j: %s", (line, reason, pointer, column) => {
    const [problem] = lineProblems(`${line}\n`);
    expect(problem).toMatchObject({ ruleId: "non-canonical", pointer, column });
    expect(problem!.message).toContain(reason);
  });

  test("a lone surrogate cannot be canonicalised", () => {
    expect(lineProblems('{"a":"\\ud800"}\n')[0]).toMatchObject({
      ruleId: "non-canonical",
      messageId: "notRepresentable",
    });
  });

  test("deeply nested values are reported, not a crash", () => {
    const deep = `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}\n`;
    expect(() => check(deep)).not.toThrow();
    const bad = `{"a":${"[".repeat(200_000)}}\n`;
    expect(lineProblems(bad)[0]).toMatchObject({ ruleId: "json-syntax" });
  });

  test("one bad line never stops the checking of the rest", () => {
    const records = [0, 1, 2].map((i) => sampleRecord("markdown-artifact", i));
    const lines = toJsonl(records).split("\n");
    lines[1] = "{oops";
    const result = check(lines.join("\n"));
    expect(result.records).toBe(2);
    expect(summary(result)).toContain("2 json-syntax ");
  });
});

describe("RFC 8785 canonical form", () => {
  // Number vectors from RFC 8785 Appendix B (IEEE 754 value → canonical text).
  test.each([
    [0, "0"],
    [-0, "0"],
    [5e-324, "5e-324"],
    [-5e-324, "-5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [9007199254740992, "9007199254740992"],
    [-9007199254740992, "-9007199254740992"],
    [295147905179352830000, "295147905179352830000"],
    [9.999999999999997e-7, "9.999999999999997e-7"],
    [1e21, "1e+21"],
    [999999999999999700000, "999999999999999700000"],
    [0.000001, "0.000001"],
    [333333333.3333332, "333333333.3333332"],
  ])("number %d serialises as %s", (value, text) => {
    expect(canonicalize(value)).toBe(text);
  });

  test("property sorting by UTF-16 code units (RFC 8785 section 3.2.3)", () => {
    const input =
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}';
    const keys = [...canonicalize(JSON.parse(input))!.matchAll(/"([^"]*)":"[^"]*"/g)].map((m) => m[1]);
    expect(keys).toEqual(["\\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
  });

  test("string escaping (RFC 8785 section 3.2.2.2)", () => {
    const input = '{"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/"}';
    expect(canonicalize(JSON.parse(input))).toBe('{"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  test("the checker accepts exactly the canonical serialisation of any object", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }), (value) => {
        const canonical = canonicalize(value)!;
        expect(lineProblems(`${canonical}\n`).filter((p) => p.ruleId === "non-canonical")).toEqual([]);
        const pretty = JSON.stringify(value, null, 1);
        if (pretty !== canonical && !pretty.includes("\n"))
          expect(lineProblems(`${pretty}\n`).some((p) => p.ruleId === "non-canonical")).toBe(true);
        const reordered = JSON.stringify(Object.fromEntries(Object.entries(value).reverse()));
        if (reordered !== canonical)
          expect(lineProblems(`${reordered}\n`).some((p) => p.ruleId === "non-canonical")).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("the scanner agrees with JSON.parse on which lines are JSON", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(scanJson(text).syntaxError === undefined).toBe(parses);
      }),
      { numRuns: 500 },
    );
  });
});
