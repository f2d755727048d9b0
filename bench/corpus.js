#!/usr/bin/env node
// A deterministic synthetic corpus of German-style federal law, shaped like the real one (6,636 laws,
// each one `index.md` in its own folder, locked as one dataset; ~150 MB; median ~10 KB per law, a long
// tail to 2.2 MB). Same bytes on every run and machine: a seeded PRNG (pure-rand's xoroshiro128+), only IEEE basic
// arithmetic for the size distribution (no Math.log/exp/sin, no locale functions), plain string sorts.
//
//   node bench/corpus.js [--mb 150] [--seed realistic-1] [--out bench/data/realistic/corpus-150mb]
//
// Prints the corpus description as JSON (files, bytes, size quantiles, digest). The digest is the
// SHA-256 over "path NUL sha256(file) LF" for every file in path order: equal digests, equal corpora.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";

/** A cached corpus is reused only when it was written by exactly this generator (the SHA-256 of this file). */
export const CORPUS_VERSION = createHash("sha256")
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest("hex")
  .slice(0, 16);
export const REAL_LAWS = 6636;
export const REAL_MB = 150;

// ---------------------------------------------------------------- PRNG and deterministic arithmetic

/**
 * The generator's four 32-bit words of state from a seed text: the first 16 bytes of its SHA-256, so that any text
 * seeds it (and two texts that differ give unrelated streams).
 */
function stateOf(seedText) {
  const digest = createHash("sha256").update(seedText).digest();
  return [0, 4, 8, 12].map((at) => digest.readInt32BE(at));
}

/** A seeded generator (pure-rand's xoroshiro128+) with helpers; every value derives from 32-bit integer steps. */
export function createRng(seedText) {
  const generator = xoroshiro128plusFromState(stateOf(seedText));
  const next = () => generator.next() >>> 0;
  const rng = {
    u32: next,
    /** [0, 1), exact: a 32-bit integer over 2^32. */
    float: () => next() / 4294967296,
    /** Integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor((next() / 4294967296) * (hi - lo + 1)),
    chance: (p) => next() / 4294967296 < p,
    pick: (list) => list[Math.floor((next() / 4294967296) * list.length)],
    /** Approximately standard normal: Irwin–Hall sum of 12 uniforms minus 6 (only additions). */
    normal: () => {
      let s = 0;
      for (let i = 0; i < 12; i++) s += next() / 4294967296;
      return s - 6;
    },
  };
  return rng;
}

/** e^y with IEEE basic operations only (argument reduction by ln 2, Taylor series, exact power of two). */
function exp(y) {
  const k = Math.round(y / Math.LN2);
  const r = y - k * Math.LN2;
  let term = 1;
  let sum = 1;
  for (let i = 1; i <= 22; i++) {
    term = (term * r) / i;
    sum += term;
  }
  let scale = 1;
  for (let i = 0; i < Math.abs(k); i++) scale *= 2;
  return k >= 0 ? sum * scale : sum / scale;
}

// ---------------------------------------------------------------- vocabulary

