/**
 * Designations of legislative headings and the local coordinates built from them
 * (docs/spec.md, "Local coordinate"). The strategy is "kind-aware" (docs/spec.md, "Local
 * coordinate: scope"): articles and sections are flat, a § inside an article is qualified by
 * it, structural units carry the chain of their enclosing units, numbered items, empty headings
 * and the undesignated headings of annexes are qualified by the designated heading they belong
 * to, a repeated undesignated heading of the body by its provision or unit, and a repeat that no
 * rule separates gets a `~N` tie-break last.
 */

import { withoutFootnoteMarkup } from "../markdown/heading-markup.js";
import { escapeRegExp } from "../text.js";
import { TOP_LOCAL } from "./address.js";
import { PLACEHOLDER, paragraphRun } from "./german-forms.js";
import {
  ALL_ANNEX_WORDS,
  ALL_NAME_WORDS,
  ALL_ORDINALS,
  ALL_PREFIXES,
  ALL_PROVISIONS,
  ALL_UNIT_WORDS,
  LATIN_SUFFIXES,
} from "./legal-systems.js";

function byLength(words: string[]): string[] {
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

export type DesignationKind = "paragraph" | "article" | "section" | "unit" | "annex" | "item" | "none";

export interface Designation {
  kind: DesignationKind;
  /**
   * The key: `§-2a`, `§§-3-bis-13`, `art-3`, `13`, `part-iiia`, `anlage-1`, `anlage-i-kap-x-d-ii-abschnitt-ii`, `iv`
   * (item `IV.`), or a slug for `none`.
   */
  key: string;
  /** For units and annexes: the unit word in lower case (`part`, `abschnitt`). */
  word?: string;
  /**
   * For items: the rank of the numbering style in the German outline (`A.` 0, `I.` 1, `1.` 2, `a)` 3, `aa)` 4, `aaa)`
   * 5).
   */
  rank?: number;
  /**
   * True when the heading is only its designation, perhaps with remarks in brackets: `§ 3`, `Anlage 1 (zu § 5)`, `IV.`.
   */
  bare?: boolean;
  /**
   * The heading text after the designation (the title), or the whole text for `none`: what tells apart two headings
   * with one designation.
   */
  rest?: string;
}

const UNIT_WORDS = byLength(ALL_UNIT_WORDS);
const ANNEX_WORDS = byLength(ALL_ANNEX_WORDS);
/** Pay-grade words: units of pay tables, whose numerals have a letter and a number (`Besoldungsgruppe A 13`). */
const GROUP_WORDS = [
  "bundesbesoldungsordnung",
  "besoldungsordnung",
  "besoldungsgruppe",
  "entgeltgruppe",
  "vergütungsgruppe",
  "lohngruppe",
  "gehaltsgruppe",
];
/** Words that continue a compound annex designation: `Anlage I Kap. X Sachgebiet D Abschnitt II Nr. 3`. */
const PART_WORDS = ["kap", "kapitel", "sachgebiet", "abschnitt", "unterabschnitt", "teil", "titel", "nr", "nummer"];

const ORDINAL_UNITS: Record<string, number> = {
  erst: 1,
  zweit: 2,
  dritt: 3,
  viert: 4,
  fünft: 5,
  sechst: 6,
  siebt: 7,
  siebent: 7,
  acht: 8,
  neunt: 9,
  zehnt: 10,
  elft: 11,
  zwölft: 12,
  dreizehnt: 13,
  vierzehnt: 14,
  fünfzehnt: 15,
  sechzehnt: 16,
  siebzehnt: 17,
  achtzehnt: 18,
  neunzehnt: 19,
};
const ORDINAL_ONES: Record<string, number> = {
  ein: 1,
  zwei: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
};
const ORDINAL_TENS: Record<string, number> = {
  zwanzig: 20,
  dreißig: 30,
  vierzig: 40,
  fünfzig: 50,
  sechzig: 60,
  siebzig: 70,
  achtzig: 80,
  neunzig: 90,
};

/** The number a German ordinal word stands for ("Erster" → 1, "Dreiundzwanzigste" → 23), or undefined. */
export function germanOrdinal(word: string): number | undefined {
  const stem = word.toLowerCase().replace(/(?:er|es|en|em|e)$/, "");
  if (stem in ORDINAL_UNITS) return ORDINAL_UNITS[stem];
  const tens =
    /^(?:(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)und)?(zwanzig|dreißig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig)st$/.exec(
      stem,
    );
  if (tens) return (tens[1] ? ORDINAL_ONES[tens[1]]! : 0) + ORDINAL_TENS[tens[2]!]!;
  return undefined;
}

/** A word in its usual spellings: "part", "Part", "PART". */
const spellings = (words: string[]) =>
  words.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]).join("|");
