/**
 * A cache file of `update` or `validate` (README, "update" and "validate"; docs/spec.md, "Worker threads and the
 * cache"): where it is, and how it is read and written. What each keeps is in update-cache.ts and validate-cache.ts.
 */
import { type Stats, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { OperationalError } from "../errors.js";
import { findRepositoryRoot, statIfThere } from "../files/files.js";
import { fileKind, readRegularFileSync } from "../files/regular-file.js";
import { writeFileAtomic } from "../writes/write.js";

const CACHE_VERSION = 1;

/**
 * The cache file in force: `location` when given, else `node_modules/.cache/citation-targets/<name>`
 * (update.json, validate.json) of the repository (the folder with `.git`, else cwd) when it has a
 * `node_modules` folder; undefined when there is none, or when `location` is false (`--no-cache`).
 */
export async function cacheLocation(
  cwd: string,
  location: string | false | undefined,
  name = "update.json",
): Promise<string | undefined> {
  if (location === false) return undefined;
  if (location !== undefined) return resolve(cwd, location);
  const root = (await findRepositoryRoot(cwd)) ?? cwd;
  if (!statIfThere(join(root, "node_modules"))?.isDirectory()) return undefined; // sync: a run's start path
  return join(root, "node_modules", ".cache", "citation-targets", name);
}

/**
 * A cache file of either command: `{ version, <stamp>: value, entries }`, its entries named by the
 * caller. Empty when the file is not there, cannot be read, or was written with another version or
 * stamp (another build of the tool, other settings); an entry that `isEntry` refuses is not there (a
 * cache file is data: nothing else is trusted). Written only when an entry changed, atomically, its
 * entries sorted by name; a failure to write is not an error of the run.
 */
export interface CacheFile<T> {
  get(name: string): T | undefined;
  set(name: string, entry: T): void;
  delete(name: string): void;
  save(): Promise<void>;
}

export function openCacheFile<T>(
  path: string,
  stamp: { field: string; value: string },
  isEntry: (value: unknown) => value is T,
  named = false,
): CacheFile<T> {
  let entries: Record<string, unknown> = {};
  // Only a regular file is read (a device would never end, a FIFO would block); and a file named by --cache-location is
  // replaced only when it is a cache: one naming an input (a JSONL, a law) is refused, never overwritten (SECURITY.md).
  let info: Stats | undefined;
  try {
    info = statSync(path, { throwIfNoEntry: false });
  } catch {
    info = undefined; // a folder of its path is a file: no cache there, and none written
  }
  if (info !== undefined && !info.isFile())
    throw new OperationalError(
      `refusing the cache file ${path}: it is ${fileKind(info)}, not a regular file; name another with --cache-location, or run with --no-cache`,
    );
  let data: Record<string, unknown> | undefined;
  if (info !== undefined) {
    try {
      data = JSON.parse(readRegularFileSync(path).toString("utf8")) as Record<string, unknown>;
    } catch {
      data = undefined;
    }
    const isCache =
      typeof data === "object" &&
      data !== null &&
      typeof data.version === "number" &&
      (typeof data.generator === "string" || typeof data.key === "string") && // update's or validate's
      typeof data.entries === "object" &&
      data.entries !== null &&
      !Array.isArray(data.entries);
    if (named && !isCache && info.size > 0)
      throw new OperationalError(
        `refusing to write the cache over ${path}: it is not a cache file of citation-targets (an input, or another file, would be replaced); name another with --cache-location, or remove it`,
      );
    if (isCache && data!.version === CACHE_VERSION && data![stamp.field] === stamp.value)
      entries = data!.entries as Record<string, unknown>;
  }
  let changed = false;
  return {
    get(name) {
      const entry = entries[name];
      return isEntry(entry) ? entry : undefined;
    },
    set(name, entry) {
      if (JSON.stringify(entries[name]) === JSON.stringify(entry)) return;
      entries[name] = entry;
      changed = true;
    },
    delete(name) {
      if (!(name in entries)) return;
      delete entries[name];
      changed = true;
    },
    async save() {
      if (!changed) return;
      const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      const text = `${JSON.stringify({ version: CACHE_VERSION, [stamp.field]: stamp.value, entries: sorted })}\n`;
      await writeFileAtomic(path, text).catch(() => undefined);
    },
  };
}