const SUBJECTS = [
  ["Arbeitsschutz", "ArbSch"],
  ["Straßenverkehr", "StV"],
  ["Lärmschutz", "LärmSch"],
  ["Wohngeld", "WoG"],
  ["Grundsteuer", "GrSt"],
  ["Luftverkehr", "LuftV"],
  ["Güterkraftverkehr", "GüKV"],
  ["Schiffssicherheit", "SchSi"],
  ["Düngemittel", "DüM"],
  ["Pflanzenschutz", "PflSch"],
  ["Tierärzte", "TierÄ"],
  ["Berufsausbildung", "BerAusb"],
  ["Sozialversicherung", "SozV"],
  ["Krankenversicherung", "KV"],
  ["Fernstraßen", "FStr"],
  ["Bundeswasserstraßen", "WaStr"],
  ["Zollverwaltung", "ZollV"],
  ["Münzwesen", "MünzW"],
  ["Gewässerschutz", "GewSch"],
  ["Kraftfahrzeugsteuer", "KraftSt"],
  ["Übergangsgeld", "ÜbG"],
  ["Beamtenversorgung", "BeamtV"],
  ["Bundesbesoldung", "BBes"],
  ["Außenwirtschaft", "AußWi"],
  ["Energiewirtschaft", "EnW"],
  ["Bodenschutz", "BBodSch"],
  ["Atomenergie", "AtE"],
  ["Lebensmittelhygiene", "LMHyg"],
  ["Trinkwasser", "TrinkW"],
  ["Gefahrstoffe", "GefSt"],
  ["Handwerksordnung", "HwO"],
  ["Gaststätten", "GastSt"],
  ["Ladenschluss", "LadSchl"],
  ["Heimarbeit", "HAG"],
  ["Mutterschutz", "MuSch"],
  ["Elterngeld", "BEEG"],
  ["Kindergeld", "KiG"],
  ["Bundesausbildungsförderung", "BAföG"],
  ["Wehrpflicht", "WPfl"],
  ["Zivilschutz", "ZSch"],
  ["Strahlenschutz", "StrlSch"],
  ["Gentechnik", "GenT"],
  ["Tierschutz", "TierSch"],
  ["Jagdwesen", "BJagd"],
  ["Fischerei", "Fisch"],
  ["Börsenwesen", "BörsW"],
  ["Kreditwesen", "KredW"],
  ["Versicherungsaufsicht", "VAG"],
  ["Wertpapierhandel", "WpH"],
  ["Geldwäsche", "GwG"],
  ["Personenbeförderung", "PBef"],
  ["Eisenbahnregulierung", "ERegG"],
  ["Postwesen", "PostW"],
  ["Telekommunikation", "TK"],
  ["Rundfunkgebühren", "RGeb"],
  ["Hochschulzulassung", "HZul"],
  ["Prüfungsordnung", "PrO"],
  ["Meisterprüfung", "MeistPr"],
  ["Gesellenprüfung", "GesPr"],
  ["Umsatzsteuer", "USt"],
  ["Einkommensteuer", "ESt"],
  ["Erbschaftsteuer", "ErbSt"],
  ["Grunderwerbsteuer", "GrESt"],
  ["Branntweinmonopol", "BranntwM"],
  ["Kaffeesteuer", "KaffeeSt"],
  ["Sprengstoffe", "Spreng"],
  ["Waffenrecht", "Waff"],
  ["Passwesen", "PaßW"],
  ["Meldewesen", "MeldW"],
  ["Staatsangehörigkeit", "StAng"],
  ["Datenschutz", "DS"],
  ["Informationsfreiheit", "IFG"],
  ["Vergabe öffentlicher Aufträge", "Verg"],
  ["Baugesetzbuch", "BauGB"],
  ["Raumordnung", "ROG"],
  ["Wohnungseigentum", "WEG"],
  ["Mietpreisbremse", "MiPrB"],
  ["Höfeordnung", "HöfeO"],
  ["Flurbereinigung", "FlurbG"],
  ["Seeschifffahrt", "SeeSchiff"],
];
const LAW_KINDS = [
  { weight: 34, kind: "verordnung", make: (s) => [`Verordnung über ${article(s)} ${s}`, "V"] },
  { weight: 22, kind: "gesetz", make: (s) => [`Gesetz über ${article(s)} ${s}`, "G"] },
  { weight: 10, kind: "gesetz", make: (s) => [`${s}gesetz`, "G"] },
  { weight: 8, kind: "verordnung", make: (s) => [`Verordnung zur Durchführung des ${s}gesetzes`, "DV"] },
  {
    weight: 7,
    kind: "aenderung",
    make: (s, r) => [
      `${r.pick(["Erste", "Zweite", "Dritte", "Vierte", "Fünfte", "Zwölfte"])} Verordnung zur Änderung der ${s}verordnung`,
      "ÄndV",
    ],
  },
  {
    weight: 6,
    kind: "vertrag",
    make: (s, r) => [
      `Gesetz zu dem Abkommen vom ${r.int(1, 28)}. ${r.pick(MONTHS)} ${r.int(1953, 2023)} zwischen der Bundesrepublik Deutschland und ${r.pick(COUNTRIES)} über ${article(s)} ${s}`,
      "AbkG",
    ],
  },
  { weight: 6, kind: "verordnung", make: (s) => [`Verordnung über die Berufsausbildung im Bereich ${s}`, "AusbV"] },
  {
    weight: 4,
    kind: "verordnung",
    make: (s) => [
      `Verordnung über die Prüfung zum anerkannten Fortbildungsabschluss Geprüfter Fachwirt für ${s}`,
      "FachwPrV",
    ],
  },
  {
    weight: 3,
    kind: "artikel",
    make: (s) => [`Gesetz zur Modernisierung des ${s}rechts und zur Änderung weiterer Vorschriften`, "ModG"],
  },
  { weight: 2, kind: "gesetz", make: (s) => [`Einführungsgesetz zum ${s}gesetz`, "EG"] },
  { weight: 2, kind: "bekanntmachung", make: (s) => [`Bekanntmachung über ${article(s)} ${s}`, "Bek"] },
];
const MONTHS = [
  "Januar",
  "Februar",
  "März",
  "April",
  "Mai",
  "Juni",
  "Juli",
  "August",
  "September",
  "Oktober",
  "November",
  "Dezember",
];
const COUNTRIES = [
  "der Französischen Republik",
  "dem Königreich der Niederlande",
  "der Republik Österreich",
  "der Schweizerischen Eidgenossenschaft",
  "dem Königreich Dänemark",
  "der Republik Polen",
  "der Tschechischen Republik",
  "dem Großherzogtum Luxemburg",
  "dem Königreich Belgien",
  "der Türkischen Republik",
  "den Vereinigten Staaten von Amerika",
  "Japan",
];
function article(s) {
  return /(e|ung|heit|keit|schaft|ion|ordnung)$/.test(s) ? "die" : s.endsWith("en") ? "das" : "den";
}

