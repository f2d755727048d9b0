/**
 * A statute book of several laws kept as one dataset (a folder of one subfolder per law): the aliases of its laws go
 * to the manifest's `documentAliases`, by each law's document, never the first law's abbreviation as the book's
 * `aliases`; the default slug is the folder's, not the first law's; `resolve` finds a law in the book by its
 * document's aliases. A law of several files keeps one list of `aliases` (docs/spec.md, section 8; README, "resolve").
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readAliases } from "../src/node/dataset/dataset-aliases.js";
import { runBin } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  execFileSync("git", ["init", "-q"], { cwd: dir });
});
afterEach(async () => cleanup());

/** A law's document: front matter with its slug and abbreviations, a title, and its paragraphs. */
function law(slug: string, jurabk: string, amtabk: string | undefined, sections: number): string {
  const body = Array.from(
    { length: sections },
    (_, k) => `## § ${k + 1} Vorschrift ${k + 1}\n\n(1) Erster Absatz von ${jurabk}.\n\n(2) Zweiter Absatz.\n`,
  ).join("\n");
  return `---\nslug: ${slug}\njurabk: ${jurabk}\n${amtabk !== undefined ? `amtabk: ${amtabk}\n` : ""}---\n\n# Gesetz ${jurabk}\n\n${body}`;
}

const BOOK = {
  "book/arbschg/index.md": law("arbschg", "ArbSchG", undefined, 3),
  "book/arbzg/index.md": law("arbzg", "ArbZG", "ArbZG 1994", 2),
  "book/bgb/index.md": law("bgb", "BGB", undefined, 4),
};

const ADOPT = [
  "--units",
  "--title-id",
  "bundesrecht",
  "--name",
  "Bundesrecht",
  "--version-date",
  "2024-06-26",
  "--source-text-url",
  "https://www.gesetze-im-internet.de/aktuell.html",
  "--legislation-host",
  "www.gesetze-im-internet.de",
  "--no-cache",
];

const manifestOf = async (slug: string) =>
  JSON.parse(await readFile(join(dir, `.tooling/citation-targets/${slug}.lock.json`), "utf8"));

