import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { assignLocalCoordinates } from "../src/core/address/numbering.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import { repoRoot } from "./helpers/records.js";

/**
 * Address stability inside each heading pattern of docs/spec.md, section 7 ("Local coordinate:
 * scope"): for every fixture of test/fixtures-addresses, an insertion, a deletion, an amendment and
 * a retitling inside the pattern leave every other target's local coordinate as it was (and a
 * retitled designated heading keeps its own).
 */

const fixture = (name: string) => readFileSync(join(repoRoot, "test/fixtures-addresses", name), "utf8");

interface Target {
  start: number;
  heading: string;
  local: string;
}

function targetsOf(text: string): Target[] {
  const targets = parseArtifact(text).targets;
  const locals = assignLocalCoordinates(targets.map((t) => t.heading));
  return targets.map((t, i) => ({ start: t.start, heading: t.heading?.text ?? "", local: locals[i]! }));
}

/** One edit: replace `remove` (found at the line `line`, the first one after `after`) with `insert`. */
interface Edit {
  name: string;
  line: string;
  after?: string;
  /** For a deletion: the heading line the deleted run stops before (absent: the end of the text). */
  until?: string;
  insert?: string;
  /** For an amendment or a retitling: the text that replaces `line`. */
  replace?: string;
  /** The edited heading is designated: it keeps its own address too. */
  keepsOwn?: boolean;
}

/** Offset of `\n${line}` (at a line start) after the first occurrence of `after`. */
function locate(text: string, line: string, after = "", from = 0): number {
  const anchor = after === "" ? from : text.indexOf(`\n${after}\n`, from);
  if (anchor === -1) throw new Error(`anchor not found: ${after}`);
  const at = text.indexOf(`\n${line}\n`, anchor === 0 ? 0 : anchor + 1);
  if (at === -1) throw new Error(`line not found: ${line} after ${after}`);
  return at + 1;
}

function apply(text: string, edit: Edit): { start: number; end: number; insert: string } {
  const start = locate(text, edit.line, edit.after);
  if (edit.replace !== undefined) return { start, end: start + edit.line.length, insert: edit.replace };
  if (edit.insert !== undefined) return { start, end: start, insert: edit.insert };
  const end = edit.until === undefined ? text.length : locate(text, edit.until, "", start + 1);
  return { start, end, insert: "" };
}

/** Applies the edit; pairs every target outside the edited span before with the same target after. */
function applyEdit(name: string, edit: Edit) {
  const text = fixture(name);
  const before = targetsOf(text);
  const { start, end, insert } = apply(text, edit);
  const after = targetsOf(text.slice(0, start) + insert + text.slice(end));
  // A target that starts outside [start, end) before, and outside [start, start + insert.length) after, is the same
  // target.
  const kept = before.filter((t) => t.start < start || t.start >= end);
  const keptAfter = after.filter((t) => t.start < start || t.start >= start + insert.length);
  expect(keptAfter.length, "targets outside the edit").toBe(kept.length);
  return { before, after, pairs: kept.map((t, i) => [t, keptAfter[i]!] as const), start };
}

/** Applies the edit and checks that every target outside the edited span keeps its local coordinate. */
function checkStable(name: string, edit: Edit) {
  const { before, after, pairs, start } = applyEdit(name, edit);
  expect(pairs.map(([, t]) => `${t.heading} → ${t.local}`)).toEqual(pairs.map(([t]) => `${t.heading} → ${t.local}`));
  if (edit.keepsOwn) {
    const own = before.find((t) => t.start === start)!;
    const ownAfter = after.find((t) => t.start === start)!;
    expect(ownAfter.heading).not.toBe(own.heading);
    expect(ownAfter.local).toBe(own.local);
  }
  // New targets get designation-based coordinates too: no tie-break anywhere.
  expect(after.filter((t) => t.local.includes("~")).map((t) => t.local)).toEqual([]);
}

