import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatLocal, isLocalCoordinate, parseLocal } from "../src/core/address/address.js";
import { designationText, isEmptyHeading } from "../src/core/address/designation.js";
import { assignLocalCoordinates, type HeadingInput } from "../src/core/address/numbering.js";
import { tieBreakShifts } from "../src/core/diff/tie-breaks.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import { repoRoot } from "./helpers/records.js";

/**
 * The designation grammar of each legal system (docs/spec.md, section 7, "Legal systems" and "Ties") on the fixtures of
 * test/fixtures-systems: their expected addresses, ties only among truly identical siblings, an amendment scenario per
 * system, and random amendment sequences under which no address comes to name another target silently.
 */

const FIXTURES = ["de.md", "fr-code.md", "fr-civil.md", "ch.md", "au.md", "at.md", "es.md", "it.md", "uk.md", "us.md"];
const fixture = (name: string) => readFileSync(join(repoRoot, "test/fixtures-systems", name), "utf8");

interface Target {
  start: number;
  heading: HeadingInput | undefined;
  local: string;
}

function targetsOf(text: string): Target[] {
  const targets = parseArtifact(text).targets;
  const locals = assignLocalCoordinates(targets.map((t) => t.heading));
  return targets.map((t, i) => ({ start: t.start, heading: t.heading, local: locals[i]! }));
}

/** Heading text and ancestor headings (by level), as docs/spec.md defines "truly identical". */
function identities(headings: (HeadingInput | undefined)[]): string[] {
  const open: { text: string; depth: number }[] = [];
  return headings.map((h) => {
    if (h === undefined) return "";
    while (open.length > 0 && open[open.length - 1]!.depth >= h.depth) open.pop();
    const text = designationText(h.text);
    const key = [...open.map((o) => o.text), text].join("\u0000");
    open.push({ text, depth: h.depth });
    return key;
  });
}

/** The locals with a positional tie-break whose target is not truly identical to the one the tie-break counts from. */
function tiesOutsideIdentical(headings: (HeadingInput | undefined)[], locals: string[]): string[] {
  const ids = identities(headings);
  const at = new Map(locals.map((l, i) => [l, i]));
  return locals.filter((local, i) => {
    if (!/~[0-9]+$/.test(local)) return false;
    const first = at.get(local.replace(/~[0-9]+$/, ""));
    return first === undefined || ids[first] !== ids[i];
  });
}

describe("expected addresses of each fixture", () => {
  test.each(FIXTURES)("%s", (name) => {
    const targets = targetsOf(fixture(name));
    const actual = targets.map((t) => `${t.local}\t${t.heading?.text ?? ""}`).join("\n");
    const expected = readFileSync(
      join(repoRoot, "test/fixtures-systems", `${name.replace(/\.md$/, "")}.expected.tsv`),
      "utf8",
    ).trimEnd();
    expect(actual).toBe(expected);
    expect(targets.filter((t) => !isLocalCoordinate(t.local)).map((t) => t.local)).toEqual([]);
    for (const t of targets) expect(formatLocal(parseLocal(t.local)!)).toBe(t.local);
    expect(new Set(targets.map((t) => t.local)).size).toBe(targets.length);
    expect(
      tiesOutsideIdentical(
        targets.map((t) => t.heading),
        targets.map((t) => t.local),
      ),
    ).toEqual([]);
  });

  test("the forms of the issue", () => {
    const locals = (texts: string[]) => assignLocalCoordinates(texts.map((text) => ({ text, depth: 2 })));
    expect(
      locals([
        "Article 6",
        "Article 6-1",
        "Article 16-1",
        "Article 16-1-1",
        "Article 38-0 septdecies",
        "Article 38-0 A",
        "Article L111-1",
        "Article R*111-2",
        "Article LO111-3",
      ]),
    ).toEqual([
      "art-6",
      "art-6-1",
      "art-16-1",
      "art-16-1-1",
      "art-38-0-septdecies",
      "art-38-0a",
      "art-l111-1",
      "art-r*111-2",
      "art-lo111-3",
    ]);
    expect(
      locals([
        "Art. 62",
        "Art. 62 a",
        "Art. 62 b",
        "Art. 62 c",
        "Article 6 bis",
        "Art. I[^1]",
        "Art. 12<sup>45</sup>",
        "Art. ****13 Titel",
        "1 : Impôt sur le revenu",
        "Article 1",
      ]),
    ).toEqual([
      "art-62",
      "art-62a",
      "art-62b",
      "art-62c",
      "art-6-bis",
      "art-i",
      "art-12",
      "art-13",
      "1-impôt-sur-le-revenu",
      "art-1",
    ]);
  });

  test("inserting Art. 62b between Art. 62a and Art. 62c moves no address (the Swiss re-point of the issue)", () => {
    const before = ["**Art. 62**", "**Art. 62** a", "**Art. 62** c", "**Art. 63**"];
    const after = ["**Art. 62**", "**Art. 62** a", "**Art. 62** b", "**Art. 62** c", "**Art. 63**"];
    const l = (texts: string[]) =>
      assignLocalCoordinates(texts.map((text) => ({ text: text.replace(/\*\*/g, ""), depth: 6 })));
    expect(l(before)).toEqual(["art-62", "art-62a", "art-62c", "art-63"]);
    expect(l(after)).toEqual(["art-62", "art-62a", "art-62b", "art-62c", "art-63"]);
  });
});

