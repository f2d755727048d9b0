/**
 * The units below the heading that lawyers cite, per legal system (docs/spec.md, section 7, "Units below the
 * heading"): data, like the heading tables of legal-systems.ts. Each entry says where its label is printed (at the
 * start of a paragraph, as an ordered list item's marker, or at the start of a bullet item), how a label reads, the
 * prefix of its address step and its rank (a unit nests in one of smaller rank). As for headings, a dataset never
 * says which system it follows: each unit is read by the form it shows.
 */

import { LATIN_SUFFIXES } from "./legal-systems.js";

/** Where a unit's label is printed. */
export type LabelPlace = "paragraph" | "ordered-item" | "bullet-item";

export interface UnitKind {
  /** The system it belongs to: `de` (German and Austrian), `ch` (Swiss), `au` (Australian). */
  system: string;
  /** What lawyers call it. */
  name: string;
  /** The prefix of its address step: `abs` in `abs-3a`. */
  prefix: string;
  /** Nesting: a unit is a child of the nearest open unit of smaller rank. */
  rank: number;
  place: LabelPlace;
  /**
   * Reads the label at the start of the text (a paragraph's or a bullet item's first line; for an ordered item, its
   * marker): the printed designation and the label of the address, or undefined.
   */
  read: (text: string) => { printed: string; label: string } | undefined;
  /** Set for a kind that only a unit of the named prefix may hold, read before the kinds without it. */
  under?: string;
  /**
   * Set for a kind printed as a paragraph that is that paragraph and the units below it: the text after it belongs to
   * the unit around it (the wrap-up of a Nummer after its Buchstaben: § 309 Nr. 9 BGB). Without it, a unit printed as
   * a paragraph holds the text after it up to the next label of its rank (an Absatz, its lists and their wrap-up).
   */
  closesAtText?: true;
}

/** A label must end at white space, the end of the line or (for `(4)(weggefallen)`) an opening bracket. */
const END = "(?=[\\s(]|$)";

/**
 * A label reader of a pattern, compiled once (the readers run on every paragraph and item of a dataset with units):
 * `printed` is the whole match unless said otherwise (a Swiss Absatz prints its number without the `<sup>` tags).
 */
function reader(
  pattern: string,
  label: (match: RegExpExecArray) => string,
  printed: (match: RegExpExecArray) => string = (m) => m[0],
): UnitKind["read"] {
  const regexp = new RegExp(`^${pattern}${END}`);
  return (text) => {
    const match = regexp.exec(text);
    return match ? { printed: printed(match), label: label(match) } : undefined;
  };
}

const ROMAN = "(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})";
const SWISS_SUFFIX = `(?:${LATIN_SUFFIXES.join("|")})`;

/**
 * Every unit kind, in the order they are tried: a kind with `under` first. Each of one shape, every member set (the
 * labels of a dataset's every paragraph and item are read through them: one shape keeps the reads of their members
 * monomorphic in the compiled code, bench/RESULTS.md, "Units").
 */
