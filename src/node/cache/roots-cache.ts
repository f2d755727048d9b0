/**
 * The dataset folders of the tooling folder's lock manifests, for `--staged` (staged.ts): a staged markdown file
 * belongs to every dataset whose datasetRoot holds it, so each run of the generate-check hook read every manifest of
 * the repository, 6,636 of them in a publisher's, 73 of the hook's 180 ms (bench/RESULTS.md, the hooks). This cache
 * keeps the dataset folder of each manifest with the stat fingerprint (size, mtime and ctime, inode, device) the
 * manifest had when it was read: a manifest whose fingerprint is unchanged is not read again (a stat costs half what
 * the open, read and close of the file do). Any change to a manifest's bytes changes its mtime and ctime; one put in
 * its place (a rename, a checkout) has another inode. A fingerprint taken less than SETTLE_MS before the run started
 * is not kept ("racily clean", as validate's cache): a manifest written since it was kept has an mtime seconds later,
 * whatever the clock's resolution. Nor is a manifest that cannot be read kept: it is read again on every run, and
 * said unreadable as before.
 *
 * It sits beside update's cache (`node_modules/.cache/citation-targets/roots.json` of the repository, when it has
 * `node_modules`), and is used when update's or validate's cache is at its default place: `--no-cache` and
 * `--cache-location` read every manifest, as before. It holds one entry a folder of manifests (named by its path from the
 * repository's top folder), in columns: the manifests' names, their fingerprints as numbers, and their dataset folders
 * from the top folder; under a stamp that names the repository's real path, so that a repository moved or reached
 * another way misses every entry. Columns, compared as numbers, because the cache must cost much less than the reads
 * it spares: an entry a manifest, each parsed and its fingerprint made a string, cost 22–35 ms of the 52 (measured in
 * one process over 6,636 manifests).
 */