/**
 * One edit of a fixture: insert `insert` before the line `before`, delete the target at `remove`, or replace the line
 * `line`.
 */
type Edit =
  | { name: string; before: string; insert: string }
  | { name: string; remove: string; until?: string }
  | { name: string; line: string; replace: string; keepsOwn?: boolean; keepsText?: boolean };

const scenarios: Record<string, Edit[]> = {
  "fr-code.md": [
    {
      name: "insert an article between two",
      before: "###### Article L111-3",
      insert: "###### Article L111-2-2\n\nTexte.\n\n",
    },
    {
      name: "insert a bis article",
      before: "###### Article L121-2",
      insert: "###### Article L121-1 ter\n\nTexte.\n\n",
    },
    { name: "repeal an article", remove: "###### Article L121-3" },
    {
      name: "retitle a title",
      line: "### Titre II : Dispositions générales",
      replace: "### Titre II : Dispositions nouvelles",
      keepsOwn: true,
    },
  ],
  "fr-civil.md": [
    {
      name: "insert an article between two",
      before: "###### Article 16-2",
      insert: "###### Article 16-1-2\n\nTexte.\n\n",
    },
    {
      name: "insert a ter article",
      before: "## Livre Ier : Des personnes",
      insert: "###### Article 6 ter\n\nTexte.\n\n",
    },
    { name: "repeal an article", remove: "###### Article 6-1" },
    {
      name: "retitle a title",
      line: "### Titre Ier bis : De la nationalité française",
      replace: "### Titre Ier bis : De la nationalité",
      keepsOwn: true,
    },
  ],
  "de.md": [
    {
      name: "insert a § between two",
      before: "#### § 2 Allgemeine Vorschriften",
      insert: "#### § 1b Neue Vorschrift\n\nText.\n\n",
    },
    { name: "insert a lettered §", before: "#### § 3 (weggefallen)", insert: "#### § 2b Eingefügt\n\nText.\n\n" },
    { name: "repeal a § (delete it)", remove: "#### § 1a Bußgeldvorschriften" },
    {
      name: "repeal a § (keep its heading)",
      line: "#### § 4 Zuständigkeit",
      replace: "#### § 4 (weggefallen)",
      keepsOwn: true,
    },
    {
      name: "retitle a §",
      line: "#### § 2a Zuständigkeit",
      replace: "#### § 2a Örtliche Zuständigkeit",
      keepsOwn: true,
    },
    {
      name: "reword a list of §§ (`, ` → ` und `)",
      line: "#### §§ 160, 161 (weggefallen)",
      replace: "#### §§ 160 und 161 (weggefallen)",
      keepsOwn: true,
    },
    {
      name: "reword a list of §§ as a range",
      line: "#### §§ 160, 161 (weggefallen)",
      replace: "#### §§ 160 bis 161 (weggefallen)",
      keepsOwn: true,
    },
    {
      name: "drop the (XXXX) place holder of a repealed run",
      line: "#### (XXXX) §§ 157 bis 159 (weggefallen)",
      replace: "#### §§ 157 bis 159 (weggefallen)",
      keepsOwn: true,
    },
  ],
  "ch.md": [
    {
      name: "insert an article with its letter outside the bold",
      before: "###### **Art. 2**",
      insert: "###### **Art. 1** b\n\nText.\n\n",
    },
    {
      name: "insert a lettered article between two",
      before: "###### **Art. 7**",
      insert: "###### **Art. 6** a\n\nText.\n\n",
    },
    { name: "repeal an article", remove: "###### **Art. 3**" },
    {
      name: "retitle a unit",
      line: "#### 1. Abschnitt: Strafbestimmungen",
      replace: "#### 1. Abschnitt: Allgemeines",
      keepsOwn: true,
    },
    {
      name: "add the transitional provisions of a new amendment (Art. 1 restarts again)",
      before: "## Anhang 1",
      insert:
        "### Übergangsbestimmungen zur Änderung vom 3. Mai 2024\n\n###### **Art. 1**\n\nText.\n\n###### **Art. 2**\n\nText.\n\n",
    },
    {
      name: "drop the transitional provisions of an amendment",
      remove: "### Übergangsbestimmungen zur Änderung vom 5. Juni 2019",
      until: "## Anhang 1",
    },
    {
      name: "renumber the superscript footnote of a unit",
      line: "#### 1. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>112</sup>",
      replace: "#### 1. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>115</sup>",
      keepsOwn: true,
      keepsText: true,
    },
    {
      name: "renumber the footnote reference of a Titel (its definition stays)",
      line: "## 5. Titel: Vollzug[^110]",
      replace: "## 5. Titel: Vollzug[^116]",
      keepsOwn: true,
      keepsText: true,
    },
    {
      name: "renumber a footnote reference that a one-word definition makes a link",
      line: "###### **Art. 200**[^113]",
      replace: "###### **Art. 200**[^117]",
      keepsOwn: true,
      keepsText: true,
    },
  ],
  "au.md": [
    {
      name: "insert a section between two",
      before: "##### 3 Application",
      insert: "##### 2B New section\n\nText.\n\n",
    },
    { name: "insert a lettered section", before: "##### 5 Offences", insert: "##### 4B Inserted\n\nText.\n\n" },
    {
      name: "repeal a section (keep its heading)",
      line: "##### 6 Preliminary",
      replace: "##### 6 (repealed)",
      keepsOwn: true,
    },
    { name: "repeal a section (delete it)", remove: "##### 15 Offences" },
    {
      name: "retitle a subdivision",
      line: "#### Subdivision B—Interpretation",
      replace: "#### Subdivision B—Definitions",
      keepsOwn: true,
    },
  ],
  "at.md": [
    {
      name: "insert a lettered § (written with a space)",
      before: "#### § 2a Verweisungen",
      insert: "#### § 2 b Neu\n\nText.\n\n",
    },
    {
      name: "insert an Artikel between the last one and the annex",
      before: "## Anlage 1",
      insert: "## Artikel III\n\n### § 1 Schlussbestimmung\n\nText.\n\n",
    },
    { name: "repeal a §", remove: "#### § 3 Zuständigkeit" },
    {
      name: "retitle a Hauptstück",
      line: "### 1. Hauptstück - Allgemeine Bestimmungen",
      replace: "### 1. Hauptstück - Allgemeines",
      keepsOwn: true,
    },
  ],
  "es.md": [
    {
      name: "insert an artículo bis",
      before: "##### Artículo 3. Garantías",
      insert: "##### Artículo 2 bis. Nuevo\n\nTexto.\n\n",
    },
    {
      name: "insert a disposición between two",
      before: "## Disposición transitoria única. Procedimientos en curso",
      insert: "## Disposición adicional tercera. Nueva\n\nTexto.\n\n",
    },
    { name: "repeal an artículo", remove: "##### Artículo 4. Inicio" },
    {
      name: "retitle a disposición",
      line: "## Disposición final segunda. Entrada en vigor",
      replace: "## Disposición final segunda. Vigencia",
      keepsOwn: true,
    },
  ],
  "it.md": [
    {
      name: "insert an articolo quater",
      before: "##### Art. 2 - Maggiore età",
      insert: "##### Art. 1-quater\n\nTesto.\n\n",
    },
    {
      name: "insert an articolo bis between two",
      before: "##### Sezione II - Disposizioni speciali",
      insert: "###### Art. 3-bis\n\nTesto.\n\n",
    },
    { name: "repeal an articolo", remove: "##### Art. 1-ter" },
    { name: "retitle an articolo", line: "##### Art. 2 - Maggiore età", replace: "##### Art. 2 - Età", keepsOwn: true },
  ],
  "uk.md": [
    { name: "insert a section between two", before: "### 2 Interpretation", insert: "### 1B Extent\n\nText.\n\n" },
    { name: "insert a lettered section", before: "#### 4 Penalties", insert: "#### 3A New offence\n\nText.\n\n" },
    { name: "repeal a section", remove: "#### 4 Penalties" },
    { name: "retitle a section", line: "### 1 Short title", replace: "### 1 Short title and citation", keepsOwn: true },
  ],
  "us.md": [
    {
      name: "insert a section between two",
      before: "#### § 202. Administration",
      insert: "#### § 201a. Findings\n\nText.\n\n",
    },
    {
      name: "insert a lettered Sec.",
      before: "### Sec. 3. Authorization of appropriations.",
      insert: "### Sec. 2A. Findings.\n\nText.\n\n",
    },
    { name: "repeal a section", remove: "#### § 241. Research" },
    { name: "retitle a Sec.", line: "### SEC. 2. Definitions.", replace: "### SEC. 2. Terms.", keepsOwn: true },
  ],
};

