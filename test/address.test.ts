import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  escapePath,
  formatAddress,
  formatLocal,
  isLocalCoordinate,
  isPositionalSegment,
  parseAddress,
  parseLocal,
  unescapePath,
  type AddressParts,
} from "../src/core/address/address.js";
import { designate, germanOrdinal, slugify } from "../src/core/address/designation.js";
import { assignLocalCoordinates } from "../src/core/address/numbering.js";

describe("designations", () => {
  test.each([
    ["13 Interferences with privacy", "section", "13"],
    ["6A Breach of an Australian Privacy Principle", "section", "6a"],
    ["6AA Meaning of responsible person", "section", "6aa"],
    ["80UA Something", "section", "80ua"],
    ["5 (repealed)", "section", "5"],
    ["1.1", "section", "1.1"],
    ["Part IIIA—Credit reporting", "unit", "part-iiia"],
    ["Part 1—Preliminary", "unit", "part-1"],
    ["PART 2—COLLECTION", "unit", "part-2"],
    ["Division 1—Preliminary", "unit", "division-1"],
    ["Subdivision A—Introduction", "unit", "subdivision-a"],
    ["Chapter 2—Something", "unit", "chapter-2"],
    ["Schedule 2", "annex", "schedule-2"],
    ["Schedule 1—Australian Privacy Principles", "annex", "schedule-1"],
    ["Endnote 1—About the endnotes", "annex", "endnote-1"],
    ["§ 2a Leistungen an Beteiligte", "paragraph", "§-2a"],
    ["§ 4", "paragraph", "§-4"],
    ["§ 7.08 Wache und Aufsicht", "paragraph", "§-7.08"],
    ["§ 1.22a Anordnungen", "paragraph", "§-1.22a"],
    ["§ 6 (weggefallen)", "paragraph", "§-6"],
    ["Art 2 - Aufhebung der Verordnung", "article", "art-2"],
    ["Art. 229 Übergangsvorschriften", "article", "art-229"],
    ["Artikel 3", "article", "art-3"],
    ["Erstes Kapitel - Allgemeine Vorschriften", "unit", "kapitel-1"],
    ["Erster Abschnitt - Anwendungsbereich", "unit", "abschnitt-1"],
    ["Zweiter Teil - Verfahren", "unit", "teil-2"],
    ["Achter Titel - Kauf", "unit", "titel-8"],
    ["Dreiundzwanzigster Abschnitt", "unit", "abschnitt-23"],
    ["Abschnitt 2 - Verfahren", "unit", "abschnitt-2"],
    ["2. Abschnitt", "unit", "abschnitt-2"],
    ["Abschnitt I. - Allgemeines", "unit", "abschnitt-i"],
    ["Unterabschnitt 1 - (weggefallen)", "unit", "unterabschnitt-1"],
    ["Anlage 1 (zu § 5 Absatz 2)", "annex", "anlage-1"],
    ["Anlage (zu § 3)", "annex", "anlage"],
    ["Anlage 3 (weggefallen)", "annex", "anlage-3"],
    ["Eingangsformel", "none", "eingangsformel"],
    ["Schlußformel", "none", "schlußformel"],
    ["Begründung:", "none", "begründung"],
    ["Teil des Verfahrens", "none", "teil-des-verfahrens"],
    ["Part of the problem", "none", "part-of-the-problem"],
    ["(XXXX) §§ 3 bis 13 (weggefallen)", "paragraph", "§§-3-bis-13"],
    ["(XXXX)", "none", "xxxx"],
    ["* * *", "none", "heading"],
  ])("%j → %s %s", (text, kind, key) => {
    expect(designate(text)).toMatchObject({ kind, key });
  });

  test("ordinal words", () => {
    expect([
      germanOrdinal("Erstes"),
      germanOrdinal("Zwölfter"),
      germanOrdinal("Siebente"),
      germanOrdinal("Einundvierzigster"),
      germanOrdinal("Neue"),
    ]).toEqual([1, 12, 7, 41, undefined]);
  });

  test("slugs are NFC, lower case, at most 48 characters and never empty", () => {
    expect(slugify("Gesetz u\u0308ber das Verfahren")).toBe("gesetz-über-das-verfahren");
    expect(slugify(`${"A".repeat(30)} ${"B".repeat(30)}`).length).toBeLessThanOrEqual(48);
    expect(slugify("!!!")).toBe("heading");
  });
});

