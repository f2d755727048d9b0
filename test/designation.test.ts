import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isLocalCoordinate } from "../src/core/address/address.js";
import { designate, isEmptyHeading } from "../src/core/address/designation.js";
import { assignLocalCoordinates } from "../src/core/address/numbering.js";
import { repoRoot } from "./helpers/records.js";

/** The designation grammar and scope rules of docs/spec.md, section 7, beyond test/address.test.ts. */

describe("designations of real-law shapes", () => {
  test.each([
    // compound annexes of treaties: one key
    ["Anlage I Kap X D II Abschnitt II", "annex", "anlage-i-kap-x-d-ii-abschnitt-ii", true],
    ["Anlage II Kap IV III Abschnitt III", "annex", "anlage-ii-kap-iv-iii-abschnitt-iii", true],
    [
      "Anlage I Kapitel VIII Sachgebiet E Abschnitt II Nr. 2 - Maßgaben",
      "annex",
      "anlage-i-kapitel-viii-sachgebiet-e-abschnitt-ii-nr-2",
      false,
    ],
    ["Anlage I Kap. X Sachgebiet D", "annex", "anlage-i-kap-x-sachgebiet-d", true],
    ["Anhang II Teil A", "annex", "anhang-ii-teil-a", true],
    // a compound needs a part word; a title after the numeral is not part of it
    ["Anlage 1 A", "annex", "anlage-1", false],
    ["Anlage 2 DM-Beträge", "annex", "anlage-2", false],
    ["Anlage 3 Teil des Antrags", "annex", "anlage-3", false],
    // letters with digits
    ["Anlage D2a (zu § 3)", "annex", "anlage-d2a", true],
    ["Anlage D4c Muster", "annex", "anlage-d4c", false],
    ["Anlage C3", "annex", "anlage-c3", true],
    ["Anlage 1 (zu § 5 Absatz 2)", "annex", "anlage-1", true],
    ["Anlage (weggefallen)", "annex", "anlage", true],
    // ranges
    ["§§ 3 bis 13 (weggefallen)", "paragraph", "§§-3-bis-13", true],
    ["§§ 15 - 17", "paragraph", "§§-15-bis-17", true],
    ["Art 27 bis 37", "article", "art-27-bis-37", true],
    ["Art 2 bis 26 (weggefallen)", "article", "art-2-bis-26", true],
    ["Artikel 4 bis Artikel 6", "article", "art-4-bis-6", true],
    // the place holder of gesetze-im-internet.de is no part of the designation; without one, it is the heading's slug
    ["(XXXX) §§ 3 bis 13 (weggefallen)", "paragraph", "§§-3-bis-13", true],
    ["(XXXX) §§ 3 bis 6 (weggefallen)", "paragraph", "§§-3-bis-6", true],
    ["(XXXX) § 5 Übergangsvorschrift", "paragraph", "§-5", false],
    ["(XXXX)", "none", "xxxx", undefined],
    ["(XXXX) Vorbemerkung", "none", "xxxx-vorbemerkung", undefined],
    // lists of §§ are runs, keyed from the first to the last number as ranges are: an editorial rewording keeps the key
    ["§§ 114, 115 (weggefallen)", "paragraph", "§§-114-bis-115", true],
    ["§§ 114 und 115 (weggefallen)", "paragraph", "§§-114-bis-115", true],
    ["§§ 114 bis 115", "paragraph", "§§-114-bis-115", true],
    ["§§ 114 – 115", "paragraph", "§§-114-bis-115", true],
    ["§§ 1, 3 und 5a Übergangsregelungen", "paragraph", "§§-1-bis-5a", false],
    ["(XXXX) §§ 114, 115 (weggefallen)", "paragraph", "§§-114-bis-115", true],
    // `bis` is a Latin suffix, and a range only before a second number
    ["Article 6 bis", "article", "art-6-bis", true],
    ["Art. 3bis", "article", "art-3bis", true],
    ["Art. 3bis Verfahren", "article", "art-3bis", false],
    ["Art. 6 bis Verfahren", "article", "art-6-bis", false],
    ["Art. 6 bis 10", "article", "art-6-bis-10", true],
    ["§ 6 bis", "paragraph", "§-6-bis", true],
    // a range with one sign is keyed as the run of §§ lawyers cite
    ["§ 2 bis 4 (weggefallen)", "paragraph", "§§-2-bis-4", true],
    ["§ 5a bis § 5c (weggefallen)", "paragraph", "§§-5a-bis-5c", true],
    ["§ 3 – 5", "paragraph", "§§-3-bis-5", true],
    ["§ 3 - 5 Übergangsregelungen", "paragraph", "§§-3-bis-5", false],
    ["§ 3 - Zweck", "paragraph", "§-3", false],
    ["§ 6 bis Verfahren", "paragraph", "§-6-bis", false],
    ["§§ 6 bis 10", "paragraph", "§§-6-bis-10", true],
    // footnote references and superscripts are never part of a designation
    ["5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>110</sup>", "unit", "abschnitt-5", false],
    ["Art. 1[^3] Gegenstand", "article", "art-1", false],
    ["Art. 12<sup>45</sup>", "article", "art-12", true],
    // pay grades
    ["Besoldungsgruppe A 13", "unit", "besoldungsgruppe-a-13", true],
    ["Bundesbesoldungsordnung B", "unit", "bundesbesoldungsordnung-b", true],
    ["Entgeltgruppe 9b - Fachkräfte", "unit", "entgeltgruppe-9b", false],
    // numbered items
    ["1.", "item", "1", true],
    ["IV.", "item", "iv", true],
    ["VIIIa. Gemeinschaftsaufgaben", "item", "viiia", false],
    ["Xa. Verteidigungsfall", "item", "xa", false],
    ["Ca. 100 Einwohner", "none", "ca-100-einwohner", undefined],
    ["a)", "item", "a", true],
    ["aa)", "item", "aa", true],
    ["a) Selbstfahrende Arbeitsmittel", "item", "a", false],
    ["B. Festlegungsteil", "item", "b", false],
    // designation-only or not
    ["§ 3", "paragraph", "§-3", true],
    ["§ 3 Fälligkeit", "paragraph", "§-3", false],
    ["§ 6 (weggefallen)", "paragraph", "§-6", true],
    ["2. Abschnitt", "unit", "abschnitt-2", true],
  ])("%j → %s %s", (text, kind, key, bare) => {
    expect(designate(text)).toMatchObject(bare === undefined ? { kind, key } : { kind, key, bare });
  });

  test("item ranks follow the German outline: A. > I. > 1. > a) > aa) > aaa)", () => {
    expect(["A.", "I.", "V.", "1.", "2)", "a)", "aa)", "aaa)"].map((t) => designate(t).rank)).toEqual([
      0, 1, 1, 2, 2, 3, 4, 5,
    ]);
  });

  test("empty headings have no letter and no digit", () => {
    expect(["", "**", "* * *", "—"].every(isEmptyHeading)).toBe(true);
    expect(["Heading", "1", "§ 1"].some(isEmptyHeading)).toBe(false);
  });
});