describe("a statute book as one dataset", () => {
  test("adopt --units: slug from the folder, no aliases, each law's by its document; validate passes", async () => {
    await writeTree(dir, BOOK);
    const adopted = await runBin(["adopt", "book", ...ADOPT], dir);
    expect(adopted.code, adopted.stderr).toBe(0);
    const manifest = await manifestOf("book");
    expect(manifest.slug).toBe("book");
    expect(manifest.aliases).toBeUndefined();
    expect(manifest.documentAliases).toEqual({
      "arbschg/index.md": ["ArbSchG"],
      "arbzg/index.md": ["ArbZG", "ArbZG 1994"],
      "bgb/index.md": ["BGB"],
    });
    // Written after aliases' place, before artifacts.
    expect(Object.keys(manifest).slice(-3)).toEqual(["documentAliases", "artifacts", "datasetDigest"]);
    const validated = await runBin(["validate", "--no-cache"], dir);
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
  });

  test("resolve finds a law in the book by its document's aliases; the book's titleId names all its laws", async () => {
    await writeTree(dir, BOOK);
    expect((await runBin(["adopt", "book", ...ADOPT], dir)).code).toBe(0);
    const resolved = await runBin(
      [
        "resolve",
        "--format",
        "json",
        "--no-cache",
        "§ 2 Abs. 1 ArbSchG",
        "§ 2 ArbZG 1994",
        "§ 4 BGB",
        "§ 4 ArbSchG",
        "§ 1 bundesrecht",
        "§ 1 StGB",
      ],
      dir,
    );
    expect(resolved.code).toBe(1);
    const results = JSON.parse(resolved.stdout).results as {
      outcome: string;
      precision: string | null;
      citationAddress: string | null;
      candidates: unknown[];
      reason?: string;
    }[];
    expect(results.map((r) => [r.outcome, r.precision, r.citationAddress])).toEqual([
      ["match", "unit", "book/arbschg/index.md#§-2/abs-1"],
      ["match", "unit", "book/arbzg/index.md#§-2"],
      ["match", "unit", "book/bgb/index.md#§-4"],
      ["no-match", null, null],
      ["ambiguous", null, null],
      ["no-match", null, null],
    ]);
    expect(results[3]!.reason).toBe('"ArbSchG" (book/arbschg/index.md) has no § 4');
    expect(results[4]!.candidates).toHaveLength(3);
    expect(results[5]!.reason).toContain('no dataset is the law "StGB"');
  });

  test("the adopt report names the laws' aliases; a later --alias run reads them again, a run without keeps them", async () => {
    await writeTree(dir, BOOK);
    expect((await runBin(["adopt", "book", ...ADOPT.filter((a) => a !== "--units")], dir)).code).toBe(0);
    expect((await manifestOf("book")).documentAliases).toBeUndefined();
    const updated = await runBin(["update", "--units", "--no-cache"], dir);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(
      '  aliases of 3 laws in it, each by its document (resolve finds a law in the dataset by them): "ArbSchG" (arbschg/index.md), "ArbZG", "ArbZG 1994" (arbzg/index.md), "BGB" (bgb/index.md)\n',
    );
    await writeFile(join(dir, "book/bgb/index.md"), law("bgb", "BGB", "BGB 2002", 4));
    expect((await runBin(["update", "--no-cache"], dir)).code).toBe(0);
    expect((await manifestOf("book")).documentAliases["bgb/index.md"]).toEqual(["BGB"]);
    expect((await runBin(["update", "--alias", "amtabk", "--no-cache"], dir)).code).toBe(0);
    expect((await manifestOf("book")).documentAliases).toEqual({
      "arbzg/index.md": ["ArbZG 1994"],
      "bgb/index.md": ["BGB 2002"],
    });
  });

  test("a documentAliases entry naming no artifact is refused by validate and by update, named", async () => {
    await writeTree(dir, BOOK);
    expect((await runBin(["adopt", "book", ...ADOPT], dir)).code).toBe(0);
    const path = join(dir, ".tooling/citation-targets/book.lock.json");
    const manifest = await manifestOf("book");
    manifest.documentAliases["stgb/index.md"] = ["StGB"];
    await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
    const validated = await runBin(["validate", "--no-cache"], dir);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain("stgb/index.md: documentAliases names it, but it is not an artifact");
    const updated = await runBin(["update", "--no-cache"], dir);
    expect(updated.code).not.toBe(0);
    expect(updated.stderr).toContain("stgb/index.md: documentAliases names it, but it is not an artifact");
  });
});

describe("a law of several files is one law", () => {
  test("its files' aliases share one: the first document's are the dataset's aliases", async () => {
    await writeTree(dir, {
      "bgb/index.md": law("bgb", "BGB", "BGB 2002", 2),
      "bgb/buch-2.md": law("bgb", "BGB", undefined, 2).replace("# Gesetz BGB", "# Buch 2"),
    });
    expect(await readAliases(join(dir, "bgb"), ["jurabk", "amtabk"], "bgb", ["index.md", "buch-2.md"])).toEqual({
      aliases: ["BGB", "BGB 2002"],
    });
    const adopted = await runBin(["adopt", "bgb", ...ADOPT], dir);
    expect(adopted.code, adopted.stderr).toBe(0);
    const manifest = await manifestOf("bgb");
    expect(manifest.aliases).toEqual(["BGB", "BGB 2002"]);
    expect(manifest.documentAliases).toBeUndefined();
  });

  test("files that share no alias are several laws, each by its path in code-unit order", async () => {
    await writeTree(dir, {
      "b/index.md": law("b", "ZZG", undefined, 1),
      "b/a.md": law("a", "AAG", undefined, 1),
      "b/c.md": "# Ohne Front Matter\n",
    });
    expect(await readAliases(join(dir, "b"), ["jurabk"], "b", ["index.md", "a.md", "c.md"])).toEqual({
      aliases: [],
      documentAliases: { "a.md": ["AAG"], "index.md": ["ZZG"] },
    });
  });
});
