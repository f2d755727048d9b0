// Writes the realistic fixtures of test/fixtures-systems (de.md, fr-code.md, ch.md, au.md): laws shaped like the
// heading facts of docs/spec.md, section 7 ("Legal systems"): unit nesting, numbering restarting under every parent,
// inserted and repealed provisions, repeated captions, footnotes and noise. Deterministic (a fixed-seed generator):
// rerunning it (`node test/fixtures-systems/make-fixtures.mjs`) must leave git clean. The small fixtures of the other
// systems (at.md, es.md, it.md, uk.md, us.md, fr-civil.md) are written by hand.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const out = fileURLToPath(new URL(".", import.meta.url));

let seed = 22;
/** A number in [0, n), from a fixed-seed linear congruential generator. */
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pick = (list) => list[rnd(list.length)];
const roman = (n) => {
  const table = [
    [10, "X"],
    [9, "IX"],
    [5, "V"],
    [4, "IV"],
    [1, "I"],
  ];
  let s = "";
  for (const [v, r] of table) {
    while (n >= v) {
      s += r;
      n -= v;
    }
  }
  return s;
};
const LATIN = ["bis", "ter", "quater", "quinquies", "sexies"];
const body = (n) => `Texte de la disposition ${n}.\n`;

function write(name, lines) {
  writeFileSync(join(out, name), `${lines.join("\n")}\n`);
}

// French code: Partie > Livre > Titre > Chapitre > Section > articles L (législative) and R/D (réglementaire);
// Ier for first units, `Chapitre unique`, inserted `bis` articles and `-1` articles, repealed ones, and a
// one-article-several-versions repeat.
{
  const lines = ["# Code de l'exemple", "", "Version consolidée.", ""];
  const TITLES = [
    "Dispositions générales",
    "Champ d'application",
    "Procédure",
    "Sanctions",
    "Dispositions diverses",
    "Dispositions finales",
  ];
  for (const [partie, prefixes] of [
    ["Partie législative", ["L"]],
    ["Partie réglementaire", ["R", "D"]],
  ]) {
    lines.push(`# ${partie}`, "");
    for (let livre = 1; livre <= 5; livre++) {
      lines.push(`## Livre ${livre === 1 ? "Ier" : roman(livre)} : ${pick(TITLES)}`, "");
      const titres = 2 + rnd(3);
      for (let titre = 1; titre <= titres; titre++) {
        lines.push(`### Titre ${titre === 1 ? "Ier" : roman(titre)} : ${pick(TITLES)}`, "");
        const chapitres = rnd(3) === 0 ? 1 : 2 + rnd(2);
        for (let chapitre = 1; chapitre <= chapitres; chapitre++) {
          lines.push(
            chapitres === 1
              ? "#### Chapitre unique"
              : `#### Chapitre ${chapitre === 1 ? "Ier" : roman(chapitre)} : ${pick(TITLES)}`,
            "",
          );
          // Some chapters hold one `Article unique` (it recurs in the code under other chapters).
          if (chapitres > 1 && rnd(10) === 0) {
            lines.push("###### Article unique", "", body("unique"));
            continue;
          }
          const sections = rnd(2) === 0 ? 0 : 2;
          for (let section = 0; section <= sections; section++) {
            if (section > 0) lines.push(`##### Section ${section} : ${pick(TITLES)}`, "");
            if (section === 0 && sections > 0) continue;
            const articles = 2 + rnd(6);
            for (let article = 1; article <= articles; article++) {
              const prefix = prefixes[rnd(prefixes.length)];
              const number = `${prefix}${livre}${titre}${chapitre}-${(section > 0 ? (section - 1) * 10 : 0) + article}`;
              const repealed = rnd(15) === 0;
              lines.push(`###### Article ${number}`, "", repealed ? "(Abrogé)\n" : body(number));
              if (rnd(6) === 0) lines.push(`###### Article ${number}-1`, "", body(`${number}-1`));
              if (rnd(12) === 0) lines.push(`###### Article ${number} ${pick(LATIN)}`, "", body(`${number} bis`));
            }
          }
        }
      }
    }
  }
  lines.push("# Annexes", "", "## Article Annexe I", "", "Tableau.", "", "## Article Annexe II", "", "Tableau.", "");
  // Successive versions of one article under identical headings (truly identical siblings).
  lines.push(
    "## Article Annexe III",
    "",
    "###### Article 1",
    "",
    "(version 2019)",
    "",
    "###### Article 1",
    "",
    "(version 2021)",
    "",
  );
  write("fr-code.md", lines);
}