const ACTORS = [
  "Die zuständige Behörde",
  "Der Antragsteller",
  "Die Antragstellerin oder der Antragsteller",
  "Das Bundesministerium für Arbeit und Soziales",
  "Das Bundesministerium der Finanzen",
  "Die Bundesagentur für Arbeit",
  "Der Prüfungsausschuss",
  "Die Aufsichtsbehörde",
  "Der Arbeitgeber",
  "Die Krankenkasse",
  "Der Spitzenverband Bund der Krankenkassen",
  "Das Eisenbahn-Bundesamt",
  "Die Bundesnetzagentur",
  "Der Träger der Maßnahme",
  "Eine Verbraucherin oder ein Verbraucher",
  "Der Schuldner",
  "Das Gericht",
  "Die oberste Landesbehörde",
  "Der Unternehmer",
  "Die Genehmigungsbehörde",
];
const VERBS = [
  "kann auf Antrag",
  "hat unverzüglich",
  "ist verpflichtet,",
  "darf nur",
  "soll im Benehmen mit der obersten Dienstbehörde",
  "bestimmt durch Rechtsverordnung",
  "übermittelt der Datenstelle",
  "prüft nach pflichtgemäßem Ermessen",
  "erlässt im Einvernehmen mit dem Bundesministerium des Innern",
  "trägt die Kosten",
  "gewährt Zuschüsse",
  "überwacht die Einhaltung",
  "entscheidet über die Zulassung",
  "führt ein Verzeichnis",
  "erteilt die Genehmigung",
];
const OBJECTS = [
  "die erforderlichen Maßnahmen zur Abwehr von Gefahren",
  "die Angaben über Größe, Gewicht und Beschaffenheit der Fahrzeuge",
  "die Unterlagen nach Absatz 2 Satz 1",
  "die Höhe der Gebühren und Auslagen",
  "die Voraussetzungen für die Anerkennung ausländischer Berufsqualifikationen",
  "das Nähere über das Verfahren",
  "die Ergebnisse der Überprüfung",
  "eine Bescheinigung über die Teilnahme",
  "die für die Beurteilung maßgeblichen Tatsachen",
  "die Übermittlung personenbezogener Daten",
  "die Anzeige nach § 14",
  "den Zuschlag für Mehrarbeit",
  "den Ausgleichsbetrag",
  "die Beförderung gefährlicher Güter",
  "die Aufbewahrung der Nachweise für die Dauer von fünf Jahren",
  "die Bußgeldbescheide",
  "die Rücknahme oder den Widerruf der Erlaubnis",
];
const TAILS = [
  "zu treffen",
  "vorzulegen",
  "festzusetzen",
  "zu übermitteln",
  "bekannt zu geben",
  "zu erstatten",
  "anzuzeigen",
  "zu gewährleisten",
  "zu berücksichtigen",
  "zu veröffentlichen",
];
const REFS = [
  () => `nach § ${n3()} Abs. ${n1()} Satz ${n1()}`,
  () => `im Sinne des § ${n3()} Nr. ${n1()}`,
  () => `gemäß Artikel ${n2()} der Verordnung (EU) ${R.int(2000, 2024)}/${R.int(1, 2600)}`,
  () =>
    `in der Fassung der Bekanntmachung vom ${R.int(1, 28)}. ${R.pick(MONTHS)} ${R.int(1950, 2023)} (BGBl. I S. ${R.int(1, 4200)})`,
  () => `unbeschadet des § ${n3()}${R.pick(["", "a", "b"])}`,
  () => `nach Maßgabe der Absätze ${n1()} bis ${n1() + 3}`,
  () => `im Sinne des Artikels ${n2()} Absatz ${n1()} Buchstabe ${R.pick(["a", "b", "c", "d"])}`,
  () => `nach den §§ ${n2()} und ${n2() + 1} des Verwaltungsverfahrensgesetzes`,
  () => `gemäß § ${n3()} des Zehnten Buches Sozialgesetzbuch`,
  () => `außer in den Fällen des Absatzes ${n1()}`,
];
const CLAUSES = [
  "soweit nicht durch Rechtsverordnung etwas anderes bestimmt ist",
  "wenn Tatsachen die Annahme rechtfertigen, dass die Zuverlässigkeit nicht gegeben ist",
  "sofern die Gefährdung der öffentlichen Sicherheit ausgeschlossen ist",
  "es sei denn, die Überschreitung ist geringfügig",
  "bis zum Ablauf des 31. Dezember 2025",
  "längstens für die Dauer von drei Monaten",
  "wobei die Maßgaben der Anlage 2 zu beachten sind",
  "ohne dass es eines besonderen Antrags bedarf",
  "die Vorschriften über die Geheimhaltung bleiben unberührt",
  "das Nähere regelt die Geschäftsordnung",
  "für die Übergangszeit gilt § 45 entsprechend",
];
const SECTION_TITLES = [
  "Anwendungsbereich",
  "Begriffsbestimmungen",
  "Zuständigkeit",
  "Antrag",
  "Inkrafttreten",
  "Inkrafttreten, Außerkrafttreten",
  "Übergangsvorschrift",
  "Ordnungswidrigkeiten",
  "Verordnungsermächtigung",
  "Datenübermittlung",
  "Gebühren und Auslagen",
  "Prüfungsausschuss",
  "Zulassung zur Prüfung",
  "Bestehen der Prüfung",
  "Mitwirkungspflichten",
  "Geheimhaltung",
  "Erstattung von Auslagen",
  "Maßnahmen bei Gefahr",
  "Größe und Gewicht der Fahrzeuge",
  "Rücknahme und Widerruf",
  "Anzeigepflicht",
  "Aufbewahrungsfristen",
  "Ausbildungsrahmenplan",
  "Ausbildungsberufsbild",
  "Dauer der Berufsausbildung",
  "Gliederung der Abschlussprüfung",
  "Zwischenprüfung",
  "Anrechnung anderer Prüfungsleistungen",
  "Höhe des Zuschusses",
  "Verfahren",
  "Rechtsweg",
  "Bußgeldvorschriften",
  "Strafvorschriften",
  "Aufsicht",
  "Berichtspflicht",
  "Evaluierung",
  "Einschränkung von Grundrechten",
  "Sonderregelungen für Härtefälle",
  "Beginn der Rechtsfähigkeit",
  "Wohnsitz; Begründung und Aufhebung",
  "Schutz der freien Mandatsausübung",
  "Pflichten des Arbeitgebers",
  "Übermittlungssperre",
  "Änderung von Ausbildungsverträgen",
  "Kündigung aus wichtigem Grund",
  "Fälligkeit",
  "Verjährung",
  "Überleitungsregelung",
  "Beiträge zur Sozialversicherung",
];
const UNIT_TITLES = [
  "Allgemeine Vorschriften",
  "Anwendungsbereich und Begriffsbestimmungen",
  "Zuständigkeit und Verfahren",
  "Übergangs- und Schlussvorschriften",
  "Bußgeldvorschriften",
  "Straf- und Bußgeldvorschriften",
  "Leistungen",
  "Finanzierung",
  "Aufsicht",
  "Datenschutz",
  "Prüfungen",
  "Gebühren und Auslagen",
  "Rechte und Pflichten der Beteiligten",
  "Organisation",
  "Verfahren vor der Behörde",
  "Besondere Vorschriften für Fahrzeuge mit Anhänger",
  "Versicherter Personenkreis",
  "Leistungen bei Krankheit",
  "Beziehungen der Krankenkassen zu den Leistungserbringern",
  "Ärzte, Zahnärzte und Psychotherapeuten",
  "Schuldverhältnisse aus Verträgen",
  "Natürliche Personen, Verbraucher, Unternehmer",
  "Juristische Personen",
  "Sachen und Tiere",
  "Rechtsgeschäfte",
  "Fristen, Termine",
  "Verjährung",
  "Ausübung der Rechte, Selbstverteidigung, Selbsthilfe",
  "Sicherheitsleistung",
  "Grundsätze",
  "Maßnahmen zur Qualitätssicherung",
];
const UNIT_WORDS = {
  buch: ["Buch", "n"],
  teil: ["Teil", "m"],
  kapitel: ["Kapitel", "n"],
  abschnitt: ["Abschnitt", "m"],
  unterabschnitt: ["Unterabschnitt", "m"],
  titel: ["Titel", "m"],
  untertitel: ["Untertitel", "m"],
};
const HIERARCHIES = [
  ["abschnitt"],
  ["abschnitt", "unterabschnitt"],
  ["teil", "abschnitt"],
  ["teil", "kapitel", "abschnitt"],
  ["kapitel", "abschnitt", "unterabschnitt"],
  ["buch", "abschnitt", "titel", "untertitel"],
  ["kapitel", "abschnitt", "titel"],
  ["teil", "kapitel", "abschnitt", "unterabschnitt"],
];
const ORDINAL_STEMS = [
  "Erst",
  "Zweit",
  "Dritt",
  "Viert",
  "Fünft",
  "Sechst",
  "Siebt",
  "Acht",
  "Neunt",
  "Zehnt",
  "Elft",
  "Zwölft",
  "Dreizehnt",
  "Vierzehnt",
  "Fünfzehnt",
  "Sechzehnt",
  "Siebzehnt",
  "Achtzehnt",
  "Neunzehnt",
];
const ONES = ["", "Ein", "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun"];
const TENS = { 2: "zwanzigst", 3: "dreißigst", 4: "vierzigst", 5: "fünfzigst" };
function ordinal(n, gender) {
  let stem;
  if (n < 20) stem = ORDINAL_STEMS[n - 1];
  else {
    const tens = TENS[Math.floor(n / 10)] ?? "fünfzigst";
    const ones = n % 10;
    stem = ones === 0 ? tens[0].toUpperCase() + tens.slice(1) : `${ONES[ones]}und${tens}`;
  }
  return stem + (gender === "n" ? "es" : gender === "f" ? "e" : "er");
}
const ROMAN = [
  "I",
  "II",
  "III",
  "IV",
  "V",
  "VI",
  "VII",
  "VIII",
  "IX",
  "X",
  "XI",
  "XII",
  "XIII",
  "XIV",
  "XV",
  "XVI",
  "XVII",
  "XVIII",
  "XIX",
  "XX",
];
const roman = (n) => ROMAN[(n - 1) % ROMAN.length] + (n > 20 ? "X".repeat(Math.floor((n - 1) / 20)) : "");

