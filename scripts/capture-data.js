#!/usr/bin/env node
// The data that scripts/capture-outputs.js runs every command on, built ONCE with the corpus generator and CLI of
// one checkout (the baseline) and then kept: a refactor that changes bench/corpus.js must not change the data.
//
//   node scripts/capture-data.js --cli <built-checkout> --out <data-dir> [--laws-mb 35] [--book-mb 10]
//
// <data-dir>/examples      the repository's example datasets (.tooling/ and fixtures/), committed in git
// <data-dir>/repository    one dataset per law (~1,500 laws, `adopt`), committed; the working tree then amended:
//                          a few laws' text changed (two regenerated with `update`, two left stale), one law's
//                          dataset removed, one law added and adopted, one law folder added and not adopted
// <data-dir>/statute-book  a smaller corpus as ONE dataset (`lock` + `update`), committed; one law amended, stale
// Every commit has a fixed author and date, so the data is the same bytes wherever it is built.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const checkout = resolve(option("--cli", "."));
const out = resolve(option("--out", "capture-data"));
const lawsMb = Number(option("--laws-mb", 35));
const bookMb = Number(option("--book-mb", 10));
const cli = join(checkout, "bin/citation-targets.js");
const env = {
  PATH: process.env.PATH,
  HOME: out,
  TZ: "UTC",
  LANG: "C",
  LC_ALL: "C",
  NO_COLOR: "1",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "capture",
  GIT_AUTHOR_EMAIL: "capture@example.org",
  GIT_COMMITTER_NAME: "capture",
  GIT_COMMITTER_EMAIL: "capture@example.org",
  GIT_AUTHOR_DATE: "2025-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2025-01-01T00:00:00Z",
};
const sh = (cwd, command, commandArgs, expect = [0]) => {
  try {
    return execFileSync(command, commandArgs, { cwd, env, encoding: "utf8", maxBuffer: 1 << 28, stdio: "pipe" });
  } catch (error) {
    if (expect.includes(error.status)) return error.stdout;
    throw new Error(`${command} ${commandArgs.join(" ")} (in ${cwd}) exited ${error.status}\n${error.stderr}`);
  }
};
const git = (cwd, ...gitArgs) => sh(cwd, "git", gitArgs);
const ct = (cwd, ...ctArgs) => sh(cwd, process.execPath, [cli, ...ctArgs]);
const gitInit = (dir) => {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "gc.auto", "0");
};
const commit = (dir, message) => {
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  git(dir, "repack", "-a", "-d", "-q");
};
/** The corpus from the checkout's generator (bench/corpus.js), written to dir. */
const corpus = (mb, dir) => {
  sh(checkout, process.execPath, [join(checkout, "bench/corpus.js"), "--mb", String(mb), "--out", dir]);
  rmSync(`${dir}.json`, { force: true });
};
/** Replaces the first match in a file; fails loudly when there is none (the amendment must happen). */
const edit = (file, pattern, replacement) => {
  const text = readFileSync(file, "utf8");
  if (!pattern.test(text)) throw new Error(`${file}: no match for ${pattern}`);
  writeFileSync(file, text.replace(pattern, replacement));
};
/** Amends a law: its first `## ` heading renamed, a section inserted before its second heading (of level 2 or more), its last paragraph changed. */
const amend = (file, tag) => {
  edit(file, /^## (.+)$/m, `## $1 (${tag})`);
  edit(
    file,
    /(^##+ [^\n]*\n[\s\S]*?)^(##+) /m,
    `$1$2 § 0a Eingefügt (${tag})\n\nEin neu eingefügter Absatz (${tag}).\n\n$2 `,
  );
  const text = readFileSync(file, "utf8").trimEnd();
  writeFileSync(file, `${text} Geändert (${tag}).\n`);
};

if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: the data is built once`);
mkdirSync(out, { recursive: true });
const settings = {
  legislationHost: "www.gesetze-im-internet.de",
  adopt: {
    datasets: ["laws/*"],
    titleId: "{front.jurabk}",
    name: "{front.Title}",
    versionDate: "2024-12-31",
    sourceTextUrl: "https://www.gesetze-im-internet.de/{front.slug}/",
  },
};

// ---------------------------------------------------------------- the example datasets
const examples = join(out, "examples");
mkdirSync(examples);
gitInit(examples);
cpSync(join(checkout, ".tooling"), join(examples, ".tooling"), { recursive: true });
cpSync(join(checkout, "fixtures"), join(examples, "fixtures"), { recursive: true });
commit(examples, "examples");
console.error(`examples: ${ct(examples, "validate").trim()}`);

// ---------------------------------------------------------------- one dataset per law
const repository = join(out, "repository");
mkdirSync(repository);
gitInit(repository);
corpus(lawsMb, join(repository, "laws"));
writeFileSync(join(repository, ".citation-targets.json"), `${JSON.stringify(settings, null, 2)}\n`);
console.error(`repository: ${ct(repository, "adopt", "--no-cache").trim()}`);
commit(repository, "laws adopted");
const laws = readdirSync(join(repository, "laws")).sort();
const slugOf = (law) => {
  const front = /^slug: (.+)$/m.exec(readFileSync(join(repository, "laws", law, "index.md"), "utf8"));
  return front[1]
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
};
/** Whether a law can be amended as `amend` does: a `## ` heading, and a second heading of level 2 or more. */
const amendable = (law) => {
  const text = readFileSync(join(repository, "laws", law, "index.md"), "utf8");
  return /^## /m.test(text) && (text.match(/^##+ /gm) ?? []).length >= 2;
};
/** The law at a seventh `i` of the way, or the first amendable one after it (the corpus's generator may change). */
const pick = (i) => {
  const from = Math.floor((laws.length * i) / 7);
  return laws.slice(from).find(amendable) ?? laws[from];
};
const [regenerated1, regenerated2, stale1, stale2, removed] = [1, 2, 3, 4, 5].map(pick);
for (const law of [regenerated1, regenerated2, stale1, stale2]) amend(join(repository, "laws", law, "index.md"), law);
ct(
  repository,
  "update",
  "--no-cache",
  `.tooling/citation-targets/${slugOf(regenerated1)}.lock.json`,
  `.tooling/citation-targets/${slugOf(regenerated2)}.lock.json`,
);
const removedSlug = slugOf(removed);
rmSync(join(repository, "laws", removed), { recursive: true });
rmSync(join(repository, ".tooling/citation-targets", `${removedSlug}.lock.json`));
rmSync(join(repository, ".tooling/citation-targets", `${removedSlug}.jsonl`));
const newLaw = (folder, abbreviation) => {
  mkdirSync(join(repository, "laws", folder));
  writeFileSync(
    join(repository, "laws", folder, "index.md"),
    `---\nTitle: Gesetz über die Erfassung von Ausgabedaten (${abbreviation})\njurabk: ${abbreviation}\nslug: ${folder}\n---\n` +
      `# Gesetz über die Erfassung von Ausgabedaten (${abbreviation})\n\n## Erster Abschnitt - Allgemeines\n\n` +
      "### § 1 Zweck\n\nDieses Gesetz regelt die Erfassung.\n\n### § 2 Begriffe\n\n(1) Ausgabe ist, was ein Befehl schreibt.\n\n" +
      "(2) Ein Unterschied ist ein Fehler.\n\n## Zweiter Abschnitt - Schluss\n\n### § 3 Inkrafttreten\n\nDieses Gesetz tritt in Kraft.\n",
  );
};
newLaw("ausgerfg", "AusgErfG");
ct(repository, "adopt", "laws/ausgerfg", "--no-cache");
newLaw("ausgerfg2", "AusgErfG2");
writeFileSync(
  join(out, "repository.json"),
  `${JSON.stringify({ laws: laws.length, regenerated: [regenerated1, regenerated2], stale: [stale1, stale2], removed, added: "ausgerfg", notAdopted: "ausgerfg2" }, null, 2)}\n`,
);
console.error(`repository: ${laws.length} laws; amended ${readFileSync(join(out, "repository.json"), "utf8")}`);

// ---------------------------------------------------------------- the statute book as one dataset
const book = join(out, "statute-book");
mkdirSync(book);
gitInit(book);
corpus(bookMb, join(book, "book"));
writeFileSync(
  join(book, ".citation-targets.json"),
  `${JSON.stringify({ legislationHost: "www.gesetze-im-internet.de" }, null, 2)}\n`,
);
ct(
  book,
  "lock",
  "book",
  "--slug",
  "statute-book",
  "--title-id",
  "BUNDESRECHT",
  "--name",
  "Bundesrecht",
  "--version-date",
  "2024-12-31",
  "--source-text-url",
  "https://www.gesetze-im-internet.de/aktuell/",
);
ct(book, "update", "--no-cache");
commit(book, "statute book");
const bookLaws = readdirSync(join(book, "book")).sort();
amend(join(book, "book", bookLaws[Math.floor(bookLaws.length / 3)], "index.md"), "book");
console.error(`statute-book: ${bookLaws.length} laws, one amended (${bookLaws[Math.floor(bookLaws.length / 3)]})`);