/**
 * Words standing where a number would (`unique`, `préliminaire`) and ordinal words after their unit (`premier`,
 * `primo`).
 */
const NAMES = byLength([...ALL_NAME_WORDS, ...Object.keys(ALL_ORDINALS)]);
/**
 * Digits (`1`, `5.1`, `2a`), `1er`/`Ier` (French "premier"), a capital letter with digits (`D2a`, `C3`), a roman
 * numeral (`IIIA`), one capital letter, or a name or ordinal word (`unique`, `premier`).
 */
const NUMERAL = `(1(?:er|re|ère)|[IVX]+(?:er|re)|\\d+(?:\\.\\d+)*[A-Za-z]{0,3}|[A-Z]\\d+[a-z]{0,3}|[IVXLCDM]+[A-Z]{0,3}|[A-Z]|${spellings(NAMES)})`;
const AFTER = "(?=$|[\\s.:,;()\\u2013\\u2014-])";
const WORD_THEN_NUMBER = new RegExp(`^(${spellings([...UNIT_WORDS, ...ANNEX_WORDS])})\\.?\\s*${NUMERAL}${AFTER}`, "u");
const NUMBER_THEN_WORD = new RegExp(`^(\\d+)\\.\\s*(${spellings(UNIT_WORDS)})${AFTER}`, "u");
const ORDINAL_THEN_WORD = new RegExp(`^(\\p{L}+)\\s+(${spellings(UNIT_WORDS)})${AFTER}`, "u");
const BARE_ANNEX = new RegExp(`^(${spellings(ANNEX_WORDS)})${AFTER}`, "u");
const GROUP = new RegExp(
  `^(${spellings(GROUP_WORDS)})\\s+([A-Z]{1,2} ?\\d{1,2}[a-z]?|\\d{1,2}[a-z]?|[IVX]+[a-z]?|[A-Z])${AFTER}`,
  "u",
);
/**
 * One more part of a compound annex designation: a part word and its numeral, or (after a part word) a bare numeral.
 */
const PART = new RegExp(
  `^ (${spellings(PART_WORDS)})\\.? ?(\\d+[a-z]{0,3}|[IVXLCDM]+[a-z]{0,3}|[A-Z]\\d*[a-z]{0,3})(?=$|[\\s,;:()\\u2013\\u2014])`,
  "u",
);
const BARE_PART = /^ (\d+[a-z]{0,3}|[IVXLCDM]+|[A-Z])(?=$|[\s,;:()\u2013\u2014])/u;
const PARAGRAPH = /^§\s*(\d+(?:\.\d+)*[a-zA-Z]{0,3})(?=$|[\s.:,;()\u2013\u2014-])/u;
const PROVISION_WORD = `(${spellings(ALL_PROVISIONS.map((p) => p.word))})\\.?`;
const PREFIX = `(?:${ALL_PREFIXES.map(escapeRegExp).join("|")})`;
/**
 * An article number: a letter prefix glued to a hyphenated or decimal number (`L111-1`, `R*123-4`, `16-1-1`, `1.2`,
 * `15e`), `1er`/`Ier`, a roman numeral, or a name or ordinal word (`unique`, `premier`, `único`).
 */
const ARTICLE_NUMBER = `(${PREFIX}\\.?\\s?\\d+(?:-\\d+)*[a-z]{0,3}|1(?:er|re|ère)|[IVX]+(?:er|re)|\\d+(?:[-.]\\d+)*[a-z]{0,3}|[IVXLCDM]+|${spellings(NAMES)})`;
const ARTICLE_RANGE = new RegExp(
  `^${PROVISION_WORD}\\s*(\\d+[a-z]{0,3})(?:\\s*(?:bis|\\u2013)\\s*|\\s+-\\s*)(?:${PROVISION_WORD}\\s*)?(\\d+[a-z]{0,3})${AFTER}`,
  "u",
);
const ARTICLE = new RegExp(`^${PROVISION_WORD}\\s*${ARTICLE_NUMBER}${AFTER}`, "u");
/** `Article Annexe I`: an annex of a French code, headed like an article. */
const ARTICLE_ANNEX = new RegExp(`^(?:${spellings(["article"])})\\s+(?=(?:${spellings(ANNEX_WORDS)})${AFTER})`, "u");
const LATIN = byLength(LATIN_SUFFIXES).join("|");
/**
 * A suffix of an inserted provision: a Latin word after a space, a hyphen or nothing (`6 bis`, `1-bis`), not a range
 * (`2 bis 26`).
 */
