/**
 * `resolve` (README, "resolve"; docs/spec.md, section 19): the citation reader, the matcher on German-, Swiss-,
 * Australian- and French-shaped datasets with and without unit targets, and the command and library end to end.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createCitationReader, READER_TABLES } from "../src/core/resolve/citation-reader.js";
import {
  columnsText,
  readColumnsText,
  type ResolveDataset,
  ResolveIndex,
  type ResolveRecord,
} from "../src/core/resolve/resolve-index.js";
import { sha256Hex } from "../src/core/bytes.js";
import { deriveCitationTargetId } from "../src/core/digest.js";

const reader = createCitationReader(READER_TABLES);
/** A citation read, as `kind:label` steps, the law and the range. */
function read(input: string): { steps: string[]; law?: string; range?: true; rangeEnd?: string } | undefined {
  const citation = reader.read(input);
  if (citation === undefined) return undefined;
  return {
    steps: citation.steps.map((s) => `${s.kind}:${s.label}`),
    ...(citation.law !== undefined ? { law: citation.law.text } : {}),
    ...(citation.range ? { range: true as const } : {}),
    ...(citation.rangeEnd !== undefined ? { rangeEnd: citation.rangeEnd } : {}),
  };
}

describe("the citation reader", () => {
  test.each([
    // German, Austrian, Swiss
    ["§ 823 Abs. 1 S. 2 BGB", { steps: ["§:823", "abs:1", "satz:2"], law: "BGB" }],
    ["§ 823 I 2 BGB", { steps: ["§:823", "abs:1", "satz:2"], law: "BGB" }],
    ["§ 823 IV BGB", { steps: ["§:823", "abs:4"], law: "BGB" }],
    ["§§ 305 bis 310 BGB", { steps: ["§:305"], law: "BGB", range: true, rangeEnd: "310" }],
    ["§ 433 ff. BGB", { steps: ["§:433"], law: "BGB", range: true }],
    ["§ 433 f. BGB", { steps: ["§:433"], law: "BGB", range: true }],
    ["§ 204 Abs. 1 Nr. 1a BGB", { steps: ["§:204", "abs:1", "nr:1a"], law: "BGB" }],
    ["§ 309 Nr. 8 Buchst. b Doppelbuchst. aa BGB", { steps: ["§:309", "nr:8", "bst:b", "dbst:aa"], law: "BGB" }],
    ["Art. 8 Abs. 2 BV", { steps: ["art:8", "abs:2"], law: "BV" }],
    ["Art. 15 Abs. 1bis BV", { steps: ["art:15", "abs:1bis"], law: "BV" }],
    ["Art. 6 Abs. 1 UAbs. 1 lit. a DSGVO", { steps: ["art:6", "abs:1", "uabs:1", "bst:a"], law: "DSGVO" }],
    ["Art. 229 § 1 EGBGB", { steps: ["art:229", "§:1"], law: "EGBGB" }],
    ["§ 1 Abs 1 Z 2 lit a ABGB", { steps: ["§:1", "abs:1", "nr:2", "bst:a"], law: "ABGB" }],
    ["Artikel 3 Absatz 2 Satz 1 GG", { steps: ["art:3", "abs:2", "satz:1"], law: "GG" }],
    ["§ 1 VVG", { steps: ["§:1"], law: "VVG" }],
    ["BGB § 823 Abs. 1", { steps: ["§:823", "abs:1"], law: "BGB" }],
    // Read with another provision (i.V.m.): the first is the citation; its law is written before the connector, or
    // after the other.
    ["§ 2 Abs. 1 Nr. 1 AGG i.V.m. § 3 AGG", { steps: ["§:2", "abs:1", "nr:1"], law: "AGG" }],
    ["§ 823 Abs. 1 BGB iVm § 249 BGB", { steps: ["§:823", "abs:1"], law: "BGB" }],
    ["§ 2 i.V.m. § 3 AGG", { steps: ["§:2"], law: "AGG" }],
    ["§ 2 Abs. 1 in Verbindung mit § 3 Abs. 2 AGG", { steps: ["§:2", "abs:1"], law: "AGG" }],
    ["§433", { steps: ["§:433"] }],
    ["Art 3", { steps: ["art:3"] }],
    ["Art. 3 Abs. 2", { steps: ["art:3", "abs:2"] }],
    // A lower-case letter after a space is part of the number, as in a heading (`§ 2 a` is `§-2a`); not one before a
    // dot (the version `a.F.`), a bracket or a number (`Art. 1 a 5`).
    ["Art. 62 b", { steps: ["art:62b"] }],
    ["§ 2 a BGB", { steps: ["§:2a"], law: "BGB" }],
    ["§ 2 a Abs. 1 BGB", { steps: ["§:2a", "abs:1"], law: "BGB" }],
    ["BGB § 2 a", { steps: ["§:2a"], law: "BGB" }],
    ["§§ 5 a, 5 b BGB", { steps: ["§:5a"], law: "BGB", range: true }],
    ["§§ 5 a bis 5 c BGB", { steps: ["§:5a"], law: "BGB", range: true, rangeEnd: "5c" }],
    ["§ 2 a.F. BGB", { steps: ["§:2"], law: "a.F. BGB" }],
    ["§ 2 BGB a.F.", { steps: ["§:2"], law: "BGB a.F" }],
    ["§ 5 a)", { steps: ["§:5"], law: "a)" }],
    ["Art. 1 a 5", { steps: ["art:1"], law: "a 5" }],
    ["Article 6 bis", { steps: ["art:6-bis"] }],
    ["Art. 3bis", { steps: ["art:3bis"] }],
    ["§ 6 quater", { steps: ["§:6-quater"] }],
    // A bracket no Absatz reads is a unit no address names (a US `§ 101(a)(1)(A)`), never the law's name.
    ["§ 823(1) BGB", { steps: ["§:823", "abs:1"], law: "BGB" }],
    ["§ 101(a)(1)(A)", { steps: ["§:101", "other:a", "other:1", "other:a"] }],
    ["§ 101(a) Title 99", { steps: ["§:101", "other:a"], law: "Title 99" }],
    ["§ 823 (BGB)", { steps: ["§:823"], law: "(BGB)" }],
    [",§1a", { steps: ["§:1a"] }],
    // A plural word names several: `§§ 3-5` is the range `§§ 3 - 5`; a list is read from its first.
    ["§§ 3-5 WoFG", { steps: ["§:3"], law: "WoFG", range: true, rangeEnd: "5" }],
    [
      "ss 6-10 Residential Tenancies Act 2001",
      { steps: ["section:6"], law: "Residential Tenancies Act 2001", range: true, rangeEnd: "10" },
    ],
    ["§§ 5, 5a WoFG", { steps: ["§:5"], law: "WoFG", range: true }],
    ["§§ 5 und 6 BGB", { steps: ["§:5"], law: "BGB", range: true }],
    // A list after a singular word too; the units after a list are its last member's, so the first is cited whole.
    ["Art. 1 und 5 GG", { steps: ["art:1"], law: "GG", range: true }],
    ["Art. 1, 5 GG", { steps: ["art:1"], law: "GG", range: true }],
    ["Artt. 1 und 5 GG", { steps: ["art:1"], law: "GG", range: true }],
    ["§ 1 u. 2 BGB", { steps: ["§:1"], law: "BGB", range: true }],
    ["Art. 1 und 5 Abs. 2 GG", { steps: ["art:1"], law: "GG", range: true }],
    ["§§ 1 und 2 Abs. 3 BGB", { steps: ["§:1"], law: "BGB", range: true }],
    ["article 16-1-1, 2° du Code civil", { steps: ["art:16-1-1", "other:2°"], law: "Code civil" }],
    ["Art. 1-5 WFG", { steps: ["art:1-5"], law: "WFG" }],
    ["§ 3 Abs. 2 Nr. 1 und 2 WoFG", { steps: ["§:3", "abs:2", "nr:1"], law: "WoFG", range: true }],
    ["Art. 5 Abs. 1 lit. a, b DSGVO", { steps: ["art:5", "abs:1", "bst:a"], law: "DSGVO", range: true }],
    // A range of units is read from its first too; so is a list of citations, with the law written after the last.
    ["§ 823 Abs. 1 bis 3 BGB", { steps: ["§:823", "abs:1"], law: "BGB", range: true }],
    ["§ 309 Nr. 1–9 BGB", { steps: ["§:309", "nr:1"], law: "BGB", range: true }],
    ["§ 309 Nr. 9 Buchst. a bis c BGB", { steps: ["§:309", "nr:9", "bst:a"], law: "BGB", range: true }],
    ["§ 823 Abs. 1, § 825 BGB", { steps: ["§:823", "abs:1"], law: "BGB", range: true }],
    ["§ 823 Abs. 1 und § 826 BGB", { steps: ["§:823", "abs:1"], law: "BGB", range: true }],
    [
      "s 6(1)(a)-(c) Privacy Act 1988",
      { steps: ["section:6", "subsec:1", "para:a"], law: "Privacy Act 1988", range: true },
    ],
    ["s 6(1)(a) and (b)", { steps: ["section:6", "subsec:1", "para:a"], range: true }],
    // A bracket after a list of brackets belongs to another member: the units end at the list.
    ["s 6(1) or (2)(a) Privacy Act 1988", { steps: ["section:6", "subsec:1"], law: "Privacy Act 1988", range: true }],
    // A Swiss letter with a Latin suffix.
    ["Art. 41 Abs. 1 Bst. bbis BV", { steps: ["art:41", "abs:1", "bst:bbis"], law: "BV" }],
    ["Art. 3 (GG)", { steps: ["art:3"], law: "(GG)" }],
    // Australian
    ["s 6(1)(a)", { steps: ["section:6", "subsec:1", "para:a"] }],
    ["section 6(1)(a)", { steps: ["section:6", "subsec:1", "para:a"] }],
    ["subsection 6(1)", { steps: ["section:6", "subsec:1"] }],
    [
      "s 6(1)(a)(ii) Privacy Act 1988",
      { steps: ["section:6", "subsec:1", "para:a", "subpara:ii"], law: "Privacy Act 1988" },
    ],
    ["s 6(a)", { steps: ["section:6", "para:a"] }],
    ["s 13(1A)(ha)", { steps: ["section:13", "subsec:1a", "para:ha"] }],
    ["s 6AA", { steps: ["section:6aa"] }],
    ["section 13 of the Privacy Act 1988", { steps: ["section:13"], law: "Privacy Act 1988" }],
    // Annexes (an annex word of any legal system, any case, or its abbreviation): the annex's key as its label; a
    // provision in it, written after it or before it; the remark of its heading (`zu § 4`) passed over.
    ["Anlage 1 MusterG", { steps: ["annex:anlage-1"], law: "MusterG" }],
    ["Anl. 1 MusterG", { steps: ["annex:anlage-1"], law: "MusterG" }],
    ["Anlage 1 zum MusterG", { steps: ["annex:anlage-1"], law: "MusterG" }],
    ["Anlage 1 zu § 4 MusterG", { steps: ["annex:anlage-1"], law: "MusterG" }],
    ["Anlage D2a (zu § 3 Abs. 2) BVO", { steps: ["annex:anlage-d2a"], law: "BVO" }],
    // A compound annex: its key has every part, as its heading's (docs/spec.md, section 7); a Nummer after an annex is
    // its Nummer, a word that is no part (`Teil des`) no part.
    ["Anhang II Teil A", { steps: ["annex:anhang-ii-teil-a"] }],
    [
      "Anlage I Kap. X Sachgebiet D Abschnitt II EinigVtr",
      { steps: ["annex:anlage-i-kap-x-sachgebiet-d-abschnitt-ii"], law: "EinigVtr" },
    ],
    [
      "Anlage I Kap X D II Abschnitt II Nr. 3 EinigVtr",
      { steps: ["annex:anlage-i-kap-x-d-ii-abschnitt-ii", "nr:3"], law: "EinigVtr" },
    ],
    ["Anlage I Kap X EinigVtr", { steps: ["annex:anlage-i-kap-x"], law: "EinigVtr" }],
    ["Anlage 1 Nr. 3 BeamtVG", { steps: ["annex:anlage-1", "nr:3"], law: "BeamtVG" }],
    ["Anlage 1 Teil des BGB", { steps: ["annex:anlage-1"], law: "Teil des BGB" }],
    ["§ 1 Anlage 1 MVfG", { steps: ["§:1", "annex:anlage-1"], law: "MVfG" }],
    ["§ 1 der Anlage 1 MVfG", { steps: ["§:1", "annex:anlage-1"], law: "MVfG" }],
    ["Anlage 1 § 1 Abs. 2 MVfG", { steps: ["annex:anlage-1", "§:1", "abs:2"], law: "MVfG" }],
    ["Schedule 1 DPA", { steps: ["annex:schedule-1"], law: "DPA" }],
    ["Schedule 1, clause 7 DPA", { steps: ["annex:schedule-1", "section:7"], law: "DPA" }],
    ["clause 7 of Schedule 1 DPA", { steps: ["section:7", "annex:schedule-1"], law: "DPA" }],
    ["Sch 1 cl 7", { steps: ["annex:schedule-1", "section:7"] }],
    ["Sch 1 para 7", { steps: ["annex:schedule-1", "section:7"] }],
    // `to the` joins the law after an annex, as Australian Acts name their schedules.
    [
      "clause 2 of Schedule 1 to the Corporations Act 2001",
      { steps: ["section:2", "annex:schedule-1"], law: "Corporations Act 2001" },
    ],
    ["Schedule 1 to Corporations Act 2001", { steps: ["annex:schedule-1"], law: "Corporations Act 2001" }],
    // A German word for a § (`Paragraph`, `Paragraf`); the words written out in any case.
    ["Paragraph 1 MusterG", { steps: ["section:1"], law: "MusterG" }],
    ["Paragraf 1 Absatz 2 MusterG", { steps: ["§:1", "abs:2"], law: "MusterG" }],
    ["SECTION 2 DPA", { steps: ["section:2"], law: "DPA" }],
    ["ARTIKEL 5 GG", { steps: ["art:5"], law: "GG" }],
    // French codes
    ["art. L. 121-1 al. 2", { steps: ["art:l121-1", "al:2"] }],
    [
      "article L. 111-4-1, I, 2° du Code de la consommation",
      { steps: ["art:l111-4-1", "other:i", "other:2°"], law: "Code de la consommation" },
    ],
    ["Article R*123-4", { steps: ["art:r*123-4"] }],
    ["Article 16-1-1 du Code civil", { steps: ["art:16-1-1"], law: "Code civil" }],
  ])("%s", (input, expected) => {
    expect(read(input)).toEqual(expected);
  });

  test.each(["", "BGB", "Kapitel 1", "foo bar", "Abs. 1", "§", "Art. "])("%j is no citation", (input) => {
    expect(reader.read(input)).toBeUndefined();
  });

  test("each step says where it is in the input, in UTF-16 offsets", () => {
    const input = "§ 823 Abs. 1 S. 2 BGB";
    const citation = reader.read(input)!;
    expect(citation.steps.map((s) => input.slice(s.start, s.end))).toEqual(["§ 823", "Abs. 1", "S. 2"]);
    expect(input.slice(citation.law!.start, citation.law!.end)).toBe("BGB");
  });

  test("any text: no throw, every offset inside the input and in order, labels in lower case", () => {
    const pieces = fc.constantFrom(
      "§",
      "§§",
      "Art.",
      "s ",
      "section ",
      " ",
      "Abs.",
      "I",
      "2",
      "1a",
      "(1)",
      "(a)",
      "bis",
      "ff.",
      "BGB",
      "lit.",
      ",",
      "L.",
      "°",
      "-",
      "\u00a0",
      "x",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 12 }), (parts) => {
        const input = parts.join("");
        const citation = reader.read(input);
        if (citation === undefined) return;
        expect(citation.steps.length).toBeGreaterThan(0);
        let at = 0;
        for (const step of citation.steps) {
          expect(step.start).toBeGreaterThanOrEqual(at);
          expect(step.end).toBeGreaterThan(step.start);
          expect(step.end).toBeLessThanOrEqual(input.length);
          expect(step.label).toBe(step.label.toLowerCase());
          at = step.end;
        }
        if (citation.law !== undefined) {
          expect(input.slice(citation.law.start, citation.law.end)).toBe(citation.law.text);
          expect(citation.law.text.trim()).not.toBe("");
        }
        expect(index.resolve(input).input).toBe(input);
      }),
      { numRuns: 2000 },
    );
  });

  test("a range printed as one heading takes in the provisions of its kind from its first to its last (the page asks alike)", () => {
    const made = new Function(`return (${createCitationReader.toString()})`)() as typeof createCitationReader;
    const copy = made(JSON.parse(JSON.stringify(READER_TABLES)));
    for (const ranges of [reader, copy]) {
      expect(["§-3", "§-3a", "§-5", "§-13"].filter((key) => ranges.covers("§§-3-bis-13", key))).toHaveLength(4);
      expect(["§-2", "§-13a", "§-14", "art-5", "5"].some((key) => ranges.covers("§§-3-bis-13", key))).toBe(false);
      expect(ranges.covers("§§-4a-bis-6", "§-4")).toBe(false);
      expect(ranges.covers("§§-4a-bis-6", "§-4b")).toBe(true);
      expect(ranges.covers("art-2-bis-26", "art-26")).toBe(true);
      expect(ranges.covers("art-2-bis-26", "§-5")).toBe(false);
      expect(ranges.covers("art-6-bis", "art-6")).toBe(false);
    }
  });

  test("its source text is a reader by itself (the view page's script carries it)", () => {
    const made = new Function(`return (${createCitationReader.toString()})`)() as typeof createCitationReader;
    const copy = made(JSON.parse(JSON.stringify(READER_TABLES)));
    for (const input of ["§ 823 I 2 BGB", "Art. 6 Abs. 1 UAbs. 1 lit. a DSGVO", "s 6(1)(a)", "Article 6 bis"])
      expect(copy.read(input)).toEqual(reader.read(input));
  });
});

