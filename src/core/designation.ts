/**
 * Designations of legislative headings and the local coordinates built from them
 * (docs/spec.md, "Local coordinate"). The strategy is "kind-aware" (docs/spec.md, "Local
 * coordinate: scope"): articles and sections are flat, a § inside an article is qualified by
 * it, structural units carry the chain of their enclosing units, undesignated headings are
 * qualified by their nearest designated provision, and a repeat gets a `~N` tie-break last.
 */

import { TOP_LOCAL } from "./address.js";

export type DesignationKind = "paragraph" | "article" | "section" | "unit" | "annex" | "none";

export interface Designation {
  kind: DesignationKind;
  /** The key: `§-2a`, `art-3`, `13`, `part-iiia`, `anlage-1`, or a slug for `none`. */
  key: string;
  /** For units and annexes: the unit word in lower case (`part`, `abschnitt`). */
  word?: string;
}

const UNIT_WORDS = ["buch", "teil", "kapitel", "abschnitt", "unterabschnitt", "titel", "untertitel", "abteilung", "unterabteilung", "book", "volume", "chapter", "part", "division", "subdivision"];
const ANNEX_WORDS = ["anlage", "anhang", "schedule", "appendix", "annex", "attachment", "endnote"];

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
const ORDINAL_ONES: Record<string, number> = { ein: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9 };
const ORDINAL_TENS: Record<string, number> = { zwanzig: 20, dreißig: 30, vierzig: 40, fünfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 };

/** The number a German ordinal word stands for ("Erster" → 1, "Dreiundzwanzigste" → 23), or undefined. */
export function germanOrdinal(word: string): number | undefined {
  const stem = word.toLowerCase().replace(/(?:er|es|en|em|e)$/, "");
  if (stem in ORDINAL_UNITS) return ORDINAL_UNITS[stem];
  const tens = /^(?:(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)und)?(zwanzig|dreißig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig)st$/.exec(stem);
  if (tens) return (tens[1] ? ORDINAL_ONES[tens[1]]! : 0) + ORDINAL_TENS[tens[2]!]!;
  return undefined;
}

/** A word in its usual spellings: "part", "Part", "PART". */
const spellings = (words: string[]) => words.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]).join("|");
const NUMERAL = "(\\d+(?:\\.\\d+)*[A-Za-z]{0,3}|[IVXLCDM]+[A-Z]{0,3}|[A-Z])";
const AFTER = "(?=$|[\\s.:,;()\\u2013\\u2014-])";
const WORD_THEN_NUMBER = new RegExp(`^(${spellings([...UNIT_WORDS, ...ANNEX_WORDS])})\\.?\\s*${NUMERAL}${AFTER}`, "u");
const NUMBER_THEN_WORD = new RegExp(`^(\\d+)\\.\\s*(${spellings(UNIT_WORDS)})${AFTER}`, "u");
const ORDINAL_THEN_WORD = new RegExp(`^(\\p{L}+)\\s+(${spellings(UNIT_WORDS)})${AFTER}`, "u");
const BARE_ANNEX = new RegExp(`^(${spellings(ANNEX_WORDS)})${AFTER}`, "u");
const PARAGRAPH = /^§\s*(\d+(?:\.\d+)*[a-zA-Z]{0,3})(?=$|[\s.:,;()\u2013\u2014-])/u;
const ARTICLE = new RegExp(`^(?:${spellings(["art", "artikel", "article"])})\\.?\\s*(\\d+[a-z]{0,3}|[IVXLCDM]+)${AFTER}`, "u");
const SECTION = /^(\d+[A-Z]{0,4}(?:\.\d+[A-Z]{0,4})*)(?=$|\s)/u;

const MAX_SLUG_LENGTH = 48;

/** Normalises heading text for designations: NFC, whitespace collapsed, trimmed. */
export function normalizeHeading(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim();
}

