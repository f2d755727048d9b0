/**
 * The word-led designations are matched without compiling their word lists into one regular expression
 * (src/core/address/designation.ts, LeadingWords): each matcher must find exactly what its pattern written whole finds,
 * the whole match and every group, on any text: words of every list in all their spellings, numerals of every form,
 * names, punctuation, white space of every kind, letters beyond Latin-1.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { designate, wordLedPatterns } from "../src/core/address/designation.js";
import {
  ALL_ANNEX_WORDS,
  ALL_NAME_WORDS,
  ALL_ORDINALS,
  ALL_PROVISIONS,
  ALL_UNIT_WORDS,
} from "../src/core/address/legal-systems.js";

const spelled = (words: string[]) => words.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]);
const WORDS = spelled([
  ...ALL_UNIT_WORDS,
  ...ALL_ANNEX_WORDS,
  ...ALL_NAME_WORDS,
  ...Object.keys(ALL_ORDINALS),
  ...ALL_PROVISIONS.map((p) => p.word),
  "besoldungsgruppe",
  "entgeltgruppe",
  "zweiter",
  "erstes",
  "dreiundzwanzigster",
]);
const NUMERALS = ["1", "12a", "3.1", "IV", "IIIA", "Ier", "1er", "1re", "1ère", "L111-1", "R*12-3", "LO", "A", "D2a"];
const GLUE = [" ", "  ", ".", ". ", ",", ":", ";", "(", ")", "–", "—", "-", "bis", "\t", "\u00a0", "\u2003", "\u2028"];

/** The groups of a match as a list (the whole match first), or null. */
const groups = (m: { 0: string; [group: number]: string | undefined } | null, count: number) =>
  m === null ? null : Array.from({ length: count + 1 }, (_, i) => m[i]);

const texts = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
      { weight: 3, arbitrary: fc.constantFrom(...NUMERALS) },
      { weight: 3, arbitrary: fc.constantFrom(...GLUE) },
      { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 2 }) },
      // A word cut short or run on: a prefix of one spelling, a spelling with letters after it.
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...WORDS), fc.nat(12)).map(([w, n]) => w.slice(0, n)) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...WORDS), fc.constantFrom("e", "s", "ie", "é", "1"))
          .map(([w, x]) => w + x),
      },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((pieces) => pieces.join(""));

describe("the word-led matchers match what their patterns written whole match", () => {
  for (const { name, pattern, match } of wordLedPatterns()) {
    const count = (new RegExp(`${pattern.source}|`, pattern.flags).exec("") ?? []).length - 1;
    test(`${name}: generated headings`, () => {
      fc.assert(
        fc.property(texts, (text) => {
          expect(groups(match(text), count), JSON.stringify(text)).toEqual(groups(pattern.exec(text), count));
        }),
        { numRuns: 20_000 },
      );
    });
    test(`${name}: headings of the legal systems`, () => {
      for (const text of [
        "Abschnitt 3 Allgemeines",
        "ABSCHNITT 3a",
        "Anlage 1 (zu § 5)",
        "Anlage",
        "Anlagen",
        "Teil 2. Schluss",
        "Partie premier",
        "PARTIE PREMIER",
        "Titre préliminaire",
        "Art. 5",
        "Art.5 Zweck",
        "Artikel 1 Änderung",
        "Article L111-1",
        "Article R*123-4",
        "Article 1er",
        "Disposición adicional primera",
        "Art. 3 bis 5",
        "Article Annexe I",
        "Zweiter Teil",
        "Zweiter  Abschnitt: Verfahren",
        "Erstes Kapitel - Allgemeine Vorschriften",
        "3. Abschnitt",
        "12.  Kapitel",
        "Besoldungsgruppe A 13",
        "Schedule 2—(Repealed)",
        "Part 1-1",
        "Libro primo",
        "Sección 2.ª",
        "Chapitre Ier",
        "Sous-section 2",
      ])
        expect(groups(match(text), count), text).toEqual(groups(pattern.exec(text), count));
    });
  }
});

test("a designation still reads each form (the matchers in place)", () => {
  expect(designate("Abschnitt 3 Allgemeines")).toMatchObject({ kind: "unit", key: "abschnitt-3" });
  expect(designate("Art. 5 Zweck")).toMatchObject({ kind: "article", key: "art-5" });
  expect(designate("Titre préliminaire")).toMatchObject({ kind: "unit", key: "titre-préliminaire" });
  expect(designate("Zweiter Teil")).toMatchObject({ kind: "unit", key: "teil-2" });
  expect(designate("3. Abschnitt")).toMatchObject({ kind: "unit", key: "abschnitt-3" });
  expect(designate("Anlage")).toMatchObject({ kind: "annex", key: "anlage" });
});