const patterns: Record<string, Edit[]> = {
  "annexed-agreement.md": [
    {
      name: "insert a § and its title into an annexed agreement",
      line: "## § 3",
      after: "## Anlage 3 (zu § 3)",
      insert: "## § 2a\n\n## Zuschläge\n\nZuschläge werden gesondert gezahlt.\n\n",
    },
    {
      name: "insert a whole annexed agreement",
      line: "## Anlage 3 (zu § 3)",
      insert:
        "## Anlage 2 (zu § 1)\n\nTarifvertrag vom 1. Juni 2018\n\n## § 1\n\n## Geltungsbereich\n\nWie Anlage 1.\n\n## § 2\n\n## Ausbildungsvergütung\n\n800 Euro.\n\n",
    },
    { name: "delete a § with its title", line: "## § 2", after: "## Anlage 1 (zu § 1)", until: "## § 3" },
    { name: "delete the first annexed agreement", line: "## Anlage 1 (zu § 1)", until: "## Anlage 3 (zu § 3)" },
    {
      name: "amend a provision of the agreement",
      line: "Die Ausbildungsvergütung beträgt monatlich im ersten Ausbildungsjahr 820 Euro, im zweiten 970 Euro, im dritten 1.150 Euro.",
      replace: "Die Ausbildungsvergütung beträgt monatlich 850 Euro.",
    },
    { name: "retitle an annex", line: "## Anlage 3 (zu § 3)", replace: "## Anlage 3 (zu § 3 Satz 2)", keepsOwn: true },
    {
      name: "retitle a bare § of the agreement",
      line: "## § 2",
      after: "## Anlage 8 (zu § 1)",
      replace: "## § 2 Urlaubsgeld",
      keepsOwn: true,
    },
    {
      name: "retitle a title heading (only its own address changes)",
      line: "## Ausbildungsvergütung",
      after: "## Anlage 3 (zu § 3)",
      replace: "## Höhe der Ausbildungsvergütung",
    },
  ],
  "pay-tables.md": [
    {
      name: "insert a pay order with its caption",
      line: "### Bundesbesoldungsordnung W",
      insert: "### Bundesbesoldungsordnung R\n\n#### (Monatsbeträge in Euro)\n\n| R 1 | 5.000,00 |\n|---|---|\n\n",
    },
    {
      name: "insert a pay grade",
      line: "### Besoldungsgruppe A 9",
      insert: "### Besoldungsgruppe A 7\n\n#### (Monatsbeträge in Euro)\n\nAnwärtergrundbetrag: 1.560,00\n\n",
    },
    {
      name: "delete the first pay order and its caption",
      line: "### Bundesbesoldungsordnung A",
      until: "### Bundesbesoldungsordnung B",
    },
    { name: "delete a pay grade", line: "### Besoldungsgruppe A 5", until: "### Besoldungsgruppe A 6" },
    { name: "amend a table", line: "| B 1 | 7.424,29 |", replace: "| B 1 | 7.600,00 |" },
    {
      name: "retitle an annex",
      line: "## Anlage IV (zu § 20 Absatz 2 Satz 1)",
      replace: "## Anlage IV (zu § 20 Absatz 2)",
      keepsOwn: true,
    },
    {
      name: "retitle a pay grade",
      line: "### Besoldungsgruppe A 6",
      replace: "### Besoldungsgruppe A 6 - Anwärter im mittleren Dienst",
      keepsOwn: true,
    },
  ],
  "treaty-annexes.md": [
    {
      name: "insert a compound annex",
      line: "## Anlage II Kap IV III Abschnitt III",
      insert: "## Anlage I Kap X D II Abschnitt IV\n\n### Maßgaben\n\nText.\n\n### 1.\n\nText.\n\n",
    },
    {
      name: "insert an item",
      line: "## Anlage I Kap X D II Abschnitt III",
      insert: "### 3.\n\nDas Lebensmittelgesetz wird geändert.\n\n",
    },
    {
      name: "delete the first compound annex",
      line: "## Anlage I Kap X D II Abschnitt II",
      until: "## Anlage I Kap X D II Abschnitt III",
    },
    {
      name: "amend",
      line: "Das Tierseuchengesetz mit folgenden Maßgaben.",
      replace: "Das Tiergesundheitsgesetz mit folgenden Maßgaben.",
    },
    {
      name: "retitle a compound annex",
      line: "## Anlage II Kap IV III Abschnitt III",
      replace: "## Anlage II Kap IV III Abschnitt III - Gesundheitswesen",
      keepsOwn: true,
    },
  ],
  "letter-digit-annexes.md": [
    {
      name: "insert a letter-digit annex with its form",
      line: "## Anlage D4c (zu § 3)",
      insert: "## Anlage D2c (zu § 3)\n\n### Muster eines Antrags\n\nAntrag auf Eintragung.\n\n",
    },
    {
      name: "delete the first annex and its form",
      line: "## Anlage C3 (zu § 3 Absatz 2)",
      until: "## Anlage D1 (zu § 3)",
    },
    {
      name: "amend a form",
      line: "Antrag auf Ersatzführerschein.",
      replace: "Antrag auf Ausstellung eines Ersatzführerscheins.",
    },
    {
      name: "retitle an annex",
      line: "## Anlage D2a (zu § 3)",
      replace: "## Anlage D2a (zu § 3 Absatz 1)",
      keepsOwn: true,
    },
    {
      name: "retitle a form title (only its own address changes)",
      line: "### Muster eines Antrags",
      after: "## Anlage D2b (zu § 3)",
      replace: "### Muster eines Antrags auf Ersatz",
    },
  ],
  "empty-headings.md": [
    {
      name: "insert a § after the empty heading of a §",
      line: "## Abschnitt 2 - Zwischenprüfung",
      insert: "### § 2a Ausbildungsrahmenplan\n\nText.\n\n###\n\nFußnote.\n\n",
    },
    {
      name: "insert a unit with its empty heading",
      line: "## Abschnitt 3 - Abschlussprüfung",
      insert: "## Abschnitt 2a - Gestreckte Abschlussprüfung\n\n###\n\n### § 4a Teil 1\n\nText.\n\n",
    },
    {
      name: "delete a § and its empty heading",
      line: "### § 2 Dauer der Berufsausbildung",
      until: "## Abschnitt 2 - Zwischenprüfung",
    },
    {
      name: "delete an empty heading",
      line: "###",
      after: "## Abschnitt 2 - Zwischenprüfung",
      until: "### § 3 Zwischenprüfung",
    },
    {
      name: "amend",
      line: "Fußnote: Kursivdruck in der Vorlage.",
      replace: "Fußnote: Kursivdruck und Fettdruck in der Vorlage.",
    },
    {
      name: "retitle the § an empty heading follows",
      line: "### § 2 Dauer der Berufsausbildung",
      replace: "### § 2 Ausbildungsdauer",
      keepsOwn: true,
    },
    {
      name: "retitle a unit",
      line: "## Abschnitt 2 - Zwischenprüfung",
      replace: "## Abschnitt 2 - Zwischenprüfung und Teil 1 der Abschlussprüfung",
      keepsOwn: true,
    },
  ],
  "numbered-items.md": [
    {
      name: "insert an item into a §",
      line: "## § 2 Begriffsbestimmungen",
      insert: "### 3.\n\nPrüfpflichtige Arbeitsmittel nach Anhang 3.\n\n",
    },
    {
      name: "insert a lettered item",
      line: "## § 3 Gefährdungsbeurteilung",
      insert: "#### c)\n\ndas Instandhalten.\n\n",
    },
    {
      name: "insert a roman part into an annex",
      line: "## Anhang 2 (zu § 1)",
      insert: "### III.\n\nBesondere Vorschriften für Aufzüge.\n\n#### 1.\n\nText.\n\n",
    },
    {
      name: "insert a §",
      line: "## § 3 Gefährdungsbeurteilung",
      insert: "## § 2a Grundpflichten\n\n### 1.\n\nText.\n\n",
    },
    { name: "delete a roman part with its items", line: "### I.", until: "### II." },
    { name: "delete an item", line: "### 1.", after: "## § 1 Anwendungsbereich", until: "### 2." },
    {
      name: "amend",
      line: "Selbstfahrende Arbeitsmittel müssen ausgerüstet sein.",
      replace: "Selbstfahrende Arbeitsmittel müssen mit Schutzeinrichtungen ausgerüstet sein.",
    },
    {
      name: "retitle a lettered item",
      line: "##### a) Selbstfahrende Arbeitsmittel",
      replace: "##### a) Selbstfahrende Flurförderzeuge",
      keepsOwn: true,
    },
  ],
  "ranges.md": [
    { name: "insert a §", line: "### §§ 15 bis 17 (weggefallen)", insert: "### § 14a Vertreter\n\nText.\n\n" },
    {
      name: "insert an article",
      line: "## Art 28 bis 36 (weggefallen)",
      insert: "## Art 27a Änderung der Zustellungsverordnung\n\nText.\n\n",
    },
    { name: "delete a range of §§", line: "### §§ 3 bis 13 (weggefallen)", until: "### § 14 Beteiligte" },
    {
      name: "delete an article",
      line: "## Art 27 Änderung des Verwaltungszustellungsgesetzes",
      until: "## Art 28 bis 36 (weggefallen)",
    },
    {
      name: "amend",
      line: "Dieses Gesetz tritt am Tag nach der Verkündung in Kraft.",
      replace: "Dieses Gesetz tritt am 1. Januar 2004 in Kraft.",
    },
    {
      name: "retitle a range of §§",
      line: "### §§ 3 bis 13 (weggefallen)",
      replace: "### §§ 3 bis 13 (aufgehoben)",
      keepsOwn: true,
    },
    {
      name: "retitle a range of articles",
      line: "## Art 2 bis 26 (weggefallen)",
      replace: "## Art 2 bis 26 (aufgehoben)",
      keepsOwn: true,
    },
  ],
  "repeated-titles.md": [
    {
      name: "insert a § after a § with a footnote",
      line: "## Abschnitt 2 - Verfahren",
      insert: "### § 2a Stellvertretung\n\nText.\n\nFußnote\n-------\n\nText.\n\n",
    },
    {
      name: "insert a unit with its own Vorbemerkung",
      line: "## Abschnitt 3 - Schlussvorschriften",
      insert: "## Abschnitt 2a - Rechtsbehelfe\n\n### Vorbemerkung\n\nText.\n\n### § 4a Widerspruch\n\nText.\n\n",
    },
    { name: "delete a § with its footnote", line: "### § 3 Vorsitz", until: "### § 4 Beschlussfassung" },
    { name: "delete a unit", line: "## Abschnitt 2 - Verfahren", until: "## Abschnitt 3 - Schlussvorschriften" },
    {
      name: "amend",
      line: "Der Prüfungsausschuss wählt ein Mitglied, das den Vorsitz führt.",
      replace: "Der Prüfungsausschuss wählt ein Mitglied für den Vorsitz.",
    },
    { name: "retitle a §", line: "### § 3 Vorsitz", replace: "### § 3 Vorsitz und Stellvertretung", keepsOwn: true },
    {
      name: "retitle a unit",
      line: "## Abschnitt 2 - Verfahren",
      replace: "## Abschnitt 2 - Prüfungsverfahren",
      keepsOwn: true,
    },
    {
      name: "retitle a title heading (only its own address changes)",
      line: "### Übergangsvorschrift",
      replace: "### Übergangsvorschriften",
    },
  ],
};

describe("every pattern fixture gets designation-based coordinates: no tie-break", () => {
  test.each(Object.keys(patterns))("%s", (name) => {
    const targets = targetsOf(fixture(name));
    expect(targets.filter((t) => t.local.includes("~")).map((t) => `${t.heading} → ${t.local}`)).toEqual([]);
    expect(new Set(targets.map((t) => t.local)).size).toBe(targets.length);
  });
});

for (const [name, edits] of Object.entries(patterns)) {
  describe(`stability: ${name}`, () => {
    test.each(edits.map((e) => [e.name, e] as const))("%s", (_, edit) => {
      checkStable(name, edit);
    });
  });
}

describe("a repeated undesignated heading of the body: every occurrence is qualified, so none depends on the first", () => {
  test("deleting the first occurrence changes no other address", () => {
    const { pairs } = applyEdit("repeated-titles.md", {
      name: "delete § 2 and its footnote",
      line: "### § 2 Zusammensetzung",
      until: "## Abschnitt 2 - Verfahren",
    });
    const changed = pairs
      .filter(([a, b]) => a.local !== b.local)
      .map(([a, b]) => `${a.heading}: ${a.local} → ${b.local}`);
    expect(changed).toEqual([]);
  });
});
