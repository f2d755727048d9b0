/**
 * The citation reader of `resolve` (docs/spec.md, section 19, "Citations"): a citation as lawyers write it
 * (`§ 823 Abs. 1 S. 2 BGB`, `§ 823 I 2 BGB`, `Art. 6 Abs. 1 UAbs. 1 lit. a DSGVO`, `s 6(1)(a) Privacy Act 1988`,
 * `art. L. 121-1 al. 2`) read into the provisions and units it names, the law it names, and whether it names a range.
 *
 * The reader is one function with no closure over this module, given its word tables as data: the view page's script
 * carries the same code (its source text, citation-reader-source.ts) with the same tables as JSON
 * (src/formatters/dataset-html.ts), so the page and the command read a citation alike.
 */
import { PART_WORDS } from "../address/designation.js";
import { ALL_ANNEX_WORDS, LATIN_SUFFIXES } from "../address/legal-systems.js";

/**
 * A provision's kind: a German/Swiss/Austrian `§`, an article (`Art.`, `Article`), an Australian section, or an annex
 * (`Anlage 1`, `Schedule 1`: its label is its address key, `anlage-1`), which may hold a provision.
 */
export type ProvisionKind = "§" | "art" | "section" | "annex";

/**
 * A unit's kind. Those of the unit addresses (docs/spec.md, section 7): `abs` (Absatz), `nr` (Nummer), `bst`
 * (Buchstabe, lit.), `dbst` (Doppelbuchstabe), `subsec`, `para`, `subpara` (Australian). Those no address names: `satz`,
 * `uabs` (Unterabsatz), `hs` (Halbsatz), `alt` (Alternative, Variante), `al` (alinéa) and `other` (a French `I`, `2°`,
 * an Australian `(A)` below a subparagraph).
 */
export type UnitKind =
  | "abs"
  | "nr"
  | "bst"
  | "dbst"
  | "subsec"
  | "para"
  | "subpara"
  | "satz"
  | "uabs"
  | "hs"
  | "alt"
  | "al"
  | "other";

export type StepKind = ProvisionKind | UnitKind;

/** One step of a citation: its kind, its label as the address writes it (lower case), and where it is in the input. */
export interface CitationStep {
  kind: StepKind;
  label: string;
  /** `[start, end)` in UTF-16 code units of the input: the word (if any) and the label. */
  start: number;
  end: number;
}

/** A citation read. */
export interface Citation {
  /**
   * The provisions (one, an article and a `§` in it: `Art. 229 § 1`, an annex and one in it: `Anlage 1 § 1`, `§ 1
   * Anlage 1`), then the units, in the input's order.
   */
  steps: CitationStep[];
  /** The law it names, as written (trimmed), and where; absent when it names none. */
  law?: { text: string; start: number; end: number };
  /** True for `§§ 305 bis 310`, `§ 433 ff.`: the citation names the first provision of a range. */
  range: boolean;
  /** The last provision of a range written out (`310` of `§§ 305 bis 310`), as a label. */
  rangeEnd?: string;
}

/** The reader's word tables, as data (so that the page's script is given them as JSON). */
export interface ReaderTables {
  latinSuffixes: string[];
  /** The annex words of every legal system (docs/spec.md, section 7), lower case. */
  annexWords: string[];
  /** The abbreviations of annex words in citations, lower case, each with the word: `anl` → `anlage`. */
  annexAbbreviations: Record<string, string>;
  /**
   * The words of the further parts of a compound annex (`Anlage I Kap X Sachgebiet D`: docs/spec.md, section 7), lower
   * case, but `nr` and `nummer`: after an annex, a Nummer is its Nummer (`Anlage 1 Nr. 3`).
   */
  annexPartWords: string[];
  /** The part words a heading may write otherwise than a citation: `kap` → `kapitel`. */
  annexPartSpellings: Record<string, string>;
}

export const READER_TABLES: ReaderTables = {
  latinSuffixes: LATIN_SUFFIXES,
  annexWords: ALL_ANNEX_WORDS,
  annexAbbreviations: { anl: "anlage", anh: "anhang", sch: "schedule", sched: "schedule" },
  annexPartWords: PART_WORDS.filter((word) => word !== "nr" && word !== "nummer"),
  annexPartSpellings: { kap: "kapitel", kapitel: "kap" },
};