// German law: Teil > Abschnitt (restarting per Teil, ordinal words and numbers) > §§ with inserted `a` sections,
// repealed ones, a `*Begründung:*` under many §§, Anlagen with their own numbering, and an amending Art with its §§.
{
  const ORD = ["Erster", "Zweiter", "Dritter", "Vierter", "Fünfter"];
  const TITLES = [
    "Allgemeine Vorschriften",
    "Verfahren",
    "Zuständigkeit",
    "Leistungen",
    "Bußgeldvorschriften",
    "Übergangsvorschriften",
  ];
  const lines = [
    "# Gesetz über das Beispielwesen (Beispielgesetz - BspG)",
    "",
    "## Eingangsformel",
    "",
    "Der Bundestag hat das folgende Gesetz beschlossen:",
    "",
  ];
  let section = 0;
  for (let teil = 1; teil <= 5; teil++) {
    lines.push(`## ${ORD[teil - 1]} Teil - ${pick(TITLES)}`, "");
    const abschnitte = 2 + rnd(3);
    for (let abschnitt = 1; abschnitt <= abschnitte; abschnitt++) {
      lines.push(`### Abschnitt ${abschnitt} - ${pick(TITLES)}`, "");
      const count = 6 + rnd(10);
      for (let i = 0; i < count; i++) {
        section++;
        const repealed = rnd(12) === 0;
        lines.push(
          repealed ? `#### § ${section} (weggefallen)` : `#### § ${section} ${pick(TITLES)}`,
          "",
          `Text des § ${section}.`,
          "",
        );
        if (rnd(4) === 0) lines.push("##### *Begründung:*", "", "Erläuterung.", "");
        if (rnd(8) === 0) lines.push(`#### § ${section}a ${pick(TITLES)}`, "", `Text des § ${section}a.`, "");
      }
    }
  }
  // gesetze-im-internet.de forms: a `(XXXX)` place holder before a repealed run, a list of §§, a bare place holder.
  lines.push(
    `#### (XXXX) §§ ${section + 1} bis ${section + 3} (weggefallen)`,
    "",
    `#### §§ ${section + 4}, ${section + 5} (weggefallen)`,
    "",
    `#### § ${section + 6} Schlussvorschrift`,
    "",
    `Text des § ${section + 6}.`,
    "",
    "##### (XXXX)",
    "",
    "Text.",
    "",
  );
  lines.push("## Art 2 - Änderung des Verfahrensgesetzes", "", "## § 1", "", "Text.", "", "## § 2", "", "Text.", "");
  lines.push(
    "## Anlage 1 (zu § 5)",
    "",
    "### I.",
    "",
    "Text.",
    "",
    "### II.",
    "",
    "Text.",
    "",
    "## Anlage 2 (weggefallen)",
    "",
    "## Anlage 3 (zu § 12)",
    "",
    "### I.",
    "",
    "Text.",
    "",
  );
  lines.push("## Schlussformel", "", "Die verfassungsmäßigen Rechte des Bundesrates sind gewahrt.", "");
  write("de.md", lines);
}

// Swiss federal act: `1. Titel: …` > `2. Kapitel: …` > `3. Abschnitt: …`, articles in bold with inserted letters inside
// and outside the bold, footnote references, superscripts, a repeated `Fussnoten` heading, noise in the bold.
{
  const TITLES = [
    "Allgemeine Bestimmungen",
    "Zweck",
    "Geltungsbereich",
    "Begriffe",
    "Organisation",
    "Verfahren",
    "Strafbestimmungen",
  ];
  const lines = ["# Bundesgesetz über das Beispielwesen", "", "vom 1. Januar 2000 (Stand am 1. Juli 2024)", ""];
  let article = 0;
  for (let titel = 1; titel <= 4; titel++) {
    lines.push(`## ${titel}. Titel: ${pick(TITLES)}`, "");
    for (let kapitel = 1; kapitel <= 3; kapitel++) {
      lines.push(`### ${kapitel}. Kapitel: ${pick(TITLES)}`, "");
      for (let abschnitt = 1; abschnitt <= 2; abschnitt++) {
        lines.push(`#### ${abschnitt}. Abschnitt: ${pick(TITLES)}`, "");
        const count = 3 + rnd(6);
        for (let i = 0; i < count; i++) {
          article++;
          // Noise, footnote references and superscripts in the bold designation (every few articles, whatever the generator draws).
          const drawn = rnd(20);
          const style = article % 9 === 4 ? 1 : article % 11 === 6 ? 2 : drawn;
          const heading =
            style === 0
              ? `**Art. ****${article}**`
              : style === 1
                ? `**Art. ${article}**[^${article}]`
                : style === 2
                  ? `**Art. ${article}**<sup>${article}</sup>`
                  : `**Art. ${article}**`;
          lines.push(`###### ${heading}`, "", `${pick(TITLES)}`, "", `Text von Art. ${article}.`, "");
          if (rnd(5) === 0) {
            const letters = 1 + rnd(4);
            for (let l = 0; l < letters; l++) {
              const letter = "abcdefg"[l];
              lines.push(
                rnd(2) === 0 ? `###### **Art. ${article}** ${letter}` : `###### **Art. ${article}${letter}**`,
                "",
                `Text von Art. ${article}${letter}.`,
                "",
              );
            }
          }
          if (rnd(6) === 0) lines.push("###### Fussnoten", "", `[^${article}]: AS 2020 ${article}.`, "");
        }
      }
    }
  }
  // Footnote references and superscripts after unit titles and designations; a footnote whose text is one word is a
  // link reference definition in CommonMark, which makes its reference a link.
  lines.push(
    "## 5. Titel: Vollzug[^110]",
    "",
    "### 1. Kapitel: Wegweisung <sup>111</sup>",
    "",
    "#### 1. Abschnitt: Vollzug der Wegweisung und Ersatzmassnahmen <sup>112</sup>",
    "",
    "###### **Art. 200**[^113]",
    "",
    "Gegenstand",
    "",
    "Text von Art. 200.",
    "",
    "###### **Art. 201**",
    "",
    "Text von Art. 201.",
    "",
    "###### Fussnoten",
    "",
    "[^110]: Eingefügt durch Ziff. I des BG vom 1. Jan. 2020.",
    "",
    "[^113]: Aufgehoben",
    "",
  );
  lines.push("## Schlussbestimmungen", "", "###### **Art. 1.2**", "", "Übergangsbestimmung.", "");
  // Transitional provisions of two amendments, each restarting at Art. 1 (the same designation, other ancestors).
  for (const date of ["vom 1. März 2010", "vom 5. Juni 2019"]) {
    lines.push(`### Übergangsbestimmungen zur Änderung ${date}`, "");
    for (let a = 1; a <= 3; a++) lines.push(`###### **Art. ${a}**`, "", "Text.", "");
  }
  lines.push("## Anhang 1", "", "Liste.", "", "## Anhang 2", "", "Liste.", "");
  write("ch.md", lines);
}