function lineStart(text: string, line: string): number {
  const at = text.startsWith(`${line}\n`) ? 0 : text.indexOf(`\n${line}\n`) + 1;
  if (at === 0 && !text.startsWith(`${line}\n`)) throw new Error(`line not found: ${line}`);
  return at;
}

describe("an amendment scenario per system: every other address is unchanged, and no address names another target", () => {
  for (const [name, edits] of Object.entries(scenarios)) {
    test.each(edits.map((e) => [e.name, e] as const))(`${name}: %s`, (_, edit) => {
      const text = fixture(name);
      const before = targetsOf(text);
      let start: number;
      let end: number;
      let insert: string;
      if ("before" in edit) {
        start = end = lineStart(text, edit.before);
        insert = edit.insert;
      } else if ("remove" in edit) {
        start = lineStart(text, edit.remove);
        const next = before.find((t) => t.start > start);
        end = edit.until === undefined ? (next?.start ?? text.length) : lineStart(text, edit.until);
        insert = "";
      } else {
        start = lineStart(text, edit.line);
        end = start + edit.line.length;
        insert = edit.replace;
      }
      const after = targetsOf(text.slice(0, start) + insert + text.slice(end));
      const kept = before.filter((t) => t.start < start || t.start >= end);
      const keptAfter = after.filter((t) => t.start < start || t.start >= start + insert.length);
      expect(keptAfter.length).toBe(kept.length);
      // Every other target keeps its address.
      expect(keptAfter.map((t) => `${t.heading?.text} → ${t.local}`)).toEqual(
        kept.map((t) => `${t.heading?.text} → ${t.local}`),
      );
      // No new or edited target takes an address that named another target before.
      const owner = new Map(before.map((t) => [t.local, t.start]));
      for (const t of after.filter((t) => !(t.start < start || t.start >= start + insert.length))) {
        const was = owner.get(t.local);
        if (was !== undefined) expect(was, `${t.local} named another target`).toBe(start);
      }
      if ("keepsOwn" in edit && edit.keepsOwn)
        expect(after.find((t) => t.start === start)!.local).toBe(before.find((t) => t.start === start)!.local);
      // A renumbered footnote is no change of the heading: its text (headingText) stays.
      if ("keepsText" in edit && edit.keepsText)
        expect(after.find((t) => t.start === start)!.heading).toEqual(before.find((t) => t.start === start)!.heading);
      expect(
        tiesOutsideIdentical(
          after.map((t) => t.heading),
          after.map((t) => t.local),
        ),
      ).toEqual([]);
    });
  }
});