/** A record of a synthetic dataset: its id made from the address, its heading given. */
function rec(address: string, heading = ""): ResolveRecord {
  return { citationAddress: address, citationTargetId: sha256Hex(address), headingText: heading };
}
function dataset(fields: Omit<ResolveDataset, "records">, addresses: (string | [string, string])[]): ResolveDataset {
  return {
    ...fields,
    records: addresses.map((a) => (typeof a === "string" ? rec(a) : rec(a[0], a[1]))),
  };
}

/** A German code with unit targets (the addresses of docs/spec.md, section 7, unit addresses). */
const BGB_UNITS = dataset(
  { slug: "bgb", titleId: "BJNR001950896", name: "Bürgerliches Gesetzbuch", aliases: ["BGB"] },
  [
    "bgb/index.md#buch-1",
    ["bgb/index.md#§-1", "§ 1 Beginn der Rechtsfähigkeit"],
    "bgb/index.md#§-204",
    "bgb/index.md#§-204/abs-1",
    "bgb/index.md#§-204/abs-1/nr-1",
    "bgb/index.md#§-204/abs-1/nr-1a",
    "bgb/index.md#§-305",
    "bgb/index.md#§-305/abs-1",
    "bgb/index.md#§-309",
    "bgb/index.md#§-309/nr-8",
    "bgb/index.md#§-309/nr-8/bst-b",
    "bgb/index.md#§-309/nr-8/bst-b/dbst-aa",
    "bgb/index.md#§-309/nr-9/bst-a",
    "bgb/index.md#§-310",
    "bgb/index.md#§-433",
    "bgb/index.md#§-823",
    "bgb/index.md#§-823/abs-1",
    "bgb/index.md#§-823/abs-2",
  ],
);
/** The same code without units, another version. */
const BGB_PLAIN = dataset(
  { slug: "bgb-2002", titleId: "BJNR001950896", name: "Bürgerliches Gesetzbuch", aliases: ["BGB"] },
  ["bgb-2002/index.md#§-1", "bgb-2002/index.md#§-204", "bgb-2002/index.md#§-309", "bgb-2002/index.md#§-823"],
);
const EGBGB = dataset(
  { slug: "egbgb", titleId: "BJNR006049896", name: "Einführungsgesetz zum BGB", aliases: ["EGBGB"] },
  [
    "egbgb/index.md#§-1",
    "egbgb/index.md#art-229",
    "egbgb/index.md#art-229/§-1",
    "egbgb/index.md#art-229/§-2",
    "egbgb/index.md#art-230",
    "egbgb/index.md#art-230/§-1",
    "egbgb/index.md#art-231/§-9",
    "egbgb/index.md#art-232/§-9",
  ],
);
/** A German ordinance with a repeated designation and a range of repealed sections. */
const ORDINANCE = dataset({ slug: "mvo", titleId: "BJNR1", name: "Musterverordnung", aliases: ["MVO"] }, [
  ["mvo/index.md#§-2", "§ 2 Zweck"],
  ["mvo/index.md#§§-3-bis-13", "§§ 3 bis 13 (weggefallen)"],
  ["mvo/index.md#§-37", "§ 37 Inkrafttreten"],
  ["mvo/index.md#§-37~2", "§ 37 Außerkrafttreten"],
  ["mvo/index.md#art-2-bis-26", "Art. 2 bis 26 (weggefallen)"],
  ["mvo/index.md#art-27", "Art. 27 Schlussbestimmung"],
]);
/** Swiss acts with units (Absätze, letters). */
const BV = dataset({ slug: "bv", titleId: "101", name: "Bundesverfassung", aliases: ["BV"] }, [
  "bv/index.md#titel-1",
  "bv/index.md#art-8",
  "bv/index.md#art-8/abs-1",
  "bv/index.md#art-8/abs-2",
  "bv/index.md#art-15",
  "bv/index.md#art-15/abs-1bis",
  "bv/index.md#art-62b",
  "bv/index.md#art-41",
  "bv/index.md#art-41/abs-1",
  "bv/index.md#art-41/abs-1/bst-bbis",
]);
const DSGVO = dataset(
  { slug: "dsgvo", titleId: "32016R0679", name: "Datenschutz-Grundverordnung", aliases: ["DSGVO"] },
  [
    "dsgvo/index.md#art-6",
    "dsgvo/index.md#art-6/abs-1",
    "dsgvo/index.md#art-6/abs-1/bst-a",
    // A second list of Buchstaben in Abs. 1 (its Unterabsatz 2): an Unterabsatz is no Satz, and tells nothing apart here.
    "dsgvo/index.md#art-6/abs-1/bst-a~r2",
  ],
);
/** An Australian Act, one file per section, with units. */
const PRIVACY_UNITS = dataset({ slug: "privacy-act-1988", titleId: "C2004A03712", name: "Privacy Act 1988" }, [
  "privacy-act-1988/part-i/",
  "privacy-act-1988/part-i/section-6.md#6",
  "privacy-act-1988/part-i/section-6.md#6/subsec-1",
  "privacy-act-1988/part-i/section-6.md#6/subsec-1/para-a",
  "privacy-act-1988/part-i/section-6.md#6/subsec-1/para-a/subpara-ii",
  "privacy-act-1988/part-i/section-6aa.md#6aa",
  "privacy-act-1988/part-iii/section-13.md#13",
  "privacy-act-1988/part-iii/section-13.md#13/subsec-1a/para-ha",
]);
/** The same Act without units, in one file (a schedule's clause 6 too). */
const PRIVACY_PLAIN = dataset(
  { slug: "privacy-act-1988-c97", titleId: "C2004A03712-97", name: "Privacy Act 1988 (Compilation 97)" },
  [
    "privacy-act-1988-c97/act.md#6",
    "privacy-act-1988-c97/act.md#13",
    "privacy-act-1988-c97/act.md#schedule-1",
    "privacy-act-1988-c97/act.md#schedule-1/6",
  ],
);
/** A French code, at article level. */
const CONSO = dataset({ slug: "code-conso", titleId: "LEGITEXT000006069565", name: "Code de la consommation" }, [
  "code-conso/code.md#livre-i",
  "code-conso/code.md#art-l111-4-1",
  "code-conso/code.md#art-l121-1",
  "code-conso/code.md#art-r*123-4",
]);