// The PRNG of the law being written (module state keeps the generators short).
let R = createRng("init");
const n1 = () => R.int(1, 9);
const n2 = () => R.int(1, 60);
const n3 = () => R.int(1, 250);

// ---------------------------------------------------------------- text

function sentence() {
  const parts = [R.pick(ACTORS), R.pick(VERBS), R.pick(OBJECTS)];
  if (R.chance(0.5)) parts.push(R.pick(REFS)());
  parts.push(R.pick(TAILS));
  let s = parts.join(" ");
  if (R.chance(0.35)) s += `, ${R.pick(CLAUSES)}`;
  if (R.chance(0.04))
    s += ` (${R.pick(["„Ausbildungsnachweis“", "„Fachkraft für Lagerlogistik“", "Anzeige", "„Schlussbescheid“"])})`;
  if (R.chance(0.03))
    s += ` [BGBl. I S. ${R.int(1, 3999)}](https://www.bgbl.de/xaver/bgbl/start.xav?startbk=Bundesanzeiger_BGBl&jumpTo=bgbl1${R.int(10, 23)}s${R.int(1, 3999)}.pdf)`;
  return `${s}.`;
}

function prose(sentences) {
  const out = [];
  for (let i = 0; i < sentences; i++) out.push(sentence());
  return out.join(" ");
}

/** Hard-wraps at `width` like the pandoc output of the real corpus (width 0: one long line). */
function wrap(text, width, indent = "") {
  if (width === 0 || text.length <= width) return text;
  const words = text.split(" ");
  const lines = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.join(`\n${indent}`);
}

function money() {
  const euros = R.int(1800, 12999);
  const thousands = Math.floor(euros / 1000);
  const rest = String(euros % 1000).padStart(3, "0");
  return `${thousands} ${rest},${String(R.int(0, 99)).padStart(2, "0")}`;
}

function payTable() {
  const steps = R.int(4, 8);
  const head = ["Besoldungsgruppe", ...Array.from({ length: steps }, (_, i) => `Stufe ${i + 1}`)];
  const rows = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  const grade = R.pick(["A", "B", "R", "W", "E"]);
  const first = R.int(2, 9);
  for (let g = first; g < first + R.int(3, 12); g++)
    rows.push(`| ${grade} ${g} | ${Array.from({ length: steps }, () => money()).join(" | ")} |`);
  const caption = R.pick([
    "(Monatsbeträge in Euro)",
    "(Monatsbeträge in Euro)",
    "(Jahresbeträge in Euro)",
    "Gültig ab 1. März 2024\n\n(Monatsbeträge in Euro)",
  ]);
  return `${R.pick(["Grundgehaltssätze", "Familienzuschlag", "Amtszulagen", "Anwärtergrundbetrag"])}\n\n${caption}\n\n${rows.join("\n")}`;
}

function plainTable() {
  const cols = R.int(2, 4);
  const head = ["Leistung", "Frist", "Zuständigkeit", "Gebühr in Euro"].slice(0, cols);
  const rows = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (let i = R.int(2, 9); i > 0; i--) {
    rows.push(
      `| ${[R.pick(["Auskunft", "Akteneinsicht", "Prüfung", "Bescheinigung", "Zulassung", "Überprüfung"]), `${R.int(1, 12)} Wochen`, R.pick(["Bundesamt", "Landesbehörde", "Kammer"]), `${R.int(5, 900)},00`].slice(0, cols).join(" | ")} |`,
    );
  }
  return rows.join("\n");
}

// ---------------------------------------------------------------- blocks of a section

/** One section's body (a list of blocks joined by blank lines). */
function sectionBody(law) {
  const blocks = [];
  const w = law.width;
  const absaetze = R.chance(0.25) ? 0 : R.int(1, 6);
  if (absaetze === 0) blocks.push(wrap(prose(R.int(1, 4)), w));
  for (let a = 1; a <= absaetze; a++) {
    blocks.push(wrap(`(${a}) ${prose(R.int(1, 4))}`, w));
    if (R.chance(0.12)) blocks.push(...itemList(law));
    if (R.chance(0.03)) blocks.push(R.chance(0.4) && law.pay ? payTable() : plainTable());
    if (R.chance(0.01)) blocks.push(`> ${wrap(`„${prose(1).slice(0, -1)}“`, w, "> ")}`);
    if (R.chance(0.008))
      blocks.push(
        `<!-- ${R.pick(["Änderung durch Art. 3 G v. 12.6.2024 noch nicht berücksichtigt", "Stand: amtliche Fassung", "Textnachweis ab: 1.1.1980"])} -->`,
      );
    if (R.chance(0.008))
      blocks.push(
        `    ${R.pick(["Muster", "Formblatt", "Vordruck"])} ${R.int(1, 12)}\n    Name, Vorname: ..................\n    Anschrift:     ..................`,
      );
  }
  if (R.chance(0.025)) {
    // A footnote separator straight under a paragraph line: CommonMark reads the paragraph as a setext heading.
    const note = R.chance(0.3)
      ? wrap(`(${absaetze + 1}) ${prose(2)}`, w)
      : R.pick([
          "(+++ Textnachweis ab: 1.1.1980 +++)",
          "Fußnote",
          "(+++ Zur Anwendung vgl. § 12 +++)",
          `(${absaetze + 1}) Die Vorschrift tritt am 1. Januar 2025 außer Kraft.`,
        ]);
    blocks.push(`${note}\n-----`);
    blocks.push(
      wrap(
        `${R.pick(["§ 3 Abs. 3 Kursivdruck:", "Fußnote:", "Zur Anwendung:"])} Aufgrund offensichtlicher Unrichtigkeit wurde das Wort „Maßnahme“ durch das Wort „Maßnahmen“ ersetzt.`,
        w,
      ),
    );
  }
  return blocks;
}