test("deleting outright a section whose number a schedule reuses leaves the schedule's clause its own address (no re-point)", () => {
  const text = fixture("au.md");
  const start = lineStart(text, "##### 7 Application");
  const before = targetsOf(text);
  const end = before.find((t) => t.start > start)!.start;
  const after = targetsOf(text.slice(0, start) + text.slice(end));
  const clause = (targets: Target[]) =>
    targets.find((t) => t.heading?.text.startsWith("7 Australian Example Principle"))!.local;
  expect([clause(before), clause(after)]).toEqual(["schedule-1/7", "schedule-1/7"]);
  expect(after.map((t) => t.local)).not.toContain("7");
});

/** A target and its ancestor headings (by level), as indices. */
function lineage(list: Tracked[], j: number): number[] {
  const out = [j];
  let depth = list[j]!.heading?.depth ?? 0;
  for (let k = j - 1; k >= 0 && depth > 1; k--) {
    const d = list[k]!.heading?.depth;
    if (d !== undefined && d < depth) {
      out.push(k);
      depth = d;
    }
  }
  return out;
}

/** A heading with the identity of its target across versions. */
interface Tracked {
  id: number;
  heading: HeadingInput | undefined;
}

type Op =
  | { kind: "insert"; at: number; from: number; variant: number }
  | { kind: "delete"; at: number }
  | { kind: "retitle"; at: number }
  | { kind: "renumber"; at: number; by: number }
  | { kind: "reword"; at: number; footnote: number };