/** A law whose § 9 Abs. 1 has two Nummer lists (the second after its Satz 2), and whose § 10 Abs. 1 has one. */
const ABFVERBRG = dataset({ slug: "abfverbrg", titleId: "AbfVerbrG", name: "Abfallverbringungsgesetz" }, [
  "abfverbrg/index.md#§-9",
  "abfverbrg/index.md#§-9/abs-1",
  "abfverbrg/index.md#§-9/abs-1/nr-1",
  "abfverbrg/index.md#§-9/abs-1/nr-2",
  "abfverbrg/index.md#§-9/abs-1/nr-1~r2",
  "abfverbrg/index.md#§-9/abs-1/nr-1a~r2",
  "abfverbrg/index.md#§-9/abs-1/nr-2~r2",
  "abfverbrg/index.md#§-9/abs-1/nr-5~r2",
  "abfverbrg/index.md#§-9/abs-1/nr-5~r3",
  "abfverbrg/index.md#§-10",
  "abfverbrg/index.md#§-10/abs-1",
  "abfverbrg/index.md#§-10/abs-1/nr-1",
]);
const index = new ResolveIndex([BGB_UNITS, EGBGB, ORDINANCE, BV, DSGVO, PRIVACY_UNITS, CONSO, ABFVERBRG]);
const plain = new ResolveIndex([BGB_PLAIN, PRIVACY_PLAIN]);

