/**
 * The designation of one legislative heading (docs/spec.md, "Local coordinate"): what it is (a paragraph, an article, a
 * section, a structural unit, an annex, a numbered item, or none) and its key, read from its text with the word tables
 * of the legal systems (legal-systems.ts); its slug when it has no designation. The local coordinates of an artifact's
 * headings are built from these in numbering.ts.
 */

import { withoutFootnoteMarkup } from "../markdown/heading-markup.js";
import { escapeRegExp, isCollapsed } from "../text.js";
import { PLACEHOLDER, paragraphRun } from "./german-forms.js";
import { isLatin1, LATIN1_LETTER, LATIN1_NUMBER, onFirstUse } from "./latin1.js";
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
export const PART_WORDS = [
  "kap",
  "kapitel",
  "sachgebiet",
  "abschnitt",
  "unterabschnitt",
  "teil",
  "titel",
  "nr",
  "nummer",
];

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
 * numeral (`IIIA`), one capital letter; or a name or ordinal word (`unique`, `premier`: NAMES, nameNumeral).
 */
const NUMERAL_FORMS =
  "1(?:er|re|ère)|[IVX]+(?:er|re)|\\d+(?:\\.\\d+)*[A-Za-z]{0,3}|[A-Z]\\d+[a-z]{0,3}|[IVXLCDM]+[A-Z]{0,3}|[A-Z]";
const AFTER = "(?=$|[\\s.:,;()\\u2013\\u2014-])";
/** What may follow a designation's word or numeral (AFTER): a character of this class, or the end. */
const AFTER_CHARACTER = /[\s.:,;()\u2013\u2014-]/u;
const WORD_NUMERAL = new RegExp(`^(${NUMERAL_FORMS})${AFTER}`, "u");
/** A name or ordinal word as a numeral: made on first use (only French, Italian and Spanish law have them). */
const nameNumeral = onFirstUse(() => new RegExp(`^(${spellings(NAMES)})${AFTER}`, "u"));
const lettersU = onFirstUse(() => /^\p{L}+/u);
/** The same for text without a character above U+00FF (`latin1.ts`: cheaper to compile). */
const LATIN1_LETTERS = new RegExp(`^[${LATIN1_LETTER}]+`);
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
const ARTICLE_NUMBER_FORMS = `${PREFIX}\\.?\\s?\\d+(?:-\\d+)*[a-z]{0,3}|1(?:er|re|ère)|[IVX]+(?:er|re)|\\d+(?:[-.]\\d+)*[a-z]{0,3}|[IVXLCDM]+`;
const ARTICLE_NUMERAL = new RegExp(`^(${ARTICLE_NUMBER_FORMS})${AFTER}`, "u");
const ARTICLE_RANGE = new RegExp(
  `^${PROVISION_WORD}\\s*(\\d+[a-z]{0,3})(?:\\s*(?:bis|\\u2013)\\s*|\\s+-\\s*)(?:${PROVISION_WORD}\\s*)?(\\d+[a-z]{0,3})${AFTER}`,
  "u",
);
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
/**
 * Numbered items of the German outline: `A.`, `IV.`, `1.`, `2)`, `a)`, `aa)`, `aaa)`; a roman one inserted later takes a
 * letter (`VIIIa. Gemeinschaftsaufgaben`, `Xa. Verteidigungsfall` of the Grundgesetz), one of I, V and X only, so that
 * an abbreviation (`Ca.`, `Di.`, `Lt.`) is no item.
 */
const ITEM =
  /^(?:([A-Z])\.|([IVXLCDM]{1,7}|[IVX]{1,7}[a-z])\.|(\d{1,3})[.)]|([a-z])\)|([a-z])\5\)|([a-z])\6\6\))(?=$|\s)/u;
/** The rest of a heading that is only its designation: white space, punctuation and remarks in brackets. */
const BARE_REST = /^(?:[\s.:,;\u2013\u2014-]|\([^()]*\))*$/u;

export const MAX_SLUG_LENGTH = 48;