/** Numbered items in the styles of the corpus: pandoc lists, plain text lines, nested markdown lists. */
function itemList(law) {
  const style = R.int(0, 4);
  const count = R.int(2, 7);
  const out = [];
  const item = () => `${R.pick(OBJECTS)}${R.chance(0.4) ? ` ${R.pick(REFS)()}` : ""}`;
  if (style === 0) {
    // pandoc: "1.  text" with 4-space continuation, blank lines between, letters nested as text
    for (let i = 1; i <= count; i++) {
      let text = `${i}.  ${wrap(`${item()},`, law.width, "    ")}`;
      if (R.chance(0.3)) {
        for (let j = 0; j < R.int(2, 4); j++) {
          text += `\n\n    ${"abcdefgh"[j]})  ${item()},`;
          if (R.chance(0.2)) text += `\n\n        ${"abcdefgh"[j].repeat(2)}) ${item()},`;
        }
      }
      out.push(text);
    }
    out.push(`${wrap(prose(1), law.width)}`);
  } else if (style === 1) {
    // plain text lines under a lead-in: "1." interrupts the paragraph, the rest are list items
    const lines = [wrap(`Im Sinne dieser ${law.kind === "gesetz" ? "Gesetzes" : "Verordnung"} sind:`, law.width)];
    for (let i = 1; i <= count; i++) lines.push(`${i}. ${item()};`);
    out.push(lines.join("\n"));
  } else if (style === 2) {
    // letters as plain text lines: stays one paragraph
    const lines = [`${R.pick(ACTORS)} hat folgende Angaben zu machen:`];
    for (let i = 0; i < count; i++) lines.push(`${"abcdefgh"[i]}) ${item()},`);
    if (R.chance(0.5)) lines.push(`aa) ${item()},`, `bb) ${item()}.`);
    out.push(lines.join("\n"));
  } else if (style === 3) {
    // nested markdown lists
    const lines = [];
    for (let i = 1; i <= count; i++) {
      lines.push(`${i}. ${item()}`);
      if (R.chance(0.3))
        for (let j = 0; j < R.int(1, 3); j++)
          lines.push(`   - ${item()}`, ...(R.chance(0.2) ? [`     - ${item()}`] : []));
    }
    out.push(lines.join("\n"));
  } else {
    // en dash items as in the corpus ("–   text"), which are paragraphs, not list items
    for (let i = 0; i < count; i++) out.push(`–   ${wrap(item(), law.width, "    ")},`);
    out.push("orientiert.");
  }
  return out;
}

// ---------------------------------------------------------------- one law

function heading(depth, text) {
  if (depth > 6) depth = 6;
  if (R.chance(0.004)) return `${"#".repeat(depth)} ${text} ${"#".repeat(depth)}`; // closing sequence
  return `${"#".repeat(depth)} ${text}`;
}

function unitHeading(law, word, n, level) {
  const [name, gender] = UNIT_WORDS[word];
  const title = R.pick(UNIT_TITLES);
  const fixed = law.firstUnits?.[level];
  if (fixed && n === 1 && !law.unitsUsed.has(level)) {
    law.unitsUsed.add(level);
    return `${name} 1 - ${fixed}`;
  }
  if (R.chance(0.02)) return `${name} ${n} (weggefallen)`;
  switch (law.unitStyle) {
    case 0:
      return `${name} ${n} - ${title}`;
    case 1:
      return `${ordinal(n, gender)} ${name} - ${title}`;
    case 2:
      return `${n}. ${name} - ${title}`;
    case 3:
      return `${name} ${roman(n)}. - ${title}`;
    default:
      return R.chance(0.1) ? `${name} ${n}a - ${title}` : `${name} ${n} - *${title}*`;
  }
}

function frontMatter(law) {
  const lines = [
    "---",
    `Title: ${law.title}`,
    `jurabk: ${law.jurabk}`,
    "layout: default",
    `origslug: ${law.slug}`,
    `slug: ${law.slug}`,
  ];
  if (R.chance(0.7)) lines.push(`date: "${law.date}"`);
  else lines.push(`date: ${law.date}`);
  lines.push(`ausfertigung: ${law.ausfertigung}`);
  if (R.chance(0.6)) lines.push(`fundstelle: "BGBl I: ${law.ausfertigung.slice(0, 4)}, ${R.int(1, 3999)}"`);
  if (R.chance(0.5))
    lines.push(
      `stand: 'Zuletzt geändert durch Art. ${R.int(1, 40)} G v. ${R.int(1, 28)}.${R.int(1, 12)}.${R.int(2000, 2024)} I ${R.int(1, 3999)}'`,
    );
  if (R.chance(0.25))
    lines.push(
      "hinweis: |",
      `  Änderung durch Art. ${R.int(1, 9)} G v. ${R.int(1, 28)}.${R.int(1, 12)}.2024 I Nr. ${R.int(1, 400)}`,
      "  textlich nachgewiesen, dokumentarisch noch nicht abschließend bearbeitet",
    );
  if (R.chance(0.2)) lines.push("amtabk: >-", `  ${law.jurabk}`, `  ${law.ausfertigung.slice(0, 4)}`);
  if (R.chance(0.3))
    lines.push(
      `tags: [${R.pick(["Verwaltungsrecht", "Sozialrecht", "Steuerrecht", "Verkehrsrecht", "Berufsbildung"])}, Bundesrecht]`,
    );
  if (R.chance(0.5)) lines.push(""); // a blank line before the closing fence, as in the corpus
  lines.push("---");
  return lines.join("\n");
}