/** The outcome, precision and address of a citation; the range flag when set. */
function answer(on: ResolveIndex, input: string, lawOptional = false): string {
  const r = on.resolve(input, { lawOptional });
  const range = r.range ? " range" : "";
  if (r.outcome === "match") return `${r.precision}${range} ${r.citationAddress}`;
  if (r.outcome === "ambiguous") return `ambiguous${range} ${r.candidates.map((c) => c.label).join(" ")}`;
  return `no-match${range}: ${r.reason}`;
}

describe("resolve, with unit targets", () => {
  test.each([
    ["§ 823 BGB", "unit bgb/index.md#§-823"],
    ["§ 823 Abs. 1 BGB", "unit bgb/index.md#§-823/abs-1"],
    ["§ 823 Abs. 1 S. 2 BGB", "enclosing bgb/index.md#§-823/abs-1"],
    ["§ 823 I 2 BGB", "enclosing bgb/index.md#§-823/abs-1"],
    ["§ 823 II BGB", "unit bgb/index.md#§-823/abs-2"],
    ["§ 823 Abs. 3 BGB", "enclosing bgb/index.md#§-823"],
    ["§ 204 Abs. 1 Nr. 1a BGB", "unit bgb/index.md#§-204/abs-1/nr-1a"],
    ["§ 309 Nr. 8 Buchst. b Doppelbuchst. aa BGB", "unit bgb/index.md#§-309/nr-8/bst-b/dbst-aa"],
    ["§ 309 Nr. 9 lit. a BGB", "unit bgb/index.md#§-309/nr-9/bst-a"],
    ["§§ 305 bis 310 BGB", "unit range bgb/index.md#§-305"],
    ["§ 823 und 433 BGB", "unit range bgb/index.md#§-823"],
    ["§ 433 ff. BGB", "unit range bgb/index.md#§-433"],
    ["BGB § 823 Abs. 2", "unit bgb/index.md#§-823/abs-2"],
    ["§ 823 Abs. 1 Bürgerliches Gesetzbuch", "unit bgb/index.md#§-823/abs-1"],
    ["§ 823 Abs. 1 bjnr001950896", "unit bgb/index.md#§-823/abs-1"],
    ["§ 823 Abs. 1 bgb.", "unit bgb/index.md#§-823/abs-1"],
    ["Art. 229 § 1 EGBGB", "unit egbgb/index.md#art-229/§-1"],
    ["§ 1 EGBGB", "unit egbgb/index.md#§-1"],
    ["§ 9 EGBGB", "ambiguous egbgb/index.md#art-231/§-9 egbgb/index.md#art-232/§-9"],
    ["§ 37 MVO", "ambiguous mvo/index.md#§-37 mvo/index.md#§-37~2"],
    ["§§ 3 bis 13 MVO", "unit range mvo/index.md#§§-3-bis-13"],
    // A section of a range of repealed sections printed as one heading: that heading holds it.
    ["§ 5 MVO", "enclosing mvo/index.md#§§-3-bis-13"],
    ["§ 3 MVO", "enclosing mvo/index.md#§§-3-bis-13"],
    ["§ 13 MVO", "enclosing mvo/index.md#§§-3-bis-13"],
    ["§ 3a MVO", "enclosing mvo/index.md#§§-3-bis-13"],
    ["§ 5 Abs. 2 MVO", "enclosing mvo/index.md#§§-3-bis-13"],
    ["§ 13a MVO", 'no-match: "MVO" (mvo) has no § 13a'],
    ["§ 14 MVO", 'no-match: "MVO" (mvo) has no § 14'],
    ["Art. 5 MVO", "enclosing mvo/index.md#art-2-bis-26"],
    ["Art. 27 MVO", "unit mvo/index.md#art-27"],
    ["Art. 28 MVO", 'no-match: "MVO" (mvo) has no Art. 28'],
    ["Art. 8 Abs. 2 BV", "unit bv/index.md#art-8/abs-2"],
    ["Art. 41 Abs. 1 Bst. bbis BV", "unit bv/index.md#art-41/abs-1/bst-bbis"],
    ["§ 9 Abs. 1 Nr. 1 AbfVerbrG", "unit abfverbrg/index.md#§-9/abs-1/nr-1"],
    ["§ 9 Abs. 1 S. 2 Nr. 1 AbfVerbrG", "enclosing abfverbrg/index.md#§-9/abs-1"],
    ["§ 10 Abs. 1 S. 2 Nr. 1 AbfVerbrG", "unit abfverbrg/index.md#§-10/abs-1/nr-1"],
    // A unit that stands in one later run only is that one, a Satz cited or not; one in several, neither.
    ["§ 9 Abs. 1 Nr. 1a AbfVerbrG", "unit abfverbrg/index.md#§-9/abs-1/nr-1a~r2"],
    ["§ 9 Abs. 1 S. 2 Nr. 1a AbfVerbrG", "unit abfverbrg/index.md#§-9/abs-1/nr-1a~r2"],
    ["§ 9 Abs. 1 S. 2 Nr. 2 AbfVerbrG", "enclosing abfverbrg/index.md#§-9/abs-1"],
    ["§ 9 Abs. 1 Nr. 5 AbfVerbrG", "enclosing abfverbrg/index.md#§-9/abs-1"],
    ["Art. 15 Abs. 1bis BV", "unit bv/index.md#art-15/abs-1bis"],
    ["Art. 62b BV", "unit bv/index.md#art-62b"],
    ["Art. 6 Abs. 1 UAbs. 1 lit. a DSGVO", "unit dsgvo/index.md#art-6/abs-1/bst-a"],
    ["Art. 6 Abs. 1 UAbs. 2 DSGVO", "enclosing dsgvo/index.md#art-6/abs-1"],
    ["§ 823(a)(1) BGB", "enclosing bgb/index.md#§-823"],
    ["s 6(1)(a) Privacy Act 1988", "unit privacy-act-1988/part-i/section-6.md#6/subsec-1/para-a"],
    [
      "section 6(1)(a)(ii) of the Privacy Act 1988",
      "unit privacy-act-1988/part-i/section-6.md#6/subsec-1/para-a/subpara-ii",
    ],
    ["subsection 6(1) Privacy Act 1988", "unit privacy-act-1988/part-i/section-6.md#6/subsec-1"],
    ["s 6(2) Privacy Act 1988", "enclosing privacy-act-1988/part-i/section-6.md#6"],
    ["s 13(1A)(ha) Privacy Act 1988", "unit privacy-act-1988/part-iii/section-13.md#13/subsec-1a/para-ha"],
    ["s 6AA privacy act 1988", "unit privacy-act-1988/part-i/section-6aa.md#6aa"],
    ["art. L. 121-1 al. 2 du Code de la consommation", "enclosing code-conso/code.md#art-l121-1"],
    ["article L. 111-4-1, I, 2° du Code de la consommation", "enclosing code-conso/code.md#art-l111-4-1"],
    ["Article R*123-4 Code de la consommation", "unit code-conso/code.md#art-r*123-4"],
  ])("%s → %s", (input, expected) => {
    expect(answer(index, input)).toBe(expected);
  });

  test("an enclosing match says why: the unit that is not there, a Satz, a Satz before a list that restarts", () => {
    expect(index.resolve("§ 823 Abs. 3 BGB").reason).toBe(
      "§-823 has no Abs. 3 among its targets: the target that holds it",
    );
    expect(index.resolve("§ 823 Abs. 1 S. 2 BGB").reason).toBe(
      "S. 2 is no target of its own (Sätze are not marked in the text): the target that holds it",
    );
    expect(index.resolve("§ 9 Abs. 1 S. 2 Nr. 1 AbfVerbrG").reason).toBe(
      "S. 2 is not marked in the text, and Nr. 1 stands in more than one list there: the target that holds them",
    );
    expect(index.resolve("§ 823 Abs. 1 BGB")).not.toHaveProperty("reason");
    expect(index.resolve("§ 9 Abs. 1 Nr. 5 AbfVerbrG").reason).toBe(
      "Nr. 5 stands in more than one list there: the target that holds them",
    );
    // A section in a range of repealed sections: the range's heading, named.
    expect(index.resolve("§ 5 Abs. 2 MVO").reason).toBe(
      "§ 5 has no heading of its own: it is in §§ 3 bis 13 (weggefallen), the target that holds it",
    );
    // Another edition of the law where the section has a heading of its own: that one, as before (no ambiguity).
    const editions = new ResolveIndex([
      ORDINANCE,
      dataset({ slug: "mvo-2025", titleId: "BJNR1-2025", name: "Musterverordnung 2025", aliases: ["MVO"] }, [
        ["mvo-2025/index.md#§-5", "§ 5 Neu eingefügt"],
      ]),
    ]);
    expect(answer(editions, "§ 5 MVO")).toBe("unit mvo-2025/index.md#§-5");
    expect(answer(editions, "§ 6 MVO")).toBe("enclosing mvo/index.md#§§-3-bis-13");
    // A law named with its version: `n.F.` (the current one) is the law; `a.F.` (an earlier one) is the dataset named
    // with --dataset, else none can be told (said so, not "no dataset is the law BGB a.F.").
    expect(answer(index, "§ 823 BGB n.F.")).toBe("unit bgb/index.md#§-823");
    expect(answer(index, "§ 823 BGB nF")).toBe("unit bgb/index.md#§-823");
    expect(answer(index, "§ 823 Abs. 1 BGB (n.F.)")).toBe("unit bgb/index.md#§-823/abs-1");
    expect(index.resolve("§ 823 Abs. 1 BGB (a.F.)").reason).toMatch(/^"a\.F\." names an earlier version of BGB/);
    expect(index.resolve("§ 823 BGB a.F.").reason).toBe(
      '"a.F." names an earlier version of BGB (alte Fassung), and its dataset here, bgb, may be another: name the dataset of that version with --dataset',
    );
    expect(index.resolve("§ 823 Abs. 1 BGB a. F.").outcome).toBe("no-match");
    expect(answer(index, "§ 823 BGB a.F.", true)).toBe("unit bgb/index.md#§-823");
    // Written before the law, after the provision (`a` is no letter of its number there).
    expect(answer(index, "§ 823 n.F. BGB")).toBe("unit bgb/index.md#§-823");
    expect(index.resolve("§ 823 a.F. BGB").reason).toMatch(/^"a\.F\." names an earlier version of BGB/);
    expect(answer(index, "§ 823 a.F. BGB", true)).toBe("unit bgb/index.md#§-823");
    expect(answer(index, "§ 823 XYZ a.F.")).toBe(
      'no-match: no dataset is the law "XYZ a.F" (by its titleId, name, slug or an alias)',
    );
    // Lines of the law's JSONL that could not be read: a provision not found may stand on one of them, said so.
    const partial = new ResolveIndex([
      dataset({ slug: "gg", titleId: "GG", name: "Grundgesetz", aliases: ["GG"], unreadable: 2 }, [
        "gg/index.md#art-1",
      ]),
    ]);
    expect(partial.resolve("Art. 2 GG").reason).toBe(
      '"GG" (gg) has no Art. 2; 2 lines of gg\'s JSONL could not be read, and it may stand there (run citation-targets validate)',
    );
    expect(answer(partial, "Art. 1 GG")).toBe("unit gg/index.md#art-1");
    expect(partial.resolve("Art. 2 GG").incomplete).toBe(true);
    expect(partial.resolve("Art. 1 GG")).not.toHaveProperty("incomplete");
    // A unit not found there (in a dataset with units), or a section not found but in a range's heading: not said to
    // be absent, and marked incomplete (its line may be one of those).
    const partialUnits = new ResolveIndex([
      dataset({ slug: "gg", titleId: "GG", name: "Grundgesetz", aliases: ["GG"], units: true, unreadable: 1 }, [
        "gg/index.md#art-5",
        "gg/index.md#art-5/abs-1",
        ["gg/index.md#art-6-bis-9", "Art. 6 bis 9 (weggefallen)"],
      ]),
    ]);
    const cut = partialUnits.resolve("Art. 5 Abs. 2 GG");
    expect([cut.outcome, cut.precision, cut.citationAddress, cut.incomplete]).toEqual([
      "match",
      "enclosing",
      "gg/index.md#art-5",
      true,
    ]);
    expect(cut.reason).toBe(
      "art-5 has no Abs. 2 in the lines read: 1 line of gg's JSONL could not be read, and it may stand there (run citation-targets validate); the target that holds it",
    );
    expect(partialUnits.resolve("Art. 7 GG").reason).toBe(
      "Art. 7 has no heading of its own in the lines read: it is in Art. 6 bis 9 (weggefallen), the target that holds it; 1 line of gg's JSONL could not be read, and it may stand there (run citation-targets validate)",
    );
    expect(partialUnits.resolve("Art. 7 GG").incomplete).toBe(true);
    expect(partialUnits.resolve("Art. 5 Abs. 1 GG")).not.toHaveProperty("incomplete");
    expect(partialUnits.resolve("Art. 5 Abs. 1 S. 2 GG")).not.toHaveProperty("incomplete");
    // In a dataset without units no line holds a unit: the answer stops at the heading, sure, as with every line read.
    const plainCut = partial.resolve("Art. 1 Abs. 2 GG");
    expect([plainCut.outcome, plainCut.precision, plainCut.citationAddress]).toEqual([
      "match",
      "enclosing",
      "gg/index.md#art-1",
    ]);
    expect(plainCut).not.toHaveProperty("incomplete");
    expect(plainCut).not.toHaveProperty("reason");
    // The number under the other word: said (the Grundgesetz has articles, the BGB sections).
    expect(partial.resolve("§ 1 GG").reason).toBe(
      '"GG" (gg) has no § 1; it has Art. 1; 2 lines of gg\'s JSONL could not be read, and it may stand there (run citation-targets validate)',
    );
    expect(index.resolve("Art. 823 BGB").reason).toBe('"BGB" (bgb) has no Art. 823; it has § 823');
    // A law's name mistyped: the one law that near, suggested; none when none is, or two are.
    expect(index.resolve("§ 823 BGBB").reason).toBe(
      'no dataset is the law "BGBB" (by its titleId, name, slug or an alias); did you mean "bgb"?',
    );
    expect(index.resolve("§ 823 Bürgerliches Gesetzbch").reason).toMatch(/did you mean "Bürgerliches Gesetzbuch"\?$/);
    // A shorter name than the law's own: the one law whose name starts with its words, suggested (never matched).
    expect(index.resolve("§ 823 Bürgerliches").reason).toMatch(/did you mean "Bürgerliches Gesetzbuch"\?$/);
    expect(index.resolve("§ 823 Bürgerliches").outcome).toBe("no-match");
    expect(index.resolve("§ 823 XYZ").reason).toBe(
      'no dataset is the law "XYZ" (by its titleId, name, slug or an alias)',
    );
    // A range cited inside such a range: its first section, named as such.
    expect(index.resolve("§§ 5 bis 7 MVO").reason).toBe(
      "§ 5 has no heading of its own: it is in §§ 3 bis 13 (weggefallen), the target that holds it",
    );
    expect(index.resolve("Art. 5 MVO").reason).toBe(
      "Art. 5 has no heading of its own: it is in Art. 2 bis 26 (weggefallen), the target that holds it",
    );
    // A Satz by its number alone (`I 2`: Abs. 1, Satz 2) is said as a Satz.
    expect(index.resolve("§ 823 I 2 BGB").reason).toBe(
      "Satz 2 is no target of its own (Sätze are not marked in the text): the target that holds it",
    );
    // An Unterabsatz is no Satz: the first list's unit, as before.
    expect(answer(index, "Art. 6 Abs. 1 UAbs. 1 lit. a DSGVO")).toBe("unit dsgvo/index.md#art-6/abs-1/bst-a");
    // A dataset without units stops at the heading: its enclosing answers need no reason.
    expect(plain.resolve("§ 823 Abs. 1 S. 2 BGB")).not.toHaveProperty("reason");
    expect(plain.resolve("§ 823 Abs. 3 BGB")).not.toHaveProperty("reason");
  });

  test("in a dataset with units, a section with none of its own still says why the answer encloses the unit named", () => {
    // AGG § 1 is one sentence (no Absatz); § 3 has Absätze. Both in a dataset whose manifest has `units`.
    const addresses = ["agg/index.md#§-1", "agg/index.md#§-3", "agg/index.md#§-3/abs-1", "agg/index.md#§-3/abs-2"];
    const fields = { slug: "agg", titleId: "AGG", name: "Allgemeines Gleichbehandlungsgesetz" };
    const withUnits = new ResolveIndex([dataset({ ...fields, units: true }, addresses)]);
    expect(answer(withUnits, "§ 1 Abs. 2 Nr. 3 AGG")).toBe("enclosing agg/index.md#§-1");
    expect(withUnits.resolve("§ 1 Abs. 2 Nr. 3 AGG").reason).toBe(
      "§-1 has no Abs. 2 among its targets: the target that holds it",
    );
    expect(withUnits.resolve("§ 1 Satz 2 AGG").reason).toBe(
      "Satz 2 is no target of its own (Sätze are not marked in the text): the target that holds it",
    );
    expect(withUnits.resolve("§ 3 Abs. 3 AGG").reason).toBe(
      "§-3 has no Abs. 3 among its targets: the target that holds it",
    );
    // The same records without `units` (a dataset that stops at the heading): § 1's answer needs no reason.
    const without = new ResolveIndex([dataset(fields, addresses)]);
    expect(without.resolve("§ 1 Abs. 2 Nr. 3 AGG")).not.toHaveProperty("reason");
  });

  test("an annex, and a provision in it, by its key: the annex holds a provision with no heading of its own", () => {
    const annexed = new ResolveIndex([
      dataset({ slug: "musterg", titleId: "MusterG", name: "Gesetz über Musterverfahren", units: true }, [
        "musterg/index.md#§-1",
        "musterg/index.md#§-1/abs-1",
        "musterg/index.md#anlage-1",
        "musterg/index.md#anlage-1/§-1",
        "musterg/index.md#anlage-1/§-1/abs-2",
        "musterg/index.md#anlage-2~gebühren",
      ]),
      PRIVACY_PLAIN,
    ]);
    for (const [input, expected] of [
      ["Anlage 1 MusterG", "unit musterg/index.md#anlage-1"],
      ["Anl. 2 MusterG", "unit musterg/index.md#anlage-2~gebühren"],
      ["Anlage 1 zu § 4 MusterG", "unit musterg/index.md#anlage-1"],
      ["§ 1 Anlage 1 MusterG", "unit musterg/index.md#anlage-1/§-1"],
      ["Anlage 1 § 1 Abs. 2 MusterG", "unit musterg/index.md#anlage-1/§-1/abs-2"],
      ["§ 1 MusterG", "unit musterg/index.md#§-1"],
      ["Anlage 1 § 9 MusterG", "enclosing musterg/index.md#anlage-1"],
      ["Anlage 3 MusterG", 'no-match: "MusterG" (musterg) has no Anlage 3'],
      ["Schedule 1, clause 6 privacy-act-1988-c97", "unit privacy-act-1988-c97/act.md#schedule-1/6"],
      ["clause 6 of Schedule 1 privacy-act-1988-c97", "unit privacy-act-1988-c97/act.md#schedule-1/6"],
      ["s 6 privacy-act-1988-c97", "unit privacy-act-1988-c97/act.md#6"],
      ["SCHEDULE 1 privacy-act-1988-c97", "unit privacy-act-1988-c97/act.md#schedule-1"],
    ])
      expect(answer(annexed, input as string), input).toBe(expected);
    expect(annexed.resolve("Anlage 1 § 9 MusterG").reason).toBe(
      "anlage-1 has no § 9 among its targets: the target that holds it",
    );
  });

  test("a compound annex (`Anlage I Kap X Sachgebiet D`) by its key; by its first parts, the heading that holds it", () => {
    const treaty = new ResolveIndex([
      dataset({ slug: "einigvtr", titleId: "EinigVtr", name: "Einigungsvertrag", units: true }, [
        "einigvtr/index.md#art-1",
        ["einigvtr/index.md#anlage-i-kap-x-sachgebiet-d-abschnitt-ii", "Anlage I Kap. X Sachgebiet D Abschnitt II"],
        "einigvtr/index.md#anlage-i-kap-x-sachgebiet-d-abschnitt-ii/nr-2",
        ["einigvtr/index.md#anlage-i-kapitel-x-sachgebiet-e", "Anlage I Kapitel X Sachgebiet E"],
        ["einigvtr/index.md#anlage-ii-kapitel-iii", "Anlage II Kapitel III"],
      ]),
    ]);
    for (const [input, expected] of [
      [
        "Anlage I Kap. X Sachgebiet D Abschnitt II EinigVtr",
        "unit einigvtr/index.md#anlage-i-kap-x-sachgebiet-d-abschnitt-ii",
      ],
      [
        "Anlage I Kap X Sachgebiet D Abschnitt II Nr. 2 EinigVtr",
        "unit einigvtr/index.md#anlage-i-kap-x-sachgebiet-d-abschnitt-ii/nr-2",
      ],
      // `Kap.` and `Kapitel` name the same part, as headings write either.
      ["Anlage I Kap. X Sachgebiet E EinigVtr", "unit einigvtr/index.md#anlage-i-kapitel-x-sachgebiet-e"],
      ["Anlage II Kap III Sachgebiet A EinigVtr", "enclosing einigvtr/index.md#anlage-ii-kapitel-iii"],
      [
        "Anlage I Kap X EinigVtr",
        'no-match: "EinigVtr" (einigvtr) has no Anlage I Kap X; its parts have headings of their own: anlage-i-kap-x-sachgebiet-d-abschnitt-ii, anlage-i-kapitel-x-sachgebiet-e: cite one',
      ],
      ["Anlage III EinigVtr", 'no-match: "EinigVtr" (einigvtr) has no Anlage III'],
    ])
      expect(answer(treaty, input as string), input).toBe(expected);
    expect(treaty.resolve("Anlage II Kap III Sachgebiet A EinigVtr").reason).toBe(
      "Anlage II Kap III Sachgebiet A has no heading of its own: it is in Anlage II Kapitel III, the target that holds it",
    );
  });

  test("a provision of an annex kept as its own artifact is found flat there (section 7's exception)", () => {
    const act = new ResolveIndex([
      dataset({ slug: "ca", titleId: "C2004A00818", name: "Corporations Act 2001", units: true }, [
        "ca/index.md#2",
        "ca/schedule-1/",
        "ca/schedule-1/index.md#_top",
        "ca/schedule-1/index.md#schedule-1",
        "ca/schedule-1/index.md#2",
        "ca/schedule-1/index.md#2/subsec-1",
        "ca/schedule-1/index.md#3.1",
        // A file whose first heading is a section, then a schedule: its sections are the body's, not the schedule's.
        "ca/other.md#4",
        "ca/other.md#schedule-2",
      ]),
    ]);
    for (const [input, expected] of [
      ["Schedule 1, clause 2 Corporations Act 2001", "unit ca/schedule-1/index.md#2"],
      ["clause 2 of Schedule 1 to the Corporations Act 2001", "unit ca/schedule-1/index.md#2"],
      ["Schedule 1, clause 2(1) Corporations Act 2001", "unit ca/schedule-1/index.md#2/subsec-1"],
      ["clause 3.1 of Schedule 1 Corporations Act 2001", "unit ca/schedule-1/index.md#3.1"],
      ["s 2 Corporations Act 2001", "unit ca/index.md#2"],
      ["Schedule 1, clause 4 Corporations Act 2001", "enclosing ca/schedule-1/index.md#schedule-1"],
      ["Schedule 2, clause 4 Corporations Act 2001", "enclosing ca/other.md#schedule-2"],
    ])
      expect(answer(act, input as string), input).toBe(expected);
  });

  test("a § whose letter is written after a space (`§ 2 a`, as its heading may be) is the § its heading is", () => {
    const laws = new ResolveIndex([
      dataset({ slug: "bgb", titleId: "BGB", name: "BGB", units: true }, [
        "bgb/bgb.md#§-2",
        "bgb/bgb.md#§-2a",
        "bgb/bgb.md#§-2a/abs-1",
      ]),
    ]);
    expect(answer(laws, "§ 2 a BGB")).toBe("unit bgb/bgb.md#§-2a");
    expect(answer(laws, "§ 2 a Abs. 1 BGB")).toBe("unit bgb/bgb.md#§-2a/abs-1");
    expect(answer(laws, "§ 2 BGB")).toBe("unit bgb/bgb.md#§-2");
  });

  test("Paragraph, Paragraf and Section name a § in a law of §§; a word for another kind is said", () => {
    const laws = new ResolveIndex([
      dataset({ slug: "musterg", titleId: "MusterG", name: "Gesetz über Musterverfahren" }, [
        "musterg/index.md#§-1",
        "musterg/index.md#§-2",
      ]),
      dataset({ slug: "dpa", titleId: "DPA", name: "Data Protection Act 2024" }, ["dpa/index.md#2"]),
      dataset({ slug: "gg", titleId: "GG", name: "Grundgesetz" }, ["gg/index.md#art-5"]),
    ]);
    expect(answer(laws, "Paragraph 1 MusterG")).toBe("unit musterg/index.md#§-1");
    expect(answer(laws, "Paragraf 2 MusterG")).toBe("unit musterg/index.md#§-2");
    expect(answer(laws, "Section 2 MusterG")).toBe("unit musterg/index.md#§-2");
    expect(answer(laws, "SECTION 2 DPA")).toBe("unit dpa/index.md#2");
    expect(answer(laws, "paragraph 2 DPA")).toBe("unit dpa/index.md#2");
    expect(laws.resolve("§ 2 DPA").reason).toBe('"DPA" (dpa) has no § 2; it has section 2');
    expect(laws.resolve("Section 5 GG").reason).toBe('"GG" (gg) has no Section 5; it has Art. 5');
  });

  test("a section's word names no numbered item: of a § (`§-3/2`), nor, in a law of sections, of a section", () => {
    const laws = new ResolveIndex([
      // § 3 with numbered item headings `1.`, `2.`: their keys are bare numbers below it.
      dataset({ slug: "bg", titleId: "BG", name: "Bundesgesetz" }, [
        "bg/index.md#§-1",
        "bg/index.md#§-3",
        "bg/index.md#§-3/1",
        "bg/index.md#§-3/2",
      ]),
      dataset({ slug: "dpa", titleId: "DPA", name: "Data Protection Act 2024" }, [
        "dpa/index.md#2",
        "dpa/index.md#6",
        "dpa/index.md#6/1",
        "dpa/index.md#schedule-1",
        "dpa/index.md#schedule-1/4",
      ]),
    ]);
    expect(answer(laws, "Paragraph 2 BG")).toBe('no-match: "BG" (bg) has no Paragraph 2');
    expect(answer(laws, "Section 2 BG")).toBe('no-match: "BG" (bg) has no Section 2');
    expect(answer(laws, "§ 2 BG")).toBe('no-match: "BG" (bg) has no § 2');
    expect(answer(laws, "Paragraph 1 BG")).toBe("unit bg/index.md#§-1");
    expect(answer(laws, "§ 3 BG")).toBe("unit bg/index.md#§-3");
    expect(answer(laws, "s 1 DPA")).toBe('no-match: "DPA" (dpa) has no s 1');
    expect(answer(laws, "Art. 1 DPA")).toBe('no-match: "DPA" (dpa) has no Art. 1');
    // A clause of a schedule is a section in it: still found.
    expect(answer(laws, "Schedule 1, clause 4 DPA")).toBe("unit dpa/index.md#schedule-1/4");
    expect(answer(laws, "Art. 2 DPA")).toBe('no-match: "DPA" (dpa) has no Art. 2; it has section 2');
  });

  test("a subsection printed as a paragraph (an Absatz's form) is found by s 6(2)", () => {
    const paragraphs = new ResolveIndex([
      dataset({ slug: "pa", titleId: "C2004A03712", name: "Privacy Act 1988" }, [
        "pa/s6.md#6",
        "pa/s6.md#6/abs-1",
        "pa/s6.md#6/abs-2",
      ]),
    ]);
    expect(answer(paragraphs, "s 6(2) Privacy Act 1988")).toBe("unit pa/s6.md#6/abs-2");
    expect(answer(paragraphs, "s 6(3) Privacy Act 1988")).toBe("enclosing pa/s6.md#6");
  });

  test("a match's id is its record's", () => {
    const r = index.resolve("§ 823 Abs. 1 BGB");
    expect(r).toEqual({
      input: "§ 823 Abs. 1 BGB",
      outcome: "match",
      precision: "unit",
      citationAddress: "bgb/index.md#§-823/abs-1",
      citationTargetId: sha256Hex("bgb/index.md#§-823/abs-1"),
      candidates: [],
    });
  });
});

