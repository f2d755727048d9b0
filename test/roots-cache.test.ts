// `--staged` maps a staged markdown file to the datasets whose folder holds it by every manifest's datasetRoot; the
// roots cache (src/node/cache/roots-cache.ts) keeps each manifest's dataset folder with its stat fingerprint, so that a
// hook reads only the manifests changed since. Its answers must be what reading the manifests gives, whatever changed.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/node/files/files.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/node/files/files.js")>();
  return {
    ...original,
    // The reads of a manifest, with the cache or without it.
    datasetRootOf: (path: string) => {
      reads.count++;
      return original.datasetRootOf(path);
    },
  };
});

const { openRootsCache } = await import("../src/node/cache/roots-cache.js");
const { datasetRootOf } = await import("../src/node/files/files.js");
const { tempDir } = await import("./helpers/datasets.js");
const { stagedDatasets } = await import("../src/node/git/staged.js");
const { runCommand } = await import("./helpers/bin.js");

let dir: string;
let cleanup: () => Promise<void>;
let folder: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  folder = join(dir, ".tooling", "citation-targets");
  mkdirSync(folder, { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  reads.count = 0;
});
afterEach(async () => cleanup());

const manifest = (name: string, datasetRoot?: string) =>
  writeFileSync(
    join(folder, name),
    `${JSON.stringify({ lockVersion: 1, slug: name.split(".")[0], ...(datasetRoot ? { datasetRoot } : {}) })}\n`,
  );
/** A run over every manifest of the folder: the dataset folders, and how many manifests it read. */
async function run(names: string[], startedMs = Date.now()) {
  reads.count = 0;
  const cache = openRootsCache(dir, startedMs);
  expect(cache).toBeDefined();
  const roots = names.map((name) => cache!.rootOf(folder, name));
  await cache!.save();
  return { roots, read: reads.count };
}

