import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RecordDiff } from "../src/core/diff/diff-records.js";
import {
  differingFields,
  recordFingerprint,
  sameFieldValue,
  UNCOMPARED_FIELDS,
} from "../src/core/records/record-fingerprint.js";

type Rec = Record<string, unknown>;

/** A record of a small dataset: the fields diff compares and some it does not. */
const base = (i: number): Rec => ({
  citationAddress: `act/index.md#${i}`,
  citationTargetId: `${i}`.padStart(64, "a"),
  datasetDigest: "d".repeat(64),
  documentOrder: i,
  headingText: `§ ${i}`,
  headingTrail: ["Act", `Part ${i % 3}`],
  markdown: `## § ${i}\n\nText ${i}.\n`,
  targetKind: i % 4 === 0 ? "structural-container" : "markdown-artifact",
  textDigest: `${i}`.padStart(64, "0"),
  versionDate: "2024-01-01",
});

/** One edit of a record, or of the list around it. */
const edit = fc.oneof(
  fc.constant("keep"),
  fc.constant("remove"),
  fc.constant("duplicate"),
  fc.record({
    field: fc.constantFrom(
      "headingText",
      "markdown",
      "headingTrail",
      "textDigest",
      "extra",
      "versionDate",
      "documentOrder",
      "targetKind",
    ),
    value: fc.oneof(
      fc.string(),
      fc.integer(),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 2, noNullPrototype: true }),
    ),
  }),
  fc.record({ drop: fc.constantFrom("headingText", "headingTrail", "extra") }),
  fc.record({ move: fc.integer({ min: 100, max: 110 }) }),
);

function run(before: Rec[], after: Rec[], keep: boolean) {
  const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: "old.jsonl", newFile: "new.jsonl" });
  // An old side longer than what is kept makes the diff digest every record from the first one on.
  for (const [i, record] of before.entries()) diff.addOld(record, i + 1, keep ? 10 : 2 ** 30);
  for (const [i, record] of after.entries()) diff.addNew(record, i + 1);
  if (diff.endNew()) for (const record of before) diff.addOldDetail(record);
  return diff.finish();
}

describe("RecordDiff: old records kept, or digested", () => {
  test("both ways give the same report, whatever the edits", () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), fc.boolean(), (edits, extraOld) => {
        const before = edits.map((_, i) => (extraOld && i % 2 === 0 ? { ...base(i), extra: { a: i } } : base(i)));
        const after: Rec[] = [];
        edits.forEach((e, i) => {
          const record = structuredClone(before[i]!);
          if (e === "remove") return;
          if (e === "duplicate") after.push(structuredClone(record));
          else if (typeof e === "object" && "field" in e) record[e.field] = e.value;
          else if (typeof e === "object" && "drop" in e) delete record[e.drop];
          else if (typeof e === "object" && "move" in e) record.citationAddress = `act/index.md#${e.move}`;
          after.push(record);
        });
        expect(run(before, after, false)).toEqual(run(before, after, true));
      }),
      { numRuns: 500 },
    );
  });

  test("a kept old side names the changed fields with their values, as the digested one does", () => {
    const before = [base(1), base(2)];
    const after = [{ ...base(1), headingText: "§ 1a", documentOrder: 7 }, base(2)];
    for (const keep of [true, false]) {
      const { changes } = run(before, after, keep);
      expect(changes).toEqual([
        expect.objectContaining({
          kind: "record-changed",
          address: "act/index.md#1",
          fields: [{ field: "headingText", before: "§ 1", after: "§ 1a" }],
        }),
      ]);
    }
  });
});

describe("the one record comparer", () => {
  const value = fc.oneof(
    fc.string({ maxLength: 3 }),
    fc.integer({ min: -2, max: 2 }),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 2 }), fc.oneof(fc.string({ maxLength: 2 }), fc.integer({ min: 0, max: 2 })), {
      maxKeys: 2,
    }),
  );

  test("two values of a field are the same exactly when their canonical JSON is, read back from JSON or not", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const again = JSON.parse(JSON.stringify(a)) as unknown;
        expect(sameFieldValue(a, again)).toBe(true);
        expect(sameFieldValue(a, b)).toBe(canonicalize(a) === canonicalize(b));
        expect(sameFieldValue(a, undefined)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  test("differingFields names the fields given first in their order, then the others met; the fingerprint changes exactly when a compared field does", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("a", "b", "c", "documentOrder", "textDigest"), value),
        fc.dictionary(fc.constantFrom("a", "b", "c", "documentOrder", "textDigest"), value),
        (before, after) => {
          const fields = differingFields(
            before,
            after,
            ["textDigest", "c"],
            (key) => key === "textDigest" || key === "c",
          );
          const expected = ["textDigest", "c", ...new Set([...Object.keys(before), ...Object.keys(after)])]
            .filter((key, i) => i < 2 || (key !== "textDigest" && key !== "c"))
            .filter((key) => canonicalize(before[key]) !== canonicalize(after[key]));
          expect(fields).toEqual(expected);
          const compared = differingFields(before, after, [], (key) => UNCOMPARED_FIELDS.includes(key));
          expect(recordFingerprint(before) === recordFingerprint(after)).toBe(compared.length === 0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