/** Writes one law of about `size` bytes; returns its text. */
function writeLaw(law, size) {
  const out = [];
  let bytes = 0;
  const push = (block) => {
    out.push(block);
    bytes += Buffer.byteLength(block) + 2;
  };
  push(frontMatter(law));
  push(heading(1, law.heading));
  const meta = [
    `Ausfertigungsdatum\n:   ${law.ausfertigung}`,
    `Fundstelle\n:   BGBl I: ${law.ausfertigung.slice(0, 4)}, ${R.int(1, 3999)}`,
  ];
  if (R.chance(0.5))
    meta.push(
      `Zuletzt geändert durch\n:   Art. ${R.int(1, 30)} G v. ${R.int(1, 28)}.${R.int(1, 12)}.${R.int(2000, 2024)} I ${R.int(1, 3999)}`,
    );
  for (const m of meta) push(m);
  if (R.chance(0.3))
    push(
      `(+++ Textnachweis ab: ${R.int(1, 28)}.${R.int(1, 12)}.${R.int(1970, 2020)} +++)\n(+++ Zur Anwendung vgl. § ${R.int(1, 40)} +++)`,
    );

  const annexShare =
    law.kind === "verordnung" ? (R.chance(0.5) ? R.float() * 0.5 : 0) : R.chance(0.2) ? R.float() * 0.3 : 0;
  const bodyBudget = size * (1 - annexShare);
  const sectionSize = 600 + R.int(0, 2400);
  const sections = Math.max(1, Math.round((bodyBudget - bytes) / sectionSize));

  if (sections > 30 && R.chance(0.6)) {
    push(heading(2, "Inhaltsübersicht"));
    const toc = [];
    for (let i = 1; i <= Math.min(sections, 400); i++) toc.push(`§ ${i} ${R.pick(SECTION_TITLES)}`);
    push(law.width ? toc.join("  \n") : toc.join("\n"));
  }
  if (R.chance(0.4)) {
    push(heading(2, "Eingangsformel"));
    push(
      wrap(
        `Auf Grund des § ${n3()} Abs. ${n1()} des ${R.pick(SUBJECTS)[0]}gesetzes vom ${R.int(1, 28)}. ${R.pick(MONTHS)} ${R.int(1950, 2020)} (BGBl. I S. ${R.int(1, 3999)}) verordnet das Bundesministerium für Wirtschaft und Klimaschutz:`,
        law.width,
      ),
    );
  } else if (R.chance(0.3)) {
    push(wrap("Der Bundestag hat mit Zustimmung des Bundesrates das folgende Gesetz beschlossen:", law.width));
  }

  // Units: how many sections per unit at each level, from the innermost outwards.
  const levels =
    sections < 15
      ? []
      : sections < 60
        ? law.hierarchy.slice(-1)
        : sections < 300
          ? law.hierarchy.slice(-2)
          : law.hierarchy;
  const counters = levels.map(() => 0);
  const perUnit = levels.map((_, i) => {
    let p = 1;
    for (let k = i; k < levels.length; k++) p *= 7; // sections per unit: 7, 49, 343, ...
    return p;
  });
  let provision = 0;
  let article = 0;
  let sinceUnit = levels.map(() => Infinity);
  const useArticles = law.kind === "artikel" || law.kind === "vertrag";
  while (bytes < bodyBudget) {
    // open units: the outermost level whose run is due, and every level inside it
    for (let l = 0; l < levels.length; l++) {
      if (sinceUnit[l] >= perUnit[l] * (0.5 + R.float())) {
        for (let k = l; k < levels.length; k++) {
          counters[k] = k === l ? counters[k] + 1 : 1;
          sinceUnit[k] = 0;
          push(heading(2 + k, unitHeading(law, levels[k], counters[k], k)));
          if (R.chance(0.04)) push(heading(3 + k, "")); // an empty heading
        }
        break;
      }
    }
    sinceUnit = sinceUnit.map((s) => s + 1);
    const depth = Math.min(6, 2 + levels.length);
    if (useArticles) {
      article++;
      if (R.chance(0.03)) {
        const to = article + R.int(2, 10);
        push(heading(depth, `Art ${article} bis ${to} (weggefallen)`));
        article = to;
        continue;
      }
      const word = law.kind === "vertrag" ? R.pick(["Artikel", "Artikel", "Art."]) : "Art";
      if (law.kind === "artikel") {
        const amended = `${R.pick(SUBJECTS)[0]}${R.pick(["gesetzes", "verordnung", "gesetzbuchs"])}`;
        push(heading(depth, `${word} ${article} Änderung des ${amended}`));
        push(
          wrap(
            `Das ${amended} vom ${R.int(1, 28)}. ${R.pick(MONTHS)} ${R.int(1950, 2020)} (BGBl. I S. ${R.int(1, 3999)}), das zuletzt durch Artikel ${n1()} des Gesetzes vom ${R.int(1, 28)}. ${R.pick(MONTHS)} 2023 (BGBl. 2023 I Nr. ${R.int(1, 400)}) geändert worden ist, wird wie folgt geändert:`,
            law.width,
          ),
        );
        const changes = [];
        for (let i = 1; i <= R.int(1, 9); i++) {
          changes.push(
            `${i}.  § ${n3()} wird wie folgt geändert:\n\n    a)  In Absatz ${n1()} Satz ${n1()} wird die Angabe „${R.int(2000, 2023)}“ durch die Angabe „${R.int(2024, 2030)}“ ersetzt.\n\n    b)  Absatz ${n1()} wird aufgehoben.`,
          );
          if (R.chance(0.3))
            changes.push(
              `    c)  Nach Absatz ${n1()} wird folgender Absatz ${n1()}a eingefügt:\n\n        „(${n1()}a) ${wrap(sentence(), law.width, "        ")}“`,
            );
        }
        push(changes.join("\n\n"));
        if (R.chance(0.2)) {
          // EGBGB style: paragraphs inside an article
          for (let p = 1; p <= R.int(1, 4); p++) {
            push(heading(Math.min(6, depth + 1), `§ ${p} ${R.pick(SECTION_TITLES)}`));
            for (const b of sectionBody(law)) push(b);
          }
        }
      } else {
        push(heading(depth, `${word} ${article}${R.chance(0.5) ? "" : ` ${R.pick(SECTION_TITLES)}`}`));
        for (const b of sectionBody(law)) push(b);
      }
      continue;
    }
    provision++;
    const roll = R.float();
    if (roll < 0.035) {
      push(heading(depth, `§ ${provision} (weggefallen)`));
      if (R.chance(0.3)) push("-");
      continue;
    }
    if (roll < 0.045) {
      const to = provision + R.int(1, 10);
      push(heading(depth, `§§ ${provision} bis ${to} (weggefallen)`));
      provision = to;
      continue;
    }
    const title = law.firstSections?.[provision - 1] ?? R.pick(SECTION_TITLES);
    const shape = R.float();
    push(
      heading(
        depth,
        shape < 0.01
          ? `§ ${provision} *${title}*`
          : shape < 0.06 && !law.firstSections
            ? `§ ${provision}`
            : `§ ${provision} ${title}`,
      ),
    );
    for (const b of sectionBody(law)) push(b);
    if (R.chance(0.06)) {
      // inserted sections: § 7a, § 7b
      for (let k = 0; k < R.int(1, 3); k++) {
        push(heading(depth, `§ ${provision}${"abcdefgh"[k]} ${R.pick(SECTION_TITLES)}`));
        for (const b of sectionBody(law)) push(b);
      }
    }
    if (law.kind === "gesetz" && R.chance(0.004)) {
      // a long setext heading: a multi-line paragraph over a dashed line
      push(`${wrap(prose(2), law.width || 72)}\n---`);
    }
  }

  // Annexes with their own numbering.
  let annex = 0;
  while (bytes < size) {
    annex++;
    const form = R.float();
    const zu = R.chance(0.7)
      ? ` (zu § ${R.int(1, Math.max(1, provision))}${R.chance(0.3) ? ` Abs. ${n1()}` : ""})`
      : "";
    if (form < 0.08) push(heading(2, `Anlage D${annex}${R.pick(["a", "b", ""])}${zu}`));
    else if (form < 0.14)
      push(
        heading(
          2,
          `Anlage ${roman(annex)} Kap ${roman(R.int(1, 20))} ${R.pick(["A", "B", "C", "D", "E"])} ${roman(R.int(1, 4))} Abschnitt ${roman(R.int(1, 4))}`,
        ),
      );
    else if (form < 0.2) push(heading(2, annex === 1 ? "Anhang" : `Anhang ${annex}`));
    else if (form < 0.24) {
      push(heading(2, R.chance(0.5) ? "Anlage (weggefallen)" : `Anlage ${annex} (weggefallen)`));
      continue;
    } else push(heading(2, `Anlage ${annex}${zu}`));
    if (R.chance(0.4))
      push(
        `${R.pick(["Fundstelle", "Fundstelle des Originaltextes"])}: BGBl. I ${R.int(1970, 2024)}, ${R.int(1, 3999)} - ${R.int(1, 3999)}`,
      );
    const annexBudget = Math.min(size, bytes + (size - bytes) / (R.chance(0.5) ? 1 : R.int(2, 4)) + 1);
    let own = 0;
    let item = 0;
    while (bytes < annexBudget) {
      const roll = R.float();
      if (roll < 0.35) {
        own++;
        push(heading(3, `§ ${own} ${R.pick(SECTION_TITLES)}`));
        for (const b of sectionBody(law)) push(b);
      } else if (roll < 0.55) {
        item++;
        push(heading(3, R.pick([`${item}.`, `${roman(item)}.`, `${"abcdefghijklmnopqrstuvwxyz"[(item - 1) % 26]})`])));
        push(wrap(prose(R.int(1, 3)), law.width));
        if (R.chance(0.3)) push(heading(4, `${R.pick(["a)", "b)", "aa)", "1.1", "2.3.1"])} ${R.pick(OBJECTS)}`));
      } else if (roll < 0.75) {
        push(law.pay ? payTable() : plainTable());
      } else if (roll < 0.85) {
        push(...itemList(law));
      } else {
        push(
          heading(3, R.pick(["Vorbemerkung", "Allgemeine Hinweise", "*Erläuterungen*", "Muster", "Teil A", "Teil B"])),
        );
        push(wrap(prose(R.int(2, 6)), law.width));
      }
    }
  }
  if (R.chance(0.15)) {
    push(heading(2, "Schlussformel"));
    push(wrap("Die verfassungsmäßigen Rechte des Bundesrates sind gewahrt.", law.width));
  }
  return `${out.join(R.chance(0.5) ? "\n\n" : "\n\n\n")}\n`;
}