/**
 * An editorial rewording of a heading, which changes neither what it designates nor its title: a list of two §§ joined
 * otherwise (`§§ 114, 115` ↔ `§§ 114 und 115`), the `(XXXX)` place holder before a designation dropped, or a footnote
 * reference or superscript renumbered or added (never to an empty heading, which a footnote's digits would fill).
 */
function reworded(text: string, footnote: number): string {
  const list = /^((?:\(XXXX\) )?§§ \d+[a-z]*)(, | und )(\d+[a-z]*)(?=$|[\s(])/.exec(text);
  if (list) return `${list[1]}${list[2] === ", " ? " und " : ", "}${list[3]}${text.slice(list[0].length)}`;
  if (/^\(XXXX\) (?=§)/.test(text)) return text.slice("(XXXX) ".length);
  if (/\[\^\d+\]|<sup>\d+<\/sup>/.test(text)) return text.replace(/\d+(?=\]|<\/sup>)/, String(footnote));
  if (isEmptyHeading(text)) return text;
  return footnote % 2 === 0 ? `${text}[^${footnote}]` : `${text} <sup>${footnote}</sup>`;
}

/**
 * A variant of a heading to insert: an identical sibling, the same designation with another title, a lettered or `bis`
 * form, a new number.
 */
function variantOf(text: string, variant: number): string {
  switch (variant) {
    case 0:
      return text;
    case 1:
      return `${text} Neu`;
    case 2:
      return text.replace(/\d+/, (n) => `${n}a`);
    case 3:
      return text.replace(/\d+/, (n) => `${n} bis`);
    default:
      return text.replace(/\d+/, (n) => String(Number(n) + 500));
  }
}

