/**
 * Units below the heading (docs/spec.md, section 5, "Units below the heading", and section 7): the Absätze, Nummern,
 * Buchstaben … of German, Swiss and Australian law as targets of a dataset with `units`, on the fixtures of
 * test/fixtures-units (shaped like the BGB, the Federal Constitution and the Privacy Act 1988): their addresses, texts
 * and trails, block ranges that nest, the partition of every level, amendments that insert `(2a)` and `1a.`, and a
 * dataset without units that stays as it was.
 */
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { computeDatasetDigest, formatManifest, type LockManifest } from "../src/core/lock/manifest.js";
import { cutUnits } from "../src/core/markdown/units.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import type { OutputRecord } from "../src/core/records/record-line.js";
import { lockAndGenerate, tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { repoRoot } from "./helpers/records.js";

const fixture = (path: string) => readFileSync(join(repoRoot, "test/fixtures-units", path), "utf8");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => cleanup());

/** Locks `files` as one dataset (with units unless told otherwise) and generates its records. */
async function generated(files: Record<string, string>, units = true) {
  const root = join(dir, `ds-${Math.random().toString(36).slice(2)}`);
  await writeTree(root, files);
  return lockAndGenerate(root, units ? { units: true } : {});
}

const local = (r: OutputRecord) => (r.citationAddress as string).split("#")[1]!;
const locals = (records: OutputRecord[]) => records.filter((r) => r.targetKind === "markdown-artifact").map(local);

/** Characters for the escaping properties below: one and two bytes of UTF-8, and those JSON escapes. */
const ESCAPES = ["a", "ä", "\n", "\r", "\t", '"', "\\"];