const LATIN_SUFFIX = new RegExp(`^[\\s-]?(${LATIN}|${LATIN.toUpperCase()})${AFTER}(?!\\s*\\d)`, "u");
/** A letter of an inserted article after a space (`Art. 62 b`, `Article 38-0 A`), not an item (`a)`). */
const LETTER_SUFFIX = /^\s([A-Za-z])(?=$|\s*[.:,;\u2013\u2014-]|\s+[^\s)])/u;
/**
 * A section number: `13`, `6A`, `12.3`, and the hyphenated numbers of Australian Acts (`6-5`, `995-1`: Division 6,
 * section 5).
 */
const SECTION = /^(\d+[A-Z]{0,4}(?:\.\d+[A-Z]{0,4})*|\d+[A-Z]{0,4}-\d+[A-Z]{0,4})(?=$|\s(?!\s*:))/u;
/** The second half of a hyphenated unit number (`Part 1-1`, `Division 6-A`), before a space, a dash or the end. */
const HYPHENATED = /^-(\d+[A-Z]{0,3}|[A-Z])(?=$|\s|[\u2013\u2014]|--)/u;
/** Numbered items of the German outline: `A.`, `IV.`, `1.`, `2)`, `a)`, `aa)`, `aaa)`. */
const ITEM = /^(?:([A-Z])\.|([IVXLCDM]{1,7})\.|(\d{1,3})[.)]|([a-z])\)|([a-z])\5\)|([a-z])\6\6\))(?=$|\s)/u;
/** The rest of a heading that is only its designation: white space, punctuation and remarks in brackets. */
const BARE_REST = /^(?:[\s.:,;\u2013\u2014-]|\([^()]*\))*$/u;

const MAX_SLUG_LENGTH = 48;

/** Normalises heading text for designations: NFC, whitespace collapsed, trimmed. */
export function normalizeHeading(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim();
}

/**
 * The text a designation is read from: normalised, without footnote markup as `headingText` is read (footnote
 * references `[^7]`, superscripts `<sup>45</sup>`, other inline HTML tags: `withoutFootnoteMarkup`) and without
 * left-over emphasis markers (`**Art. ****12**`); a `*` glued to a letter prefix (`R*123-4`) stays.
 */
export function designationText(text: string): string {
  if (!/[[<*]/.test(text)) return normalizeHeading(text);
  return normalizeHeading(
    withoutFootnoteMarkup(text)
      .replace(/\*{2,}/gu, "")
      .replace(/(?<!\b[RD])\*/gu, ""),
  );
}

/**
 * A slug of text: NFC, lower case, runs of anything but letters, digits and marks become "-"; at most 48 characters.
 */
export function slugify(text: string, maxLength = MAX_SLUG_LENGTH): string {
  let slug = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length > maxLength) {
    const cut = slug.slice(0, maxLength);
    const boundary = cut.lastIndexOf("-");
    slug = boundary > maxLength / 2 ? cut.slice(0, boundary) : cut;
  }
  return slug === "" ? "heading" : slug;
}

/**
 * A heading that only marks its designation repealed: `Anlage 2 (weggefallen)`, `Schedule 3—(Repealed)`, `Annexe II
 * (abrogée)`.
 */
const REPEALED =
  /[([—–-]\s*(?:weggefallen|aufgehoben|repealed|abrogée?s?|abrogat[oa]|derogad[oa]|omitted)\s*[)\]]?\s*$/iu;

export function isRepealedHeading(text: string): boolean {
  return REPEALED.test(text.replace(/[*_]/g, "").trim());
}

/** True when a heading has no letter or digit: `#` alone, `# **`, `# * * *`. */
export function isEmptyHeading(text: string): boolean {
  return !/[\p{L}\p{N}]/u.test(text);
}

/**
 * A numeral as a key part: `Ier`/`1er` and ordinal words as their number, `unique` as itself, everything else
 * lower-cased.
 */
function numeralKey(numeral: string): string {
  const lower = numeral.toLowerCase();
  if (/^1(?:er|re|ère)$/.test(lower)) return "1";
  if (/^[ivx]+(?:er|re)$/.test(lower)) return lower.replace(/(?:er|re)$/, "");
  const ordinal = ALL_ORDINALS[lower];
  return ordinal !== undefined ? String(ordinal) : lower;
}

/** The Latin suffixes after `end` (`bis`, `ter`, …; at most two): their key parts and where they end. */
function latinSuffixes(text: string, end: number): { parts: string[]; end: number } {
  const parts: string[] = [];
  while (parts.length < 2) {
    const m = LATIN_SUFFIX.exec(text.slice(end));
    if (!m) break;
    parts.push(m[1]!.toLowerCase());
    end += m[0].length;
  }
  return { parts, end };
}

