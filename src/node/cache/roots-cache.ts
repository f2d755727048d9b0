/**
 * The dataset folders of the default folder's lock manifests, kept between runs of `--staged` (README, "pre-commit";
 * docs/spec.md, "Worker threads and the cache"). A staged markdown file belongs to every dataset whose folder holds it
 * (staged.ts), so each run of a hook read every manifest of the repository for its datasetRoot: 6,636 manifests took
 * 250 ms of the 0.63 s of `update --check --staged` (bench/RESULTS.md, the hooks). Here each manifest's folder is kept
 * with what `stat` says of the manifest (size, modification and change times, inode, device): a manifest whose `stat`
 * is the same is not read again, any other is read and kept anew.
 *
 * Kept in `node_modules/.cache/citation-targets/roots.json` of the repository (when it has `node_modules`; not with
 * `--no-cache` or `--cache-location`), one JSON object: `{"version":1,"key":"roots-1","entries":{<manifest's file
 * name>: [<stat>, <dataset folder from the top folder, "/"-separated>]}}`. A file that cannot be read as that, or that
 * is not a regular file, is as none: it is a cache, nothing in it is trusted but an entry's shape. As git does with its
 * index, a manifest changed in the last 2 seconds is read but not kept: a change within the file system's time
 * granularity could leave its `stat` as it was. Written atomically, and only when an entry changed; a failure to write
 * is not an error of the run.
 */
import { type Stats, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { statIfThere } from "../files/files.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { writeFileAtomic } from "../writes/write.js";

/** What marks the file as this cache, and its layout. */
const HEAD = { version: 1, key: "roots-1" } as const;

/** A manifest changed this recently (ms) is read, not kept (its `stat` could stay the same through a second change). */
export const RACY_MS = 2000;

/** One manifest's `stat` as kept: what changes whenever its bytes can have. */
function statKey(info: Stats): string {
  return `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}:${info.dev}`;
}

export interface RootsCache {
  /** The dataset folder of a manifest of `folder` (absolute), as `read` gives it; undefined when it cannot be read. */
  rootOf(manifest: string): string | undefined;
  /** Keeps what changed; the entries of manifests not asked for in this run (gone from the folder) are dropped. */
  save(): Promise<void>;
}

/**
 * The cache of the manifests of `folder` (absolute) in the repository whose top folder is `root`: `read` gives a
 * manifest's dataset folder when the cache cannot (datasetRootOf). With `use` false, every manifest is read.
 */
export function openRootsCache(
  root: string,
  folder: string,
  read: (manifest: string) => string | undefined,
  use = true,
): RootsCache {
  const modules = join(root, "node_modules");
  if (!use || !statIfThere(modules)?.isDirectory()) return { rootOf: read, save: async () => undefined };
  const path = join(modules, ".cache", "citation-targets", "roots.json");
  const stored = readEntries(path);
  /** The entries to keep: of the manifests asked for, those read again or found as they were. */
  const asked = new Map<string, [string, string]>();
  const seen = new Set<string>();
  let changed = false;
  const now = Date.now();
  return {
    rootOf(manifest) {
      const name = relative(folder, manifest);
      seen.add(name);
      let info: Stats;
      try {
        info = statSync(manifest);
      } catch {
        return read(manifest); // gone since it was listed: its entry is dropped
      }
      const stat = statKey(info);
      const entry = stored.get(name);
      if (entry !== undefined && entry[0] === stat) {
        asked.set(name, entry);
        return resolve(root, ...entry[1].split("/"));
      }
      const found = read(manifest);
      const from = found === undefined ? undefined : relative(root, found);
      // Kept only when it is a folder inside the repository (a manifest pointing out of it is read each time, and named
      // by update) and the manifest did not change just now.
      if (
        from !== undefined &&
        !isAbsolute(from) &&
        from !== ".." &&
        !from.startsWith(`..${sep}`) &&
        info.isFile() &&
        now - Math.max(info.mtimeMs, info.ctimeMs) >= RACY_MS
      ) {
        asked.set(name, [stat, from.split(sep).join("/")]);
        changed = true;
      }
      return found;
    },
    async save() {
      // Written when an entry was kept anew or a manifest is gone; not for an entry left stale (its `stat` changed, and
      // the manifest is read again each run until it is kept): a hook right after `update` would write it each time.
      if (!changed && [...stored.keys()].every((name) => seen.has(name))) return;
      const entries: Record<string, [string, string]> = {};
      for (const name of [...asked.keys()].sort()) entries[name] = asked.get(name)!;
      await writeFileAtomic(path, `${JSON.stringify({ ...HEAD, entries })}\n`).catch(() => undefined);
    },
  };
}

/** The entries of the cache file, by manifest file name; empty when it is not there or is not this cache. */
function readEntries(path: string): Map<string, [string, string]> {
  const entries = new Map<string, [string, string]>();
  let data: unknown;
  try {
    data = JSON.parse(readRegularFileSync(path).toString("utf8"));
  } catch {
    return entries;
  }
  const file = data as { version?: unknown; key?: unknown; entries?: unknown } | null;
  if (typeof file !== "object" || file === null || file.version !== HEAD.version || file.key !== HEAD.key)
    return entries;
  if (typeof file.entries !== "object" || file.entries === null || Array.isArray(file.entries)) return entries;
  for (const [name, entry] of Object.entries(file.entries))
    if (
      Array.isArray(entry) &&
      entry.length === 2 &&
      typeof entry[0] === "string" &&
      typeof entry[1] === "string" &&
      (entry[1] === "" || entry[1].split("/").every((part) => part !== "" && part !== "." && part !== ".."))
    )
      entries.set(name, [entry[0], entry[1]]); // a folder inside the top folder, named down from it: no other is taken
  return entries;
}
