// A long amendment, for the amendment page (`diff --format html`, issue 35): one Swiss-style act of
// `articles` articles in two versions, generated as two datasets with the library. The new version
// rewords the first `changed` articles (a word replaced, a sentence added, a footnote added) and
// repeals the last `repealed` ones; an approvals file approves every text change with one kind-wide
// entry, so the repeals are the changes that fail the gate. bench/html-view.js measures the page;
// test/browser/pages.browser.ts checks it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SUBJECTS = ["Aufgaben", "Zuständigkeiten", "Gebühren", "Verfahren", "Auskünfte", "Register", "Aufsicht"];
const ACTORS = ["Der Bundesrat", "Das Departement", "Die Kantone", "Das Bundesamt", "Die Gemeinden"];

/** The markdown of one article; `amended` gives the new version's wording. */
function article(n, amended) {
  const subject = SUBJECTS[n % SUBJECTS.length];
  const actor = ACTORS[n % ACTORS.length];
  const first = amended
    ? `<sup>1</sup> ${actor} regelt die ${subject} nach Artikel ${n} im Einvernehmen mit den Kantonen.[^${n}]`
    : `<sup>1</sup> ${actor} regelt die ${subject} nach Artikel ${n}.`;
  const second = `<sup>2</sup> Die Einzelheiten werden in einer Verordnung festgelegt${amended ? "; sie ist alle vier Jahre zu überprüfen" : ""}.`;
  const footnote = amended
    ? `\n\n[^${n}]: Fassung gemäss Ziff. I des BG vom 17. März 2017, in Kraft seit 1. Jan. 2018 (AS 2017 ${1000 + n}).`
    : "";
  return `##### **Art. ${n}** ${subject}\n\n${first}\n\n${second}${footnote}\n`;
}

function act(articles, changed, repealed, amended) {
  const kept = amended ? articles - repealed : articles;
  const parts = ["# Bundesgesetz über die Musterverwaltung (MVG)\n\nvom 1. Januar 2016 (Stand am 1. Januar 2018)\n"];
  for (let n = 1; n <= kept; n++) parts.push(article(n, amended && n <= changed));
  return parts.join("\n");
}

/**
 * Writes `old/` and `new/` (each `<slug>.jsonl` and its manifest) and `approvals.json` under `dir`, with the library's
 * `lock` and `generate`; returns their paths.
 */
export async function writeLongAmendment({ dir, lock, generate, articles = 930, changed = 900, repealed = 29 }) {
  rmSync(dir, { recursive: true, force: true });
  const paths = {};
  for (const side of ["old", "new"]) {
    const laws = join(dir, "laws", side, "mvg");
    mkdirSync(laws, { recursive: true });
    writeFileSync(join(laws, "index.md"), act(articles, changed, repealed, side === "new"));
    mkdirSync(join(dir, side), { recursive: true });
    const manifest = join(dir, side, "mvg.lock.json");
    await lock({
      dir: laws,
      cwd: dir,
      output: manifest,
      slug: "mvg",
      titleId: "SR-999.1",
      name: "Bundesgesetz über die Musterverwaltung",
      versionDate: side === "old" ? "2016-01-01" : "2018-01-01",
      sourceTextUrl: `https://www.fedlex.admin.ch/eli/cc/999/1/${side === "old" ? "20160101" : "20180101"}/de`,
    });
    paths[side] = join(dir, side, "mvg.jsonl");
    await generate({ manifest, output: paths[side], cwd: dir });
  }
  paths.approvals = join(dir, "approvals.json");
  writeFileSync(
    paths.approvals,
    `${JSON.stringify({ approvals: [{ kind: "record-changed", reason: "Revised by the Federal Act of 17 March 2017 (AS 2017 1000)" }] }, null, 2)}\n`,
  );
  return paths;
}