describe("the units of each legal system's fixture", () => {
  test("German law: Absätze, Nummern (1a. read as a paragraph), Buchstaben, Doppelbuchstaben, intro and wrap-up", async () => {
    const { records } = await generated({ "bgb.md": fixture("de/bgb.md") });
    expect(records.map((r) => `${local(r)}\t${r.headingText}`)).toEqual([
      "bürgerliches-gesetzbuch\tBürgerliches Gesetzbuch",
      "§-308\t§ 308 Klauselverbote mit Wertungsmöglichkeit",
      "§-308/_1\t",
      "§-308/nr-1\t1.",
      "§-308/nr-1a\t1a.",
      "§-308/nr-2\t2.",
      "§-309\t§ 309 Klauselverbote ohne Wertungsmöglichkeit",
      "§-309/_1\t",
      "§-309/nr-1\t1.",
      "§-309/nr-2\t2.",
      "§-309/nr-2/_1\t",
      "§-309/nr-2/bst-a\ta)",
      "§-309/nr-2/bst-b\tb)",
      "§-309/nr-9\t9.",
      "§-309/nr-9/_1\t",
      "§-309/nr-9/bst-a\ta)",
      "§-309/nr-9/bst-b\tb)",
      "§-309/nr-9/bst-b/_1\t",
      "§-309/nr-9/bst-b/dbst-aa\taa)",
      "§-309/nr-9/bst-b/dbst-bb\tbb)",
      "§-309/nr-9/_2\t",
      "§-823\t§ 823 Schadensersatzpflicht",
      "§-823/abs-1\t(1)",
      "§-823/abs-2\t(2)",
      "§-9\t§ 9 Beispiel mit Nummernlisten",
      "§-9/abs-1\t(1)",
      "§-9/abs-1/_1\t",
      "§-9/abs-1/nr-1\t1.",
      "§-9/abs-1/nr-2\t2.",
      "§-9/abs-1/_2\t",
      "§-9/abs-1/nr-1~r2\t1.",
      "§-9/abs-1/nr-2~r2\t2.",
      "§-9/abs-1/nr-3~r2\t3.",
      "§-9/abs-2\t(2)",
      "§-9/abs-2/_1\t",
      "§-9/abs-2/nr-1\t1.",
      "§-9/abs-2/nr-2\t2.",
      "§-9/abs-2/_2\t",
      "§-9/abs-2a\t(2a)",
      "§-9/abs-3\t(3)",
      "§-9/abs-4\t(4)",
      "§-9/abs-5\t(5)",
      "§-10\t§ 10 Ohne Absätze",
      "§-11\t§ 11 Mehrere unnumerierte Absätze",
    ]);
    const byLocal = new Map(records.map((r) => [local(r), r]));
    // The exact source text of the unit; its trail ends with its heading's text and its enclosing units'.
    expect(byLocal.get("§-309/nr-9/bst-b/dbst-bb")!.markdown).toBe(
      "    bb) dem anderen Vertragsteil wird das Recht eingeräumt, das Vertragsverhältnis jederzeit zu kündigen;\n\n",
    );
    expect(byLocal.get("§-309/nr-9/bst-b/dbst-bb")!.headingTrail).toEqual([
      "Bürgerliches Gesetzbuch",
      "§ 309 Klauselverbote ohne Wertungsmöglichkeit",
      "9.",
      "b)",
    ]);
    // The wrap-up after the Buchstaben is the Nummer's, not the last Buchstabe's.
    expect(byLocal.get("§-309/nr-9/_2")!.markdown).toMatch(/^ {4}dies gilt nicht/);
    expect(byLocal.get("§-9/abs-2/_2")!.markdown).toBe("gleichermaßen.\n\n");
    // Repealed Absätze keep their address, written with or without a space.
    expect(byLocal.get("§-9/abs-4")!.markdown).toBe("(4) (weggefallen)\n\n");
    expect(byLocal.get("§-9/abs-5")!.markdown).toBe("(5)(weggefallen)\n\n");
    // An Absatz and its intro start together: the intro holds the Absatz's label.
    expect(byLocal.get("§-9/abs-1/_1")!.markdown).toBe("(1) Die Behörde kann anordnen, dass\n\n");
  });

  test("Swiss acts: Absätze as <sup>, Buchstaben as bullets", async () => {
    const { records } = await generated({ "bv.md": fixture("ch/bv.md") });
    expect(locals(records)).toEqual([
      "bundesverfassung-der-schweizerischen",
      "art-8",
      "art-8/abs-1",
      "art-8/abs-2",
      "art-8/abs-3",
      "art-8/abs-4",
      "art-36",
      "art-36/abs-1",
      "art-36/abs-1bis",
      "art-36/abs-2",
      "art-5",
      "art-5/_1",
      "art-5/bst-a",
      "art-5/bst-b",
      "art-5/bst-c",
      "art-97",
      "art-97/abs-1",
      "art-97/abs-2",
      "art-97/abs-2/_1",
      "art-97/abs-2/bst-a",
      "art-97/abs-2/bst-b",
      "art-97/abs-3",
    ]);
    const abs = records.find((r) => local(r) === "art-8/abs-2")!;
    expect(abs.headingText).toBe("2");
    expect(abs.markdown).toMatch(/^<sup>2<\/sup> Niemand/);
    expect(records.find((r) => local(r) === "art-97/abs-2/bst-b")!.headingText).toBe("b.");
  });

  test("Australian Acts: nested bullets; (i) is a paragraph or a subparagraph by its level", async () => {
    const { records } = await generated({ "privacy.md": fixture("au/privacy.md") });
    expect(records.map((r) => `${local(r)}\t${r.headingText}`)).toEqual([
      "privacy-act-1988\tPrivacy Act 1988",
      "6\t6 Interpretation",
      "6/subsec-1\t(1)",
      "6/subsec-1/_1\t",
      "6/subsec-1/para-a\t(a)",
      "6/subsec-1/para-b\t(b)",
      "6/subsec-1a\t(1A)",
      "6/subsec-2\t(2)",
      "6/subsec-2/_1\t",
      "6/subsec-2/para-a\t(a)",
      "6/subsec-2/para-h\t(h)",
      "6/subsec-2/para-ha\t(ha)",
      "6/subsec-2/para-i\t(i)",
      "6/subsec-2/para-i/_1\t",
      "6/subsec-2/para-i/subpara-i\t(i)",
      "6/subsec-2/para-i/subpara-ii\t(ii)",
      "13\t13 Interferences with privacy",
      "13/subsec-1\t(1)",
      "13/subsec-1/_1\t",
      "13/subsec-1/para-a\t(a)",
      "13/subsec-1/para-b\t(b)",
      "13/subsec-2\t(2)",
      "13/_1\t",
      "14\t14 Without subsections",
      "14/_1\t",
      "14/para-a\t(a)",
      "14/para-b\t(b)",
    ]);
  });

  test("Australian subsections printed as paragraphs are Absätze: an inserted (1A) is one of its own, abs-1a", async () => {
    const section =
      "#### 8  Financial records\n\n(1) A company must keep financial records.\n\n(1A) Subsection (1) does not apply to a small proprietary company.\n\n(2) The records must:\n\n(a) correctly record transactions; and\n\n(b) be retained for 7 years.\n";
    const { records } = await generated({ "section-8.md": section });
    expect(records.map((r) => `${local(r)}\t${r.headingText}`)).toEqual([
      "8\t8 Financial records",
      "8/abs-1\t(1)",
      "8/abs-1a\t(1A)",
      "8/abs-2\t(2)",
    ]);
    const byLocal = new Map(records.map((r) => [local(r), r.markdown]));
    expect(byLocal.get("8/abs-1")).toBe("(1) A company must keep financial records.\n\n");
    expect(byLocal.get("8/abs-1a")).toBe("(1A) Subsection (1) does not apply to a small proprietary company.\n\n");
    // Paragraphs `(a)` printed as paragraphs are the Absatz's text: in flat text a `(i)` after `(h)` could be either a
    // paragraph or a subparagraph (docs/spec.md, section 5, "Limits").
    expect(byLocal.get("8/abs-2")).toMatch(/^\(2\) The records must:\n\n\(a\) .*\n\n\(b\) .*\n$/);
  });
});

const range = (r: OutputRecord) => [
  r.sourceArtifactBlockStartIndex as number,
  r.sourceArtifactBlockEndExclusive as number,
];

/**
 * Checks the nesting of one artifact's records (the fixtures' headings have locals without `/`): on every level, the
 * ranges and markdown of a record's units partition its body. Returns the number of records with units.
 */
