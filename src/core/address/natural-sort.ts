/**
 * Natural ordering of dataset paths (docs/spec.md, "Lock manifest"): deterministic, locale-free, reading legal
 * numbering.
 */

import { germanOrdinal } from "./designation.js";
import { isLatin1, LATIN1_LETTER, onFirstUse } from "./latin1.js";
import { ALL_ANNEX_WORDS, ALL_ORDINALS, ALL_PROVISIONS, ALL_UNIT_WORDS, LATIN_SUFFIXES } from "./legal-systems.js";
import { INDEX_FILE_NAMES } from "../model.js";

const INDEX_NAMES: readonly string[] = INDEX_FILE_NAMES;
const CHUNK = /(\d+)|(\D+)/g;

/**
 * Compares two names so that digit runs compare by value: "s-2.md" < "s-10.md". Code-unit order otherwise, case folded
 * first.
 */
export function compareNatural(a: string, b: string): number {
  const ca = a.match(CHUNK) ?? [];
  const cb = b.match(CHUNK) ?? [];
  let caseOrder = 0;
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i]!;
    const y = cb[i]!;
    if (x === y) continue;
    const xd = /^\d/.test(x);
    const yd = /^\d/.test(y);
    if (xd && yd) {
      const diff = Number(BigInt(x) - BigInt(y));
      if (diff !== 0) return diff < 0 ? -1 : 1;
      if (x.length !== y.length) return x.length - y.length;
      continue;
    }
    const xl = x.toLowerCase();
    const yl = y.toLowerCase();
    if (xl !== yl) return xl < yl ? -1 : 1;
    if (caseOrder === 0) caseOrder = x < y ? -1 : 1;
  }
  if (ca.length !== cb.length) return ca.length - cb.length;
  return caseOrder !== 0 ? caseOrder : a < b ? -1 : a > b ? 1 : 0;
}

const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

/** The value of a well-formed roman numeral (`ix` → 9), or undefined. */
function romanValue(numeral: string): number | undefined {
  const lower = numeral.toLowerCase();
  if (!/^m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/.test(lower) || lower === "") return undefined;
  let total = 0;
  for (let i = 0; i < lower.length; i++) {
    const value = ROMAN_VALUES[lower[i]!]!;
    const next = ROMAN_VALUES[lower[i + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

const PRELIMINARY = new Set(["préliminaire", "liminaire", "preliminar", "preliminare", "preliminary"]);
const WORDS = [...new Set([...ALL_UNIT_WORDS, ...ALL_ANNEX_WORDS, ...ALL_PROVISIONS.map((p) => p.word)])].sort(
  (a, b) => b.length - a.length,
);
/**
 * The patterns of legalSortKey, written with a class of letters: `\p{L}` with the `u` flag, or its Latin-1 members
 * (`latin1.ts`) without it, for a name without a character above U+00FF (cheaper to compile, the same matches).
 */
function sortPatterns(letter: string, flags: string) {
  return {
    /**
     * A unit, annex or article word, a separator, and its numeral: roman (with letters after it), `Ier`/`1er`, or an
     * ordinal word.
     */
    wordNumeral: new RegExp(
      `(^|[^${letter}])(${WORDS.join("|")})(\\.?[\\s_-]+)([ivxlcdm]+|1(?:er|re|ère)|[${letter}]+)(?=$|[^${letter}]|(?<=[ivxlcdm])[a-z](?:$|[^${letter}]))`,
      flags,
    ),
    /** A German ordinal word before a unit word: `Zweiter Teil`. */
    ordinalWord: new RegExp(
      `(^|[^${letter}])([${letter}]+)([\\s_-]+)(${ALL_UNIT_WORDS.join("|")})(?=$|[^${letter}])`,
      flags,
    ),
    latin: new RegExp(
      `(?<=\\d[\\s_-]?)(${[...LATIN_SUFFIXES].sort((a, b) => b.length - a.length).join("|")})(?=$|[^${letter}])`,
      flags,
    ),
  };
}
const sortPatternsU = onFirstUse(() => sortPatterns("\\p{L}", "giu"));
const LATIN1_SORT_PATTERNS = sortPatterns(LATIN1_LETTER, "gi");
/** Each pattern of this module with a Latin-1 form, and that form (test/latin1-classes.test.ts). */
export const latin1Forms = (): readonly (readonly [RegExp, RegExp])[] =>
  (["wordNumeral", "ordinalWord", "latin"] as const).map((name) => [sortPatternsU()[name], LATIN1_SORT_PATTERNS[name]]);

/**
 * A name as a lawyer reads its numbering, for sorting: after a unit, annex or article word, a roman numeral,
 * `Ier`/`1er` and an ordinal word become their number (`Titre IX` → `Titre 9`, `Livre Ier` → `Livre 1`, `Libro primo` →
 * `Libro 1`, `Titre préliminaire` → `Titre 0`), a German ordinal before a unit word too (`Zweiter Teil` → `2 Teil`),
 * and a Latin suffix becomes its rank after a dot (`6 bis` → `6.2`, `6 quater` → `6.4`), so that `Titre V` < `Titre IX`
 * and `6` < `6 bis` < `6 ter` < `6 quater` < `7`.
 */
export function legalSortKey(name: string): string {
  const patterns = isLatin1(name) ? LATIN1_SORT_PATTERNS : sortPatternsU();
  return name
    .replace(patterns.wordNumeral, (match, before: string, word: string, separator: string, numeral: string) => {
      const lower = numeral.toLowerCase();
      // A single C, D, L or M is a letter (`Subdivision C`), as in the designations.
      if (/^[cdlm]$/.test(lower)) return match;
      // A preliminary unit comes before the first: `Titre préliminaire` < `Titre Ier`.
      if (PRELIMINARY.has(lower)) return `${before}${word}${separator}0`;
      const value = /^1(?:er|re|ère)$/.test(lower)
        ? 1
        : (romanValue(lower.replace(/^([ivxlcdm]+?)(?:er|re)$/, "$1")) ?? ALL_ORDINALS[lower]);
      return value === undefined ? match : `${before}${word}${separator}${value}`;
    })
    .replace(patterns.ordinalWord, (match, before: string, ordinal: string, separator: string, word: string) => {
      const value = germanOrdinal(ordinal);
      return value === undefined ? match : `${before}${value}${separator}${word}`;
    })
    .replace(patterns.latin, (suffix: string) => `.${LATIN_SUFFIXES.indexOf(suffix.toLowerCase()) + 2}`);
}

/** Compares two names as a lawyer reads their numbering (legalSortKey), then naturally (compareNatural). */
export function compareLegal(a: string, b: string): number {
  return compareNatural(legalSortKey(a), legalSortKey(b)) || compareNatural(a, b);
}

/** Orders artifact paths: folder by folder, `index.md` then `README.md` first in their folder, then names naturally. */
export function comparePaths(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i]!;
    const y = sb[i]!;
    if (x === y) continue;
    const xi = i === sa.length - 1 ? INDEX_NAMES.indexOf(x) : -1;
    const yi = i === sb.length - 1 ? INDEX_NAMES.indexOf(y) : -1;
    if (xi !== -1 || yi !== -1) {
      if (xi === -1) return 1;
      if (yi === -1) return -1;
      return xi - yi;
    }
    const stem = (name: string, last: boolean) => (last && name.endsWith(".md") ? name.slice(0, -3) : name);
    return compareLegal(stem(x, i === sa.length - 1), stem(y, i === sb.length - 1)) || compareNatural(x, y);
  }
  return sa.length - sb.length;
}