/**
 * Designations led by a word of a list (`Abschnitt 3`, `Art. 5`, `Anlage`), matched without a regular expression for
 * the list: a pattern of the form `^(w1|w2|…)…` over these lists (each word in its three spellings) takes V8 some
 * milliseconds to compile the first time it runs (bench/RESULTS.md, "Start-up"), most of what a command on a small
 * dataset spends on designations. The matchers below try the spellings that the text starts with, in the order such an
 * alternation tries them, and match the rest of the pattern after each: the same matches, groups and all
 * (test/designation-words.test.ts proves it against the patterns written whole, `wordLedPatterns`).
 */
class LeadingWords {
  private readonly byFirst = new Map<string, string[]>();

  constructor(words: string[]) {
    for (const spelling of spellings(words).split("|")) {
      const list = this.byFirst.get(spelling[0]!);
      if (list === undefined) this.byFirst.set(spelling[0]!, [spelling]);
      else list.push(spelling);
    }
  }

  /** The spellings `text` has at `at`, in the alternation's order. */
  at(text: string, at: number): string[] {
    const list = this.byFirst.get(text.charAt(at));
    return list === undefined ? [] : list.filter((spelling) => text.startsWith(spelling, at));
  }

  /** True when `text` starts with one of the spellings: else `^(w1|w2|…)…` cannot match it. */
  leads(text: string): boolean {
    return this.byFirst.get(text.charAt(0))?.some((spelling) => text.startsWith(spelling)) ?? false;
  }
}

const PROVISIONS = new LeadingWords(ALL_PROVISIONS.map((p) => p.word));
const ARTICLE_WORD = new LeadingWords(["article"]);
const UNITS_OR_ANNEXES = new LeadingWords([...UNIT_WORDS, ...ANNEX_WORDS]);
const UNITS = new LeadingWords(UNIT_WORDS);
const ANNEXES = new LeadingWords(ANNEX_WORDS);
const GROUPS = new LeadingWords(GROUP_WORDS);
const NAME_WORDS = new LeadingWords(NAMES);

/** A match: the whole text matched, then the groups (a RegExpExecArray, or the same made by a matcher). */
interface Match {
  readonly 0: string;
  readonly [group: number]: string | undefined;
}

/** `pattern.exec(text)` when `text` starts with one of `words`; else null, as the pattern would say. */
const execLed = (words: LeadingWords, pattern: RegExp, text: string): Match | null =>
  words.leads(text) ? pattern.exec(text) : null;

const SPACES = /\s*/y;
/** Where white space (`\s*`) from `at` ends. */
function pastSpace(text: string, at: number): number {
  SPACES.lastIndex = at;
  SPACES.exec(text);
  return SPACES.lastIndex;
}

/** True when a designation may end at `at` (AFTER): the end of the text, or a character of AFTER_CHARACTER. */
const endsAt = (text: string, at: number) => at === text.length || AFTER_CHARACTER.test(text.charAt(at));

/**
 * `^(word)\.?\s*(numeral)AFTER`, the word one of `words`, the numeral one of `numeral`'s forms or a name (nameNumeral).
 * No numeral starts with a dot or white space, so after each word the numeral can start in one place only.
 */
function wordThenNumeral(text: string, words: LeadingWords, numeral: RegExp): Match | null {
  for (const word of words.at(text, 0)) {
    const start = pastSpace(text, text.charAt(word.length) === "." ? word.length + 1 : word.length);
    const rest = text.slice(start);
    const m = numeral.exec(rest) ?? (NAME_WORDS.leads(rest) ? nameNumeral().exec(rest) : null);
    if (m) return [text.slice(0, start) + m[0], word, m[1]!];
  }
  return null;
}

/** `^(word)AFTER`, the word one of `words`, from `at`: the word, or undefined. */
const wordAt = (text: string, at: number, words: LeadingWords) =>
  words.at(text, at).find((word) => endsAt(text, at + word.length));