function checkPartition(records: OutputRecord[]): number {
  const targets = records.filter((r) => r.targetKind === "markdown-artifact");
  let parents = 0;
  for (const parent of targets) {
    const own = local(parent);
    const units = targets.filter((r) => {
      const l = local(r);
      return l.startsWith(`${own}/`) && !l.slice(own.length + 1).includes("/");
    });
    if (units.length === 0) continue;
    parents++;
    const isUnit = own.includes("/");
    const [start, end] = range(parent);
    let at = start! + (isUnit ? 0 : 1);
    for (const unit of units) {
      expect(range(unit)[0], local(unit)).toBe(at);
      expect(range(unit)[1]).toBeGreaterThan(at);
      at = range(unit)[1]!;
    }
    expect(at, own).toBe(end);
    const text = units.map((u) => u.markdown as string).join("");
    const markdown = parent.markdown as string;
    if (isUnit) expect(text, own).toBe(markdown);
    else expect(markdown.endsWith(text) && text.length < markdown.length, own).toBe(true);
  }
  return parents;
}

describe("block ranges that nest", () => {
  test.each(["de/bgb.md", "ch/bv.md", "au/privacy.md"])(
    "%s: on every level the units partition their parent",
    async (path) => {
      const { records } = await generated({ "law.md": fixture(path) });
      expect(checkPartition(records)).toBeGreaterThan(3);
      // The headings' records still partition the body, in leaf blocks.
      const headings = records.filter((r) => !local(r).includes("/"));
      let at = 0;
      for (const heading of headings) {
        expect(heading.sourceArtifactBlockStartIndex).toBe(at);
        at = heading.sourceArtifactBlockEndExclusive as number;
      }
    },
  );

  test("a list item's blocks are leaf blocks of their own: a Nummer with two paragraphs spans two", () => {
    const text = "## § 1 X\n\n1.  (Titel)\n\n    Text.\n\n2.  Zwei.\n";
    const parsed = parseArtifact(text, "body-block", {}, true);
    expect(parsed.blockCount).toBe(4);
    expect(parsed.targets.map((t) => [t.blockStart, t.blockEnd])).toEqual([[0, 4]]);
    expect(cutUnits(parsed.leaves!, 1, 4).map((u) => [u.step, u.first, u.end])).toEqual([
      ["nr-1", 1, 3],
      ["nr-2", 3, 4],
    ]);
    // Without units: the same text has two top-level blocks, and no leaves are kept.
    const flat = parseArtifact(text);
    expect(flat.blockCount).toBe(2);
    expect(flat.leaves).toBeUndefined();
  });

  test("an empty list item or block quote counts as one leaf block", () => {
    const parsed = parseArtifact("# H\n\n1.\n2.  b\n\n>\n", "body-block", {}, true);
    expect(parsed.blockCount).toBe(4);
  });
});

