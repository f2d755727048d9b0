// displayPath and isInside take a short cut for a plain path below a folder (thousands of calls a run); every other path
// goes through path.relative. The answers must be path.relative's, whichever way they are found.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import fg from "fast-glob";
import { afterAll, describe, expect, test } from "vitest";
import { displayPath, expandInputs, folderByEnding, isInside } from "../src/node/files/files.js";

/** What the two said before the short cut: path.relative alone. */
function insideByRelative(root: string, path: string): boolean {
  const rel = relative(root, path);
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

const root = resolve("/work/repo");
const cases = [
  "/work/repo/.tooling/citation-targets/bgb.jsonl",
  "/work/repo/a.jsonl",
  "/work/repo/..mvfg.jsonl",
  "/work/repo/./a.jsonl",
  "/work/repo/x/../a.jsonl",
  "/work/repo/../repo2/a.jsonl",
  "/work/repo/..",
  "/work/repo/x/..",
  "/work/repo//a.jsonl",
  "/work/repo2/a.jsonl",
  "/work/repository/a.jsonl",
  "/work/repo",
  "/work/repo/",
  "/work",
  "/other/a.jsonl",
  "/work/repo/.git/x",
  "/work/repo/.../a",
];

describe("path short cuts", () => {
  test.each(cases)("isInside(%s) is what path.relative says", (path) => {
    expect(isInside(root, path)).toBe(insideByRelative(root, path));
  });

  test.each(cases)("displayPath(%s) is what path.relative says", (path) => {
    const rel = relative(root, path);
    const unrelated = !insideByRelative(root, path) && resolve(root).split(sep)[1] !== resolve(path).split(sep)[1];
    const expected = (rel === "" || isAbsolute(rel) || unrelated ? path : rel).split(sep).join("/");
    expect(displayPath(path, root)).toBe(expected);
  });

  test("a folder given with a trailing separator or relative is asked of path.relative", () => {
    expect(isInside(`${root}${sep}`, `${root}${sep}a.jsonl`)).toBe(true);
    expect(isInside("repo", `${root}${sep}a.jsonl`)).toBe(insideByRelative("repo", `${root}${sep}a.jsonl`));
    expect(displayPath(`${root}${sep}x${sep}y.jsonl`, `${root}${sep}`)).toBe("x/y.jsonl");
  });
});

// expandInputs lists a folder itself for a pattern `<plain folder>/*<ending>` (the default pattern); its answer must be
// fast-glob's, with the options expandInputs gives fast-glob, for every kind of entry.
describe("folderByEnding is fast-glob's answer", () => {
  const made = mkdtempSync(join(tmpdir(), "ct-ending-"));
  const folder = join(made, ".tooling", "citation-targets");
  mkdirSync(folder, { recursive: true });
  for (const name of [
    ".jsonl",
    "a.jsonl",
    ".hidden.jsonl",
    "sp ace.jsonl",
    "we[ird].jsonl",
    "x.JSONL",
    "b.jsonl.bak",
    "c.lock.json",
  ])
    writeFileSync(join(folder, name), "");
  mkdirSync(join(folder, "dir.jsonl"));
  mkdirSync(join(folder, "sub.json"));
  symlinkSync("nowhere", join(folder, "dangling.jsonl"));
  symlinkSync("nowhere", join(folder, "dangling.json"));
  symlinkSync(join(folder, "a.jsonl"), join(folder, "link.jsonl"));
  afterAll(() => rmSync(made, { recursive: true, force: true }));

  const byFastGlob = async (pattern: string) => {
    const entries = await fg(pattern, {
      cwd: made,
      absolute: true,
      onlyFiles: false,
      dot: true,
      followSymbolicLinks: true,
      objectMode: true,
    });
    return entries.map((entry) => resolve(entry.path)).sort();
  };

  test.each([".tooling/citation-targets/*.jsonl", ".tooling/citation-targets/*e.jsonl", "missing/*.jsonl"])(
    "%s",
    async (pattern) => {
      const listed = folderByEnding(made, pattern) ?? [];
      expect(listed.map((entry) => entry.absolute).sort()).toEqual(await byFastGlob(pattern));
      expect(
        listed
          .filter((entry) => entry.link)
          .map((entry) => basename(entry.absolute))
          .sort(),
      ).toEqual(pattern.endsWith("/*.jsonl") && !pattern.startsWith("missing") ? ["dangling.jsonl", "link.jsonl"] : []);
    },
  );

  // Another ending: expandInputs keeps only the files of fast-glob's answer (a folder or a dangling link named like the
  // pattern is dropped), which needs a stat each: fast-glob answers it, as before.
  test.each([
    "*/*.jsonl",
    "a/../*.jsonl",
    "./*.jsonl",
    "**/*.jsonl",
    "x/*.{jsonl,json}",
    "x/a*.jsonl",
    "x/*",
    ".tooling/citation-targets/*.json",
    ".tooling/citation-targets/*l",
    "data/*.ndjson",
  ])("%s is left to fast-glob", (pattern) => {
    expect(folderByEnding(made, pattern)).toBeUndefined();
  });

  test("another ending keeps the files only, as before: no folder or dangling link named like it", async () => {
    const listed = await expandInputs([".tooling/citation-targets/*.json"], made, false, made, made);
    expect(listed.map((input) => input.display)).toEqual([".tooling/citation-targets/c.lock.json"]);
  });

  test("expandInputs gives the sizes the listing knew, and the same files either way", async () => {
    const listed = await expandInputs([".tooling/citation-targets/*.jsonl"], made, false, made, made);
    const outside = listed.filter((input) => !input.absolute.startsWith(made));
    expect(outside).toEqual([]);
    expect(listed.map((input) => input.display)).toEqual(
      (await byFastGlob(".tooling/citation-targets/*.jsonl")).map((path) => relative(made, path)).sort(),
    );
    const literal = await expandInputs([join(folder, "a.jsonl")], made);
    expect(literal[0]!.size).toBe(0);
    writeFileSync(join(folder, "a.jsonl"), "x\n");
    expect((await expandInputs([join(folder, "a.jsonl")], made))[0]!.size).toBe(2);
    // Confined, through fast-glob: a file that is no link is sized by the lstat that told it; a link is left to sizesOf,
    // as is every file of the folder's own listing (its entries tell a link without an lstat).
    const sized = await expandInputs([".tooling/*/*.jsonl"], made, false, made, made);
    expect(sized.find((input) => input.display.endsWith("/a.jsonl"))!.size).toBe(2);
    expect(sized.find((input) => input.display.endsWith("/link.jsonl"))!.size).toBeUndefined();
    expect(listed.every((input) => input.size === undefined)).toBe(true);
  });
});