// ---------------------------------------------------------------- giants (fixed titles)

const GIANTS = [
  {
    bytes: 2_200_000,
    title: "Sozialgesetzbuch (SGB) Fünftes Buch (V) - Gesetzliche Krankenversicherung",
    jurabk: "SGB 5",
    slug: "sgb_5",
    hierarchy: ["kapitel", "abschnitt", "titel"],
  },
  {
    bytes: 1_850_000,
    title: "Einkommensteuergesetz",
    jurabk: "EStG",
    slug: "estg",
    hierarchy: ["abschnitt", "unterabschnitt"],
  },
  {
    bytes: 1_600_000,
    title: "Bürgerliches Gesetzbuch",
    jurabk: "BGB",
    slug: "bgb",
    hierarchy: ["buch", "abschnitt", "titel", "untertitel"],
    firstUnits: ["Allgemeiner Teil", "Personen", "Natürliche Personen, Verbraucher, Unternehmer", "Rechtsfähigkeit"],
    firstSections: ["Beginn der Rechtsfähigkeit", "Eintritt der Volljährigkeit"],
  },
  {
    bytes: 1_400_000,
    title: "Sozialgesetzbuch (SGB) Sechstes Buch (VI) - Gesetzliche Rentenversicherung",
    jurabk: "SGB 6",
    slug: "sgb_6",
    hierarchy: ["kapitel", "abschnitt", "unterabschnitt"],
  },
  {
    bytes: 1_250_000,
    title: "Handelsgesetzbuch",
    jurabk: "HGB",
    slug: "hgb",
    hierarchy: ["buch", "abschnitt", "unterabschnitt", "titel"],
  },
  {
    bytes: 1_100_000,
    title: "Zivilprozessordnung",
    jurabk: "ZPO",
    slug: "zpo",
    hierarchy: ["buch", "abschnitt", "titel", "untertitel"],
  },
  {
    bytes: 1_050_000,
    title: "Abgabenordnung",
    jurabk: "AO",
    slug: "ao_1977",
    hierarchy: ["teil", "abschnitt", "unterabschnitt"],
  },
  {
    bytes: 1_000_000,
    title: "Sozialgesetzbuch (SGB) Drittes Buch (III) - Arbeitsförderung",
    jurabk: "SGB 3",
    slug: "sgb_3",
    hierarchy: ["kapitel", "abschnitt", "unterabschnitt"],
  },
];

