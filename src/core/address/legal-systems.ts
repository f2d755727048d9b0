/**
 * The designation grammar's tables, one entry per legal system (docs/spec.md, section 7, "Legal
 * systems"). Adding a legal system is mostly an entry here and a fixture under
 * test/fixtures-systems; the scoping rules stay in numbering.ts. Words are written in lower case
 * (the grammar also accepts them capitalised and in capitals); the grammar is the union of every
 * table, so a dataset never has to say which system it follows: each heading is read by the forms
 * it shows.
 */

export interface LegalSystem {
  /** A short id: `de`, `fr`, `ch`, … */
  id: string;
  name: string;
  /**
   * Words that open an article-like provision, each with its key prefix: `Article` → `art`, `Disposición adicional` →
   * `disposición-adicional`.
   */
  provisions: { words: string[]; key: string }[];
  /** Structural unit words: `Titre`, `Chapitre`, `Part`, … */
  units: string[];
  /** Annex words: `Anlage`, `Schedule`, `Annexe`, … */
  annexes: string[];
  /** Ordinal words (lower case) and the number each stands for: `premier` → 1, `primo` → 1. */
  ordinals: Record<string, number>;
  /** Words that stand where a number would and are part of the designation: `unique`, `préliminaire`. */
  names: string[];
  /** Letter prefixes of article numbers, glued to the number: `L`, `R*`, `LO`. */
  prefixes: string[];
}

/**
 * Latin multiplicative suffixes of inserted provisions (2nd to 23rd), shared by every Romance system: `6 bis`, `38-0
 * septdecies`, `1-bis`.
 */
export const LATIN_SUFFIXES = [
  "bis",
  "ter",
  "quater",
  "quinquies",
  "sexies",
  "septies",
  "octies",
  "nonies",
  "novies",
  "decies",
  "undecies",
  "duodecies",
  "terdecies",
  "quaterdecies",
  "quindecies",
  "sexdecies",
  "sexiesdecies",
  "septdecies",
  "septiesdecies",
  "octodecies",
  "novodecies",
  "vicies",
  "unvicies",
  "duovicies",
  "tervicies",
];

const ARTICLE = { words: ["art", "artikel", "article"], key: "art" };