describe("addresses that follow the citation", () => {
  const unitTexts = (records: OutputRecord[]) =>
    new Map(records.filter((r) => local(r).includes("/")).map((r) => [local(r), r.markdown as string]));

  test.each([
    ["de/bgb.md", "an inserted Absatz", "(3) Das Nähere", "(2b) Eingefügt.\n\n(3) Das Nähere", "§-9/abs-2b"],
    [
      "de/bgb.md",
      "an inserted 1a. between list items",
      "2.  (Leistungsverweigerungsrechte)",
      "1a. (Eingefügt)\n\n2.  (Leistungsverweigerungsrechte)",
      "§-309/nr-1a",
    ],
    ["de/bgb.md", "a repealed Absatz", "(3) Das Nähere regelt eine Rechtsverordnung.", "(3) (weggefallen)", undefined],
    [
      "ch/bv.md",
      "an inserted Absatz 2bis",
      "<sup>3</sup> Mann",
      "<sup>2bis</sup> Eingefügt.\n\n<sup>3</sup> Mann",
      "art-8/abs-2bis",
    ],
    [
      "au/privacy.md",
      "an inserted paragraph (hb)",
      "    - (i) the act is done by a contractor",
      "    - (hb) the act is inserted; or\n    - (i) the act is done by a contractor",
      "6/subsec-2/para-hb",
    ],
  ])("%s: %s keeps every other unit's address and text", async (path, _name, from, to, added) => {
    const text = fixture(path);
    expect(text.includes(from)).toBe(true);
    const before = unitTexts((await generated({ "law.md": text })).records);
    const after = unitTexts((await generated({ "law.md": text.replace(from, to) })).records);
    expect([...before.keys()].filter((l) => !after.has(l))).toEqual([]);
    const changed = [...before.keys()].filter((l) => after.get(l) !== before.get(l));
    // Only the unit amended and the units that hold the one inserted changed their text.
    expect(changed).toEqual(
      added === undefined ? ["§-9/abs-3"] : [...before.keys()].filter((l) => added.startsWith(`${l}/`)),
    );
    expect([...after.keys()].filter((l) => !before.has(l))).toEqual(added === undefined ? [] : [added]);
  });

  test("a second Nummer list in one Absatz does not move the first list's addresses", async () => {
    const one = "## § 9 X\n\n(1) Die Behörde kann anordnen, dass\n\n1.  a,\n\n2.  b.\n\n(2) Zwei.\n";
    const two = one.replace("(2) Zwei.", "Sie kann ferner verlangen, dass\n\n1.  c,\n\n2.  d.\n\n(2) Zwei.");
    const first = locals((await generated({ "x.md": one })).records);
    const second = locals((await generated({ "x.md": two })).records);
    for (const l of first) expect(second).toContain(l);
    expect(second.filter((l) => !first.includes(l))).toEqual([
      "§-9/abs-1/_2",
      "§-9/abs-1/nr-1~r2",
      "§-9/abs-1/nr-2~r2",
    ]);
  });

  test("a 1a. at the end of a Nummer list holds itself: the wrap-up after it keeps its address and text", async () => {
    const one =
      "## § 2 Begriffe\n\n(1) Unternehmer ist, wer\n\n1. Waren herstellt,\n2. Waren vertreibt,\n\nund dabei handelt.\n";
    const two = one.replace("2. Waren vertreibt,\n", "2. Waren vertreibt,\n\n2a. Waren einführt,\n");
    const before = unitTexts((await generated({ "x.md": one })).records);
    const after = unitTexts((await generated({ "x.md": two })).records);
    expect(before.get("§-2/abs-1/_2")).toBe("und dabei handelt.\n");
    expect(after.get("§-2/abs-1/_2")).toBe("und dabei handelt.\n");
    expect(after.get("§-2/abs-1/nr-2a")).toBe("2a. Waren einführt,\n\n");
    expect([...after.keys()].filter((l) => !before.has(l))).toEqual(["§-2/abs-1/nr-2a"]);
  });

  test("Buchstaben at the start of the line after a Nummer list item are that Nummer's, as indented ones are", async () => {
    const flush =
      "## § 3 A\n\n(1) Gilt nicht für\n\n1. Verträge über\n\na) Grundstücke,\n\nb) Wohnraum,\n\n2. Versicherungen,\n\nsoweit nichts anderes gilt.\n";
    const indented = flush.replace("\na) Grund", "\n   a) Grund").replace("\nb) Wohn", "\n   b) Wohn");
    const expected = [
      "§-3",
      "§-3/abs-1",
      "§-3/abs-1/_1",
      "§-3/abs-1/nr-1",
      "§-3/abs-1/nr-1/_1",
      "§-3/abs-1/nr-1/bst-a",
      "§-3/abs-1/nr-1/bst-b",
      "§-3/abs-1/nr-2",
      "§-3/abs-1/_2",
    ];
    const flushTexts = unitTexts((await generated({ "x.md": flush })).records);
    expect(locals((await generated({ "x.md": flush })).records)).toEqual(expected);
    expect(locals((await generated({ "x.md": indented })).records)).toEqual(expected);
    expect(flushTexts.get("§-3/abs-1/nr-1")).toBe("1. Verträge über\n\na) Grundstücke,\n\nb) Wohnraum,\n\n");
    expect(flushTexts.get("§-3/abs-1/_2")).toBe("soweit nichts anderes gilt.\n");
    // Text between the item and the letter ends the Nummer: the letters are then the Absatz's.
    const between = flush.replace("\na) Grund", "\nwie folgt:\n\na) Grund");
    expect(locals((await generated({ "x.md": between })).records)).toContain("§-3/abs-1/bst-a");
  });

  test("Australian inserted subparagraphs (ia) and (iia) are units by their labels, in their legal order", async () => {
    const one =
      "## 5 Exemptions\n\n- (1) This Act does not apply to:\n  - (a) a Minister, in respect of:\n    - (i) an act; or\n    - (ii) a practice; or\n    - (iia) a practice of staff.\n";
    const two = one.replace("    - (ii) a practice;", "    - (ia) an act as adviser; or\n    - (ii) a practice;");
    const before = unitTexts((await generated({ "x.md": one })).records);
    const after = unitTexts((await generated({ "x.md": two })).records);
    expect(before.get("5/subsec-1/para-a/subpara-iia")).toBe("    - (iia) a practice of staff.\n");
    expect([...before.keys()].filter((l) => after.get(l) === undefined)).toEqual([]);
    expect([...after.keys()].filter((l) => !before.has(l))).toEqual(["5/subsec-1/para-a/subpara-ia"]);
    // In their order, so that none opens a second run (`~r2`).
    expect([...after.keys()].filter((l) => l.includes("~"))).toEqual([]);
  });

  test("the units of a tie-broken heading extend its local, tie-break and all", async () => {
    const { records } = await generated({ "x.md": "## § 37\n\n(1) Eins.\n\n## § 37\n\n(1) Eins.\n" });
    expect(locals(records)).toEqual(["§-37", "§-37/abs-1", "§-37~2", "§-37~2/abs-1"]);
  });
});

describe("a dataset without units", () => {
  test("has no unit records, and the manifest keeps every byte and its datasetDigest", async () => {
    const files = { "bgb.md": fixture("de/bgb.md"), "bv.md": fixture("ch/bv.md") };
    const without = await generated(files, false);
    expect(without.manifest.units).toBeUndefined();
    expect(formatManifest(without.manifest)).not.toContain('"units"');
    expect(locals(without.records)).toEqual(locals(without.records).filter((l) => !l.includes("/")));
    const withUnits = await generated(files, true);
    expect(withUnits.manifest.units).toBe(true);
    // units is digested: it changes what the records are.
    expect(withUnits.manifest.datasetDigest).not.toBe(without.manifest.datasetDigest);
    const { units: _units, datasetDigest: _digest, ...rest } = withUnits.manifest;
    expect(computeDatasetDigest(rest)).toBe(without.manifest.datasetDigest);
    // The headings' records are the same targets, with the same markdown.
    const headingsWith = withUnits.records.filter((r) => !local(r).includes("/"));
    expect(headingsWith.map((r) => [local(r), r.markdown])).toEqual(without.records.map((r) => [local(r), r.markdown]));
  });

  test("the manifest writes units after ignore and before artifacts", () => {
    const manifest = {
      lockVersion: 1,
      slug: "x",
      titleId: "X",
      name: "X",
      versionDate: "2024-01-01",
      sourceTextUrl: "https://www.legislation.gov.au/x",
      ignore: ["drafts/**"],
      units: true,
      artifacts: [],
      datasetDigest: "0".repeat(64),
    } as LockManifest;
    expect(Object.keys(JSON.parse(formatManifest(manifest)))).toEqual([
      "lockVersion",
      "slug",
      "titleId",
      "name",
      "versionDate",
      "sourceTextUrl",
      "ignore",
      "units",
      "artifacts",
      "datasetDigest",
    ]);
  });
});