/** Classifies one heading's plain text and returns its designation (or slug). */
export function designate(headingText: string): Designation {
  const text = designationText(headingText);
  const bare = (m: RegExpExecArray, end = m[0].length) => BARE_REST.test(text.slice(end));
  const rest = (end: number) => text.slice(end);
  // `(XXXX) §§ 3 bis 6 (weggefallen)`: the place holder is no part of the designation that follows it.
  const placeholder = PLACEHOLDER.exec(text);
  if (placeholder && placeholder[0].length < text.length) {
    const d = designate(text.slice(placeholder[0].length));
    if (d.kind !== "none") return d;
  }
  const run = paragraphRun(text);
  if (run) return { kind: "paragraph", key: run.key, bare: BARE_REST.test(text.slice(run.end)), rest: rest(run.end) };
  let m = PARAGRAPH.exec(text);
  if (m) {
    let key = `§-${m[1]!.toLowerCase()}`;
    let end = m[0].length;
    // A lower-case letter after a space: `§ 2 b` is § 2b.
    const letter = /\d$/.test(key) ? LETTER_SUFFIX.exec(text.slice(end)) : null;
    if (letter && /[a-z]/.test(letter[1]!)) {
      key += letter[1]!;
      end += letter[0].length;
    }
    const suffix = latinSuffixes(text, end);
    return {
      kind: "paragraph",
      key: [key, ...suffix.parts].join("-"),
      bare: bare(m, suffix.end),
      rest: rest(suffix.end),
    };
  }
  m = ARTICLE_RANGE.exec(text);
  if (m)
    return {
      kind: "article",
      key: `${provisionKey(m[1]!)}-${m[2]!.toLowerCase()}-bis-${m[4]!.toLowerCase()}`,
      bare: bare(m),
      rest: rest(m[0].length),
    };
  m = ARTICLE.exec(text);
  if (m) {
    let key = `${provisionKey(m[1]!)}-${numeralKey(m[2]!).replace(/^([a-z*]+)[.\s]+(?=\d)/u, "$1")}`;
    let end = m[0].length;
    const letter = LETTER_SUFFIX.exec(text.slice(end));
    // A lower-case letter after any article word (Swiss `Art. 62 b`); a capital only after `Article` (French `Article
    // 38-0 A`).
    if (letter && /\d$/.test(key) && (/[a-z]/.test(letter[1]!) || /^article$/i.test(m[1]!))) {
      key += letter[1]!.toLowerCase();
      end += letter[0].length;
    }
    const suffix = latinSuffixes(text, end);
    return {
      kind: "article",
      key: [key, ...suffix.parts].join("-"),
      bare: bare(m, suffix.end),
      rest: rest(suffix.end),
    };
  }
  const annexArticle = ARTICLE_ANNEX.exec(text);
  if (annexArticle) return { ...designate(text.slice(annexArticle[0].length)) };
  m = WORD_THEN_NUMBER.exec(text);
  if (m) {
    const d = unitOrAnnex(m[1]!, m[2]!);
    if (d.kind !== "annex") {
      // `Part 1-1`, `Division 6-A` (Australian Acts numbered by chapter): the hyphenated number is one numeral.
      const hyphen = /^\d/.test(m[2]!) ? HYPHENATED.exec(text.slice(m[0].length)) : null;
      if (hyphen) {
        const end = m[0].length + hyphen[0].length;
        return { ...d, key: `${d.key}-${hyphen[1]!.toLowerCase()}`, bare: bare(m, end), rest: rest(end) };
      }
      const suffix = latinSuffixes(text, m[0].length);
      return { ...d, key: [d.key, ...suffix.parts].join("-"), bare: bare(m, suffix.end), rest: rest(suffix.end) };
    }
    const compound = compoundAnnex(text, m[0].length);
    return { ...d, key: [d.key, ...compound.parts].join("-"), bare: bare(m, compound.end), rest: rest(compound.end) };
  }
  m = GROUP.exec(text);
  if (m) {
    const word = m[1]!.toLowerCase();
    return {
      kind: "unit",
      key: `${word}-${m[2]!.toLowerCase().replace(" ", "-")}`,
      word,
      bare: bare(m),
      rest: rest(m[0].length),
    };
  }
  m = NUMBER_THEN_WORD.exec(text);
  if (m) return { ...unitOrAnnex(m[2]!, m[1]!), bare: bare(m), rest: rest(m[0].length) };
  m = ORDINAL_THEN_WORD.exec(text);
  if (m) {
    const n = germanOrdinal(m[1]!);
    if (n !== undefined) return { ...unitOrAnnex(m[2]!, String(n)), bare: bare(m), rest: rest(m[0].length) };
  }
  m = BARE_ANNEX.exec(text);
  if (m)
    return {
      kind: "annex",
      key: m[1]!.toLowerCase(),
      word: m[1]!.toLowerCase(),
      bare: bare(m),
      rest: rest(m[0].length),
    };
  m = SECTION.exec(text);
  if (m) return { kind: "section", key: m[1]!.toLowerCase(), bare: bare(m), rest: rest(m[0].length) };
  m = ITEM.exec(text);
  if (m) {
    const rank = m.slice(1).findIndex((g) => g !== undefined);
    const numeral = m[rank + 1]!.toLowerCase();
    // A single I, V or X with a dot is a roman numeral (other capitals are letters: A., B., C.); aa) and aaa) repeat
    // their letter.
    const itemRank = rank === 0 && /^[IVX]$/.test(m[1]!) ? 1 : rank;
    return {
      kind: "item",
      key: rank === 4 ? numeral.repeat(2) : rank === 5 ? numeral.repeat(3) : numeral,
      rank: itemRank,
      bare: bare(m),
      rest: rest(m[0].length),
    };
  }
  return { kind: "none", key: slugify(text), rest: text };
}

