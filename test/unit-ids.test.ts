/**
 * UnitIds (src/core/digest.ts) hashes a heading's units' citationTargetIds from their locals' bytes, each unit's its
 * parent's and a step: it must give citationTargetIdOf of each unit's whole local, for any local, step and depth, across
 * headings and artifacts and its buffer's growth. compareLabels (src/core/address/unit-labels.ts) reads a label's
 * leading digits without a pattern: the legal order it gives is checked against the order written out by hand.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { compareLabels, UNIT_KINDS } from "../src/core/address/unit-labels.js";
import { citationTargetIdHead, citationTargetIdOf, UnitIds } from "../src/core/digest.js";

/** A step or local: ASCII, Latin-1, the rest of the BMP, astral characters, and long runs (the buffer grows). */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom("§", "ä", "€", "😀", "a", "1", "-", "~"), maxLength: 12 }),
  fc.string({ unit: fc.constantFrom("§", "x", "€"), minLength: 400, maxLength: 900 }),
);

test("each unit's id is citationTargetIdOf its whole local, in pre-order, over headings of several artifacts", () => {
  const ids = new UnitIds();
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          prefix: text,
          headings: fc.array(
            fc.record({
              local: text,
              // Depths of a pre-order walk: each at most one deeper than the one before.
              units: fc.array(fc.record({ step: text, deeper: fc.integer({ min: -3, max: 1 }) }), { maxLength: 12 }),
            }),
            { maxLength: 4 },
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      (artifacts) => {
        for (const artifact of artifacts) {
          const head = citationTargetIdHead("d".repeat(64), `slug/${artifact.prefix}#`);
          for (const heading of artifact.headings) {
            const above = [{ local: heading.local, end: ids.heading(head, heading.local) }];
            for (const { step, deeper } of heading.units) {
              const depth = Math.max(1, Math.min(above.length, above.length - 1 + deeper));
              above.length = depth;
              const parent = above[depth - 1]!;
              const local = `${parent.local}/${step}`;
              expect(ids.unit(parent.end, step)).toBe(citationTargetIdOf(head, local));
              above.push({ local, end: ids.end });
            }
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});

test("compareLabels orders numbers by value, then their letters and Latin suffixes", () => {
  const absatz = UNIT_KINDS.find((kind) => kind.system === "de" && kind.prefix === "abs")!;
  const ordered = ["1", "1a", "1b", "2", "9", "9a", "10", "10a", "11", "100"];
  for (let i = 0; i < ordered.length; i++)
    for (let j = 0; j < ordered.length; j++)
      expect(Math.sign(compareLabels(absatz, ordered[i]!, ordered[j]!))).toBe(Math.sign(i - j));
  const swiss = UNIT_KINDS.find((kind) => kind.system === "ch" && kind.prefix === "abs")!;
  const latin = ["1", "1bis", "1ter", "1quater", "2"];
  for (let i = 0; i < latin.length; i++)
    for (let j = 0; j < latin.length; j++)
      expect(Math.sign(compareLabels(swiss, latin[i]!, latin[j]!))).toBe(Math.sign(i - j));
  // Letters alone: code-unit order.
  const buchstabe = UNIT_KINDS.find((kind) => kind.system === "de" && kind.prefix === "bst")!;
  expect(compareLabels(buchstabe, "a", "b")).toBeLessThan(0);
  expect(compareLabels(buchstabe, "h", "ha")).toBeLessThan(0);
  expect(compareLabels(buchstabe, "ha", "i")).toBeLessThan(0);
  // Leading zeros: digits that differ as text are compared by value alone (`01` and `1` are one number).
  expect(compareLabels(absatz, "01", "1")).toBe(0);
});