describe("the command line", () => {
  const fields = [
    "--title-id",
    "BGB",
    "--name",
    "BGB",
    "--version-date",
    "2024-01-01",
    "--source-text-url",
    "https://www.legislation.gov.au/BGB/text",
  ];

  test("lock --units, then generate and validate: every unit validates; a lock refresh keeps units", async () => {
    await writeTree(dir, { "laws/bgb/bgb.md": fixture("de/bgb.md"), "laws/au/privacy.md": fixture("au/privacy.md") });
    const locked = await runMain(
      ["lock", "laws/bgb", "--slug", "bgb", ...fields, "--units", "-o", "bgb.lock.json"],
      dir,
    );
    expect(locked.code, locked.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "bgb.lock.json"), "utf8")).units).toBe(true);
    expect((await runMain(["generate", "bgb.lock.json", "-o", "bgb.jsonl"], dir)).code).toBe(0);
    const validated = await runMain(["validate", "bgb.jsonl"], dir);
    expect(validated.code, validated.stdout).toBe(0);
    expect(validated.stdout).toContain("44 records");
    // A refresh without --units keeps them.
    const again = await runMain(["lock", "laws/bgb", "-o", "bgb.lock.json"], dir);
    expect(again.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "bgb.lock.json"), "utf8")).units).toBe(true);
  });

  test("validate finds a unit edited by hand, and one whose range leaves its parent's body", async () => {
    await writeTree(dir, { "laws/bgb/bgb.md": fixture("de/bgb.md") });
    await runMain(["lock", "laws/bgb", "--slug", "bgb", ...fields, "--units", "-o", "bgb.lock.json"], dir);
    await runMain(["generate", "bgb.lock.json", "-o", "bgb.jsonl"], dir);
    const lines = (await readFile(join(dir, "bgb.jsonl"), "utf8")).split("\n");
    const at = lines.findIndex((l) => l.includes('"citationAddress":"bgb/bgb.md#§-823/abs-2"'));
    const record = JSON.parse(lines[at]!);
    record.sourceArtifactBlockStartIndex += 1;
    const edited = [...lines];
    edited[at] = JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1))));
    await writeFile(join(dir, "bgb.jsonl"), edited.join("\n"));
    const result = await runMain(["validate", "bgb.jsonl"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /block range of unit §-823\/abs-2 starts at (\d+): expected (\d+), where the body of §-823/,
    );
    expect(result.stdout).toContain("block-range");
    expect(result.stdout).toContain("lock-generated");
  });

  test("update --units and adopt's config adopt.units give a dataset its units", async () => {
    await writeTree(dir, {
      "laws/bgb/bgb.md": `---\nslug: bgb\n---\n${fixture("de/bgb.md").replace(/^---[\s\S]*?---\n/, "")}`,
      "citation-targets.config.json": JSON.stringify({
        adopt: {
          titleId: "BGB",
          name: "BGB",
          versionDate: "2024-01-01",
          sourceTextUrl: "https://www.legislation.gov.au/{folder}/text",
          units: true,
        },
      }),
    });
    const adopted = await runMain(["adopt", "laws/*"], dir);
    expect(adopted.code, adopted.stderr).toBe(0);
    const manifestPath = join(dir, ".tooling/citation-targets/bgb.lock.json");
    expect(JSON.parse(await readFile(manifestPath, "utf8")).units).toBe(true);
    const jsonl = await readFile(join(dir, ".tooling/citation-targets/bgb.jsonl"), "utf8");
    expect(jsonl).toContain("bgb.md#§-823/abs-1");

    // update --units: a dataset locked without units gets them.
    await writeTree(dir, { "laws/au/privacy.md": fixture("au/privacy.md") });
    expect(
      (
        await runMain(
          ["lock", "laws/au", "--slug", "privacy", ...fields, "-o", ".tooling/citation-targets/privacy.lock.json"],
          dir,
        )
      ).code,
    ).toBe(0);
    const auManifest = join(dir, ".tooling/citation-targets/privacy.lock.json");
    expect(JSON.parse(await readFile(auManifest, "utf8")).units).toBeUndefined();
    const updated = await runMain(["update", auManifest, "--units"], dir);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain("units below the heading: now targets");
    expect(updated.stdout).toMatch(/records: \d+ added/);
    expect(JSON.parse(await readFile(auManifest, "utf8")).units).toBe(true);
    expect(await readFile(join(dir, ".tooling/citation-targets/privacy.jsonl"), "utf8")).toContain(
      "#6/subsec-2/para-ha",
    );
  });
});