function apply(list: Tracked[], ops: Op[], nextId: { value: number }): Tracked[] {
  const out = [...list];
  for (const op of ops) {
    if (out.length < 2) break;
    const at = 1 + (op.at % (out.length - 1)); // never the text before the first heading
    if (op.kind === "insert") {
      // A new sibling, right before or right after the heading it is made from (as amendments insert provisions).
      const index = 1 + (op.from % (out.length - 1));
      const from = out[index]!.heading!;
      out.splice(index + (op.at % 2), 0, {
        id: nextId.value++,
        heading: { text: variantOf(from.text, op.variant), depth: from.depth },
      });
    } else if (op.kind === "delete") {
      // A heading with everything below it (a repealed unit goes with its provisions).
      let end = at + 1;
      while (end < out.length && (out[end]!.heading?.depth ?? 0) > out[at]!.heading!.depth) end++;
      out.splice(at, end - at);
    } else if (op.kind === "retitle") {
      const h = out[at]!.heading!;
      out[at] = { id: out[at]!.id, heading: { text: `${h.text} (geändert)`, depth: h.depth } };
    } else if (op.kind === "reword") {
      // An editorial rewording: the same target, cited the same way.
      const h = out[at]!.heading!;
      out[at] = { id: out[at]!.id, heading: { text: reworded(h.text, op.footnote), depth: h.depth } };
    } else {
      // Renumbering changes what the law cites: the renumbered heading is another target.
      const h = out[at]!.heading!;
      if (!/\d/.test(h.text)) continue;
      out[at] = {
        id: nextId.value++,
        heading: { text: h.text.replace(/\d+/, (n) => String(Number(n) + op.by)), depth: h.depth },
      };
    }
  }
  return out;
}

/**
 * Applies `ops` to the targets of `base` and checks every old address: it names the same target, is reported by diff,
 * or no longer exists (the exemptions below say when a citation moved with the law).
 */
function checkAmendment(base: Tracked[], ops: Op[]): void {
  const nextId = { value: base.length };
  const oldList = apply(base, ops.slice(0, 0), nextId);
  const newList = apply(base, ops, nextId);
  const oldLocals = assignLocalCoordinates(oldList.map((t) => t.heading));
  const newLocals = assignLocalCoordinates(newList.map((t) => t.heading));
  expect(new Set(newLocals).size).toBe(newLocals.length);
  expect(
    tiesOutsideIdentical(
      newList.map((t) => t.heading),
      newLocals,
    ),
  ).toEqual([]);
  const address = (local: string) => `act/act.md#${local}`;
  const reported = new Set(tieBreakShifts(oldLocals.map(address), newLocals.map(address)));
  const newIds = identities(newList.map((t) => t.heading));
  const at = new Map(newLocals.map((l, i) => [l, i]));
  const where = new Map(newList.map((t, i) => [t.id, i]));
  oldLocals.forEach((local, i) => {
    const j = at.get(local);
    if (j === undefined || newList[j]!.id === oldList[i]!.id) return;
    // Truly identical siblings whose number changed: diff reports the shift.
    if (reported.has(address(local))) return;
    const now = where.get(oldList[i]!.id);
    // The law gave the designation of a target it removed (deleted or renumbered) to a new one: the citation
    // moved with the law. Or the law gave the address of a scope to a new target (`art-91` renumbered from Art.
    // 88): what is below it follows.
    const oldAt = new Map(oldLocals.map((l, k) => [l, k]));
    for (let slash = local.indexOf("/"); slash !== -1; slash = local.indexOf("/", slash + 1)) {
      const scopeOld = oldAt.get(local.slice(0, slash));
      const scopeNew = at.get(local.slice(0, slash));
      if (
        scopeOld !== undefined &&
        scopeNew !== undefined &&
        oldList[scopeOld]!.id !== newList[scopeNew]!.id &&
        newList[scopeNew]!.id >= base.length
      )
        return;
    }
    // Or it renamed one (retitled an undesignated heading, whose text is its designation) and a new heading took
    // the old name.
    const gone = now === undefined || newList[now]!.heading?.text !== oldList[i]!.heading?.text;
    if (
      gone &&
      (lineage(newList, j).some((k) => newList[k]!.id >= base.length) ||
        newList[j]!.heading?.text === oldList[i]!.heading?.text)
    )
      return;
    // Otherwise only truly identical siblings may swap addresses (diff then reports the other text as
    // record-changed).
    expect(
      now === undefined ? undefined : newIds[now],
      `${local} re-pointed from ${oldList[i]!.heading?.text} to ${newList[j]!.heading?.text}`,
    ).toBe(newIds[j]);
  });
}

