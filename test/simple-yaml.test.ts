/**
 * The fast path of front matter (src/core/markdown/simple-yaml.ts): whatever it accepts must be valid YAML
 * with no alias, as the YAML parser reads it; what publishers' front matter looks like must be
 * accepted (or the fast path would never be taken); anything doubtful must go to the parser.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseDocument, visit } from "yaml";
import { isSimpleYamlMap } from "../src/core/markdown/simple-yaml.js";

function parserAccepts(text: string): boolean {
  const document = parseDocument(text);
  let aliases = 0;
  visit(document, {
    Alias() {
      aliases++;
    },
  });
  return document.errors.length === 0 && aliases === 0;
}

const KEYS = [
  "Title",
  "jurabk",
  "slug",
  "date",
  "a",
  "_x",
  "key-1",
  "stand",
  "Title",
  "a b",
  "-x",
  "?",
  "<<",
  "k:",
  "k#",
  "",
  "x".repeat(1100),
  "ä",
  "1",
];
const VALUES = [
  "",
  "Abgabenordnung",
  "ao_1977",
  "2006-10-05",
  '"2024-02-26"',
  '"BGBl I: 2006, 3396"',
  "'Zuletzt geändert durch Art. 20 G v. 27.10.2008 I 904'",
  "Gesetz über die Ämter (GÄmtG)",
  "yes",
  "null",
  "1e400",
  "Art. 3 § 2",
  "a: b",
  "a #b",
  "a#b",
  "&anchor x",
  "*alias",
  "!tag x",
  "- item",
  "? key",
  "| block",
  "> folded",
  "@x",
  "`x",
  "%x",
  "[a, b]",
  "{a: b}",
  "'it''s'",
  "'unterminated",
  '"bad \\q escape"',
  '"tab\\t ok"',
  '"quote \\" inside"',
  "x'y",
  'x"y',
  "…",
  "\t",
  "x\ty",
  "---",
  "...",
  "a,b",
  "\u0085",
  "\uFEFFx",
  "[Sozialrecht, Bundesrecht]",
  "[]",
  "[ a ,b ]",
  "[a,]",
  "[a, [b]]",
  "[a: b]",
  '["x, y", z]',
  "['a', \"b\"]",
  "[*x]",
  "[&a b]",
  "[a #c]",
  "[a",
  "|",
  "|-",
  ">",
  ">-",
  "|+",
  "|2",
];

describe("front matter that needs no YAML parse", () => {
  test("what publishers write is taken by the fast path, and the parser agrees", () => {
    const examples = [
      'Title: Abgabenordnung\njurabk: AO\nlayout: default\norigslug: ao_1977\nslug: ao_1977\ndate: "2024-02-26"\nausfertigung: 2006-10-05\nfundstelle: "BGBl I: 2006, 3396"\nstand: \'Zuletzt geändert durch Art. 20 G v. 27.10.2008 I 904\'\n',
      'title: "Gesetz Nr. 7"\njurabk: G7\n',
      "amtabk: >-\n  ArbSchAbkG 1953\n  1985\nhinweis: |\n  Änderung durch Art. 1 G v. 8.8.2024 I Nr. 180\n  textlich: nachgewiesen # noch nicht\ntags: [Steuerrecht, Bundesrecht]\n",
      "Title: Zwölfte Verordnung zur Änderung der Arbeitsschutzverordnung\njurabk: ArbSchÄndV 1978\ndate: 2024-01-18\nstand: 'Zuletzt geändert durch Art. 28 G v. 9.9.2023 I 1411'\ntags: [Sozialrecht, Bundesrecht]\n\n",
      "",
    ];
    for (const example of examples) {
      expect(isSimpleYamlMap(example), example).toBe(true);
      expect(parserAccepts(example), example).toBe(true);
    }
  });

  test("doubtful front matter goes to the parser", () => {
    for (const text of [
      "a: b\na: c\n",
      "a: *x\n",
      "a:\n  - b\n",
      "# comment\na: b\n",
      "a: b\r\n",
      "a: &x b\n",
      " a: b\n",
      "a: b: c\n",
      "a: b #c\n",
      "a:b\n",
    ])
      expect(isSimpleYamlMap(text), text).toBe(false);
  });

  test("everything the fast path takes, the YAML parser reads without an error or an alias", () => {
    const line = fc.oneof(
      fc
        .tuple(
          fc.constantFrom(...KEYS),
          fc.constantFrom(":", ": ", ":  ", " :"),
          fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 })),
        )
        .map(([key, colon, value]) => `${key}${colon}${value}`),
      fc.constantFrom(
        "",
        " ",
        "# c",
        "- x",
        "  indented: x",
        "  text: with # and : inside",
        "   three spaces",
        "  - x",
        "  \tx",
        "  a\u0085",
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.boolean(), (lines, finalNewline) => {
        const text = lines.join("\n") + (finalNewline ? "\n" : "");
        if (isSimpleYamlMap(text)) expect(parserAccepts(text), JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });
});