describe("resolve, without unit targets", () => {
  test.each([
    ["§ 823 BGB", "unit bgb-2002/index.md#§-823"],
    ["§ 823 Abs. 1 S. 2 BGB", "enclosing bgb-2002/index.md#§-823"],
    ["§ 823 I 2 BGB", "enclosing bgb-2002/index.md#§-823"],
    ["§ 204 Abs. 1 Nr. 1a BGB", "enclosing bgb-2002/index.md#§-204"],
    ["§ 309 Nr. 8 Buchst. b Doppelbuchst. aa BGB", "enclosing bgb-2002/index.md#§-309"],
    ["s 6(1)(a) Privacy Act 1988 (Compilation 97)", "enclosing privacy-act-1988-c97/act.md#6"],
    ["section 13 of the Privacy Act 1988 (Compilation 97)", "unit privacy-act-1988-c97/act.md#13"],
  ])("%s → %s", (input, expected) => {
    expect(answer(plain, input)).toBe(expected);
  });
});

describe("what does not match", () => {
  test("a law in two datasets (versions) is ambiguous, with its candidates and what matched", () => {
    const both = new ResolveIndex([BGB_UNITS, BGB_PLAIN]);
    const input = "§ 823 Abs. 1 BGB";
    const r = both.resolve(input);
    expect(r.outcome).toBe("ambiguous");
    expect(r.precision).toBeNull();
    expect(r.citationAddress).toBeNull();
    expect(r.citationTargetId).toBeNull();
    expect(r.reason).toBe("2 targets in 2 datasets (editions or versions of the law?): name one with --dataset");
    expect(r.candidates).toEqual([
      {
        id: sha256Hex("bgb/index.md#§-823/abs-1"),
        label: "bgb/index.md#§-823/abs-1",
        secondaryLabel: "",
        matchedRanges: [
          [0, 5],
          [6, 12],
          [13, 16],
        ],
      },
      {
        id: sha256Hex("bgb-2002/index.md#§-823"),
        label: "bgb-2002/index.md#§-823",
        secondaryLabel: "",
        matchedRanges: [
          [0, 5],
          [13, 16],
        ],
      },
    ]);
  });

  test("at most three candidates, with their headings", () => {
    const many = new ResolveIndex(
      [1, 2, 3, 4].map((n) =>
        dataset({ slug: `v${n}`, titleId: "T", name: "Gesetz", aliases: [] }, [[`v${n}/a.md#§-1`, `§ ${n}`]]),
      ),
    );
    const r = many.resolve("§ 1 Gesetz");
    expect(r.outcome).toBe("ambiguous");
    expect(r.candidates.map((c) => c.secondaryLabel)).toEqual(["§ 1", "§ 2", "§ 3"]);
    expect(r.reason).toContain("4 targets in 4 datasets");
  });

  test.each([
    ["§ 1", "names no law, and no dataset was named (--dataset)"],
    ["§ 1 StGB", 'no dataset is the law "StGB" (by its titleId, name, slug or an alias)'],
    ["§ 999 BGB", '"BGB" (bgb) has no § 999'],
    ["Art. 99 Abs. 2 BV", '"BV" (bv) has no Art. 99'],
    // A word not understood is named, not taken for a provision the law lacks.
    [
      "Kapitel 1 BGB",
      'not read as a citation: "Kapitel" is no word it reads as a provision or an annex (§ 823, Art. 6, s 6, section 13, article L. 121-1, Anlage 1, Schedule 1)',
    ],
    [
      "BGB",
      "not read as a citation: no provision with its number (§ 823, Art. 6, s 6, section 13, article L. 121-1, Anlage 1, Schedule 1)",
    ],
  ])("%s: %s", (input, reason) => {
    const r = index.resolve(input);
    expect(r).toEqual({
      input,
      outcome: "no-match",
      precision: null,
      citationAddress: null,
      citationTargetId: null,
      candidates: [],
      reason,
    });
  });

  test("a citation naming no law is looked for in every dataset when the datasets were named", () => {
    const one = new ResolveIndex([BV]);
    expect(answer(one, "Art. 8 Abs. 2", true)).toBe("unit bv/index.md#art-8/abs-2");
    expect(answer(one, "Art. 99", true)).toBe("no-match: bv has no Art. 99");
    expect(answer(one, "Art. 8 DSGVO", true)).toBe(
      'no-match: no dataset of those named is the law "DSGVO" (by its titleId, name, slug or an alias)',
    );
  });
});