// Australian Act: front matter, Part (roman with letters) > Division > Subdivision, sections with letter insertions,
// repealed sections, a Schedule with clauses and subclauses, endnotes; both em dash and `--` separators.
{
  const TITLES = [
    "Preliminary",
    "Interpretation",
    "Application",
    "Offences",
    "Miscellaneous",
    "Reporting",
    "Enforcement",
  ];
  const lines = [
    "# Example Act 1988",
    "",
    "## No. 103, 1988",
    "",
    "## Compilation No. 42",
    "",
    "## Table of Contents",
    "",
    "- Part I",
    "",
    "## An Act to make provision for examples",
    "",
  ];
  let section = 0;
  const parts = ["I", "II", "III", "IIIA", "IIIB", "IV", "V", "VI", "VII", "VIII"];
  for (const [p, part] of parts.entries()) {
    const dash = p % 2 === 0 ? "\u2014" : "--";
    lines.push(`## Part ${part}${dash}${pick(TITLES)}`, "");
    const divisions = rnd(2) === 0 ? 0 : 2 + rnd(2);
    for (let division = 0; division <= divisions; division++) {
      if (division > 0) lines.push(`### Division ${division}${dash}${pick(TITLES)}`, "");
      if (division === 0 && divisions > 0) continue;
      const subdivisions = rnd(3) === 0 ? 2 : 0;
      for (let sub = 0; sub <= subdivisions; sub++) {
        if (sub > 0) lines.push(`#### Subdivision ${"ABC"[sub - 1]}${dash}${pick(TITLES)}`, "");
        if (sub === 0 && subdivisions > 0) continue;
        const count = 3 + rnd(6);
        for (let i = 0; i < count; i++) {
          section++;
          lines.push(
            rnd(14) === 0 ? `##### ${section} (repealed)` : `##### ${section} ${pick(TITLES)}`,
            "",
            `Text of section ${section}.`,
            "",
          );
          if (rnd(7) === 0)
            lines.push(
              `##### ${section}A ${pick(TITLES)}`,
              "",
              "Text.",
              "",
              `##### ${section}AA ${pick(TITLES)}`,
              "",
              "Text.",
              "",
            );
        }
      }
    }
  }
  lines.push("## Schedule 1\u2014Australian Example Principles", "");
  for (let clause = 1; clause <= 13; clause++) {
    lines.push(`### ${clause} Australian Example Principle ${clause}\u2014${pick(TITLES).toLowerCase()}`, "");
    for (let sub = 1; sub <= 3; sub++) lines.push(`#### ${clause}.${sub}`, "", "Text.", "");
  }
  lines.push(
    "## Endnotes",
    "",
    "## Endnote 1--About the endnotes",
    "",
    "Text.",
    "",
    "## Endnote 2--Abbreviation key",
    "",
    "Text.",
    "",
    "##",
    "",
    "## Endnote 3--Legislation history",
    "",
    "Text.",
    "",
  );
  write("au.md", lines);
}