describe("scope rules for the new shapes", () => {
  const h = (text: string, depth = 2) => ({ text, depth });

  test("an annexed agreement: a bare § scopes the title heading that follows it on the same level", () => {
    expect(
      assignLocalCoordinates([
        h("§ 1 A"),
        h("§ 2 B"),
        h("Anlage 1"),
        h("§ 1"),
        h("Geltungsbereich"),
        h("§ 2"),
        h("Ausbildungsvergütung"),
        h("Anlage 3"),
        h("§ 1"),
        h("Geltungsbereich"),
      ]),
    ).toEqual([
      "§-1",
      "§-2",
      "anlage-1",
      "anlage-1/§-1",
      "anlage-1/§-1/geltungsbereich",
      "anlage-1/§-2",
      "anlage-1/§-2/ausbildungsvergütung",
      "anlage-3",
      "anlage-3/§-1",
      "anlage-3/§-1/geltungsbereich",
    ]);
    // in the body too, and only after a bare designation
    expect(assignLocalCoordinates([h("§ 3"), h("Fälligkeit"), h("§ 4 Zinsen"), h("Verzug")])).toEqual([
      "§-3",
      "§-3/fälligkeit",
      "§-4",
      "verzug",
    ]);
  });

  test("undesignated headings of an annex are qualified by the provision, unit or annex they follow", () => {
    expect(
      assignLocalCoordinates([
        h("Anlage IV", 2),
        h("Besoldungsordnung A", 3),
        h("(Monatsbeträge in Euro)", 4),
        h("Besoldungsordnung B", 3),
        h("(Monatsbeträge in Euro)", 4),
        h("Anlage V", 2),
        h("Familienzuschlag", 3),
        h("(Monatsbeträge in Euro)", 4),
      ]),
    ).toEqual([
      "anlage-iv",
      "anlage-iv/besoldungsordnung-a",
      "anlage-iv/besoldungsordnung-a/monatsbeträge-in-euro",
      "anlage-iv/besoldungsordnung-b",
      "anlage-iv/besoldungsordnung-b/monatsbeträge-in-euro",
      "anlage-v",
      "anlage-v/familienzuschlag",
      "anlage-v/monatsbeträge-in-euro",
    ]);
  });

  test("a repeated undesignated heading of the body is qualified by the provision or unit before it, every occurrence (the first too)", () => {
    expect(
      assignLocalCoordinates([
        h("Abschnitt 1", 2),
        h("Vorbemerkung", 3),
        h("§ 2 X", 3),
        h("Fußnote", 2),
        h("Abschnitt 2", 2),
        h("Vorbemerkung", 3),
        h("§ 3 Y", 3),
        h("Fußnote", 2),
        h("Schlussformel", 2),
      ]),
    ).toEqual([
      "abschnitt-1",
      "abschnitt-1/vorbemerkung",
      "§-2",
      "§-2/fußnote",
      "abschnitt-2",
      "abschnitt-2/vorbemerkung",
      "§-3",
      "§-3/fußnote",
      "schlussformel",
    ]);
  });

  test("numbered items are qualified by their designated ancestor and by the items of higher rank", () => {
    expect(
      assignLocalCoordinates([
        h("§ 2", 2),
        h("1.", 3),
        h("2.", 3),
        h("a)", 4),
        h("Anhang 1", 2),
        h("I.", 3),
        h("1.", 3),
        h("a) X", 3),
        h("aa)", 3),
        h("b)", 3),
        h("II.", 3),
        h("1.", 3),
      ]),
    ).toEqual([
      "§-2",
      "§-2/1",
      "§-2/2",
      "§-2/2/a",
      "anhang-1",
      "anhang-1/i",
      "anhang-1/i/1",
      "anhang-1/i/1/a",
      "anhang-1/i/1/a/aa",
      "anhang-1/i/1/b",
      "anhang-1/ii",
      "anhang-1/ii/1",
    ]);
    // a decimal inside a § is an item of it; an Australian subclause stays flat
    expect(assignLocalCoordinates([h("§ 7 Wache"), h("2.3.1 Aufsicht", 3)])).toEqual(["§-7", "§-7/2.3.1"]);
    // inside a schedule (an annex), clauses are the schedule's, whether or not the body used their numbers…
    expect(assignLocalCoordinates([h("2 Definitions"), h("Schedule 1"), h("1 APP 1"), h("1.1"), h("7 APP 7")])).toEqual(
      ["2", "schedule-1", "schedule-1/1", "schedule-1/1.1", "schedule-1/7"],
    );
    // …except in a file that is the schedule (its first heading and its only annex)
    expect(assignLocalCoordinates([h("Schedule 1"), h("1 APP 1"), h("1.1"), h("1.2")])).toEqual([
      "schedule-1",
      "1",
      "1.1",
      "1.2",
    ]);
    expect(assignLocalCoordinates([h("Schedule 1"), h("1 APP 1"), h("Schedule 2"), h("1 X")])).toEqual([
      "schedule-1",
      "schedule-1/1",
      "schedule-2",
      "schedule-2/1",
    ]);
    // a repealed place holder opens no annex: the sections after it stay the law's own
    expect(assignLocalCoordinates([h("§ 2"), h("Anlage 2 (weggefallen)"), h("§ 3"), h("Anlage 3"), h("§ 4")])).toEqual([
      "§-2",
      "anlage-2",
      "§-3",
      "anlage-3",
      "anlage-3/§-4",
    ]);
  });

  test("an empty heading is named after the designated heading it follows", () => {
    expect(
      assignLocalCoordinates([
        h("Heading text"),
        h(""),
        h("Abschnitt 1"),
        h("", 3),
        h("§ 2"),
        h("Text", 3),
        h("**", 3),
        h("1.", 3),
        h("", 4),
      ]),
    ).toEqual([
      "heading-text",
      "heading",
      "abschnitt-1",
      "abschnitt-1/heading",
      "§-2",
      "§-2/text",
      "§-2/heading",
      "§-2/1",
      "§-2/1/heading",
    ]);
  });

  test("ranges are keys of their own", () => {
    expect(
      assignLocalCoordinates([
        h("Art 1"),
        h("§ 1", 3),
        h("§§ 3 bis 13 (weggefallen)", 3),
        h("Art 2 bis 26"),
        h("Art 27"),
        h("§§ 3 bis 13", 3),
      ]),
    ).toEqual(["art-1", "art-1/§-1", "art-1/§§-3-bis-13", "art-2-bis-26", "art-27", "art-27/§§-3-bis-13"]);
  });

  test("a scope that needed a tie-break qualifies its children as its local without the tie-break; identical children then take theirs", () => {
    expect(assignLocalCoordinates([h("Anlage"), h("Muster", 3), h("Anlage"), h("Muster", 3), h("1.", 3)])).toEqual([
      "anlage",
      "anlage/muster",
      "anlage~2",
      "anlage/muster~2",
      "anlage/1",
    ]);
  });
});