describe("the records text of the index cache", () => {
  test("addresses, headings and ids read back as written (any text without a line break)", () => {
    const address = fc.string({ unit: "grapheme", maxLength: 20 }).map((a) => a.replace(/[\r\n]/g, ""));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(address, fc.string())),
        fc.dictionary(fc.nat().map(String), fc.string()),
        (rows, ids) => {
          const addresses = rows.map(([a]) => a);
          const headings = rows.map(([, h]) => h);
          expect(readColumnsText(columnsText(addresses, headings, ids))).toEqual({ addresses, headings, ids });
        },
      ),
    );
  });

  test("an address is written as what it shares with the one before and the rest", () => {
    const text = columnsText(
      ["bgb/index.md#§-823", "bgb/index.md#§-823/abs-1", "bgb/index.md#§-824"],
      ["", "", ""],
      {},
    );
    expect(JSON.parse(text)[0]).toBe("0 bgb/index.md#§-823\n18 /abs-1\n17 4");
  });

  test("an index of records texts answers as one of records", () => {
    const digest = "a".repeat(64);
    const records = BV.records.map((r) => ({
      ...r,
      citationTargetId: deriveCitationTargetId(digest, r.citationAddress),
    }));
    const columns = {
      slug: BV.slug,
      titleId: BV.titleId,
      name: BV.name,
      aliases: BV.aliases!,
      datasetDigest: digest,
      records: columnsText(
        records.map((r) => r.citationAddress),
        records.map((r) => r.headingText),
        { 1: "not-derived" },
      ),
    };
    const fromColumns = new ResolveIndex([columns]);
    expect(fromColumns.resolve("Art. 8 Abs. 2 BV")).toEqual(
      new ResolveIndex([{ ...BV, records }]).resolve("Art. 8 Abs. 2 BV"),
    );
    expect(fromColumns.resolve("Art. 8 BV").citationTargetId).toBe("not-derived");
  });
});