export const UNIT_KINDS: readonly UnitKind[] = ([] as UnitKind[])
  .concat([
    // German and Austrian law: Absatz `(1)`, `(2a)`; Nummer `1.` (a list item) or `1a.` (a paragraph: no CommonMark
    // list marker); Buchstabe `a)`; Doppelbuchstabe `aa)`.
    {
      system: "de",
      name: "Absatz",
      prefix: "abs",
      rank: 1,
      place: "paragraph",
      // An Australian subsection printed as a paragraph has this form and is read as an Absatz (docs/spec.md, section
      // 5); its inserted `(1A)` is one too, its step in lower case as a bullet's (`abs-1a`), not text of the one before.
      // One pattern: a German `(2a)` matches its first branch and is read as before, with no second pass.
      read: reader("\\((?:([0-9]+[a-z]*)|([0-9]+[A-Z]+))\\)", (m) => m[1] ?? m[2]!.toLowerCase()),
    },
    {
      system: "de",
      name: "Nummer",
      prefix: "nr",
      rank: 2,
      place: "ordered-item",
      read: reader("([0-9]+)[.)]", (m) => m[1]!),
    },
    {
      system: "de",
      name: "Nummer",
      prefix: "nr",
      rank: 2,
      place: "paragraph",
      read: reader("([0-9]+[a-z]+)\\.", (m) => m[1]!),
      // An inserted Nummer printed as a paragraph holds itself and its Buchstaben, as a list item does: the wrap-up after
      // the list is the Absatz's, with or without a `1a.` at the list's end.
      closesAtText: true,
    },
    {
      system: "de",
      name: "Buchstabe",
      prefix: "bst",
      rank: 3,
      place: "paragraph",
      read: reader("([a-z])\\)", (m) => m[1]!),
      closesAtText: true,
    },
    {
      system: "de",
      name: "Doppelbuchstabe",
      prefix: "dbst",
      rank: 4,
      place: "paragraph",
      read: reader("(([a-z])\\2)\\)", (m) => m[1]!),
      closesAtText: true,
    },
    // Swiss acts (German edition): Absatz `<sup>1</sup>`, `<sup>1bis</sup>`; Buchstabe as a bullet `- a.`.
    {
      system: "ch",
      name: "Absatz",
      prefix: "abs",
      rank: 1,
      place: "paragraph",
      read: reader(
        `<sup>([0-9]+(?:${SWISS_SUFFIX}|[a-z])?)</sup>`,
        (m) => m[1]!,
        (m) => m[1]!,
      ),
    },
    {
      system: "ch",
      name: "Buchstabe",
      prefix: "bst",
      rank: 3,
      place: "bullet-item",
      read: reader(`([a-z](?:${SWISS_SUFFIX})?)\\.`, (m) => m[1]!),
    },
    // Australian Acts: everything is a bullet (a subsection printed as a paragraph is an Absatz, above; a paragraph
    // `(a)` printed so is text: at the margin nothing tells a subparagraph `(i)` from a paragraph). Subsection `(1)`,
    // `(1A)`; paragraph `(a)`, `(ha)`; subparagraph `(i)`, which is a subparagraph only inside a paragraph (the Privacy
    // Act has both).
    {
      system: "au",
      name: "subparagraph",
      prefix: "subpara",
      rank: 4,
      place: "bullet-item",
      // An inserted subparagraph takes a letter after its numeral: `(ia)` between `(i)` and `(ii)`, `(iia)`.
      read: reader(`\\((${ROMAN}[a-z]*)\\)`, (m) => m[1]!),
      under: "para",
    },
    {
      system: "au",
      name: "subsection",
      prefix: "subsec",
      rank: 1,
      place: "bullet-item",
      read: reader("\\(([0-9]+[A-Z]*)\\)", (m) => m[1]!.toLowerCase()),
    },
    {
      system: "au",
      name: "paragraph",
      prefix: "para",
      rank: 3,
      place: "bullet-item",
      read: reader("\\(([a-z]+)\\)", (m) => m[1]!),
    },
  ])
  .map((kind) => ({
    system: kind.system,
    name: kind.name,
    prefix: kind.prefix,
    rank: kind.rank,
    place: kind.place,
    read: kind.read,
    under: kind.under,
    closesAtText: kind.closesAtText,
  }));

/** The value of a lower-case roman numeral. */
function romanValue(text: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = values[text[i]!]!;
    const next = values[text[i + 1]!] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** A subparagraph's label: its roman numeral and the letters of an inserted one. */
const ROMAN_AND_LETTERS = new RegExp(`^(${ROMAN})([a-z]*)$`);

const SUFFIX_ORDER = new Map(LATIN_SUFFIXES.map((suffix, i) => [suffix, i]));

/** Where the leading ASCII digits of `text` end (0: none). */
function digitsEnd(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i;
}

/**
 * The legal order of two labels of one kind: numbers by value, then their letters (`1` < `1a` < `2`, `1` < `1bis` <
 * `1ter`); roman numerals by value; letters in code-unit order (`h` < `ha` < `i`). Negative when `a` comes first.
 */
export function compareLabels(kind: UnitKind, a: string, b: string): number {
  if (kind.prefix === "subpara") {
    // The numeral, then the letters of an inserted one (`i` < `ia` < `ii`).
    const [, ra = "", sa = ""] = ROMAN_AND_LETTERS.exec(a) ?? [];
    const [, rb = "", sb = ""] = ROMAN_AND_LETTERS.exec(b) ?? [];
    const byValue = romanValue(ra) - romanValue(rb);
    if (byValue !== 0) return byValue;
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  // The leading digits of each (read by charCodeAt: this runs on every sibling of a dataset with units).
  const da = digitsEnd(a);
  const db = digitsEnd(b);
  if (da > 0 && db > 0) {
    const na = a.slice(0, da);
    const nb = b.slice(0, db);
    if (na !== nb) return Number(na) - Number(nb);
    const ra = a.slice(na.length);
    const rb = b.slice(nb.length);
    const sa = SUFFIX_ORDER.get(ra);
    const sb = SUFFIX_ORDER.get(rb);
    if (sa !== undefined && sb !== undefined) return sa - sb;
    return ra < rb ? -1 : ra > rb ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