export const LEGAL_SYSTEMS: LegalSystem[] = [
  {
    id: "de",
    name: "German federal law",
    provisions: [ARTICLE],
    units: [
      "buch",
      "teil",
      "kapitel",
      "abschnitt",
      "unterabschnitt",
      "titel",
      "untertitel",
      "abteilung",
      "unterabteilung",
    ],
    annexes: ["anlage", "anhang"],
    // German ordinals come before the unit word and are read by germanOrdinal (designation.ts).
    ordinals: {},
    names: [],
    prefixes: [],
  },
  {
    id: "at",
    name: "Austrian law",
    provisions: [ARTICLE],
    units: ["hauptstück", "unterhauptstück"],
    annexes: ["anlage", "anhang"],
    ordinals: {},
    names: [],
    prefixes: [],
  },
  {
    id: "ch",
    name: "Swiss federal law (German, French and Italian editions)",
    provisions: [{ words: ["art", "articolo"], key: "art" }],
    units: ["kapitel", "abschnitt", "titel", "chapitre", "titre", "section", "capo", "sezione", "titolo"],
    annexes: ["anhang", "annexe", "allegato"],
    ordinals: {},
    names: [],
    prefixes: [],
  },
  {
    id: "fr",
    name: "French codes and laws",
    provisions: [ARTICLE],
    units: [
      "partie",
      "livre",
      "titre",
      "sous-titre",
      "chapitre",
      "section",
      "sous-section",
      "paragraphe",
      "sous-paragraphe",
    ],
    annexes: ["annexe"],
    ordinals: {
      premier: 1,
      première: 1,
      deuxième: 2,
      second: 2,
      seconde: 2,
      troisième: 3,
      quatrième: 4,
      cinquième: 5,
      sixième: 6,
      septième: 7,
      huitième: 8,
      neuvième: 9,
      dixième: 10,
    },
    names: ["unique", "préliminaire", "liminaire", "législative", "réglementaire"],
    prefixes: ["LO", "L", "R*", "R", "D*", "D", "A"],
  },
  {
    id: "au",
    name: "Australian Commonwealth Acts",
    provisions: [],
    units: ["chapter", "part", "division", "subdivision"],
    annexes: ["schedule", "endnote", "appendix", "attachment"],
    ordinals: {},
    names: [],
    prefixes: [],
  },
  {
    id: "uk",
    name: "UK Acts",
    provisions: [],
    units: ["book", "volume", "part", "chapter", "paragraph"],
    annexes: ["schedule", "annex", "appendix"],
    ordinals: {
      first: 1,
      second: 2,
      third: 3,
      fourth: 4,
      fifth: 5,
      sixth: 6,
      seventh: 7,
      eighth: 8,
      ninth: 9,
      tenth: 10,
    },
    names: [],
    prefixes: [],
  },
  {
    id: "us",
    name: "US Code and Acts",
    provisions: [{ words: ["sec"], key: "sec" }],
    units: ["title", "subtitle", "chapter", "subchapter", "part", "subpart", "division"],
    annexes: ["appendix"],
    ordinals: {},
    names: [],
    prefixes: [],
  },
  {
    id: "es",
    name: "Spanish law",
    provisions: [
      { words: ["artículo"], key: "art" },
      { words: ["disposición adicional"], key: "disposición-adicional" },
      { words: ["disposición transitoria"], key: "disposición-transitoria" },
      { words: ["disposición derogatoria"], key: "disposición-derogatoria" },
      { words: ["disposición final"], key: "disposición-final" },
    ],
    units: ["libro", "título", "capítulo", "sección", "subsección"],
    annexes: ["anexo"],
    ordinals: {
      primero: 1,
      primera: 1,
      segundo: 2,
      segunda: 2,
      tercero: 3,
      tercera: 3,
      cuarto: 4,
      cuarta: 4,
      quinto: 5,
      quinta: 5,
      sexto: 6,
      sexta: 6,
      séptimo: 7,
      séptima: 7,
      octavo: 8,
      octava: 8,
      noveno: 9,
      novena: 9,
      décimo: 10,
      décima: 10,
    },
    names: ["único", "única", "preliminar"],
    prefixes: [],
  },
  {
    id: "it",
    name: "Italian law",
    provisions: [{ words: ["art", "articolo"], key: "art" }],
    units: ["libro", "parte", "titolo", "capo", "sezione"],
    annexes: ["allegato"],
    ordinals: {
      primo: 1,
      secondo: 2,
      terzo: 3,
      quarto: 4,
      quinto: 5,
      sesto: 6,
      settimo: 7,
      ottavo: 8,
      nono: 9,
      decimo: 10,
    },
    names: ["unico", "preliminare"],
    prefixes: [],
  },
];

const union = (pick: (s: LegalSystem) => string[]) => [...new Set(LEGAL_SYSTEMS.flatMap(pick))];

/** Every unit word of every system. */
export const ALL_UNIT_WORDS = union((s) => s.units);
/** Every annex word of every system. */
export const ALL_ANNEX_WORDS = union((s) => s.annexes);
/** Every name word (`unique`, `única`, …). */
export const ALL_NAME_WORDS = union((s) => s.names);
/** Every article-number prefix, longest first. */
export const ALL_PREFIXES = union((s) => s.prefixes).sort((a, b) => b.length - a.length);
/** Every ordinal word that follows its unit or provision word, and its number. */
export const ALL_ORDINALS: Record<string, number> = Object.assign({}, ...LEGAL_SYSTEMS.map((s) => s.ordinals));
/** Provision words → key prefix, longest first (so `disposición adicional` wins over a shorter word). */
export const ALL_PROVISIONS: { word: string; key: string }[] = LEGAL_SYSTEMS.flatMap((s) =>
  s.provisions.flatMap((p) => p.words.map((word) => ({ word, key: p.key }))),
)
  .filter((p, i, all) => all.findIndex((q) => q.word === p.word) === i)
  .sort((a, b) => b.word.length - a.word.length);
