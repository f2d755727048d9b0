/**
 * The Latin-1 forms of the patterns with Unicode property classes (src/core/address/latin1.ts): on text without a
 * character above U+00FF each matches exactly what its `\p` form matches, with the same groups at the same places.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { latin1Forms as addressForms } from "../src/core/address/address.js";
import { latin1Forms as designationForms } from "../src/core/address/designation.js";
import { isLatin1, LATIN1_LETTER, LATIN1_NUMBER } from "../src/core/address/latin1.js";
import {
  ALL_ANNEX_WORDS,
  ALL_ORDINALS,
  ALL_PROVISIONS,
  ALL_UNIT_WORDS,
  LATIN_SUFFIXES,
} from "../src/core/address/legal-systems.js";
import { latin1Forms as sortForms } from "../src/core/address/natural-sort.js";
import { latin1Forms as yamlForms } from "../src/core/markdown/simple-yaml.js";

const LATIN1 = Array.from({ length: 256 }, (_, code) => String.fromCharCode(code));

describe("the Latin-1 classes are the Latin-1 members of the properties", () => {
  for (const [name, latin1, property] of [
    ["letter", LATIN1_LETTER, "\\p{L}"],
    ["number", LATIN1_NUMBER, "\\p{N}"],
  ] as const)
    test(`${name}: every character U+0000–U+00FF, with and without the i flag, in a class and out of it`, () => {
      for (const flags of ["", "i"]) {
        const inClass = new RegExp(`^[${latin1}]$`, flags);
        const outOfClass = new RegExp(`^[^${latin1}]$`, flags);
        const unicode = new RegExp(`^[${property}]$`, `${flags}u`);
        const notUnicode = new RegExp(`^[^${property}]$`, `${flags}u`);
        for (const character of LATIN1) {
          expect(inClass.test(character), `U+${character.charCodeAt(0).toString(16)} /${flags}`).toBe(
            unicode.test(character),
          );
          expect(outOfClass.test(character), `U+${character.charCodeAt(0).toString(16)} /${flags}`).toBe(
            notUnicode.test(character),
          );
        }
      }
      expect(LATIN1.filter((character) => new RegExp(`^[${latin1}]$`).test(character)).length).toBeGreaterThan(9);
    });

  test("no mark (\\p{M}) below U+0100", () => {
    expect(LATIN1.filter((character) => /\p{M}/u.test(character))).toEqual([]);
  });

  test("isLatin1", () => {
    expect(isLatin1("")).toBe(true);
    expect(isLatin1(LATIN1.join(""))).toBe(true);
    expect(isLatin1("§ 1 Geltungsbereich – Allgemeines")).toBe(false);
    expect(isLatin1("\u0100")).toBe(false);
    expect(isLatin1("a\u{1d400}")).toBe(false);
  });
});

/** Words the patterns look for, in the cases headings and names write them, and what sits between them. */
const WORDS = [
  ...ALL_UNIT_WORDS,
  ...ALL_ANNEX_WORDS,
  ...ALL_PROVISIONS.map((p) => p.word),
  ...Object.keys(ALL_ORDINALS),
  ...LATIN_SUFFIXES,
  "zweiter",
  "erster",
  "ier",
  "1er",
  "ix",
  "iv",
  "_top",
  "_2",
].flatMap((word) => [word, word[0]!.toUpperCase() + word.slice(1), word.toUpperCase()]);
const PIECES = [" ", "-", "_", "~", "~2", "/", ".", "§", "1", "12", "3a", "*", "(", ")", ",", "\t"];
const latin1Text = fc
  .array(
    fc.oneof(
      fc.constantFrom(...WORDS),
      fc.constantFrom(...PIECES),
      fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

/** Every match of `pattern` in `text`, with its groups and index (a fresh copy: no lastIndex carried over). */
function matchesOf(pattern: RegExp, text: string) {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  return [...text.matchAll(global)].map((match) => ({ groups: [...match], index: match.index }));
}

describe("each Latin-1 form matches what its \\p form matches, on Latin-1 text", () => {
  const forms = [
    ...addressForms().map((pair) => ["address", ...pair] as const),
    ...designationForms().map((pair) => ["designation", ...pair] as const),
    ...sortForms().map((pair) => ["natural-sort", ...pair] as const),
    ...yamlForms().map((pair) => ["simple-yaml", ...pair] as const),
  ];
  test("every pattern with a \\p class has its form", () => {
    expect(forms.length).toBe(8);
    for (const [, unicode, latin1] of forms) {
      expect(unicode.flags).toContain("u");
      expect(latin1.flags).not.toContain("u");
      expect(latin1.flags).toBe(unicode.flags.replace("u", ""));
    }
  });
  for (const [module, unicode, latin1] of forms)
    test(`${module}: /${unicode.source.slice(0, 60)}…/${unicode.flags}`, () => {
      fc.assert(
        fc.property(latin1Text, (text) => {
          expect(isLatin1(text)).toBe(true);
          expect(matchesOf(latin1, text)).toEqual(matchesOf(unicode, text));
        }),
        { numRuns: 3000 },
      );
    });
});
