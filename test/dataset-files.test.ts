/**
 * The dataset walk: without ignore globs, a plain folder walk (walkMarkdown) stands in for fast-glob's
 * `**\/*.md` (it is a tenth of the cost, paid once per dataset a run). It must find exactly what
 * fast-glob finds, with the options the walk with ignore globs uses, on any tree: files, folders
 * named like markdown, dot names, node_modules, links to files and to folders.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import fg from "fast-glob";
import { describe, expect, test } from "vitest";
import { ALWAYS_IGNORED, listDatasetFiles, walkMarkdown } from "../src/node/dataset/dataset-files.js";
import { comparePaths } from "../src/core/address/natural-sort.js";

const fastGlob = (root: string) =>
  fg
    .sync("**/*.md", { cwd: root, dot: false, onlyFiles: false, followSymbolicLinks: false, ignore: ALWAYS_IGNORED })
    .sort(comparePaths);

type Entry = { kind: "file" | "folder" | "link-file" | "link-folder"; path: string[] };
const name = fc.constantFrom(
  "a",
  "b.md",
  ".hidden",
  ".x.md",
  "node_modules",
  "§ 1.md",
  "Teil 2",
  "index.md",
  "README.md",
  "c.markdown",
  "d.MD",
  "sub",
);

function build(root: string, entries: Entry[]): void {
  for (const entry of entries) {
    const path = join(root, ...entry.path);
    try {
      mkdirSync(join(root, ...entry.path.slice(0, -1)), { recursive: true });
      if (entry.kind === "file") writeFileSync(path, "# x\n");
      else if (entry.kind === "folder") mkdirSync(path, { recursive: true });
      else if (entry.kind === "link-file") symlinkSync(join(root, "target.md"), path);
      else symlinkSync(root, path);
    } catch {
      // a name already taken by another kind of entry: the tree keeps the first
    }
  }
}

describe("the dataset walk", () => {
  test("a plain walk finds what fast-glob finds, on random trees", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom("file", "folder", "link-file", "link-folder"),
            path: fc.array(name, { minLength: 1, maxLength: 4 }),
          }),
          { maxLength: 25 },
        ),
        (entries) => {
          const root = mkdtempSync(join(tmpdir(), "walk-"));
          try {
            writeFileSync(join(root, "target.md"), "# t\n");
            build(root, entries as Entry[]);
            expect(walkMarkdown(root).sort(comparePaths)).toEqual(fastGlob(root));
          } finally {
            rmSync(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  test("with ignore globs the walk is fast-glob's, and the globs leave files out", async () => {
    const root = mkdtempSync(join(tmpdir(), "walk-"));
    try {
      build(root, [
        { kind: "file", path: ["index.md"] },
        { kind: "file", path: ["drafts", "x.md"] },
        { kind: "file", path: ["teil-1", "§ 1.md"] },
      ]);
      expect(await listDatasetFiles(root)).toEqual(["index.md", "drafts/x.md", "teil-1/§ 1.md"].sort(comparePaths));
      expect(await listDatasetFiles(root, ["drafts/**"])).toEqual(["index.md", "teil-1/§ 1.md"].sort(comparePaths));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
