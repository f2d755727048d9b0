/**
 * Headings as text (issue 34): `headingText` holds no footnote markup (docs/spec.md, section 4), read as designations
 * read it (section 7, "Local coordinate: designations"), and the German heading forms `(XXXX) …` and lists of §§ read
 * as designations, so that an editorial rewording keeps the address. Through the command line on German- and
 * Swiss-shaped data.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sha256Hex } from "../src/core/bytes.js";
import { withoutFootnoteMarkup } from "../src/core/markdown/heading-markup.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";

describe("withoutFootnoteMarkup", () => {
  test.each([
    [
      "5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>110</sup>",
      "5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen ",
    ],
    ["Art. 1[^3] Gegenstand", "Art. 1 Gegenstand"],
    ["Art. 12[^7]", "Art. 12"],
    ["Art. 12<sup>45</sup>", "Art. 12"],
    ['Art. 12<SUP class="fn">4<i>5</i></SUP>', "Art. 12"],
    // other tags go, their text stays; a removal leaves a space only between two letters or digits
    ["<i>Begründung</i>:", "Begründung:"],
    ["Art. 5<br>Titel", "Art. 5 Titel"],
    ["Art. 5<br/><sup>1</sup>[^2]Titel", "Art. 5 Titel"],
    ['(<span lang="fr">Annexe</span>)', "(Annexe)"],
    // no markup: the text as it is
    ["§ 12 Anwendungsbereich", "§ 12 Anwendungsbereich"],
    ["a < b > c", "a < b > c"],
    ["[^ 1] [x]", "[^ 1] [x]"],
  ])("%j → %j", (text, expected) => {
    expect(withoutFootnoteMarkup(text)).toBe(expected);
  });
});

describe("headingText of a target: its plain text without footnote markup", () => {
  const headingOf = (markdown: string) => parseArtifact(markdown).targets.find((t) => t.heading)?.heading?.text;
  test.each([
    [
      "## 5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>110</sup>\n",
      "5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen",
    ],
    ["## Art. 1[^3] Gegenstand\n", "Art. 1 Gegenstand"],
    ["###### **Art. 12**[^7]\n", "Art. 12"],
    ["###### **Art. 62** b<sup>3</sup>\n", "Art. 62 b"],
    ["## <i>Begründung</i>:\n", "Begründung:"],
    ["## *Begründung:*\n", "Begründung:"],
    ["## [Art. 4](https://example.org/art-4) Titel\n", "Art. 4 Titel"],
    // a footnote whose text is one word is a link reference definition: its reference is a link, and still goes
    ["## Art. 4[^9]\n\n[^9]: Aufgehoben\n", "Art. 4"],
    ["[^9]: Aufgehoben\n\n## Art. 4 [^9] Titel\n", "Art. 4 Titel"],
    // a link whose text is no footnote label stays text
    ["## Art. 4 [^9 x]\n\n[^9 x]: /u\n", "Art. 4 ^9 x"],
    ["Vollzug <sup>1</sup>\n===\n", "Vollzug"],
  ])("%j → %j", (markdown, expected) => {
    expect(headingOf(markdown)).toBe(expected);
  });
});

const FLAGS = [
  "--slug",
  "demo",
  "--title-id",
  "D1",
  "--name",
  "Demo",
  "--version-date",
  "2024-01-01",
  "--source-text-url",
  "https://www.legislation.gov.au/D1/text",
];
const MANIFEST = ".tooling/citation-targets/demo.lock.json";
const JSONL = ".tooling/citation-targets/demo.jsonl";

const ASYLG = `# Asylgesetz[^1]

## 5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>110</sup>

###### **Art. 44**[^111] Wegweisung

Text.

###### **Art. 45**<sup>112</sup>

Text.

[^1]: SR 142.31
`;
const BGB = `# Bürgerliches Gesetzbuch

## § 113 Dienst- oder Arbeitsverhältnis

Text.

## §§ 114, 115 (weggefallen)

## (XXXX) §§ 116 bis 118 (weggefallen)

## § 119 Anfechtbarkeit wegen Irrtums

Text.
`;

interface Row {
  citationAddress: string;
  headingText: string;
  headingTrail: string[];
  targetKind: string;
  textDigest: string;
}

describe("through the command line, on Swiss- and German-shaped data", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    await mkdir(join(dir, ".git"));
    await writeTree(dir, { "laws/asylg/index.md": ASYLG, "laws/bgb/index.md": BGB });
  });
  afterEach(async () => cleanup());

  const rows = async () =>
    (await readFile(join(dir, JSONL), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Row);

  test("headingText, headingTrail and the addresses: no footnote markup, German runs designated; a rewording keeps every address", async () => {
    expect((await runMain(["lock", "laws", ...FLAGS, "-o", MANIFEST], dir)).code).toBe(0);
    expect((await runMain(["generate", MANIFEST, "-o", JSONL], dir)).code).toBe(0);
    const before = await rows();
    expect(before.map((r) => [r.citationAddress, r.headingText])).toEqual([
      ["demo/asylg/", "Asylgesetz"],
      ["demo/asylg/index.md#asylgesetz", "Asylgesetz"],
      ["demo/asylg/index.md#abschnitt-5", "5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen"],
      ["demo/asylg/index.md#art-44", "Art. 44 Wegweisung"],
      ["demo/asylg/index.md#art-45", "Art. 45"],
      ["demo/bgb/", "Bürgerliches Gesetzbuch"],
      ["demo/bgb/index.md#bürgerliches-gesetzbuch", "Bürgerliches Gesetzbuch"],
      ["demo/bgb/index.md#§-113", "§ 113 Dienst- oder Arbeitsverhältnis"],
      ["demo/bgb/index.md#§§-114-bis-115", "§§ 114, 115 (weggefallen)"],
      ["demo/bgb/index.md#§§-116-bis-118", "(XXXX) §§ 116 bis 118 (weggefallen)"],
      ["demo/bgb/index.md#§-119", "§ 119 Anfechtbarkeit wegen Irrtums"],
    ]);
    // The container's text digest is that of its headingText; the trails carry the same texts.
    expect(before[0]!.textDigest).toBe(sha256Hex(new TextEncoder().encode("Asylgesetz")));
    expect(before[4]!.headingTrail).toEqual([
      "Asylgesetz",
      "5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen",
    ]);
    expect(JSON.stringify(before.map((r) => [r.headingText, r.headingTrail]))).not.toMatch(/<sup>|\[\^/);

    // Editorial rewordings of a new revision: footnotes renumbered, the list of §§ written with `und`, the place
    // holder dropped. Every address stays, and so does every headingText and trail.
    await writeTree(dir, {
      "laws/asylg/index.md": ASYLG.replace("[^1]", "[^2]")
        .replace("[^1]:", "[^2]:")
        .replace("<sup>110</sup>", "<sup>120</sup>")
        .replace("[^111]", "[^121]")
        .replace("<sup>112</sup>", "<sup>122</sup>"),
      "laws/bgb/index.md": BGB.replace("§§ 114, 115", "§§ 114 und 115").replace("(XXXX) §§", "§§"),
    });
    const update = await runMain(["update"], dir);
    expect(update.code).toBe(0);
    const after = await rows();
    expect(after.map((r) => r.citationAddress)).toEqual(before.map((r) => r.citationAddress));
    const texts = (list: Row[]) => list.map((r) => [r.headingText, r.headingTrail]);
    const reworded = ["demo/bgb/index.md#§§-114-bis-115", "demo/bgb/index.md#§§-116-bis-118"];
    expect(texts(after.filter((r) => !reworded.includes(r.citationAddress)))).toEqual(
      texts(before.filter((r) => !reworded.includes(r.citationAddress))),
    );
    expect(after.filter((r) => reworded.includes(r.citationAddress)).map((r) => r.headingText)).toEqual([
      "§§ 114 und 115 (weggefallen)",
      "§§ 116 bis 118 (weggefallen)",
    ]);
    // update names what changed by address: the reworded targets' markdown, nothing added or removed.
    expect(update.stdout).toContain("records: 0 added, 0 removed,");
    expect((await runMain(["validate"], dir)).code).toBe(0);
  });

  test("update --check reports a file whose headingText still carries footnote markup, by address", async () => {
    expect((await runMain(["lock", "laws", ...FLAGS, "-o", MANIFEST], dir)).code).toBe(0);
    expect((await runMain(["generate", MANIFEST, "-o", JSONL], dir)).code).toBe(0);
    // The record as the build before wrote it: its headingText with the superscript.
    const text = await readFile(join(dir, JSONL), "utf8");
    await writeFile(
      join(dir, JSONL),
      text.replace(
        '"headingText":"5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen"',
        '"headingText":"5. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>110</sup>"',
      ),
    );
    const check = await runMain(["update", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("demo: not up to date");
    expect(check.stdout).toContain("changed: demo/asylg/index.md#abschnitt-5");
  });
});