describe("diff, view and update with units", () => {
  const fields = [
    "--title-id",
    "BGB",
    "--name",
    "BGB",
    "--version-date",
    "2024-01-01",
    "--source-text-url",
    "https://www.legislation.gov.au/BGB/text",
  ];

  /** The fixture locked with units and generated, then amended by `amend` and updated: the JSONL before and after. */
  async function amended(amend: (text: string) => string) {
    const text = fixture("de/bgb.md");
    await writeTree(dir, { "laws/bgb/bgb.md": text });
    const manifest = ".tooling/citation-targets/bgb.lock.json";
    await runMain(["lock", "laws/bgb", "--slug", "bgb", ...fields, "--units", "-o", manifest], dir);
    await runMain(["generate", manifest, "-o", ".tooling/citation-targets/bgb.jsonl"], dir);
    await writeTree(dir, { "old.jsonl": await readFile(join(dir, ".tooling/citation-targets/bgb.jsonl"), "utf8") });
    await writeTree(dir, { "laws/bgb/bgb.md": amend(text) });
    const updated = await runMain(["update", manifest], dir);
    expect(updated.code, updated.stderr).toBe(0);
    await writeTree(dir, {
      "new.jsonl": await readFile(join(dir, ".tooling/citation-targets/bgb.jsonl"), "utf8"),
    });
    return updated;
  }

  test("diff reports a changed unit and its heading's change, which lists the units that changed", async () => {
    const updated = await amended((t) =>
      t.replace("(2) Die gleiche Verpflichtung trifft denjenigen", "(2) Die gleiche Pflicht trifft denjenigen"),
    );
    // update reports the changes by unit address.
    expect(updated.stdout).toContain("bgb/bgb.md#§-823/abs-2");
    const diff = await runMain(["diff", "old.jsonl", "new.jsonl", "--format", "json", "--fail-on", "none"], dir);
    const report = JSON.parse(diff.stdout) as {
      pairs: { changes: { kind: string; address?: string; units?: string[]; message: string }[] }[];
    };
    const changed = report.pairs[0]!.changes.filter((c) => c.kind === "record-changed");
    const heading = changed.find((c) => c.address === "bgb/bgb.md#§-823")!;
    expect(heading.units).toEqual(["bgb/bgb.md#§-823/abs-2"]);
    expect(heading.message).toContain("units below it changed: abs-2");
    // The stylish report shows a change by its address: the units are a line below it, as the README says.
    const stylish = await runMain(["diff", "old.jsonl", "new.jsonl", "--fail-on", "none"], dir);
    expect(stylish.stdout).toMatch(/record-changed {2}bgb\/bgb\.md#§-823 .*\n {2,}units below it changed: abs-2\n/);
    const page = await runMain(["diff", "old.jsonl", "new.jsonl", "--fail-on", "none", "--format", "html"], dir);
    expect(page.stdout).toContain("units below it changed: abs-2");
    // A changed word is announced as well as struck or underlined: hidden text a screen reader reads.
    expect(page.stdout).toMatch(/<del>[^<]*Verpflichtung/);
    expect(page.stdout).toContain('del::before{content:" [deleted: "}');
    expect(page.stdout).toContain('ins::before{content:" [inserted: "}');
    expect(changed.find((c) => c.address === "bgb/bgb.md#§-823/abs-2")).toBeDefined();
    expect(changed.find((c) => c.address === "bgb/bgb.md#§-823/abs-1")).toBeUndefined();
  });

  test("diff: the heading's change says which units below it were added or removed, not only changed", async () => {
    // § 823 gains an Absatz 3, and Absatz 2 is amended: abs-3 added, abs-2 changed.
    await amended((t) =>
      t
        .replace("(2) Die gleiche Verpflichtung trifft denjenigen", "(2) Die gleiche Pflicht trifft denjenigen")
        .replace(
          "nur im Falle des Verschuldens ein.\n",
          "nur im Falle des Verschuldens ein.\n\n(3) Ein neuer Absatz.\n",
        ),
    );
    const diff = await runMain(["diff", "old.jsonl", "new.jsonl", "--format", "json", "--fail-on", "none"], dir);
    const report = JSON.parse(diff.stdout) as {
      pairs: { changes: { kind: string; address?: string; units?: string[]; message: string }[] }[];
    };
    const heading = report.pairs[0]!.changes.find(
      (c) => c.kind === "record-changed" && c.address === "bgb/bgb.md#§-823",
    )!;
    expect(heading.units).toEqual(["bgb/bgb.md#§-823/abs-2", "bgb/bgb.md#§-823/abs-3"]);
    expect(heading.message).toContain("units below it changed: abs-2; added: abs-3");
    const stylish = await runMain(["diff", "old.jsonl", "new.jsonl", "--fail-on", "none"], dir);
    expect(stylish.stdout).toMatch(/\n {2,}units below it changed: abs-2; added: abs-3\n/);
    const page = await runMain(["diff", "old.jsonl", "new.jsonl", "--fail-on", "none", "--format", "html"], dir);
    expect(page.stdout).toContain("units below it changed: abs-2; added: abs-3");
    // Absatz 3 repealed again: removed.
    await writeTree(dir, { "old.jsonl": await readFile(join(dir, "new.jsonl"), "utf8") });
    await writeTree(dir, {
      "laws/bgb/bgb.md": (await readFile(join(dir, "laws/bgb/bgb.md"), "utf8")).replace(
        "\n(3) Ein neuer Absatz.\n",
        "",
      ),
    });
    expect((await runMain(["update", ".tooling/citation-targets/bgb.lock.json"], dir)).code).toBe(0);
    await writeTree(dir, { "new.jsonl": await readFile(join(dir, ".tooling/citation-targets/bgb.jsonl"), "utf8") });
    const back = await runMain(["diff", "old.jsonl", "new.jsonl", "--fail-on", "none"], dir);
    expect(back.stdout).toMatch(/\n {2,}units below it removed: abs-3\n/);
  });

  test("diff: a positional unit whose old text sits under another address is a likely move", async () => {
    // An intro sentence inserted before § 9 Abs. 1's second list: the old `_2` text is now `_3`.
    await amended((t) =>
      t.replace("Sie kann ferner verlangen, dass", "Eingeschoben.\n\n1.  neu.\n\nSie kann ferner verlangen, dass"),
    );
    const diff = await runMain(["diff", "old.jsonl", "new.jsonl", "--format", "json", "--fail-on", "none"], dir);
    const report = JSON.parse(diff.stdout) as {
      pairs: { changes: { kind: string; address?: string; likelyMoves?: { address: string; by: string[] }[] }[] }[];
    };
    const changes = report.pairs[0]!.changes;
    // The old `_2` ("Sie kann ferner verlangen") is `_3` now; `_2` holds the text inserted.
    const positional = changes.find((c) => c.address === "bgb/bgb.md#§-9/abs-1/_2")!;
    expect(positional.kind).toBe("record-changed");
    expect(positional.likelyMoves).toEqual([{ address: "bgb/bgb.md#§-9/abs-1/_3", by: ["textDigest"] }]);
    // A positional unit never moves by its number alone.
    for (const change of changes) for (const move of change.likelyMoves ?? []) expect(move.by).toContain("textDigest");
  });

  test("diff: a wrap-up taken out of its list item, its indentation gone, likely moved (the same text)", async () => {
    await amended((t) =>
      t.replace(
        "    dies gilt nicht für Verträge über die Lieferung",
        "dies gilt nicht für Verträge über die Lieferung",
      ),
    );
    const diff = await runMain(["diff", "old.jsonl", "new.jsonl", "--format", "json", "--fail-on", "none"], dir);
    const report = JSON.parse(diff.stdout) as {
      pairs: { changes: { kind: string; address?: string; likelyMoves?: { address: string; by: string[] }[] }[] }[];
    };
    const removed = report.pairs[0]!.changes.filter((c) => c.kind === "record-removed");
    expect(removed.map((c) => [c.address, c.likelyMoves])).toEqual([
      ["bgb/bgb.md#§-309/nr-9/_2", [{ address: "bgb/bgb.md#§-309/_2", by: ["text"] }]],
    ]);
    const text = await runMain(["diff", "old.jsonl", "new.jsonl", "--fail-on", "none"], dir);
    expect(text.stdout).toContain("likely moved to bgb/bgb.md#§-309/_2 (same text)");
  });

  test("view nests the units under their heading", async () => {
    await writeTree(dir, { "laws/bgb/bgb.md": fixture("de/bgb.md") });
    await runMain(["lock", "laws/bgb", "--slug", "bgb", ...fields, "--units", "-o", "bgb.lock.json"], dir);
    await runMain(["generate", "bgb.lock.json", "-o", "bgb.jsonl"], dir);
    const { parentsOf } = await import("../src/formatters/dataset-html.js");
    const records = (await readFile(join(dir, "bgb.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as OutputRecord);
    const targets = records.map((r) => ({
      address: r.citationAddress as string,
      kind: r.targetKind as string,
      heading: r.headingText as string,
      trail: r.headingTrail as string[],
      artifact: r.artifactRelativePath as string,
    }));
    const parents = parentsOf(targets);
    const parentOf = (l: string) => {
      const index = targets.findIndex((t) => t.address.endsWith(`#${l}`));
      return parents[index]! >= 0 ? local(records[parents[index]!]!) : undefined;
    };
    expect(parentOf("§-823/abs-1")).toBe("§-823");
    expect(parentOf("§-9/abs-1/nr-2~r2")).toBe("§-9/abs-1");
    expect(parentOf("§-309/nr-9/bst-b/dbst-bb")).toBe("§-309/nr-9/bst-b");
    expect(parentOf("§-309/nr-9/_2")).toBe("§-309/nr-9");
    const page = await runMain(["view", "bgb.jsonl", "-o", "bgb.html"], dir);
    expect(page.code, page.stderr).toBe(0);
    const html = await readFile(join(dir, "bgb.html"), "utf8");
    expect(html).toContain("bgb/bgb.md#§-309/nr-9/bst-b/dbst-aa");
    expect(html).toContain("(text beside the units: intro, wrap-up)");
  });
});

describe("the lines of units", () => {
  test("generate's lines (units' JCS texts sliced from their heading's) are serializeRecord of the records", async () => {
    const text = `${fixture("de/bgb.md")}\n## § 12 Sonderzeichen\n\n(1) "Zitat" mit \\ Backslash,\ttab\u0001 und\r\n\r\n(2) Zeile\u2028 zwei.\n`;
    await writeTree(dir, { "laws/x/x.md": text });
    const { records } = await lockAndGenerate(join(dir, "laws/x"), { units: true, output: join(dir, "x.lock.json") });
    const generated = await runMain(["generate", "x.lock.json", "--jobs", "1"], dir);
    expect(generated.code, generated.stderr).toBe(0);
    const { serializeRecord } = await import("../src/core/records/record-line.js");
    expect(generated.stdout).toBe(records.map((r) => serializeRecord(r)).join(""));
    expect(records.some((r) => local(r) === "§-12/abs-2")).toBe(true);
  });

  test("byteAndJsonOffsets and bytesAndJsonAt: a unit's bytes, and its JSON text as the slice of its heading's on the bytes read as Latin-1", async () => {
    const { byteAndJsonOffsets } = await import("../src/core/records/record-line.js");
    const { bytesAndJsonAt } = await import("../src/core/records/generate.js");
    const fc = (await import("fast-check")).default;
    // Runs of plain text too, between the characters that are escaped or take more than a byte.
    const character = fc.constantFrom(...ESCAPES, "\u0001", "\u2028", "😀", "§", "Text ", "(1) Absatz ", "~}! ");
    fc.assert(
      fc.property(
        fc.array(character, { maxLength: 30 }),
        fc.array(character, { maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (chars, before, picks) => {
          const text = chars.join("");
          const prefix = Buffer.from(before.join(""), "utf8");
          const bytes = new Uint8Array(Buffer.concat([prefix, Buffer.from(text, "utf8")]));
          const latin1 = Buffer.from(text, "utf8").toString("latin1");
          const json = JSON.stringify(latin1);
          // Offsets at character boundaries (never inside a pair), as UTF-16 offsets of the text.
          const bounds = [0];
          for (let i = 0; i < chars.length; i++) bounds.push(bounds[i]! + chars[i]!.length);
          const offsets = picks.map((p) => bounds[p % bounds.length]!);
          const walked = bytesAndJsonAt(bytes, prefix.length, offsets);
          for (const [k, o] of offsets.entries())
            expect(walked.bytes[k]).toBe(Buffer.byteLength(text.slice(0, o), "utf8"));
          for (const [k, a] of offsets.entries())
            for (const [m, b] of offsets.entries())
              if (a <= b)
                expect(`"${json.slice(walked.json[k], walked.json[m])}"`).toBe(
                  JSON.stringify(latin1.slice(walked.bytes[k], walked.bytes[m])),
                );
          const ascending = offsets.every((o, k) => k === 0 || offsets[k - 1]! <= o);
          expect(byteAndJsonOffsets(bytes, prefix.length, offsets) === undefined).toBe(!ascending);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("lineStartsInJson: line starts by number, read off the escapes, are where the walk over the bytes puts them", async () => {
    const { byteAndJsonOffsets } = await import("../src/core/records/record-line.js");
    const { lineStartsInJson } = await import("./helpers/line-starts-in-json.js");
    const fc = (await import("fast-check")).default;
    // Line endings of every kind CommonMark has (LF, CR LF, a CR alone), and what else escapes or takes more bytes.
    const character = fc.constantFrom(...ESCAPES, "\r\n", "\u0001", "\u001f", "\u2028", "😀", "§", "Text ", "(1) ");
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (chars, picks) => {
        const text = chars.join("");
        const bytes = Buffer.from(text, "utf8");
        const json = JSON.stringify(bytes.toString("latin1"));
        // The text's lines as CommonMark reads them: where each starts (UTF-16 offsets).
        const starts = [0];
        for (let i = 0; i < text.length; i++) {
          const c = text.charCodeAt(i);
          if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
        }
        const lines = picks.map((p) => p % (starts.length + 1)).sort((a, b) => a - b);
        const read = lineStartsInJson(json, lines);
        if (lines.some((line) => line >= starts.length)) {
          // Asked past the last line: not read (the caller walks the bytes).
          expect(read).toBeUndefined();
          return;
        }
        const walked = byteAndJsonOffsets(
          bytes,
          0,
          lines.map((line) => starts[line]!),
        )!;
        expect(read).toEqual({ json: walked.json, bytes: walked.bytes });
      }),
      { numRuns: 3000 },
    );
  });

  test("escapedOffsets: JSON.stringify of a slice is the slice of JSON.stringify between the offsets", async () => {
    const { escapedOffsets } = await import("../src/core/records/record-line.js");
    const fc = (await import("fast-check")).default;
    const character = fc.constantFrom(...ESCAPES, "\b", "\f", "\u0001", "\u001f", "\u2028", "😀");
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), fc.nat(), fc.nat(), (chars, x, y) => {
        const text = chars.join("");
        const [a, b] = [x % (text.length + 1), y % (text.length + 1)].sort((p, q) => p - q) as [number, number];
        if (a < text.length && text.charCodeAt(a) >= 0xdc00 && text.charCodeAt(a) < 0xe000) return; // not mid-pair
        if (b < text.length && text.charCodeAt(b) >= 0xdc00 && text.charCodeAt(b) < 0xe000) return;
        const json = JSON.stringify(text);
        const [from, to] = escapedOffsets(text, [a, b]);
        expect(`"${json.slice(from, to)}"`).toBe(JSON.stringify(text.slice(a, b)));
      }),
      { numRuns: 2000 },
    );
  });
});