/** `^(\p{L}+)\s+(unit word)AFTER` (`Zweiter Teil`): letters can only end where white space starts. */
function ordinalThenWord(text: string): Match | null {
  const letters = (isLatin1(text) ? LATIN1_LETTERS : lettersU()).exec(text);
  if (!letters) return null;
  const start = pastSpace(text, letters[0].length);
  if (start === letters[0].length) return null;
  const word = wordAt(text, start, UNITS);
  return word === undefined ? null : [text.slice(0, start + word.length), letters[0], word];
}

/** `^(\d+)\.\s*(unit word)AFTER` (`3. Abschnitt`). */
function numberThenWord(text: string): Match | null {
  const number = /^(\d+)\./.exec(text);
  if (!number) return null;
  const start = pastSpace(text, number[0].length);
  const word = wordAt(text, start, UNITS);
  return word === undefined ? null : [text.slice(0, start + word.length), number[1]!, word];
}

/** `^(annex word)AFTER` (`Anlage`, `Schedule`). */
function bareAnnex(text: string): Match | null {
  const word = wordAt(text, 0, ANNEXES);
  return word === undefined ? null : [word, word];
}

/**
 * The word-led patterns written whole, each beside its matcher, for the test that proves them the same
 * (test/designation-words.test.ts); nothing else makes them.
 */
export function wordLedPatterns(): { name: string; pattern: RegExp; match: (text: string) => Match | null }[] {
  const numeral = `(${NUMERAL_FORMS}|${spellings(NAMES)})`;
  const articleNumber = `(${ARTICLE_NUMBER_FORMS}|${spellings(NAMES)})`;
  const unitWords = spellings(UNIT_WORDS);
  return [
    {
      name: "word then number",
      pattern: new RegExp(`^(${spellings([...UNIT_WORDS, ...ANNEX_WORDS])})\\.?\\s*${numeral}${AFTER}`, "u"),
      match: (text) => wordThenNumeral(text, UNITS_OR_ANNEXES, WORD_NUMERAL),
    },
    {
      name: "article",
      pattern: new RegExp(`^${PROVISION_WORD}\\s*${articleNumber}${AFTER}`, "u"),
      match: (text) => wordThenNumeral(text, PROVISIONS, ARTICLE_NUMERAL),
    },
    {
      name: "ordinal then word",
      pattern: new RegExp(`^(\\p{L}+)\\s+(${unitWords})${AFTER}`, "u"),
      match: ordinalThenWord,
    },
    {
      name: "number then word",
      pattern: new RegExp(`^(\\d+)\\.\\s*(${unitWords})${AFTER}`, "u"),
      match: numberThenWord,
    },
    { name: "bare annex", pattern: new RegExp(`^(${spellings(ANNEX_WORDS)})${AFTER}`, "u"), match: bareAnnex },
    { name: "article range", pattern: ARTICLE_RANGE, match: (text) => execLed(PROVISIONS, ARTICLE_RANGE, text) },
    { name: "article annex", pattern: ARTICLE_ANNEX, match: (text) => execLed(ARTICLE_WORD, ARTICLE_ANNEX, text) },
    { name: "group", pattern: GROUP, match: (text) => execLed(GROUPS, GROUP, text) },
  ];
}