describe("the roots cache", () => {
  test("gives what reading the manifests gives, and reads only those changed since", async () => {
    const names = ["a.lock.json", "b.lock.json", "c.lock.json", "d.lock.json"];
    manifest("a.lock.json", "../../laws/a");
    manifest("b.lock.json", "../../laws/b/");
    manifest("c.lock.json"); // none: its own folder
    manifest("d.lock.json", "../../../outside");
    // utimes changes the ctime: a file aged now is still young by its ctime, and so not kept.
    const first = await run(names);
    const expected = names.map((name) => datasetRootOf(join(folder, name)));
    expect(first.roots).toEqual(expected);
    expect(first.read).toBe(4);
    expect(existsSync(join(dir, "node_modules/.cache/citation-targets/roots.json"))).toBe(false); // nothing learnt
    // A run that starts well after every write keeps them all; the next reads none.
    const later = Date.now() + 60_000;
    expect(await run(names, later)).toEqual({ roots: expected, read: 4 });
    expect(await run(names, later)).toEqual({ roots: expected, read: 0 });
    // Rewritten in place (another datasetRoot, the same size): its mtime and ctime change, and only it is read again.
    writeFileSync(
      join(folder, "a.lock.json"),
      readFileSync(join(folder, "a.lock.json"), "utf8").replace("laws/a", "laws/x"),
    );
    const edited = await run(names, Date.now() + 120_000);
    expect(edited.read).toBe(1);
    expect(edited.roots[0]).toBe(join(dir, "laws", "x"));
    // Another file put in its place (a checkout: a rename over it, another inode), even with the old times.
    manifest("next.json", "../../laws/y");
    renameSync(join(folder, "next.json"), join(folder, "b.lock.json"));
    const replaced = await run(names, Date.now() + 180_000);
    expect(replaced.read).toBe(1);
    expect(replaced.roots[1]).toBe(join(dir, "laws", "y"));
    // One changed too lately to be kept (a hook right after `update`): read, and the file is not written again for it.
    const cacheFile = join(dir, "node_modules/.cache/citation-targets/roots.json");
    const before = readFileSync(cacheFile, "utf8");
    writeFileSync(
      join(folder, "d.lock.json"),
      readFileSync(join(folder, "d.lock.json"), "utf8").replace("outside", "out"),
    );
    const young = await run(names);
    expect(young.read).toBe(1);
    expect(young.roots[3]).toBe(join(dir, "..", "out"));
    expect(readFileSync(cacheFile, "utf8")).toBe(before);
    // A manifest gone (its folder lists it no more): its entry is dropped.
    rmSync(join(folder, "d.lock.json"));
    const left = names.slice(0, 3);
    expect((await run(left, Date.now() + 200_000)).read).toBe(0);
    expect(readFileSync(cacheFile, "utf8")).not.toContain("d.lock.json");
    // One that cannot be read is said so on every run, never kept; the others stay kept.
    writeFileSync(join(folder, "c.lock.json"), "null\n");
    for (const _ of [1, 2]) {
      const broken = await run(left, Date.now() + 240_000);
      expect(broken.roots[2]).toBeUndefined();
      expect(broken.read).toBe(1);
    }
  });

  test("is not used by a repository without node_modules, nor one moved elsewhere", async () => {
    manifest("a.lock.json", "../../laws/a");
    const later = Date.now() + 60_000;
    expect(await run(["a.lock.json"], later)).toEqual({ roots: [join(dir, "laws", "a")], read: 1 });
    expect(await run(["a.lock.json"], later)).toEqual({ roots: [join(dir, "laws", "a")], read: 0 });
    // Its entries name the repository's real path: reached by another path (a link to it, a move), each is read again.
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    try {
      reads.count = 0;
      const elsewhere = openRootsCache(link, later);
      expect(elsewhere!.rootOf(join(link, ".tooling", "citation-targets"), "a.lock.json")).toBe(
        join(link, "laws", "a"),
      );
      expect(reads.count).toBe(1);
    } finally {
      rmSync(link);
    }
    rmSync(join(dir, "node_modules"), { recursive: true });
    expect(openRootsCache(dir)).toBeUndefined();
  });

  test("a cache file that is edited by hand, or not a cache's, is ignored", async () => {
    manifest("a.lock.json", "../../laws/a");
    const later = Date.now() + 60_000;
    await run(["a.lock.json"], later);
    const path = join(dir, "node_modules/.cache/citation-targets/roots.json");
    const text = readFileSync(path, "utf8");
    // Columns of unequal lengths: the entry is not trusted.
    writeFileSync(path, text.replace(/"folders":\["[^"]*"\]/, '"folders":[]'));
    expect(await run(["a.lock.json"], later)).toEqual({ roots: [join(dir, "laws", "a")], read: 1 });
    writeFileSync(path, "not json");
    expect(await run(["a.lock.json"], later)).toEqual({ roots: [join(dir, "laws", "a")], read: 1 });
    expect(await run(["a.lock.json"], later)).toEqual({ roots: [join(dir, "laws", "a")], read: 0 });
  });
});

describe("--staged with the roots cache", () => {
  test("maps a staged markdown file to the same datasets, reading no unchanged manifest; --no-cache reads them all", async () => {
    const git = (...args: string[]) =>
      runCommand(
        "git",
        ["-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args],
        dir,
      );
    await git("init", "-q", "-b", "main");
    for (const law of ["a", "b", "c"]) {
      mkdirSync(join(dir, "laws", law), { recursive: true });
      writeFileSync(join(dir, "laws", law, "index.md"), `# ${law}\n`);
      manifest(`${law}.lock.json`, `../../laws/${law}`);
    }
    manifest("all.lock.json", "../../laws");
    await git("add", "-A");
    await git("commit", "-qm", "laws");
    writeFileSync(join(dir, "laws", "b", "index.md"), "# b\n\namended\n");
    await git("add", "laws/b/index.md");
    const names = ["a.lock.json", "all.lock.json", "b.lock.json", "c.lock.json"];
    await run(names, Date.now() + 60_000); // the cache, as an earlier run left it
    const expected = [join(folder, "all.lock.json"), join(folder, "b.lock.json")];
    reads.count = 0;
    const cached = await stagedDatasets(dir);
    expect(cached.manifests).toEqual(expected);
    expect(reads.count).toBe(0);
    const uncached = await stagedDatasets(dir, { cache: false });
    expect(uncached.manifests).toEqual(expected);
    expect(reads.count).toBe(4);
    // A manifest changed since: read again, and its new folder counts.
    writeFileSync(join(folder, "c.lock.json"), `${JSON.stringify({ lockVersion: 1, datasetRoot: "../../laws/b" })}\n`);
    reads.count = 0;
    expect((await stagedDatasets(dir)).manifests).toEqual([...expected, join(folder, "c.lock.json")]);
    expect(reads.count).toBe(1);
  });
});