/** What a citation names in addresses (docs/spec.md, section 19, "Matching"). */
export interface CitationKeys {
  /**
   * Per provision, the designation keys its heading can have (`§-823`; a section `6`, `sec-6` or, a German law's
   * `Section 6`/`Paragraph 6`, `§-6`; an annex `anlage-1`), in the order of the address: an annex before the provision
   * in it.
   */
  provisions: string[][];
  /** Per unit step (the steps after the provisions), its address step (`abs-1`), or null when no address names it. */
  units: (string | null)[];
  /** The key of a heading of the whole range (`§§-305-bis-310`), for a range written out. */
  range?: string;
  /**
   * Set (true) when the first provision is an annex: a provision in it may be flat in an artifact that is the annex
   * (`schedule-1/index.md#7`, docs/spec.md, section 7).
   */
  annex?: true;
}

/** The reader: `read` turns a text into a Citation, or undefined when it names no provision. */
export interface CitationReader {
  read(input: string): Citation | undefined;
  /** What a citation read names in addresses. */
  keys(citation: Citation): CitationKeys;
  /**
   * How far a heading's address is from the provision a citation of `provisions` provisions means, 0 the nearest: one
   * qualified by a scope (`art-2~übergangsbestimmungen-…`) is far, one inside a provision not cited (`art-2/§-1` for
   * `§ 1`) farther than one at the top, and a deeper one (`anlage-3/§-1`, `schedule-1/6`) farther than a shallower.
   * A positional tie-break (`§-37~2`) is no distance: truly identical siblings stay ambiguous.
   */
  distance(address: string, provisions: number): number;
  /**
   * Whether a heading whose local has the keys `segments` (qualifiers and tie-breaks left out, the last `key`) may be
   * the provision `key` names. A section's keys (`2`, `sec-2`) name a heading at the top of its local or in an annex
   * (`schedule-1/7`), never an item of a provision or of another item (`§-3/2`, `anhang-1/i/2`); and a bare number
   * names no provision of a law that has `§` headings (`paragraphs`): its `Paragraph 2` is `§ 2`, not an item 2.
   */
  provisionHeading(segments: readonly string[], paragraphs: boolean): boolean;
  /**
   * Whether the key of a range's heading (`§§-3-bis-13` of `§§ 3 bis 13 (weggefallen)`, `art-2-bis-26`) takes in the
   * provision of a key (`§-5`, `art-5`): one of its kind, first ≤ it ≤ last, a section's letters after its number
   * (`§ 7` < `§ 7a` < `§ 8`: `§-3a` is in `§§-3-bis-13`, `§-13a` is not).
   */
  covers(range: string, key: string): boolean;
}

/**
 * Makes a reader from its tables. Self-contained on purpose (no name from outside its body but its parameter and the
 * language's own): the page's script is this function's source text.
 */