function translit(text) {
  return text
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "");
}

/** The laws of a corpus of about `mb` megabytes: names, sizes and per-law seeds. */
export function planCorpus(mb, seed) {
  const rng = createRng(`${seed}/plan`);
  const target = mb * 1e6;
  const count = Math.max(20, Math.round((REAL_LAWS * mb) / REAL_MB));
  const giants = GIANTS.slice(0, Math.max(1, Math.round((GIANTS.length * mb) / REAL_MB)));
  while (giants.length > 1 && giants.reduce((s, g) => s + g.bytes, 0) > target / 2) giants.pop();
  const giantBytes = giants.reduce((s, g) => s + g.bytes, 0);
  // Log-normal-ish body: median 10 KB, sigma 1.25, clipped to [600 B, 950 KB], scaled to the target total.
  const raw = [];
  for (let i = giants.length; i < count; i++)
    raw.push(Math.min(950_000, Math.max(600, 10_000 * exp(1.25 * rng.normal()))));
  const factor = (target - giantBytes) / raw.reduce((s, x) => s + x, 0);
  const used = new Set(giants.map((g) => g.slug));
  const laws = giants.map((g) => ({ ...g, kind: "gesetz", giant: true }));
  for (const bytes of raw) {
    const weights = LAW_KINDS.reduce((s, k) => s + k.weight, 0);
    const pickAt = rng.int(1, weights);
    let sum = 0;
    const kind = LAW_KINDS.find((k) => {
      sum += k.weight;
      return sum >= pickAt;
    });
    const [subject, abbr] = rng.pick(SUBJECTS);
    const [title, suffix] = kind.make(subject, rng);
    let jurabk = `${abbr}${suffix}`;
    let slug = translit(jurabk);
    if (used.has(slug)) {
      const year = rng.int(1950, 2024);
      jurabk = `${jurabk} ${year}`;
      const base = `${slug}_${year}`;
      slug = base;
      for (let n = 2; used.has(slug); n++) slug = `${base}_${n}`;
    }
    used.add(slug);
    laws.push({
      bytes: Math.max(600, Math.round(bytes * factor)),
      title,
      jurabk,
      slug,
      kind: kind.kind,
      hierarchy: rng.pick(HIERARCHIES),
    });
  }
  // Giants at deterministic places among the others.
  const order = laws.map((law, i) => ({ law, key: rng.u32() + i / 1e6 }));
  order.sort((a, b) => a.key - b.key);
  return order.map((o) => o.law).map((law, i) => ({ ...law, seed: `${seed}/${i}` }));
}

function lawText(law) {
  R = createRng(law.seed);
  const ausfertigung = `${R.int(1950, 2023)}-${String(R.int(1, 12)).padStart(2, "0")}-${String(R.int(1, 28)).padStart(2, "0")}`;
  const full = {
    ...law,
    heading: law.giant || R.chance(0.85) ? `${law.title} (${law.jurabk})` : law.title,
    ausfertigung,
    date: `2024-${String(R.int(1, 12)).padStart(2, "0")}-${String(R.int(1, 28)).padStart(2, "0")}`,
    width: R.chance(0.7) ? 72 : 0,
    unitStyle: law.giant ? 0 : R.int(0, 4),
    unitsUsed: new Set(),
    pay: R.chance(0.15) || /besoldung|versorgung/i.test(law.title),
  };
  // The writer stops after the block that crosses its budget: about 1.1 KB past it on average.
  return writeLaw(full, Math.max(300, law.bytes - 1100));
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Writes the corpus into `dir` (replacing it); returns its description. */
export function writeCorpus({ mb, seed, dir }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const laws = planCorpus(mb, seed);
  const entries = [];
  for (const law of laws) {
    const bytes = Buffer.from(lawText(law), "utf8");
    mkdirSync(join(dir, law.slug));
    const path = `${law.slug}/index.md`;
    writeFileSync(join(dir, law.slug, "index.md"), bytes);
    entries.push({ path, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const digest = createHash("sha256");
  for (const e of entries) digest.update(`${e.path}\0${e.sha256}\n`);
  const sizes = entries.map((e) => e.size).sort((a, b) => a - b);
  const total = sizes.reduce((s, x) => s + x, 0);
  return {
    version: CORPUS_VERSION,
    mb,
    seed,
    files: entries.length,
    bytes: total,
    sizes: {
      min: sizes[0],
      median: quantile(sizes, 0.5),
      p90: quantile(sizes, 0.9),
      p99: quantile(sizes, 0.99),
      max: sizes[sizes.length - 1],
      over1MB: sizes.filter((s) => s >= 1e6).length,
    },
    digest: digest.digest("hex"),
  };
}

/** The corpus at `dir`, generated unless `dir.json` says it is already there with these parameters. */
export function ensureCorpus({ mb, seed, dir }) {
  const stats = `${dir}.json`;
  if (existsSync(stats) && existsSync(dir)) {
    const known = JSON.parse(readFileSync(stats, "utf8"));
    if (known.version === CORPUS_VERSION && known.mb === mb && known.seed === seed) return { ...known, cached: true };
  }
  const started = process.hrtime.bigint();
  const description = writeCorpus({ mb, seed, dir });
  description.generateSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  writeFileSync(stats, `${JSON.stringify(description, null, 2)}\n`);
  return description;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i === -1 ? fallback : args[i + 1];
  };
  const mb = Number(option("--mb", process.env.BENCH_CORPUS_MB ?? REAL_MB));
  const seed = option("--seed", "realistic-1");
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const dir = resolve(option("--out", join(root, "bench/data/realistic", `corpus-${mb}mb`)));
  const started = process.hrtime.bigint();
  const description = writeCorpus({ mb, seed, dir });
  description.generateSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  writeFileSync(`${dir}.json`, `${JSON.stringify(description, null, 2)}\n`);
  console.log(JSON.stringify({ dir, ...description }, null, 2));
}