describe("random amendment sequences: an old address names the same target, is reported by diff, or no longer exists", () => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), from: fc.nat(), variant: fc.nat({ max: 4 }) }),
    fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("retitle" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("renumber" as const), at: fc.nat(), by: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant("reword" as const), at: fc.nat(), footnote: fc.nat({ max: 999 }) }),
  );
  test.each(FIXTURES)("%s", (name) => {
    const base: Tracked[] = parseArtifact(fixture(name)).targets.map((t, i) => ({ id: i, heading: t.heading }));
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 6 }), (ops) => {
        checkAmendment(base, ops);
      }),
      { numRuns: Number(process.env.SYSTEMS_RUNS ?? (name.length > 8 ? 40 : 60)) },
    );
  });

  test.each(FIXTURES)("%s: editorial rewordings alone move no address, every heading reworded or a few", (name) => {
    const base: Tracked[] = parseArtifact(fixture(name)).targets.map((t, i) => ({ id: i, heading: t.heading }));
    const locals = assignLocalCoordinates(base.map((t) => t.heading));
    const all = base.map((t, i) =>
      t.heading === undefined ? t.heading : { text: reworded(t.heading.text, i + 1), depth: t.heading.depth },
    );
    expect(assignLocalCoordinates(all)).toEqual(locals);
    fc.assert(
      fc.property(fc.array(fc.record({ at: fc.nat(), footnote: fc.nat({ max: 999 }) }), { minLength: 1 }), (edits) => {
        const ops: Op[] = edits.map((edit) => ({ kind: "reword", ...edit }));
        expect(assignLocalCoordinates(apply(base, ops, { value: base.length }).map((t) => t.heading))).toEqual(locals);
      }),
      { numRuns: 20 },
    );
  });

  // A counterexample fast-check found (seed -1717712736): Titel 1 and 2 renumbered into two identical `3. Titel:
  // Strafbestimmungen` beside `3. Titel: Begriffe`, and a Kapitel deleted. The second twin's Kapitel took the plain
  // `titel-3/kapitel-1`, which the Kapitel of `3. Titel: Begriffe` had before.
  test("ch.md: the Kapitel below the second of two identical Titel never take a plain address of another Titel's", () => {
    const base: Tracked[] = parseArtifact(fixture("ch.md")).targets.map((t, i) => ({ id: i, heading: t.heading }));
    const ops: Op[] = [
      // `at` 2147483633 when found; 65 picks the same heading (2. Titel) in the fixture grown since (issue 34).
      { kind: "renumber", at: 65, by: 1 },
      { kind: "renumber", at: 0, by: 2 },
      { kind: "delete", at: 1 },
    ];
    const after = apply(base, ops, { value: base.length });
    const locals = assignLocalCoordinates(after.map((t) => t.heading));
    const twins = after.flatMap((t, i) => (t.heading?.text === "3. Titel: Strafbestimmungen" ? [i] : []));
    expect(twins).toHaveLength(2);
    expect(locals[twins[1]!]).toBe("titel-3~strafbestimmungen~2");
    expect(locals[twins[1]! + 1]).toBe("titel-3~strafbestimmungen/kapitel-1");
    expect(locals.filter((local) => local.startsWith("titel-3/"))).toEqual([]);
    checkAmendment(base, ops);
  });
});