import { type Stats, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { datasetRootOf, statIfThere } from "../files/files.js";
import { SETTLE_MS } from "../files/fingerprints.js";
import { type CacheFile, openCacheFile } from "./cache-file.js";

/**
 * What is kept of the manifests of one folder, a column each: their names; their fingerprints when they were read, five
 * numbers each (size, mtime and ctime in milliseconds, inode, device); their dataset folders (from the repository's
 * top folder, with `/`, `""` for the top folder itself; absolute when outside it).
 */
interface FolderEntry {
  names: string[];
  prints: number[];
  folders: string[];
}

/** The numbers of a fingerprint. */
const PRINT = 5;

/**
 * What the entries mean (a manifest's dataset folder as datasetRootOf reads it), before the repository's real path
 * in the stamp: a change to that reading or to the entries' layout changes this, and every manifest is read again.
 */
const ROOTS_KEY = "dataset folders 2";

export interface RootsCache {
  /** The dataset folder (absolute) of the manifest `name` in `folder`; undefined when it cannot be read as one. */
  rootOf(folder: string, name: string): string | undefined;
  /** Writes the cache when it learnt anything, atomically; a failure to write is not an error of the run. */
  save(): Promise<void>;
}

/**
 * What a run makes of one folder's entry: the stored manifests by name, those of them asked about (`asked`, by their
 * place in the columns), and those read and kept anew (`fresh`).
 */
interface FolderRun {
  stored: FolderEntry | undefined;
  byName: Map<string, number>;
  asked: Uint8Array;
  fresh: Map<string, { print: number[]; folder: string }>;
}

/**
 * The cache of the repository whose top folder is `root` (its real path), when it has a `node_modules` folder: the run
 * started at `startedMs` (Date.now()), so that fingerprints younger than SETTLE_MS before it are not kept. Milliseconds
 * as a fraction (a quarter of a microsecond apart, today) are enough: a kept fingerprint is SETTLE_MS old, and any
 * write since gives a later mtime and ctime.
 */
export function openRootsCache(root: string, startedMs = Date.now()): RootsCache | undefined {
  if (!statIfThere(join(root, "node_modules"))?.isDirectory()) return undefined;
  const path = join(root, "node_modules", ".cache", "citation-targets", "roots.json");
  let file: CacheFile<FolderEntry>;
  try {
    file = openCacheFile(path, { field: "key", value: `${ROOTS_KEY}\u0000${root}` }, isFolderEntry);
  } catch {
    return undefined; // not a regular file there: every manifest read, as without a cache
  }
  const before = startedMs - SETTLE_MS;
  const top = root.endsWith(sep) ? root : `${root}${sep}`;
  const toFolder = (stored: string) =>
    isAbsolute(stored) ? stored : stored === "" ? root : `${top}${sep === "/" ? stored : stored.split("/").join(sep)}`;
  const fromFolder = (absolute: string) => {
    const rel = relative(root, absolute);
    return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? absolute : rel.split(sep).join("/");
  };
  const nameOf = (folder: string) => relative(root, folder).split(sep).join("/");
  const runs = new Map<string, FolderRun>();
  const runOf = (folder: string) => {
    let run = runs.get(folder);
    if (run === undefined) {
      const stored = file.get(nameOf(folder));
      const byName = new Map<string, number>();
      if (stored !== undefined) for (const [i, name] of stored.names.entries()) byName.set(name, i);
      run = { stored, byName, asked: new Uint8Array(stored?.names.length ?? 0), fresh: new Map() };
      runs.set(folder, run);
    }
    return run;
  };
  return {
    rootOf(folder, name) {
      const manifest = folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
      let info: Stats | undefined;
      try {
        // Taken before the manifest is read: a change while it is read changes what the next run finds.
        info = statSync(manifest, { throwIfNoEntry: false });
      } catch {
        info = undefined;
      }
      if (info === undefined || !info.isFile()) return datasetRootOf(manifest);
      const run = runOf(folder);
      const at = run.byName.get(name);
      const { stored } = run;
      if (at !== undefined && stored !== undefined) {
        run.asked[at] = 1;
        const p = at * PRINT;
        const prints = stored.prints;
        if (
          prints[p] === info.size &&
          prints[p + 1] === info.mtimeMs &&
          prints[p + 2] === info.ctimeMs &&
          prints[p + 3] === info.ino &&
          prints[p + 4] === info.dev
        )
          return toFolder(stored.folders[at]!);
      }
      const dataset = datasetRootOf(manifest);
      if (dataset !== undefined && info.mtimeMs < before && info.ctimeMs < before)
        run.fresh.set(name, {
          print: [info.size, info.mtimeMs, info.ctimeMs, info.ino, info.dev],
          folder: fromFolder(dataset),
        });
      return dataset;
    },
    async save() {
      for (const [folder, { stored, asked, fresh }] of runs) {
        // Rewritten when it learnt a manifest, or one it held is gone (not asked about): else left as it is. One changed
        // too lately to be kept keeps its old entry, which no longer matches, until a run keeps it anew: a hook after
        // `update` of one law does not write the file.
        if (fresh.size === 0 && !asked.includes(0)) continue;
        const entry: FolderEntry = { names: [], prints: [], folders: [] };
        if (stored !== undefined)
          for (const [i, name] of stored.names.entries()) {
            if (asked[i] !== 1 || fresh.has(name)) continue;
            entry.names.push(name);
            for (let k = i * PRINT; k < (i + 1) * PRINT; k++) entry.prints.push(stored.prints[k]!);
            entry.folders.push(stored.folders[i]!);
          }
        for (const [name, { print, folder: of }] of fresh) {
          entry.names.push(name);
          entry.prints.push(...print);
          entry.folders.push(of);
        }
        file.set(nameOf(folder), entry);
      }
      await file.save();
    },
  };
}

/** A stored entry of the right shape (a cache file is data: anything else is not trusted). */
function isFolderEntry(value: unknown): value is FolderEntry {
  if (value === null || typeof value !== "object") return false;
  const entry = value as Record<string, unknown>;
  const { names, prints, folders } = entry;
  return (
    Array.isArray(names) &&
    Array.isArray(prints) &&
    Array.isArray(folders) &&
    folders.length === names.length &&
    prints.length === names.length * PRINT &&
    names.every((name) => typeof name === "string") &&
    folders.every((folder) => typeof folder === "string") &&
    prints.every((n) => typeof n === "number")
  );
}