describe("local coordinates", () => {
  const h = (text: string, depth = 2) => ({ text, depth });

  test("sections and articles are flat; units carry their chain; repeats under another unit stay apart", () => {
    expect(
      assignLocalCoordinates([
        h("Erster Teil", 2),
        h("Abschnitt 1", 3),
        h("§ 1 A", 4),
        h("Abschnitt 2", 3),
        h("§ 2 B", 4),
        h("Zweiter Teil", 2),
        h("Abschnitt 1", 3),
        h("§ 3 C", 4),
      ]),
    ).toEqual([
      "teil-1",
      "teil-1/abschnitt-1",
      "§-1",
      "teil-1/abschnitt-2",
      "§-2",
      "teil-2",
      "teil-2/abschnitt-1",
      "§-3",
    ]);
  });

  test("a § inside an article is qualified by it, even on the same heading level", () => {
    expect(
      assignLocalCoordinates([h("§ 1 X"), h("Art 229 Y"), h("§ 1 Z"), h("§ 2 W"), h("Art 230 V"), h("§ 1 U")]),
    ).toEqual(["§-1", "art-229", "art-229/§-1", "art-229/§-2", "art-230", "art-230/§-1"]);
  });

  test("an annex captures a section only when its number was used before", () => {
    expect(
      assignLocalCoordinates([
        h("§ 1"),
        h("§ 2"),
        h("Anlage 2 (weggefallen)"),
        h("§ 3"),
        h("Anlage 3"),
        h("§ 1 Muster"),
      ]),
    ).toEqual(["§-1", "§-2", "anlage-2", "§-3", "anlage-3", "anlage-3/§-1"]);
  });

  test("undesignated headings are qualified by the enclosing provision, never by a unit", () => {
    expect(
      assignLocalCoordinates([
        h("Abschnitt 1", 2),
        h("Vorbemerkung", 3),
        h("§ 3 X", 3),
        h("*Begründung:*", 4),
        h("Schlussformel", 2),
      ]),
    ).toEqual(["abschnitt-1", "vorbemerkung", "§-3", "§-3/begründung", "schlussformel"]);
  });

  test("an item on a shallower level than the open article or § is no part of it: the Grundgesetz's chapters", () => {
    const gg = [h("I. Die Grundrechte", 2), h("Art 1", 3), h("Art 19", 3), h("II. Der Bund und die Länder", 2)];
    expect(assignLocalCoordinates([...gg, h("Art 20", 3), h("1.", 4)])).toEqual([
      "i",
      "art-1",
      "art-19",
      "ii",
      "art-20",
      "art-20/1",
    ]);
    // An article inserted before the chapter moves no address (it was `art-19/ii`, then `art-19a/ii`).
    const amended = [...gg.slice(0, 3), h("Art 19a", 3), gg[3]!];
    expect(assignLocalCoordinates(amended)).toEqual(["i", "art-1", "art-19", "art-19a", "ii"]);
    // Items of the provision close with it.
    expect(assignLocalCoordinates([h("§ 2", 3), h("1.", 4), h("II.", 2), h("1.", 3)])).toEqual([
      "§-2",
      "§-2/1",
      "ii",
      "ii/1",
    ]);
    // A § inside an article closes and gives the scope back to the article while the item is on the article's level
    // or below it: the item is the article's whether or not a deeper § came before it (inserting one moves nothing).
    expect(assignLocalCoordinates([h("Art 2", 2), h("§ 1", 3), h("II.", 2), h("§ 2", 3)])).toEqual([
      "art-2",
      "art-2/§-1",
      "art-2/ii",
      "art-2/§-2",
    ]);
    expect(assignLocalCoordinates([h("Art 1", 2), h("I. Teil", 3), h("§ 2", 4)])).toEqual([
      "art-1",
      "art-1/i",
      "art-1/§-2",
    ]);
    expect(assignLocalCoordinates([h("Art 1", 2), h("§ 1", 4), h("I. Teil", 3), h("§ 2", 4)])).toEqual([
      "art-1",
      "art-1/§-1",
      "art-1/i",
      "art-1/§-2",
    ]);
    // Shallower than the article too: both close.
    expect(assignLocalCoordinates([h("Art 1", 3), h("§ 1", 4), h("II.", 2), h("§ 2", 4)])).toEqual([
      "art-1",
      "art-1/§-1",
      "ii",
      "§-2",
    ]);
    // On the provision's own level or below it, an item is the provision's (levels lie there).
    expect(assignLocalCoordinates([h("§ 2", 2), h("1.", 2), h("2.", 3)])).toEqual(["§-2", "§-2/1", "§-2/2"]);
  });

  test("the text before the first heading is _top; true repeats get ~2, ~3 in document order", () => {
    expect(assignLocalCoordinates([undefined, h("§ 37"), h("§ 37"), h("(XXXX)"), h("(XXXX)"), h("(XXXX)")])).toEqual([
      "_top",
      "§-37",
      "§-37~2",
      "§-37/xxxx",
      "§-37/xxxx~2",
      "§-37/xxxx~3",
    ]);
  });

  test("a long setext 'heading' does not cut a section off from its unit", () => {
    expect(
      assignLocalCoordinates([
        h("Teil 1", 2),
        h("Ein sehr langer Absatz, der wegen einer Linie darunter eine Überschrift ist", 2),
        h("Abschnitt 1", 3),
      ]),
    ).toEqual(["teil-1", "ein-sehr-langer-absatz-der-wegen-einer-linie", "teil-1/abschnitt-1"]);
  });
});

