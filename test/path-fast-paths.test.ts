// displayPath and isInside take a short cut for a plain path below a folder (thousands of calls a run); every other path
// goes through path.relative. The answers must be path.relative's, whichever way they are found.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { describe, expect, test } from "vitest";
import { displayPath, isInside } from "../src/node/files/files.js";

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
