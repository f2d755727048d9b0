import { describe, expect, test } from "vitest";
import { compareLegal, comparePaths, legalSortKey } from "../src/core/address/natural-sort.js";

/** Default document order reads legal numbering (docs/spec.md, section 8, "Natural order"). */

describe("legal numbering in the natural order", () => {
  const sorted = (names: string[]) => [...names].sort(compareLegal);

  test.each([
    [
      ["Titre IX", "Titre V", "Titre I", "Titre IV", "Titre X"],
      ["Titre I", "Titre IV", "Titre V", "Titre IX", "Titre X"],
    ],
    [
      ["Livre II", "Livre Ier", "Livre III"],
      ["Livre Ier", "Livre II", "Livre III"],
    ],
    [
      ["Article 7", "Article 6 quater", "Article 6 bis", "Article 6", "Article 6 ter"],
      ["Article 6", "Article 6 bis", "Article 6 ter", "Article 6 quater", "Article 7"],
    ],
    [
      ["Libro terzo", "Libro primo", "Libro secondo"],
      ["Libro primo", "Libro secondo", "Libro terzo"],
    ],
    [
      ["Dritter Teil", "Erster Teil", "Zweiter Teil"],
      ["Erster Teil", "Zweiter Teil", "Dritter Teil"],
    ],
    [
      ["part-iv", "part-iiia", "part-iii", "part-ix"],
      ["part-iii", "part-iiia", "part-iv", "part-ix"],
    ],
    [
      ["Subdivision C", "Subdivision A", "Subdivision B", "Subdivision D"],
      ["Subdivision A", "Subdivision B", "Subdivision C", "Subdivision D"],
    ],
    [
      ["Art. 62c", "Art. 62", "Art. 62a", "Art. 62b"],
      ["Art. 62", "Art. 62a", "Art. 62b", "Art. 62c"],
    ],
    [
      ["s-10.md", "s-2.md"],
      ["s-2.md", "s-10.md"],
    ],
  ])("%j", (names, expected) => {
    expect(sorted(names)).toEqual(expected);
  });

  test("a code kept as one file per article, in folders with spaces and accents", () => {
    const paths = [
      "Livre III/Titre IX/Article 1832.md",
      "Livre III/Titre V/Article 1101.md",
      "Livre III/Titre IV bis/Article 1386-1.md",
      "Livre III/Titre IV/Article 1382.md",
      "Livre Ier/Titre préliminaire/Article 1.md",
      "Livre Ier/Titre Ier/Article 7.md",
    ];
    expect([...paths].sort(comparePaths)).toEqual([
      "Livre Ier/Titre préliminaire/Article 1.md",
      "Livre Ier/Titre Ier/Article 7.md",
      "Livre III/Titre IV/Article 1382.md",
      "Livre III/Titre IV bis/Article 1386-1.md",
      "Livre III/Titre V/Article 1101.md",
      "Livre III/Titre IX/Article 1832.md",
    ]);
  });

  test("words that are not numerals stay as they are", () => {
    expect(legalSortKey("Titre préliminaire")).toBe("Titre 0");
    expect(legalSortKey("Chapter Civil")).toBe("Chapter Civil");
    expect(legalSortKey("index")).toBe("index");
  });
});