describe("the address grammar", () => {
  test("examples", () => {
    expect(
      formatAddress({
        slug: "privacy-act-1988",
        targetKind: "markdown-artifact",
        path: "part-iii/section-13.md",
        local: "13",
      }),
    ).toBe("privacy-act-1988/part-iii/section-13.md#13");
    expect(
      formatAddress({ slug: "privacy-act-1988", targetKind: "structural-container", path: "part-iii/division-1" }),
    ).toBe("privacy-act-1988/part-iii/division-1/");
    expect(
      formatAddress({
        slug: "bgb",
        targetKind: "markdown-artifact",
        path: "BGB Teil #1/100% fertig.md",
        local: "§-2a",
      }),
    ).toBe("bgb/BGB%20Teil%20%231/100%25%20fertig.md#§-2a");
  });

  test("escaping is NFC and reversible", () => {
    expect(escapePath("Gesetz u\u0308ber.md")).toBe("Gesetz über.md".replace(" ", "%20"));
    expect(unescapePath("a%2Fb")).toBeUndefined(); // "/" must stay raw: the escaped form is not canonical
    expect(unescapePath("a%2")).toBeUndefined();
    expect(unescapePath("a%20b")).toBe("a b");
  });

  test.each([
    "",
    "privacy",
    "Privacy/a.md#1",
    "p/a.md#",
    "p/a.md#1~1",
    "p/a.md#../x",
    "p//",
    "p/a//b/",
    "p/a.md#x y",
    "p/a%zz.md#1",
    "p//a.md#1",
  ])("%j is not an address", (address) => {
    expect(parseAddress(address)).toBeUndefined();
  });

  test("local coordinates", () => {
    expect(
      ["13", "_top", "art-229/§-1", "teil-1/kapitel-2/abschnitt-1", "§-7.08", "xxxx~3"].every(isLocalCoordinate),
    ).toBe(true);
    expect(["", "a//b", "_other", "a/", "..", "a~1", "a~0"].some(isLocalCoordinate)).toBe(false);
  });

  const segment = fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((s) => !s.includes("/") && s !== "." && s !== ".." && s.normalize("NFC") === s && !/[\u0000\r\n]/.test(s));
  const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));
  const slug = fc.stringMatching(/^[a-z0-9]{1,6}(?:-[a-z0-9]{1,6}){0,2}$/);
  const local = fc.oneof(
    fc.constant("_top"),
    fc
      .tuple(
        fc.array(
          fc.stringMatching(/^[a-z0-9§][a-z0-9§.-]{0,6}$/).filter((s) => !/^\.+$/.test(s) && !s.includes("..")),
          { minLength: 1, maxLength: 3 },
        ),
        fc.option(fc.integer({ min: 2, max: 99 })),
      )
      .map(([segments, tie]) => `${segments.join("/")}${tie ? `~${tie}` : ""}`),
  );
  /**
   * Locals of every form of the legal-system grammar (docs/spec.md, section 7): keys, qualifiers, a positional
   * tie-break.
   */
  const key = fc.stringMatching(
    /^(?:art-(?:[lrd]\*?|lo)?[0-9]{1,4}(?:-[0-9]{1,2}){0,2}[a-z]?(?:-bis|-septdecies)?|§-[0-9]{1,3}[a-z]?|titre-(?:i|iv-bis|préliminaire)|chapitre-unique|disposición-adicional-[0-9]|[0-9]{1,2}(?:\.[0-9])?|fussnoten)$/,
  );
  const qualifier = fc
    .stringMatching(/^[a-zäéöü][a-z0-9äéöü.-]{0,10}$/)
    .filter((s) => !/^\.+$/.test(s) && !s.includes(".."));
  const legalLocal = fc
    .tuple(
      fc.array(fc.record({ key, qualifiers: fc.array(qualifier, { maxLength: 2 }) }), { minLength: 1, maxLength: 3 }),
      fc.option(fc.integer({ min: 2, max: 99 }), { nil: undefined }),
    )
    .map(([segments, tie]) => (tie === undefined ? { segments } : { segments, tie }));

  test("locals of the legal-system grammar parse back into their parts, and format from them", () => {
    fc.assert(
      fc.property(legalLocal, fc.constantFrom("fr/code.md", "ch/sr 210.md"), (parts, path) => {
        const local = formatLocal(parts);
        expect(parseLocal(local)).toEqual(parts);
        const address = formatAddress({ slug: "code", targetKind: "markdown-artifact", path, local });
        expect(parseAddress(address)).toEqual({ slug: "code", targetKind: "markdown-artifact", path, local });
      }),
      { numRuns: 1000 },
    );
    expect(parseLocal("art-1~übergangsbestimmungen/§-2~3")).toEqual({
      segments: [
        { key: "art-1", qualifiers: ["übergangsbestimmungen"] },
        { key: "§-2", qualifiers: [] },
      ],
      tie: 3,
    });
    expect(parseLocal("art-r*111-2")).toEqual({ segments: [{ key: "art-r*111-2", qualifiers: [] }] });
    expect(parseLocal("art-1~2~3")).toBeUndefined(); // a qualifier is never only digits
  });

  /**
   * Locals of units below the heading (docs/spec.md, section 7, "Units below the heading"): a heading's local (its
   * tie-break, when it has one, stays before the units' steps), then unit steps by label (`abs-2a`, `nr-1~r2`), each
   * with its own tie-break, or positional (`_1`).
   */
  const unitStep = fc.oneof(
    fc.integer({ min: 1, max: 99 }).map((n) => ({ key: `_${n}`, qualifiers: [] as string[] })),
    fc.record({
      key: fc.stringMatching(
        /^(?:abs-[0-9]{1,2}[a-z]?|abs-1bis|nr-[0-9]{1,2}[a-z]?|bst-[a-z]|dbst-(?:aa|bb|cc|zz)|subsec-[0-9][a-z]?|para-[a-z]{1,2}|subpara-[ivx]{1,4})$/,
      ),
      qualifiers: fc.array(fc.constantFrom("r2", "r3"), { maxLength: 1 }),
    }),
  );
  const unitLocal = fc
    .tuple(
      legalLocal,
      fc.array(fc.tuple(unitStep, fc.option(fc.integer({ min: 2, max: 9 }), { nil: undefined })), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([heading, steps]) => {
      const segments: { key: string; qualifiers: string[]; tie?: number }[] = heading.segments.map((s) => ({ ...s }));
      if (heading.tie !== undefined) segments[segments.length - 1]!.tie = heading.tie;
      for (const [step, tie] of steps)
        segments.push(tie === undefined || step.key.startsWith("_") ? { ...step } : { ...step, tie });
      const last = segments[segments.length - 1]!;
      const { tie, ...rest } = last;
      segments[segments.length - 1] = rest;
      return tie === undefined ? { segments } : { segments, tie };
    });

  test("locals with units below the heading parse back into their parts, and format from them", () => {
    fc.assert(
      fc.property(unitLocal, (parts) => {
        const local = formatLocal(parts);
        expect(parseLocal(local)).toEqual(parts);
        const address = formatAddress({ slug: "bgb", targetKind: "markdown-artifact", path: "bgb.md", local });
        expect(parseAddress(address)).toEqual({ slug: "bgb", targetKind: "markdown-artifact", path: "bgb.md", local });
      }),
      { numRuns: 1000 },
    );
    expect(parseLocal("§-37~2/abs-1/_1")).toEqual({
      segments: [
        { key: "§-37", qualifiers: [], tie: 2 },
        { key: "abs-1", qualifiers: [] },
        { key: "_1", qualifiers: [] },
      ],
    });
    expect(isPositionalSegment("_1")).toBe(true);
    expect(isPositionalSegment("_top")).toBe(false);
    // A positional unit is never first, never `_0`, never tie-broken or qualified; a tie-break is never 1.
    expect(["_1", "§-1/_0", "§-1/_1~2", "§-1/_1~x", "§-1~1/abs-1", "§-1/_", "_top/abs-1"].some(isLocalCoordinate)).toBe(
      false,
    );
  });

  const parts: fc.Arbitrary<AddressParts> = fc.oneof(
    fc.record({ slug, targetKind: fc.constant("markdown-artifact" as const), path: path.map((p) => `${p}.md`), local }),
    fc.record({
      slug,
      targetKind: fc.constant("markdown-artifact" as const),
      path: path.map((p) => `${p}.md`),
      local: unitLocal.map((l) => formatLocal(l)),
    }),
    fc.record({ slug, targetKind: fc.constant("structural-container" as const), path }),
  );

  test("round trip: parse(format(parts)) is parts, and format(parse(address)) is the address", () => {
    fc.assert(
      fc.property(parts, (p) => {
        const address = formatAddress(p);
        expect(parseAddress(address)).toEqual(p);
        expect(formatAddress(parseAddress(address)!)).toBe(address);
      }),
      { numRuns: 2000 },
    );
  });

  test("injective: different parts never give the same address", () => {
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        if (formatAddress(a) === formatAddress(b)) expect(a).toEqual(b);
      }),
      { numRuns: 2000 },
    );
  });
});
