/**
 * `diff` on a realistic amendment of both example datasets: a copy of each is amended (a section
 * inserted, one repealed, a unit renumbered, a section amended, one retitled), locked and regenerated
 * with the library, and the old file is diffed against the new one. The report is asserted exactly.
 */
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createColor } from "../src/formatters/color.js";
import { diffFormatters } from "../src/formatters/diff.js";
import { diff } from "../src/node/diff/diff.js";
import { generate } from "../src/node/generate/generate.js";
import { lock } from "../src/node/dataset/lock.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

/**
 * A copy of the repository's example data (dataset, manifest, JSONL) under `dir/<name>`, laid out as in the repository.
 */
async function copyRepository(name: string): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, ".tooling/citation-targets"), { recursive: true });
  await cp(join(repoRoot, "fixtures/datasets"), join(root, "fixtures/datasets"), { recursive: true });
  for (const file of ["mvfg.lock.json", "mvfg.jsonl", "privacy-act-1988.lock.json", "privacy-act-1988.jsonl"]) {
    await cp(join(repoRoot, ".tooling/citation-targets", file), join(root, ".tooling/citation-targets", file));
  }
  return root;
}

/** Re-locks and regenerates one dataset of the copy with the library; returns the path of the new JSONL. */
async function regenerate(root: string, slug: string): Promise<string> {
  const manifest = `.tooling/citation-targets/${slug}.lock.json`;
  await lock({ dir: `fixtures/datasets/${slug}`, output: manifest, cwd: root });
  const output = join(root, "new", `${slug}.jsonl`);
  await mkdir(join(root, "new"), { recursive: true });
  await generate({ manifest, output, cwd: root });
  return output;
}

const plain = createColor(0);