/** Normalises heading text for designations: NFC, whitespace collapsed, trimmed. */
export function normalizeHeading(text: string): string {
  return isCollapsed(text, true) ? text : text.normalize("NFC").replace(/\s+/gu, " ").trim();
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

const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
/** The same for text without a character above U+00FF (`latin1.ts`: cheaper to compile). */
const LATIN1_NOT_WORD = new RegExp(`[^${LATIN1_LETTER}${LATIN1_NUMBER}]+`, "g");

/**
 * A slug of text: NFC, lower case, runs of anything but letters, digits and marks become "-"; at most 48 characters.
 */
export function slugify(text: string, maxLength = MAX_SLUG_LENGTH): string {
  const lower = text.normalize("NFC").toLowerCase();
  let slug = lower.replace(isLatin1(lower) ? LATIN1_NOT_WORD : NOT_WORD, "-").replace(/^-+|-+$/g, "");
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

const WORD = /[\p{L}\p{N}]/u;
const LATIN1_WORD = new RegExp(`[${LATIN1_LETTER}${LATIN1_NUMBER}]`);
/** Each pattern of this module with a Latin-1 form, and that form (test/latin1-classes.test.ts). */
export const latin1Forms = (): readonly (readonly [RegExp, RegExp])[] => [
  [lettersU(), LATIN1_LETTERS],
  [NOT_WORD, LATIN1_NOT_WORD],
  [WORD, LATIN1_WORD],
];

/** True when a heading has no letter or digit: `#` alone, `# **`, `# * * *`. */
export function isEmptyHeading(text: string): boolean {
  return !(isLatin1(text) ? LATIN1_WORD : WORD).test(text);
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
  // Every designation of one shape, all members set, whichever form it was read from: the code that reads them (the
  // numbering of a whole artifact's headings) meets one object shape, not one per form (bench/RESULTS.md, "Units").
  const d = designateAnyShape(headingText);
  return { kind: d.kind, key: d.key, word: d.word, rank: d.rank, bare: d.bare, rest: d.rest };
}

function designateAnyShape(headingText: string): Designation {
  const text = designationText(headingText);
  const bare = (m: Match, end = m[0].length) => BARE_REST.test(text.slice(end));
  const rest = (end: number) => text.slice(end);
  // `(XXXX) §§ 3 bis 6 (weggefallen)`: the place holder is no part of the designation that follows it.
  const placeholder = PLACEHOLDER.exec(text);
  if (placeholder && placeholder[0].length < text.length) {
    const d = designate(text.slice(placeholder[0].length));
    if (d.kind !== "none") return d;
  }
  const run = paragraphRun(text);
  if (run) return { kind: "paragraph", key: run.key, bare: BARE_REST.test(text.slice(run.end)), rest: rest(run.end) };
  let m: Match | null = PARAGRAPH.exec(text);
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
  m = execLed(PROVISIONS, ARTICLE_RANGE, text);
  if (m)
    return {
      kind: "article",
      key: `${provisionKey(m[1]!)}-${m[2]!.toLowerCase()}-bis-${m[4]!.toLowerCase()}`,
      bare: bare(m),
      rest: rest(m[0].length),
    };
  m = wordThenNumeral(text, PROVISIONS, ARTICLE_NUMERAL);
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
  const annexArticle = execLed(ARTICLE_WORD, ARTICLE_ANNEX, text);
  if (annexArticle) return { ...designate(text.slice(annexArticle[0].length)) };
  m = wordThenNumeral(text, UNITS_OR_ANNEXES, WORD_NUMERAL);
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
  m = execLed(GROUPS, GROUP, text);
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
  m = numberThenWord(text);
  if (m) return { ...unitOrAnnex(m[2]!, m[1]!), bare: bare(m), rest: rest(m[0].length) };
  m = ordinalThenWord(text);
  if (m) {
    const n = germanOrdinal(m[1]!);
    if (n !== undefined) return { ...unitOrAnnex(m[2]!, String(n)), bare: bare(m), rest: rest(m[0].length) };
  }
  m = bareAnnex(text);
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
  const item = ITEM.exec(text);
  if (item) {
    const rank = item.slice(1).findIndex((g) => g !== undefined);
    const numeral = item[rank + 1]!.toLowerCase();
    // A single I, V or X with a dot is a roman numeral (other capitals are letters: A., B., C.); aa) and aaa) repeat
    // their letter.
    const itemRank = rank === 0 && /^[IVX]$/.test(item[1]!) ? 1 : rank;
    return {
      kind: "item",
      key: rank === 4 ? numeral.repeat(2) : rank === 5 ? numeral.repeat(3) : numeral,
      rank: itemRank,
      bare: bare(item),
      rest: rest(item[0].length),
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