/** A slug of text: NFC, lower case, runs of anything but letters, digits and marks become "-"; at most 48 characters. */
export function slugify(text: string): string {
  let slug = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length > MAX_SLUG_LENGTH) {
    const cut = slug.slice(0, MAX_SLUG_LENGTH);
    const boundary = cut.lastIndexOf("-");
    slug = boundary > MAX_SLUG_LENGTH / 2 ? cut.slice(0, boundary) : cut;
  }
  return slug === "" ? "heading" : slug;
}

/** Classifies one heading's plain text and returns its designation (or slug). */
export function designate(headingText: string): Designation {
  const text = normalizeHeading(headingText);
  let m = PARAGRAPH.exec(text);
  if (m) return { kind: "paragraph", key: `§-${m[1]!.toLowerCase()}` };
  m = ARTICLE.exec(text);
  if (m) return { kind: "article", key: `art-${m[1]!.toLowerCase()}` };
  m = WORD_THEN_NUMBER.exec(text);
  if (m) return unitOrAnnex(m[1]!, m[2]!);
  m = NUMBER_THEN_WORD.exec(text);
  if (m) return unitOrAnnex(m[2]!, m[1]!);
  m = ORDINAL_THEN_WORD.exec(text);
  if (m) {
    const n = germanOrdinal(m[1]!);
    if (n !== undefined) return unitOrAnnex(m[2]!, String(n));
  }
  m = BARE_ANNEX.exec(text);
  if (m) return { kind: "annex", key: m[1]!.toLowerCase(), word: m[1]!.toLowerCase() };
  m = SECTION.exec(text);
  if (m) return { kind: "section", key: m[1]!.toLowerCase() };
  return { kind: "none", key: slugify(text) };
}

function unitOrAnnex(word: string, numeral: string): Designation {
  const w = word.toLowerCase();
  const key = `${w}-${numeral.toLowerCase()}`;
  return ANNEX_WORDS.includes(w) ? { kind: "annex", key, word: w } : { kind: "unit", key, word: w };
}

export interface HeadingInput {
  text: string;
  depth: number;
}

/**
 * The local coordinate of each target of one artifact, in order. `headings[i]` is the heading that
 * opens target i, or undefined for the text before the first heading.
 */
export function assignLocalCoordinates(headings: (HeadingInput | undefined)[]): string[] {
  const units: { word: string; key: string; depth: number }[] = [];
  let annex: string | undefined;
  let article: string | undefined;
  let provision: { local: string; depth: number } | undefined;
  const usedFlat = new Set<string>();
  // biome-ignore lint/suspicious/useIterableCallbackReturn: every case of the switch returns (TypeScript checks that it is exhaustive)
  const raw = headings.map((heading) => {
    if (heading === undefined) return TOP_LOCAL;
    const d = designate(heading.text);
    switch (d.kind) {
      case "annex":
        units.length = 0;
        units.push({ word: d.word!, key: d.key, depth: heading.depth });
        annex = d.key;
        article = undefined;
        provision = undefined;
        return d.key;
      case "unit": {
        const same = units.findIndex((u) => u.word === d.word);
        if (same !== -1) units.length = same;
        // An annex stays open until the next annex, whatever the heading levels say.
        while (units.length > 0 && units[units.length - 1]!.depth >= heading.depth && units[units.length - 1]!.key !== annex) units.pop();
        const local = [...units.map((u) => u.key), d.key].join("/");
        units.push({ word: d.word!, key: d.key, depth: heading.depth });
        article = undefined;
        provision = undefined;
        return local;
      }
      case "article":
      case "paragraph":
      case "section": {
        let local = d.key;
        if (d.kind === "paragraph" && article !== undefined) local = `${article}/${d.key}`;
        else if (annex !== undefined && usedFlat.has(d.key)) local = `${annex}/${d.key}`;
        usedFlat.add(d.key);
        if (d.kind === "article") article = local;
        provision = { local, depth: heading.depth };
        return local;
      }
      case "none":
        return provision !== undefined && provision.depth < heading.depth ? `${provision.local}/${d.key}` : d.key;
    }
  });
  const seen = new Map<string, number>();
  return raw.map((local) => {
    const count = (seen.get(local) ?? 0) + 1;
    seen.set(local, count);
    return count === 1 ? local : `${local}~${count}`;
  });
}