describe("a realistic amendment, diffed", () => {
  test("privacy-act-1988", async () => {
    const root = await copyRepository("privacy");
    const data = join(root, "fixtures/datasets/privacy-act-1988");
    // Inserted: a new section 7.
    await writeFile(
      join(data, "part-i/section-7.md"),
      "### 7 Acts and practices of agencies\n\n(1) This section applies to acts and practices of agencies.\n",
    );
    // Repealed: section 13A (its file deleted).
    await rm(join(data, "part-iii/division-1/section-13a.md"));
    // Renumbered: Subdivision A of Division 2 of Part IIIA becomes Subdivision B.
    await rename(join(data, "part-iiia/division-2/subdivision-a"), join(data, "part-iiia/division-2/subdivision-b"));
    await writeFile(
      join(data, "part-iiia/division-2/subdivision-b/index.md"),
      "#### Subdivision B—Introduction and definitions\n",
    );
    // Amended: section 1 gains a sentence.
    const s1 = join(data, "part-i/section-1.md");
    await writeFile(s1, `${await readFile(s1, "utf8")}\nThis section was amended by Act No. 1, 2025.\n`);
    // Retitled: section 6.
    const s6 = join(data, "part-i/section-6.md");
    await writeFile(
      s6,
      (await readFile(s6, "utf8")).replace("### 6 Interpretation", "### 6 Definitions and interpretation"),
    );
    const output = await regenerate(root, "privacy-act-1988");
    const report = await diff({ cwd: root, paths: [".tooling/citation-targets/privacy-act-1988.jsonl", output] });
    expect(diffFormatters.stylish(report, { color: plain })).toBe(
      [
        "new/privacy-act-1988.jsonl  (against .tooling/citation-targets/privacy-act-1988.jsonl, 42 → 42 records)",
        '  breaking  record-changed  privacy-act-1988/part-i/section-1.md#1  "1 Short title"',
        "                            markdown: 68 → 114 characters",
        "                            textDigest: 830f75b7a2ba… → 132a0582c3e2…",
        '  breaking  record-changed  privacy-act-1988/part-i/section-6.md#6  "6 Definitions and interpretation"',
        '                            headingText: "6 Interpretation" → "6 Definitions and interpretation"',
        "                            markdown: 865 → 881 characters",
        "                            textDigest: f17e9e36ca6b… → 68d7b0eb3de1…",
        '  breaking  record-removed  privacy-act-1988/part-iii/division-1/section-13a.md#13a  "13A Interferences with privacy (repealed)"',
        '  breaking  record-removed  privacy-act-1988/part-iiia/division-2/subdivision-a/  "Subdivision A—Introduction and definitions"',
        '  breaking  record-removed  privacy-act-1988/part-iiia/division-2/subdivision-a/index.md#subdivision-a  "Subdivision A—Introduction and definitions"',
        '  breaking  record-removed  privacy-act-1988/part-iiia/division-2/subdivision-a/section-20.md#20  "20 Guide to this Division"',
        "                            likely moved to privacy-act-1988/part-iiia/division-2/subdivision-b/section-20.md#20 (same textDigest and designation)",
        '  breaking  record-removed  privacy-act-1988/part-iiia/division-2/subdivision-a/section-20a.md#20a  "20A Open and transparent management of credit reporting information"',
        "                            likely moved to privacy-act-1988/part-iiia/division-2/subdivision-b/section-20a.md#20a (same textDigest and designation)",
        '  additive  record-added    privacy-act-1988/part-i/section-7.md#7  "7 Acts and practices of agencies"',
        '  additive  record-added    privacy-act-1988/part-iiia/division-2/subdivision-b/  "Subdivision B—Introduction and definitions"',
        '  additive  record-added    privacy-act-1988/part-iiia/division-2/subdivision-b/index.md#subdivision-b  "Subdivision B—Introduction and definitions"',
        '  additive  record-added    privacy-act-1988/part-iiia/division-2/subdivision-b/section-20.md#20  "20 Guide to this Division"',
        '  additive  record-added    privacy-act-1988/part-iiia/division-2/subdivision-b/section-20a.md#20a  "20A Open and transparent management of credit reporting information"',
        "",
        "✖ 12 changes (1 file, 42 → 42 records): 7 breaking (record-changed 2, record-removed 5), 5 additive (record-added 5); 7 fail the gate (--fail-on breaking)",
        "",
      ].join("\n"),
    );
    // The JSON report carries the same, with the line of each record and the full digests.
    const changes = report.pairs[0]!.changes;
    expect(changes.find((c) => c.address === "privacy-act-1988/part-i/section-1.md#1")).toEqual({
      kind: "record-changed",
      class: "breaking",
      address: "privacy-act-1988/part-i/section-1.md#1",
      message: "privacy-act-1988/part-i/section-1.md#1: markdown, textDigest changed",
      fields: [
        { field: "markdown", beforeLength: 68, afterLength: 114 },
        {
          field: "textDigest",
          before: "830f75b7a2ba5c5915f11e3db45488e8a4f51baa5a43094babc57799b90802bf",
          after: "132a0582c3e20a4d3d2ef43e0e8f8003341d68e966d9e9b4b2c077669a15c0ab",
        },
      ],
      file: "new/privacy-act-1988.jsonl",
      line: 6,
      headingText: "1 Short title",
      textChange: "words",
    });
    expect(changes.find((c) => c.address === "privacy-act-1988/part-iii/division-1/section-13a.md#13a")).toMatchObject({
      file: ".tooling/citation-targets/privacy-act-1988.jsonl",
      line: 16,
    });
    expect(report.summary).toEqual({
      pairs: 1,
      changes: 12,
      breaking: 7,
      additive: 5,
      approved: 0,
      failing: 7,
      byKind: { "record-changed": 2, "record-removed": 5, "record-added": 5 },
      failOn: "breaking",
      passed: false,
    });
  });

  test("mvfg", async () => {
    const root = await copyRepository("mvfg");
    const file = join(root, "fixtures/datasets/mvfg/mvfg.md");
    let text = await readFile(file, "utf8");
    const div = (id: string, heading: string, body: string) =>
      `<div class="jnnorm" id="${id}">\n\n#### ${heading}\n\n${body}\n\n</div>\n\n`;
    // Inserted: § 5 between § 4 and § 6.
    text = text.replace(
      '<div class="jnnorm" id="BJNR012530976BJNE000600000">',
      `${div("BJNR012530976BJNE000500000", "§ 5 Beistände", "Ein Beteiligter kann mit einem Beistand erscheinen.")}<div class="jnnorm" id="BJNR012530976BJNE000600000">`,
    );
    // Repealed: Art 1 (its div deleted).
    text = text.replace(/<div class="jnnorm" id="BJNR012530976BJNE010000000">[\s\S]*?<\/div>\n\n/, "");
    // Renumbered: Anlage 1 becomes Anlage 3.
    text = text.replace("## Anlage 1 (zu § 2a)", "## Anlage 3 (zu § 2a)");
    // Amended: § 3.
    text = text.replace("Örtlich zuständig ist die Behörde,", "Örtlich zuständig ist ausschließlich die Behörde,");
    // Retitled: the Zweiter Abschnitt (the trails below it follow).
    text = text.replace(
      "### Zweiter Abschnitt - Verfahrensgrundsätze",
      "### Zweiter Abschnitt - Allgemeine Verfahrensgrundsätze",
    );
    await writeFile(file, text);
    const output = await regenerate(root, "mvfg");
    const report = await diff({ cwd: root, paths: [".tooling/citation-targets/mvfg.jsonl", output] });
    const trail =
      '                            headingTrail: […, "Zweiter Abschnitt - Verfahrensgrundsätze"] → […, "Zweiter Abschnitt - Allgemeine Verfahrensgrundsätze"]';
    expect(diffFormatters.stylish(report, { color: plain })).toBe(
      [
        "new/mvfg.jsonl  (against .tooling/citation-targets/mvfg.jsonl, 21 → 21 records)",
        '  breaking  record-changed  mvfg/mvfg.md#kapitel-1/abschnitt-2  "Zweiter Abschnitt - Allgemeine Verfahrensgrundsätze"',
        '                            headingText: "Zweiter Abschnitt - Verfahrensgrundsätze" → "Zweiter Abschnitt - Allgemeine Verfahrensgrundsätze"',
        "                            markdown: 46 → 57 characters",
        "                            textDigest: e8886426a498… → 85bc501693c7…",
        '  breaking  record-changed  mvfg/mvfg.md#§-3  "§ 3 Örtliche Zuständigkeit"',
        trail,
        "                            markdown: 279 → 294 characters",
        "                            textDigest: e8b31fa1514d… → a1fe8b58ef2f…",
        '  breaking  record-changed  mvfg/mvfg.md#§-4  "§ 4 Amtshilfe"',
        trail,
        '  breaking  record-changed  mvfg/mvfg.md#§-6  "§ 6 (weggefallen)"',
        trail,
        '  breaking  record-removed  mvfg/mvfg.md#art-1  "Art 1 - Änderung des Mustergebührengesetzes"',
        '  breaking  record-removed  mvfg/mvfg.md#anlage-1  "Anlage 1 (zu § 2a)"',
        '  breaking  record-removed  mvfg/mvfg.md#anlage-1/§-1  "§ 1 Antragsformular"',
        "                            likely moved to mvfg/mvfg.md#anlage-3/§-1 (same textDigest and designation)",
        '  additive  record-added    mvfg/mvfg.md#§-5  "§ 5 Beistände"',
        '  additive  record-added    mvfg/mvfg.md#anlage-3  "Anlage 3 (zu § 2a)"',
        '  additive  record-added    mvfg/mvfg.md#anlage-3/§-1  "§ 1 Antragsformular"',
        "",
        "✖ 10 changes (1 file, 21 → 21 records): 7 breaking (record-changed 4, record-removed 3), 3 additive (record-added 3); 7 fail the gate (--fail-on breaking)",
        "",
      ].join("\n"),
    );
  });

  test("approving the breaking changes of an amendment passes the gate; a stale approval is a warning", async () => {
    const root = await copyRepository("approved");
    const data = join(root, "fixtures/datasets/privacy-act-1988");
    await rm(join(data, "part-iii/division-1/section-13a.md"));
    const s1 = join(data, "part-i/section-1.md");
    await writeFile(s1, `${await readFile(s1, "utf8")}\nAmended.\n`);
    const output = await regenerate(root, "privacy-act-1988");
    await writeFile(
      join(root, "approvals.json"),
      JSON.stringify({
        approvals: [
          {
            dataset: "privacy-act-1988",
            versionDate: "2024-06-10",
            address: "privacy-act-1988/part-iii/division-1/section-13a.md#13a",
            kind: "record-removed",
            reason: "repealed by Act No. 1, 2025",
          },
          {
            dataset: "privacy-act-1988",
            versionDate: "2024-06-10",
            address: "privacy-act-1988/part-i/section-1.md#1",
            reason: "amended by Act No. 1, 2025",
          },
          { address: "privacy-act-1988/part-i/section-2.md#2", reason: "left over from an earlier review" },
        ],
      }),
    );
    const report = await diff({
      cwd: root,
      paths: [".tooling/citation-targets/privacy-act-1988.jsonl", output],
      approvals: "approvals.json",
    });
    expect(report.summary).toMatchObject({ changes: 2, breaking: 2, approved: 2, failing: 0, passed: true });
    expect(report.warnings).toEqual([
      'approval {"address":"privacy-act-1988/part-i/section-2.md#2"} matches no change (is it still needed?)',
    ]);
    const text = diffFormatters.stylish(report, { color: plain });
    expect(text).toContain("                            approved: repealed by Act No. 1, 2025\n");
    expect(text).toContain(
      'warning  approval {"address":"privacy-act-1988/part-i/section-2.md#2"} matches no change (is it still needed?)\n',
    );
    expect(text.trimEnd().split("\n").pop()).toBe(
      "✔ 2 changes (1 file, 42 → 41 records): 2 breaking (record-changed 1, record-removed 1), 0 additive; 2 approved; the gate passes (--fail-on breaking)",
    );
  });
});