/** The key prefix of a provision word: `Art.` → `art`, `Disposición adicional` → `disposición-adicional`. */
function provisionKey(word: string): string {
  const lower = word.toLowerCase();
  return ALL_PROVISIONS.find((p) => p.word === lower)?.key ?? lower;
}

function unitOrAnnex(word: string, numeral: string): Designation {
  const w = word.toLowerCase();
  const key = `${w}-${numeralKey(numeral)}`;
  return ANNEX_WORDS.includes(w) ? { kind: "annex", key, word: w } : { kind: "unit", key, word: w };
}

/**
 * The further parts of a compound annex designation from `start`: `Kap X`, `D`, `II`, `Abschnitt II` → ["kap-x", "d",
 * "ii", "abschnitt-ii"].
 */
function compoundAnnex(text: string, start: number): { parts: string[]; end: number } {
  const parts: string[] = [];
  let end = start;
  for (;;) {
    const rest = text.slice(end);
    const word = PART.exec(rest);
    if (word) {
      parts.push(`${word[1]!.toLowerCase()}-${word[2]!.toLowerCase()}`);
      end += word[0].length;
      continue;
    }
    const numeral = parts.length > 0 ? BARE_PART.exec(rest) : null;
    if (!numeral) return { parts, end };
    parts.push(numeral[1]!.toLowerCase());
    end += numeral[0].length;
  }
}

export interface HeadingInput {
  text: string;
  depth: number;
}

interface Scope {
  /** The local as emitted (with its tie-break, if it needed one). */
  local: string;
  depth: number;
}

/**
 * `${scope}/${own}` with the scope's tie-break dropped (a `~N` is allowed only at the end of a local; "Ties" resolves
 * what then repeats), or undefined without a scope.
 */
function under(scope: string | undefined, own: string): string | undefined {
  return scope === undefined ? undefined : `${scope.replace(/~[0-9]+$/, "")}/${own}`;
}

/**
 * The local coordinate of each target of one artifact, in order. `headings[i]` is the heading that
 * opens target i, or undefined for the text before the first heading. Every local depends only on
 * its own heading and the headings before it (docs/spec.md, "Local coordinate: scope").
 */