describe("locality: a local depends only on its own heading and the headings before it", () => {
  const pool = [
    "§ 1",
    "§ 2 Titel",
    "§ 3",
    "§§ 4 bis 6 (weggefallen)",
    "Art 1",
    "Art 2 bis 5",
    "Abschnitt 1",
    "Abschnitt 2",
    "Erster Teil",
    "Anlage 1",
    "Anlage D2a",
    "Anlage I Kap X D II Abschnitt II",
    "Anlage",
    "Besoldungsgruppe A 5",
    "Vorbemerkung",
    "Fußnote",
    "Geltungsbereich",
    "(Monatsbeträge in Euro)",
    "",
    "**",
    "1.",
    "2.",
    "I.",
    "a)",
    "aa)",
    "1.1",
    "13 Interferences",
    "Schedule 1",
  ];
  const headings = fc.array(
    fc.option(fc.tuple(fc.constantFrom(...pool), fc.integer({ min: 1, max: 6 })), { freq: 12, nil: undefined }),
    { maxLength: 40 },
  );

  test("appending headings never re-points a local: each local of a prefix names the same target after it, or no target", () => {
    fc.assert(
      fc.property(headings, fc.nat(), (list, cut) => {
        const input = list.map((x, i) =>
          x === undefined ? (i === 0 ? undefined : { text: "X", depth: 2 }) : { text: x[0], depth: x[1] },
        );
        const all = assignLocalCoordinates(input);
        const k = input.length === 0 ? 0 : cut % (input.length + 1);
        const prefix = assignLocalCoordinates(input.slice(0, k));
        for (const [i, local] of prefix.entries()) expect([i, -1]).toContain(all.indexOf(local));
        // Where no appended heading shares a designation or text with one of the prefix, the prefix keeps every local.
        const keyOf = (h: { text: string } | undefined) => (h === undefined ? "" : designate(h.text).key);
        const shared = new Set(input.slice(0, k).map(keyOf));
        // (Nor an annex after an artifact that opens with its only annex, which then qualifies what is in it:
        // docs/spec.md, rule 3.)
        const first = input.find((h) => h !== undefined);
        const annexAfterSubject =
          first !== undefined &&
          designate(first.text).kind === "annex" &&
          input.slice(k).some((h) => h !== undefined && designate(h.text).kind === "annex");
        if (!annexAfterSubject && input.slice(k).every((h) => !shared.has(keyOf(h))))
          expect(all.slice(0, k)).toEqual(prefix);
      }),
      { numRuns: 500 },
    );
  });

  test("every local is in the grammar and unique in its artifact", () => {
    fc.assert(
      fc.property(headings, (list) => {
        const input = list.map((x, i) =>
          x === undefined ? (i === 0 ? undefined : { text: "X", depth: 2 }) : { text: x[0], depth: x[1] },
        );
        const all = assignLocalCoordinates(input);
        expect(all.filter((l) => !isLocalCoordinate(l))).toEqual([]);
        expect(new Set(all).size).toBe(all.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the test vectors of docs/spec.md, section 7", () => {
  const spec = readFileSync(join(repoRoot, "docs/spec.md"), "utf8");
  const section = spec.slice(
    spec.indexOf("Test vectors (`assignLocalCoordinates`"),
    spec.indexOf("## 8. Lock manifest"),
  );
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| headings"))
    .map((line) => line.split(" | "));

  test("there are vectors", () => {
    expect(rows.length).toBeGreaterThanOrEqual(12);
  });

  test.each(rows.map((cells) => [cells[0]!.slice(2), cells[1]!] as const))("%s", (headingsCell, localsCell) => {
    const all = /\(all \[(\d)\]\)$/.exec(headingsCell);
    const list = headingsCell.replace(/ \(all \[\d\]\)$/, "").split(", ");
    const headings = list.map((item) => {
      if (item === "(text)") return undefined;
      const depth = /^(.*) \[(\d)\]$/.exec(item);
      const text = depth ? depth[1]! : item;
      return { text: text === "(empty)" ? "" : text, depth: depth ? Number(depth[2]) : all ? Number(all[1]) : 2 };
    });
    const locals = [...localsCell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    expect(assignLocalCoordinates(headings)).toEqual(locals);
  });
});

describe("Australian Acts numbered by chapter (Fair Work Act, ITAA 1997)", () => {
  const act = (parts: string[]) =>
    assignLocalCoordinates(
      parts.map((text) => ({ text, depth: text.startsWith("Chapter") ? 2 : text.startsWith("Part") ? 3 : 4 })),
    );
  test("hyphenated Parts, Divisions and sections are one numeral each", () => {
    expect(designate("Part 1-1—Introduction")).toMatchObject({ kind: "unit", key: "part-1-1" });
    expect(designate("Part 2-1--Core provisions")).toMatchObject({ kind: "unit", key: "part-2-1" });
    expect(designate("Division 6-A—Ordinary income")).toMatchObject({ kind: "unit", key: "division-6-a" });
    expect(designate("6-5 Income according to ordinary concepts (ordinary income)")).toMatchObject({
      kind: "section",
      key: "6-5",
    });
    expect(designate("995-1 Definitions")).toMatchObject({ kind: "section", key: "995-1" });
    // a dash after the number is still a dash
    expect(designate("Part 1--Preliminary")).toMatchObject({ kind: "unit", key: "part-1" });
  });

  test("inserting Part 2-2 and retitling Part 1-1 move no address", () => {
    const before = act([
      "Chapter 1—Introduction",
      "Part 1-1—Introduction",
      "6-5 Income",
      "Part 1-2—Definitions",
      "Chapter 2—Terms",
      "Part 2-1—Core provisions",
      "12-1 Coverage",
    ]);
    expect(before).toEqual([
      "chapter-1",
      "chapter-1/part-1-1",
      "6-5",
      "chapter-1/part-1-2",
      "chapter-2",
      "chapter-2/part-2-1",
      "12-1",
    ]);
    const after = act([
      "Chapter 1—Introduction",
      "Part 1-1—Preliminary",
      "6-5 Income",
      "Part 1-2—Definitions",
      "Chapter 2—Terms",
      "Part 2-1—Core provisions",
      "12-1 Coverage",
      "Part 2-2—The National Employment Standards",
      "61-1 Standards",
    ]);
    expect(after.slice(0, before.length)).toEqual(before);
  });
});
