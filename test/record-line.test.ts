/**
 * The one record serialiser (src/core/records/record-line.ts) against the general RFC 8785 canonicaliser the project
 * uses elsewhere (`canonicalize`): on every record tried, serializeRecord gives `canonicalize(record)` and "\n", or
 * throws the error canonicalize throws. The records: the shapes the generator makes (strings, integers, arrays of
 * strings, members in order or not) and what a caller of the library could pass (any code units in names and strings,
 * lone surrogates included, doubles, -0, NaN, Infinity, nested values, undefined, symbol, function and bigint members).
 * And the cut lines the generator's worker threads make are the same line once the cut values are put back.
 */
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { serializeRecord, serializeRecordCut, valueJson } from "../src/core/records/record-line.js";
import type { OutputRecord } from "../src/core/records/record-line.js";
import { fixtureRecords } from "./helpers/records.js";

/** What a serialiser gives for a record: its text, or the message of what it threw. */
function outcome(serialise: () => string): { text: string } | { threw: string } {
  try {
    return { text: serialise() };
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
}

/** The message canonicalize throws for a value. */
function canonicalizeError(value: unknown): string {
  const thrown = outcome(() => `${canonicalize(value)}`);
  if (!("threw" in thrown)) throw new Error("canonicalize did not throw");
  return thrown.threw;
}

/** Any string of UTF-16 code units, lone surrogates included. */
const codeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 8 })
  .map((units) => String.fromCharCode(...units));
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", "Ä§ü", 'a\u0000b\u001f"\\', "\ud800", "x\udc00", "😀", "\u2028\u2029"),
  codeUnits,
);
const FIELD_NAMES = [
  "artifactRelativePath",
  "canonicalPath",
  "documentOrder",
  "headingTrail",
  "markdown",
  "structuralPath",
  "textDigest",
  "versionDate",
];
const name = fc.oneof(
  fc.constantFrom(...FIELD_NAMES),
  text,
  fc.constantFrom("10", "9", "__proto_", "b", "B", "é", "e\u0301"),
);
/** The values the generator writes. */
const flatValue = fc.oneof(text, fc.integer(), fc.nat(), fc.array(text, { maxLength: 4 }));
/** And what else a caller could pass. */
const anyValue = fc.oneof(
  { weight: 4, arbitrary: flatValue },
  fc.double(),
  fc.constantFrom(
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e21,
    5e-324,
    2 ** 53,
    true,
    false,
    null,
    undefined,
    Symbol.for("s"),
    () => 1,
    10n,
  ),
  fc.array(fc.oneof(text, fc.integer(), fc.constantFrom(null, undefined, true)), { maxLength: 3 }),
  fc.dictionary(text, fc.oneof(text, fc.integer(), fc.array(text, { maxLength: 2 })), { maxKeys: 3 }),
);

/**
 * A record from name-value pairs, the members in the order given (Object.keys puts integer-like names first,
 * ascending).
 */
const recordOf = (pairs: [string, unknown][]) => Object.fromEntries(pairs) as OutputRecord;
const flatRecord = fc.array(fc.tuple(name, flatValue), { maxLength: 12 }).map(recordOf);
const anyRecord = fc.array(fc.tuple(name, anyValue), { maxLength: 12 }).map(recordOf);
/** A record with its members already in code-unit order, as the generator builds them. */
const orderedRecord = flatRecord.map(
  (record) =>
    Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    ) as OutputRecord,
);

describe("serializeRecord", () => {
  test("gives canonicalize's line for the committed records", () => {
    for (const record of [...fixtureRecords("privacy-act-1988"), ...fixtureRecords("mvfg")]) {
      expect(serializeRecord(record as OutputRecord)).toBe(`${canonicalize(record)}\n`);
    }
  });

  test.each([
    ["records as the generator makes them", orderedRecord],
    ["flat records, members in any order", flatRecord],
    ["records with any value, lone surrogates, non-finite numbers and undefined members included", anyRecord],
  ])("gives canonicalize's line, or throws its error: %s", (_, records) => {
    fc.assert(
      fc.property(records, (record) => {
        expect(outcome(() => serializeRecord(record))).toEqual(outcome(() => `${canonicalize(record)}\n`));
      }),
      { numRuns: 3_000 },
    );
  });

  test("gives canonicalize's text for what is not a plain record", () => {
    const dated = { toJSON: () => ({ b: 1, a: "x" }) };
    for (const value of [dated, ["b", "a"], null] as unknown as OutputRecord[])
      expect(serializeRecord(value)).toBe(`${canonicalize(value)}\n`);
  });

  test("records of one shape in a row, as the generator writes them, each cut or not, checked or not: each line is canonicalize's", () => {
    // Values from small pools, so that a member often repeats the last record's value and often does not.
    const pooled = fc.oneof(
      fc.constantFrom("a", "b", "Ä", "\ud800", ""),
      fc.constantFrom(0, 1, 2 ** 31),
      fc.constantFrom(["x"], ["x", "y"], []),
      fc.constant(undefined),
    );
    const shape = fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { minLength: 1 });
    const rows = shape.chain((names) =>
      fc
        .array(fc.tuple(fc.tuple(...names.map(() => pooled)), fc.subarray(names), fc.boolean()), {
          minLength: 1,
          maxLength: 20,
        })
        .map((rows) => ({ names, rows })),
    );
    fc.assert(
      fc.property(rows, ({ names, rows }) => {
        for (const [values, cut, check] of rows) {
          const record = Object.fromEntries(
            [...names].sort().map((name) => [name, values[names.indexOf(name)]]),
          ) as OutputRecord;
          const expected = outcome(() => `${canonicalize(record)}\n`);
          // Unchecked only where no string holds a lone surrogate, as the caller promises then.
          const wellFormed = !check && "text" in expected;
          const cutLine = outcome(() => {
            const pieces = serializeRecordCut(record, cut, wellFormed);
            const values = Object.keys(record)
              .sort()
              .filter((key) => cut.includes(key) && record[key] !== undefined)
              .map((key) => valueJson(record[key]));
            return pieces.map((piece, i) => piece + (values[i] ?? "")).join("");
          });
          expect(cutLine).toEqual(expected);
          expect(outcome(() => serializeRecord(record))).toEqual(expected);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  test("a text written without the lone-surrogate check is not reused by a call that checks", () => {
    const record = { a: "x", b: "\ud800" };
    const cut: string[] = [];
    expect(serializeRecordCut(record, cut, true)).toEqual(['{"a":"x","b":"\\ud800"}\n']);
    expect(() => serializeRecordCut(record, cut)).toThrow(canonicalizeError(record));
    expect(() => serializeRecord(record)).toThrow(canonicalizeError(record));
  });

  test("the line cut at some members is the same line once their values are put back", () => {
    const withCut = flatRecord.chain((record) => fc.tuple(fc.constant(record), fc.subarray(Object.keys(record))));
    fc.assert(
      fc.property(withCut, ([record, cut]) => {
        const line = outcome(() => serializeRecord(record));
        const parts = outcome(() => {
          const pieces = serializeRecordCut(record, cut);
          const values = Object.keys(record)
            .sort()
            .filter((key) => cut.includes(key) && record[key] !== undefined)
            .map((key) => valueJson(record[key]));
          expect(pieces).toHaveLength(values.length + 1);
          return pieces.map((piece, i) => piece + (values[i] ?? "")).join("");
        });
        expect(parts).toEqual(line);
      }),
      { numRuns: 3_000 },
    );
  });
});