export function createCitationReader(tables: ReaderTables): CitationReader {
  const latin = tables.latinSuffixes.join("|");
  const SPACE = /[\s\u00a0\u202f]*/y;
  // The provision words, longest first; each needs a label after it. The words written out in any case (`SECTION 2`,
  // `Paragraf 1`); the short ones as shown (`S. 2` is a Satz, not a section).
  const PROVISION_WORD =
    /(subsections?|subparagraphs?|sections?|paragraphs?|paragraf|paras?|articles?|artikel|articolo|artículo|clauses?)(?=[\s\u00a0\u202f]*[0-9LRDAIVX])/iy;
  const PROVISION = /(§§|§|Artt?\.|Arts?\.|Art|art\.?|Secs?\.|secs?\.|cl\.?|ss?\.?)(?=[\s\u00a0\u202f]*[0-9LRDAIVX])/y;
  // An annex word (any case) or its abbreviation (a dot optional), and its numeral: `Anlage 1`, `Anl. D2a`, `Anhang
  // II`, `Schedule 1`, `Annex A`.
  const ANNEX = new RegExp(
    `(${tables.annexWords
      .slice()
      .sort((a, b) => b.length - a.length)
      .join("|")}|(?:${Object.keys(tables.annexAbbreviations).join("|")})\\.?)(?![A-Za-zÄÖÜäöüß])[\\s\\u00a0\\u202f]*`,
    "iy",
  );
  // An annex's key (`schedule-1`, `anlage-i-kap-x`).
  const ANNEX_KEY = new RegExp(`^(?:${tables.annexWords.join("|")})-`);
  const ANNEX_LABEL = /(\d+[A-Za-z]{0,3}|[IVXLC]+[a-z]{0,3}|[A-Z]\d*[a-z]{0,3})(?![A-Za-z0-9])/y;
  // A further part of a compound annex, as a heading's designation reads it (docs/spec.md, section 7): a part word (as
  // written in lower case, capitalised or in capitals; a dot optional) and its numeral (`Kap. X`, `Sachgebiet D`), or
  // after one a bare numeral (`D`, `II`).
  const ANNEX_PART = new RegExp(
    `[\\s\\u00a0]+(${tables.annexPartWords
      .flatMap((word) => [word, word.charAt(0).toUpperCase() + word.slice(1), word.toUpperCase()])
      .join(
        "|",
      )})\\.?[\\s\\u00a0]*(\\d+[a-z]{0,3}|[IVXLCDM]+[a-z]{0,3}|[A-Z]\\d*[a-z]{0,3})(?=$|[\\s\\u00a0,;:()\\u2013\\u2014])`,
    "y",
  );
  const ANNEX_BARE_PART = /[\s\u00a0]+(\d+[a-z]{0,3}|[IVXLCDM]+|[A-Z])(?=$|[\s\u00a0,;:()\u2013\u2014])/y;
  // The remark of an annex's heading after it (`Anlage 1 zu § 4`, `(zu §§ 3 und 4 Abs. 2)`): not the provision cited.
  const ANNEX_REMARK =
    /\(?zu[\s\u00a0]+(?:den[\s\u00a0]+)?(?:§§?|Artt?\.|Art|Artikel)[\s\u00a0]*\d+[a-z]{0,3}(?:[\s\u00a0]*(?:,|und|bis)[\s\u00a0]*\d+[a-z]{0,3})*(?:[\s\u00a0]*(?:Abs\.?|Absatz)[\s\u00a0]*\d+[a-z]{0,3})?\)?[\s\u00a0]*/y;
  // Where an annex that holds the provision cited follows it: `§ 1 Anlage 1`, `§ 1 der Anlage 1`, `clause 7 of
  // Schedule 1`.
  const IN_ANNEX = /,?[\s\u00a0]*(?:(?:der|in der|in|of the|of|to the|to)[\s\u00a0]+)?/y;
  // A lower-case letter after a space, part of the number before it as in a heading (`§ 2 a` is § 2a, docs/spec.md,
  // section 7): one letter alone, not one before a dot (`a.F.`, the version; `f.`; `u.`), a bracket (an item, `a)`) or
  // a number (`Art. 1 a 5`, a range; `y 4`, a list).
  const SPACED_LETTER = "[\\s\\u00a0][a-z](?=$|[\\s\\u00a0]*[,;]|[\\s\\u00a0]+[^\\s\\u00a0\\d])";
  // Labels: a § or article number (a French prefix, `-` and `.` parts, up to 3 letters glued or one after a space, a
  // Latin suffix), a roman article number, an Australian section number (capital letters, `.` and `-` parts).
  const ART_LABEL = new RegExp(
    `(?:(LO|R\\*|D\\*|[LRDA])\\.?[\\s\\u00a0]?)?(\\d+(?:[.-]\\d+)*)(${SPACED_LETTER}|[a-zA-Z]{0,3}(?![a-zA-Z]))(?:([\\s\\u00a0]?-?)(${latin})(?![a-zA-Z]))?`,
    "y",
  );
  // A further number of a list of provisions (`§§ 5, 5a`, `§§ 5 und 6`, `§§ 5, 5 a`).
  const MORE_PROVISIONS = new RegExp(
    `(?:,|und|and|u\\.|sowie|or|oder)[\\s\\u00a0]*\\d+(?:${SPACED_LETTER}|[a-z]{0,3})(?![A-Za-z0-9°])[\\s\\u00a0]*`,
    "y",
  );
  const ROMAN_ARTICLE = /([IVXLC]+)(?![A-Za-z0-9])/y;
  const SECTION_LABEL = /(\d+[A-Za-z]*(?:[.-]\d+[A-Za-z]*)*)/y;
  const PAREN = /\(([0-9]+[A-Za-z]*|[A-Za-z]{1,4})\)/y;
  const ROMAN = /(XX|XIX|XVIII|XVII|XVI|XV|XIV|XIII|XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)(?![A-Za-z0-9.])/y;
  const NUMBER = /(\d+[a-z]{0,3})(?![A-Za-z0-9])/y;
  const UNIT_WORD =
    /(Abs\.?|Absatz|Absätze|UAbs\.?|Unterabs\.?|Unterabsatz|Satz|S\.|Nr\.?|Nrn\.?|Nummer|Ziff\.?|Ziffer|Z\.?|Buchst\.?|Buchstabe|lit\.?|litera|Bst\.?|Doppelbuchst\.?|Doppelbuchstabe|Dbuchst\.?|Hs\.?|Halbs\.?|Halbsatz|Alt\.?|Alternative|Var\.?|Variante|al\.?|alinéa|alinea)(?![A-Za-zäöüß])/y;
  // A unit's label: a number with letters or a Latin suffix (`1a`, `1bis`), letters (`aa`), or a letter with a Latin
  // suffix (a Swiss `Bst. bbis`).
  const UNIT_LABEL = new RegExp(`(\\d+[a-z]{0,3}(?:${latin})?|[a-z]{1,2}(?:${latin})|[a-z]{1,3})(?![A-Za-z0-9])`, "y");
  // The end of a range of units (`Abs. 1 bis 3`, `Nr. 1–9`, `Buchst. a bis c`): read from its first.
  const UNIT_RANGE = /(?:bis|to|-|–)[\s\u00a0]*(?:\d+[a-z]{0,3}|[a-z]{1,3})(?![A-Za-z0-9])/y;
  // A list or range of Australian brackets (`(a) and (b)`, `(a)-(c)`): read from its first.
  const PAREN_MORE = /[\s\u00a0]*(?:-|–|to|and|or|,)[\s\u00a0]*\((?:[0-9]+[A-Za-z]*|[A-Za-z]{1,4})\)/y;
  // Another citation after this one (`§ 823 Abs. 1, § 825 BGB`): the law is written after the last.
  const NEXT_CITATION = /(?:,|;|und|and|sowie|oder|or)[\s\u00a0]*/y;
  const RANGE_WORD = /(bis|to|à|au|-|–)(?![A-Za-z])/y;
  const UNIT_LIST = /(?:,|und|and|u\.|oder|or|sowie)[\s\u00a0]*(?:\d+[a-z]{0,3}|[a-z]{1,2})(?![A-Za-z0-9°.])/y;
  const FOLLOWING = /(ff\.?|f\.|et seq\.?)(?![A-Za-z])/y;
  /** `i.V.m.` (in Verbindung mit): the provision read with another, cited after it; the law may be written after that. */
  const CONNECTION = /(?:i\.?[\s\u00a0]?V\.?[\s\u00a0]?m\.?|in[\s\u00a0]+Verbindung[\s\u00a0]+mit)(?![A-Za-z])/.source;
  const IN_CONNECTION = new RegExp(`${CONNECTION}[\\s\\u00a0]*`, "y");
  /** The same where the law's name ends: `BGB i.V.m. § 249 BGB` names the law `BGB`. */
  const LAW_CONNECTION = new RegExp(`[\\s\\u00a0]+${CONNECTION}`);
  const FRENCH_ITEM = /,[\s\u00a0]*([IVX]+|\d+°)(?![A-Za-z0-9])/y;
  const CONNECTOR = /(?:(?:of the|of|du|de la|des|de|der|zum|zur|del|della)[\s\u00a0]+|de l'|d'|dell')/iy;
  // After an annex, `to` joins the law as `of` does: `Schedule 1 to the Corporations Act 2001`, as Australian Acts name
  // their schedules.
  const ANNEX_CONNECTOR = /to(?:[\s\u00a0]+the)?[\s\u00a0]+/iy;

  const UNIT_KINDS: Record<string, string> = {
    abs: "abs",
    absatz: "abs",
    absätze: "abs",
    uabs: "uabs",
    unterabs: "uabs",
    unterabsatz: "uabs",
    satz: "satz",
    s: "satz",
    nr: "nr",
    nrn: "nr",
    nummer: "nr",
    ziff: "nr",
    ziffer: "nr",
    z: "nr",
    buchst: "bst",
    buchstabe: "bst",
    lit: "bst",
    litera: "bst",
    bst: "bst",
    doppelbuchst: "dbst",
    doppelbuchstabe: "dbst",
    dbuchst: "dbst",
    hs: "hs",
    halbs: "hs",
    halbsatz: "hs",
    alt: "alt",
    alternative: "alt",
    var: "alt",
    variante: "alt",
  };
  // A range heading's key (`§§-3-bis-13`, `§§-4a-bis-6`, `art-2-bis-26`), and a section's or an article's (`§-5`,
  // `art-5a`).
  const SECTION_RANGE_KEY = /^(§§|art)-(\d+)([a-z]*)-bis-(\d+)([a-z]*)$/;
  const SECTION_KEY = /^(§|art)-(\d+)([a-z]*)$/;
  /** Negative, zero or positive as section `an as` comes before, is, or comes after `bn bs` (`§ 7` < `§ 7a` < `§ 8`). */
  const compareSections = (an: number, as: string, bn: number, bs: string): number =>
    an !== bn ? an - bn : as === bs ? 0 : as.length !== bs.length ? as.length - bs.length : as < bs ? -1 : 1;
  const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
  const romanValue = (text: string): number => {
    let total = 0;
    for (let k = 0; k < text.length; k++) {
      const value = ROMAN_VALUES[text.charAt(k)] ?? 0;
      const next = ROMAN_VALUES[text.charAt(k + 1)] ?? 0;
      total += value < next ? -value : value;
    }
    return total;
  };
  const match = (pattern: RegExp, input: string, position: number): RegExpExecArray | null => {
    pattern.lastIndex = position;
    return pattern.exec(input);
  };
  const skip = (input: string, position: number): number => {
    SPACE.lastIndex = position;
    SPACE.exec(input);
    return SPACE.lastIndex;
  };
  const provisionKind = (word: string): ProvisionKind =>
    word.charAt(0) === "§" || /^paragraf$/i.test(word)
      ? "§"
      : /^(art|articolo|artículo)/i.test(word)
        ? "art"
        : "section";
  /** The provision word at `position`, written out or short. */
  const provisionWord = (input: string, position: number): RegExpExecArray | null =>
    match(PROVISION_WORD, input, position) ?? match(PROVISION, input, position);
  /** The annex at `position` (its word and numeral), its key as its label (`anlage-1`); undefined when none is there. */
  const annexAt = (input: string, position: number): CitationStep | undefined => {
    const m = match(ANNEX, input, position);
    if (m === null) return undefined;
    const numeral = match(ANNEX_LABEL, input, position + m[0].length);
    if (numeral === null) return undefined;
    const word = (m[1] as string).toLowerCase().replace(/\.$/, "");
    let label = `${tables.annexAbbreviations[word] ?? word}-${(numeral[1] as string).toLowerCase()}`;
    let end = position + m[0].length + numeral[0].length;
    // A compound annex (`Anlage I Kap X Sachgebiet D Abschnitt II`): its key has every part, as its heading's has.
    for (let parted = false; ; ) {
      const part = match(ANNEX_PART, input, end) ?? (parted ? match(ANNEX_BARE_PART, input, end) : null);
      if (part === null) break;
      label += part[2] === undefined ? `-${part[1]}` : `-${(part[1] as string).toLowerCase()}-${part[2]}`;
      label = label.toLowerCase();
      end += part[0].length;
      parted = true;
    }
    return { kind: "annex", label, start: position, end };
  };
  /** Whether a citation starts at `position`: a provision word or an annex. */
  const startsCitation = (input: string, position: number): boolean =>
    provisionWord(input, position) !== null || annexAt(input, position) !== undefined;

  /** A provision's label at `position` (after its word), as the address writes it; undefined when there is none. */
  const provisionLabel = (
    kind: ProvisionKind,
    input: string,
    position: number,
  ): { label: string; end: number } | undefined => {
    if (kind === "annex") return undefined;
    if (kind === "section") {
      const m = match(SECTION_LABEL, input, position);
      return m ? { label: (m[1] as string).toLowerCase(), end: position + m[0].length } : undefined;
    }
    const m = match(ART_LABEL, input, position);
    if (m) {
      const base = `${(m[1] ?? "").toLowerCase()}${m[2]}${(m[3] as string).trim().toLowerCase()}`;
      const suffix = m[5];
      // `bis` before a number opens a range (`§§ 305 bis 310`): no suffix.
      if (suffix === undefined || (suffix === "bis" && /^[\s\u00a0]*\d/.test(input.slice(position + m[0].length))))
        return { label: base, end: position + m[0].length - (suffix === undefined ? 0 : (m[4] as string).length + 3) };
      return { label: `${base}${m[4] === "" ? "" : "-"}${suffix}`, end: position + m[0].length };
    }
    if (kind === "art") {
      const r = match(ROMAN_ARTICLE, input, position);
      if (r) return { label: (r[1] as string).toLowerCase(), end: position + r[0].length };
    }
    return undefined;
  };

  /**
   * The law written from `from` to the end: after a connector (`of the`, `du`; after an annex, `to the` too), without
   * closing punctuation.
   */
  const lawAfter = (
    input: string,
    position: number,
    annexed: boolean,
  ): { text: string; start: number; end: number } | undefined => {
    let from = position;
    if (input.charAt(from) === ",") from = skip(input, from + 1);
    const connector = match(CONNECTOR, input, from) ?? (annexed ? match(ANNEX_CONNECTOR, input, from) : null);
    if (connector && from + connector[0].length < input.length) from = skip(input, from + connector[0].length);
    // A provision read with another (`… BGB i.V.m. § 249 BGB`): the law's name ends before the connector.
    const connection = LAW_CONNECTION.exec(input.slice(from));
    let to = connection === null ? input.length : from + connection.index;
    while (to > from && /[\s\u00a0.,;:]/.test(input.charAt(to - 1))) to--;
    return to > from ? { text: input.slice(from, to), start: from, end: to } : undefined;
  };

  /** A citation whose provision word starts at `start`, with the law written after it (if any). */
  const readFrom = (input: string, start: number): Citation | undefined => {
    const steps: CitationStep[] = [];
    let range = false;
    let rangeEnd: string | undefined;
    /** A list of provisions was passed over: the units after it are the last member's, not the first's. */
    let listed = false;
    let i = start;
    // An annex first (`Anlage 1`, `Schedule 1, clause 7`, `Anlage 1 § 1`), the remark of its heading passed over
    // (`Anlage 1 zu § 4`): the provision after it, if any, is in it.
    let annex = annexAt(input, i);
    if (annex !== undefined) {
      steps.push(annex);
      i = skip(input, annex.end);
      const remark = match(ANNEX_REMARK, input, i);
      if (remark !== null) i += remark[0].length;
      if (input.charAt(i) === "," && provisionWord(input, skip(input, i + 1)) !== null) i = skip(input, i + 1);
    }
    // One provision, or an article and a § in it: `Art. 229 § 1`.
    for (let read = 0; ; ) {
      const word = provisionWord(input, i);
      if (!word) break;
      const kind = provisionKind(word[1] as string);
      const label = provisionLabel(kind, input, skip(input, i + word[0].length));
      if (!label) break;
      // A plural word (`§§`, `ss`, `Arts.`, `sections`) names several provisions: a range, or a list read from its
      // first; `§§ 3-5` is one written without spaces (no § has a hyphen in its number; a French article's has a prefix).
      const plural =
        /^(§§|ss\.?|Artt\.|Arts\.)$/.test(word[1] as string) ||
        /^(articles|sections|clauses)$/i.test(word[1] as string);
      if (plural) range = true;
      const joined = plural ? /^(\d+[a-z]*)-(\d+[a-z]*)$/.exec(label.label) : null;
      steps.push({ kind, label: joined ? (joined[1] as string) : label.label, start: i, end: label.end });
      if (joined) rangeEnd = joined[2] as string;
      i = skip(input, label.end);
      // A list of numbers, after a plural word or not (`§§ 5, 5a`, `§§ 5 und 6`, `Art. 1 und 5`, `Art. 1, 5`): read
      // from its first, a range; the others are passed over. A French item (`, 2°`) is no member.
      if (!joined) {
        for (let next = match(MORE_PROVISIONS, input, i); next !== null; next = match(MORE_PROVISIONS, input, i)) {
          range = true;
          listed = true;
          i = i + next[0].length;
        }
      }
      // The annex that holds it, written after it: `§ 1 Anlage 1`, `clause 7 of Schedule 1`.
      if (annex === undefined) {
        const before = match(IN_ANNEX, input, i);
        annex = annexAt(input, i + (before === null ? 0 : before[0].length));
        if (annex !== undefined) {
          steps.push(annex);
          i = skip(input, annex.end);
          const remark = match(ANNEX_REMARK, input, i);
          if (remark !== null) i += remark[0].length;
          break;
        }
      }
      read++;
      if (kind === "section" || read === 2) break;
    }
    // The provision the units are of: the one cited in the annex, else the annex.
    const provision = steps.filter((step) => step.kind !== "annex").pop() ?? steps[0];
    if (provision === undefined) return undefined;
    const provisionCount = steps.length;
    const provisionKindOf = provision.kind as ProvisionKind;
    // A range written out: `bis 310`, `- 310`, `bis § 310`.
    const rangeWord = match(RANGE_WORD, input, i);
    if (rangeWord) {
      const after = skip(input, i + rangeWord[0].length);
      const word = provisionWord(input, after);
      const end = provisionLabel(provisionKindOf, input, word ? skip(input, after + word[0].length) : after);
      if (end) {
        range = true;
        rangeEnd = end.label;
        i = skip(input, end.end);
      }
    }
    // The units below the provision.
    let last: string = provisionKindOf;
    let romanAbsatz = false;
    const push = (kind: string, label: string, from: number, to: number) => {
      steps.push({ kind: kind as StepKind, label, start: from, end: to });
      last = kind;
      i = skip(input, to);
    };
    for (;;) {
      const paren = match(PAREN, input, i);
      if (paren && provisionKindOf === "section") {
        // Australian: the level follows from the one before (`(i)` is a paragraph after a subsection).
        const label = paren[1] as string;
        const kind =
          last === "section"
            ? /^\d/.test(label)
              ? "subsec"
              : "para"
            : last === "subsec"
              ? "para"
              : last === "para"
                ? "subpara"
                : "other";
        push(kind, label.toLowerCase(), i, i + paren[0].length);
        // A list or range of brackets (`(a) and (b)`, `(a)-(c)`) is read from its first, and ends the units: a bracket
        // after it (`(1) or (2)(a)`) belongs to another member of the list, not to the first.
        let listed = false;
        for (let more = match(PAREN_MORE, input, i); more !== null; more = match(PAREN_MORE, input, i)) {
          range = true;
          listed = true;
          i = skip(input, i + more[0].length);
        }
        if (listed) {
          while (match(PAREN, input, i) !== null) i = skip(input, i + match(PAREN, input, i)![0].length);
          break;
        }
        continue;
      }
      if (provisionKindOf !== "section" && provisionKindOf !== "annex" && last === provisionKindOf) {
        if (paren && /^\d/.test(paren[1] as string)) {
          push("abs", (paren[1] as string).toLowerCase(), i, i + paren[0].length);
          continue;
        }
        const roman = match(ROMAN, input, i);
        if (roman) {
          push("abs", String(romanValue(roman[1] as string)), i, i + roman[0].length);
          romanAbsatz = true;
          continue;
        }
      }
      if (paren && provisionKindOf !== "section" && provisionKindOf !== "annex" && i === steps[steps.length - 1]!.end) {
        // A bracket no Absatz reads, written right after the label or the bracket before it (a US `§ 101(a)(1)(A)`): a
        // unit no address names, so that the citation finds the provision that holds it, rather than take the brackets
        // for the law's name. One after a space (`§ 823 (BGB)`) stays what it was: the law's name.
        push("other", (paren[1] as string).toLowerCase(), i, i + paren[0].length);
        continue;
      }
      if (romanAbsatz && last === "abs") {
        // A bare number after a Roman Absatz is its Satz: `§ 823 I 2`.
        const n = match(NUMBER, input, i);
        if (n) {
          push("satz", n[1] as string, i, i + n[0].length);
          continue;
        }
      }
      const unit = match(UNIT_WORD, input, i);
      if (unit) {
        const labelAt = skip(input, i + unit[0].length);
        const label = match(UNIT_LABEL, input, labelAt);
        const word = (unit[1] as string).toLowerCase().replace(/\.$/, "");
        if (label) {
          push(UNIT_KINDS[word] ?? "al", (label[1] as string).toLowerCase(), i, labelAt + label[0].length);
          // A list or range of the unit's kind (`Nr. 1 und 2`, `Abs. 2, 3`, `Abs. 1 bis 3`): read from its first, the
          // others passed over; the citation names more than one (`range`).
          for (
            let more = match(UNIT_LIST, input, i) ?? match(UNIT_RANGE, input, i);
            more !== null;
            more = match(UNIT_LIST, input, i) ?? match(UNIT_RANGE, input, i)
          ) {
            range = true;
            i = skip(input, i + more[0].length);
          }
          continue;
        }
      }
      const item = match(FRENCH_ITEM, input, i);
      if (item) {
        const label = item[1] as string;
        push("other", label.toLowerCase(), i + item[0].indexOf(label), i + item[0].length);
        continue;
      }
      break;
    }
    // `Art. 1 und 5 Abs. 2`: Abs. 2 is Art. 5's; the first is cited whole.
    if (listed) steps.length = provisionCount;
    const following = match(FOLLOWING, input, i);
    if (following) {
      range = true;
      i = skip(input, i + following[0].length);
    }
    // Read with another provision (`§ 2 i.V.m. § 3 AGG`): this one is the citation, of the law written after the other
    // when none is written before the connector. Not a list: no range.
    const connected = match(IN_CONNECTION, input, i);
    if (connected !== null && startsCitation(input, i + connected[0].length)) {
      const other = readFrom(input, i + connected[0].length);
      return {
        steps,
        ...(other?.law !== undefined ? { law: other.law } : {}),
        range,
        ...(rangeEnd !== undefined ? { rangeEnd } : {}),
      };
    }
    // Another citation follows (`§ 823 Abs. 1, § 825 BGB`): this one is read, with the law written after the last.
    const next = match(NEXT_CITATION, input, i);
    if (next !== null && startsCitation(input, i + next[0].length)) {
      const after = readFrom(input, i + next[0].length);
      if (after !== undefined)
        return {
          steps,
          ...(after.law !== undefined ? { law: after.law } : {}),
          range: true,
          ...(rangeEnd !== undefined ? { rangeEnd } : {}),
        };
    }
    const law = lawAfter(
      input,
      i,
      steps.some((step) => step.kind === "annex"),
    );
    return {
      steps,
      ...(law !== undefined ? { law } : {}),
      range,
      ...(rangeEnd !== undefined ? { rangeEnd } : {}),
    };
  };

  const ADDRESSED: Record<string, string> = {
    abs: "abs",
    nr: "nr",
    bst: "bst",
    dbst: "dbst",
    subsec: "subsec",
    para: "para",
    subpara: "subpara",
  };
  // A section's word names a `§` in a German law (`Section 823` of an English translation, `Paragraph 1`): the law's
  // records tell which (provisionHeading: a law of `§`s has no section of a bare number; its items do).
  const provisionKeys = (kind: string, label: string): string[] =>
    kind === "§"
      ? [`§-${label}`]
      : kind === "art"
        ? [`art-${label}`]
        : kind === "annex"
          ? [label]
          : [label, `sec-${label}`, `§-${label}`];

  return {
    keys(citation: Citation): CitationKeys {
      const provisions: string[][] = [];
      const units: (string | null)[] = [];
      let last: CitationStep | undefined;
      let annex = false;
      for (const step of citation.steps) {
        if (step.kind === "annex") {
          // A compound annex's key as its heading may write each part word (`Kap. X` of `Kapitel X`).
          let spellings = [""];
          for (const [k, piece] of step.label.split("-").entries()) {
            const other = k > 1 ? tables.annexPartSpellings[piece] : undefined;
            spellings = spellings.flatMap((before) =>
              (other === undefined ? [piece] : [piece, other]).map((word) => (k === 0 ? word : `${before}-${word}`)),
            );
          }
          provisions.unshift(spellings);
          annex = true;
        } else if (step.kind === "§" || step.kind === "art" || step.kind === "section") {
          provisions.push(provisionKeys(step.kind, step.label));
          last = step;
        } else units.push(ADDRESSED[step.kind] === undefined ? null : `${ADDRESSED[step.kind]}-${step.label}`);
      }
      return {
        provisions,
        units,
        ...(citation.rangeEnd !== undefined && last !== undefined && last.kind === "§"
          ? { range: `§§-${last.label}-bis-${citation.rangeEnd}` }
          : {}),
        ...(annex ? { annex: true as const } : {}),
      };
    },
    distance(address: string, provisions: number): number {
      const local = address.slice(address.indexOf("#") + 1).split("/");
      const last = local[local.length - 1] as string;
      const qualified = /~(?!\d+$)/.test(last) ? 1000 : 0;
      let inside = 0;
      for (let k = 0; k < local.length - provisions; k++) if (/^(§|art-)/.test(local[k] as string)) inside++;
      return qualified + inside * 100 + local.length;
    },
    provisionHeading(segments: readonly string[], paragraphs: boolean): boolean {
      const key = segments[segments.length - 1] as string;
      const bare = /^\d/.test(key);
      if (!bare && !key.startsWith("sec-")) return true;
      if (bare && paragraphs) return false;
      return segments.length === 1 || (segments.length === 2 && ANNEX_KEY.test(segments[0] as string));
    },
    covers(range: string, key: string): boolean {
      const r = SECTION_RANGE_KEY.exec(range);
      const k = SECTION_KEY.exec(key);
      if (r === null || k === null || (r[1] === "§§" ? "§" : "art") !== k[1]) return false;
      const n = Number(k[2]);
      const letters = k[3] as string;
      return (
        compareSections(Number(r[2]), r[3] as string, n, letters) <= 0 &&
        compareSections(n, letters, Number(r[4]), r[5] as string) <= 0
      );
    },
    read(input: string): Citation | undefined {
      const first = skip(input, 0);
      const direct = readFrom(input, first);
      if (direct !== undefined) return direct;
      // The law first: `BGB § 823`, `Privacy Act 1988 s 6(1)`; then nothing may follow the citation.
      for (let k = first + 1; k < input.length; k++) {
        if (!/[\s\u00a0]/.test(input.charAt(k - 1)) && input.charAt(k) !== "§") continue;
        if (!startsCitation(input, k)) continue;
        const citation = readFrom(input, k);
        if (citation === undefined) continue;
        if (citation.law !== undefined) return undefined;
        let end = k;
        while (end > first && /[\s\u00a0,]/.test(input.charAt(end - 1))) end--;
        // Nothing before it but white space and commas (`,§ 1`): the citation names no law.
        if (end === first) return citation;
        return { ...citation, law: { text: input.slice(first, end), start: first, end } };
      }
      return undefined;
    },
  };
}