export function assignLocalCoordinates(headings: (HeadingInput | undefined)[]): string[] {
  const units: { word: string; key: string; depth: number; local: string }[] = [];
  let annex: (Scope & { key: string; qualifies: boolean }) | undefined;
  const designations = headings.map((heading) => (heading === undefined ? undefined : designate(heading.text)));
  /**
   * An annex qualifies the articles, §§ and sections in it, so that none can take the address of one
   * of the body deleted outright. Except the artifact's own subject: an annex that is the artifact's
   * first heading and its only annex (a file that is a schedule) keeps them flat.
   */
  const firstHeading = headings.findIndex((heading) => heading !== undefined);
  const annexes = headings.filter(
    (heading, i) => heading !== undefined && designations[i]?.kind === "annex" && !isRepealedHeading(heading.text),
  ).length;
  const subjectAnnex =
    firstHeading !== -1 && designations[firstHeading]?.kind === "annex" && annexes === 1 ? firstHeading : -1;
  let article: string | undefined;
  let provision: (Scope & { raw: string; german: boolean }) | undefined;
  const items: { rank: number; key: string; depth: number }[] = [];
  let lastDesignated: string | undefined;
  let previous: { local: string; depth: number; bare: boolean } | undefined;
  // Rule 6.4: the slugs of undesignated headings that occur more than once in the artifact (every occurrence is
  // qualified).
  const slugCount = new Map<string, number>();
  for (const [i, heading] of headings.entries()) {
    const d = designations[i];
    if (heading === undefined || d === undefined || isEmptyHeading(heading.text)) continue;
    if (d.kind === "none") slugCount.set(d.key, (slugCount.get(d.key) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  /** The local of each target before ties are resolved, and the open unit or annex it was emitted in (resolveTies). */
  const raws: string[] = [];
  const scopes: (string | undefined)[] = [];
  const emit = (local: string) => {
    raws.push(local);
    const count = (seen.get(local) ?? 0) + 1;
    seen.set(local, count);
    return count === 1 ? local : `${local}~${count}`;
  };
  /** The innermost designated scope in document order: the open provision, else the innermost open unit or annex. */
  const context = () => provision?.local ?? units[units.length - 1]?.local;

  headings.forEach((heading, index) => {
    if (heading === undefined) {
      emit(TOP_LOCAL);
      return;
    }
    const d = designations[index]!;
    const unitScope = units[units.length - 1]?.local;
    scopes[raws.length] =
      d.kind === "article" || d.kind === "paragraph" || d.kind === "section" ? unitScope : undefined;
    let local: string;
    switch (d.kind) {
      case "annex":
        local = emit(d.key);
        units.length = 0;
        if (isRepealedHeading(heading.text)) {
          // `Anlage 2 (weggefallen)` between § 2 and § 3: a place holder, which opens no annex and captures nothing
          // after it.
          annex = undefined;
        } else {
          units.push({ word: d.word!, key: d.key, depth: heading.depth, local });
          annex = { local, depth: heading.depth, key: d.key, qualifies: index !== subjectAnnex };
        }
        article = undefined;
        provision = undefined;
        items.length = 0;
        break;
      case "unit": {
        const same = units.findIndex((u) => u.word === d.word);
        if (same !== -1) units.length = same;
        // An annex stays open until the next annex, whatever the heading levels say.
        while (
          units.length > 0 &&
          units[units.length - 1]!.depth >= heading.depth &&
          !(annex !== undefined && units.length === 1)
        )
          units.pop();
        local = emit([...units.map((u) => u.key), d.key].join("/"));
        units.push({ word: d.word!, key: d.key, depth: heading.depth, local });
        article = undefined;
        provision = undefined;
        items.length = 0;
        break;
      }
      case "section":
      case "article":
      case "paragraph": {
        if (d.kind === "section" && provision?.german) {
          // A numbered paragraph (`1.1`, `2.3.1 …`) inside a § or an article is an item of it.
          local = emit(under(provision.local, d.key) ?? d.key);
          items.length = 0;
          break;
        }
        let raw = d.key;
        if (d.kind === "paragraph" && article !== undefined) raw = `${article}/${d.key}`;
        else if (annex?.qualifies) raw = `${annex.key}/${d.key}`;
        if (d.kind === "article") article = raw;
        local = emit(raw);
        provision = { local, depth: heading.depth, raw, german: d.kind !== "section" };
        items.length = 0;
        break;
      }
      case "item": {
        while (items.length > 0 && items[items.length - 1]!.rank >= d.rank!) items.pop();
        const chain = [...items.map((i) => i.key), d.key].join("/");
        local = emit(under(context(), chain) ?? chain);
        items.push({ rank: d.rank!, key: d.key, depth: heading.depth });
        break;
      }
      case "none": {
        const slug = d.key;
        if (isEmptyHeading(heading.text)) {
          // An empty heading is named after the designated heading it follows.
          local = emit(under(lastDesignated, "heading") ?? "heading");
          break;
        }
        let raw: string | undefined;
        if (previous?.bare && previous.depth === heading.depth) raw = under(previous.local, slug);
        if (raw === undefined && provision !== undefined && provision.depth < heading.depth)
          raw = `${provision.raw}/${slug}`;
        if (raw === undefined && (annex !== undefined || (slugCount.get(slug) ?? 0) > 1)) {
          const inner = items.filter((i) => i.depth < heading.depth).map((i) => i.key);
          raw = under(context(), [...inner, slug].join("/"));
        }
        local = emit(raw ?? slug);
        break;
      }
    }
    if (d.kind !== "none") lastDesignated = local;
    // A bare § , article, section or item scopes a title heading that follows it on the same level.
    previous = {
      local,
      depth: heading.depth,
      bare: d.kind !== "none" && d.kind !== "unit" && d.kind !== "annex" && d.bare === true,
    };
  });
  return resolveTies(headings, raws, scopes);
}

/**
 * A heading's identity for ties: its plain text (as designations read it) and that of its ancestor headings in the
 * artifact (docs/spec.md, "Ties").
 */
function identities(headings: (HeadingInput | undefined)[]): { text: string; ancestors: string[]; key: string }[] {
  const open: { text: string; depth: number }[] = [];
  return headings.map((heading) => {
    if (heading === undefined) return { text: "", ancestors: [], key: "" };
    while (open.length > 0 && open[open.length - 1]!.depth >= heading.depth) open.pop();
    const text = designationText(heading.text);
    const ancestors = open.map((o) => o.text);
    open.push({ text, depth: heading.depth });
    return { text, ancestors, key: [text, ...ancestors].join("\u0000") };
  });
}

/**
 * Resolves the locals that several targets of one artifact share (docs/spec.md, "Ties"), shortest first. When all of
 * them are truly identical (the same heading text and the same ancestor headings), the second and later get a
 * positional `~N`. When they are not, every one of them gets the first of these forms that no other of them has: a
 * flat provision qualified by the unit it stands in (`livre-ii/titre-ii/chapitre-i/art-unique`), its title after a `~`
 * (`art-5~procédure`), or its ancestor headings from the innermost outwards (`art-1~übergangsbestimmungen-…`);
 * identical ones among them then take `~N`. The locals below a resolved one (`teil-1/…`) follow their owner, the
 * nearest member of its group before them. A local that still repeats after all this gets `~N`.
 */
function resolveTies(headings: (HeadingInput | undefined)[], raws: string[], scopes: (string | undefined)[]): string[] {
  const out = [...raws];
  let ids: ReturnType<typeof identities> | undefined;
  // Its segments: one more than its slashes (counted, not split: this runs for every local at every depth).
  const depthOf = (local: string) => {
    let depth = 1;
    for (let at = local.indexOf("/"); at !== -1; at = local.indexOf("/", at + 1)) depth++;
    return depth;
  };
  let maxDepth = 0; // a loop, not Math.max(...list): a spread of a million arguments overflows the stack
  for (const raw of raws) maxDepth = Math.max(maxDepth, depthOf(raw));
  for (let level = 1; level <= maxDepth; level++) {
    const groups = new Map<string, number[]>();
    out.forEach((raw, i) => {
      if (depthOf(raw) !== level) return;
      const group = groups.get(raw);
      if (group) group.push(i);
      else groups.set(raw, [i]);
    });
    for (const [raw, members] of groups) {
      if (members.length < 2) continue;
      ids ??= identities(headings);
      const distinct = new Map<string, number>();
      for (const i of members) if (!distinct.has(ids[i]!.key)) distinct.set(ids[i]!.key, i);
      const resolved = distinct.size === 1 ? undefined : tellApart(raw, ids, scopes, [...distinct.values()]);
      const count = new Map<string, number>();
      for (const i of members) {
        const local = resolved === undefined ? raw : resolved.get(ids[i]!.key)!;
        const n = (count.get(local) ?? 0) + 1;
        count.set(local, n);
        out[i] = n === 1 ? local : `${local}~${n}`;
      }
      if (resolved === undefined) continue;
      // The locals below a resolved one follow their owner: the nearest member before them. Below an owner that took a
      // `~N` (a truly identical sibling), its local without the `~N`, the form its twins share (a `~N` may only end a
      // local; the last resort below tells their locals apart): never the group's plain local, which a target of
      // another identity had before (docs/spec.md, rule 3).
      let next = 0;
      for (let j = 0; j < out.length; j++) {
        while (next < members.length && members[next]! < j) next++;
        if (!out[j]!.startsWith(`${raw}/`)) continue;
        const owner = next === 0 ? undefined : members[next - 1];
        if (owner !== undefined) out[j] = out[owner]!.replace(/~[0-9]+$/, "") + out[j]!.slice(raw.length);
      }
    }
  }
  // The last resort, for a resolved local that meets another one: document order.
  const seen = new Map<string, number>();
  return out.map((local) => {
    const n = (seen.get(local) ?? 0) + 1;
    seen.set(local, n);
    return n === 1 ? local : `${local}~${n}`;
  });
}

/**
 * For one representative of each identity in a group of non-identical targets with one local: the first form that no
 * other has.
 */
function tellApart(
  raw: string,
  ids: { text: string; ancestors: string[]; key: string }[],
  scopes: (string | undefined)[],
  representatives: number[],
): Map<string, string> {
  const noDigits = (part: string) => (/^[0-9]+$/.test(part) ? `n${part}` : part);
  const title = (i: number) => {
    const d = designate(ids[i]!.text);
    const rest = (d.rest ?? "").trim();
    // An undesignated heading's text is its local already: it has no title apart from it.
    return rest === "" || d.kind === "none" ? undefined : noDigits(slugify(rest, widths.get(i) ?? MAX_SLUG_LENGTH));
  };
  // Titles whose cut slugs collide are slugged uncut.
  const widths = new Map<number, number>();
  const cut = new Map<string, number>();
  for (const i of representatives) {
    const slug = slugify(designate(ids[i]!.text).rest ?? "");
    cut.set(slug, (cut.get(slug) ?? 0) + 1);
  }
  for (const i of representatives)
    if ((cut.get(slugify(designate(ids[i]!.text).rest ?? "")) ?? 0) > 1) widths.set(i, Number.POSITIVE_INFINITY);
  // A loop, not Math.max(...list): a spread of a million arguments overflows the stack.
  let maxK = Number.NEGATIVE_INFINITY;
  for (const i of representatives) maxK = Math.max(maxK, ids[i]!.ancestors.length);
  /** Stage 0: the unit scope; 1: the title; then k = 1, 2, … ancestors (keys, then full slugs) and the title. */
  const forms = (i: number): (string | undefined)[] => {
    const id = ids[i]!;
    const scope = scopes[i];
    const list: (string | undefined)[] = [scope === undefined || scope.includes("~") ? undefined : `${scope}/${raw}`];
    const own = title(i);
    list.push(own === undefined ? undefined : `${raw}~${own}`);
    for (let k = 1; k <= maxK; k++) {
      for (const full of [false, true]) {
        const parts: string[] = own === undefined ? [] : [own];
        for (let j = 1; j <= k; j++) {
          const ancestor = id.ancestors[id.ancestors.length - j];
          parts.unshift(
            ancestor === undefined
              ? "top"
              : noDigits(full ? slugify(designationText(ancestor)) : designate(ancestor).key),
          );
        }
        list.push(`${raw}~${parts.join("~")}`);
      }
    }
    return list;
  };
  /**
   * The form a target has by itself, whoever its siblings are: the unit it stands in when its innermost ancestor
   * heading is designated (or it has none), else that ancestor's slug (`art-1~übergangsbestimmungen-…`), else its
   * title. A sibling inserted or deleted then changes it only when the two would have the same one.
   */
  const own = (i: number): string | undefined => {
    const id = ids[i]!;
    const inner = id.ancestors[id.ancestors.length - 1];
    const designated = inner === undefined || designate(inner).kind !== "none";
    const scope = scopes[i];
    if (designated && scope !== undefined && !scope.includes("~")) return `${scope}/${raw}`;
    if (!designated) return `${raw}~${noDigits(slugify(designationText(inner!)))}`;
    const t = title(i);
    return t === undefined ? undefined : `${raw}~${t}`;
  };
  const owns = new Map(representatives.map((i) => [i, own(i)]));
  const ownCount = new Map<string, number>();
  for (const form of owns.values()) if (form !== undefined) ownCount.set(form, (ownCount.get(form) ?? 0) + 1);
  const taken = new Set([...owns.values()].filter((form) => form !== undefined && ownCount.get(form) === 1));
  const all = new Map(representatives.map((i) => [i, forms(i)]));
  // How many representatives have each form at each stage: a form is unique where it counts 1.
  const counts = new Map<string, number>();
  for (const list of all.values())
    for (const [stage, form] of list.entries())
      if (form !== undefined) counts.set(`${stage}\u0000${form}`, (counts.get(`${stage}\u0000${form}`) ?? 0) + 1);
  const chosen = new Map<string, string>();
  for (const i of representatives) {
    const form = owns.get(i);
    if (form !== undefined && ownCount.get(form) === 1) {
      chosen.set(ids[i]!.key, form);
      continue;
    }
    const mine = all.get(i)!;
    const stage = mine.findIndex(
      (form, s) => form !== undefined && counts.get(`${s}\u0000${form}`) === 1 && !taken.has(form),
    );
    // Titles that a cut slug cannot tell apart: the slug of the whole text, uncut (then, for texts that differ only in
    // case or punctuation, position).
    chosen.set(
      ids[i]!.key,
      stage === -1
        ? `${raw}~${noDigits(slugify(designationText(ids[i]!.text), Number.POSITIVE_INFINITY))}`
        : mine[stage]!,
    );
  }
  return chosen;
}
