/**
 * The cache of `update` (README, "update"; docs/spec.md, "Worker threads and the cache"): for each
 * lock manifest, the SHA-256 of the JSONL it generated and its record count, under a key that is the
 * SHA-256 of the generator's identity, the manifest's bytes and the limits. When a run finds the same
 * key and a JSONL with exactly those bytes, that JSONL is what generate would write: the dataset is
 * not regenerated. The manifest's bytes hold every artifact's sha256, so any change to the markdown,
 * the manifest or the generator's code misses the cache. A cache that cannot be read is ignored.
 */
import { readdirSync, readFileSync, type Stats, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { type Sha256Stream, sha256Hex, sha256Stream } from "../../core/bytes.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import { codePath } from "../code-root.js";
import { OperationalError } from "../errors.js";
import { findRepositoryRoot } from "../files/files.js";
import { fileKind, readRegularFileSync } from "../files/regular-file.js";
import { writeFileAtomic } from "../writes/write.js";

export interface CacheEntry {
  /** SHA-256 of the generator's identity, the manifest's bytes and the limits. */
  key: string;
  /** SHA-256 of the JSONL generated. */
  output: string;
  records: number;
}

const CACHE_VERSION = 1;

export interface UpdateCache {
  /** The cache file. */
  path: string;
  generator: string;
  /** What the cache knows of a manifest (absolute path). */
  get(manifestPath: string): CacheEntry | undefined;
  set(manifestPath: string, entry: CacheEntry): void;
  /** Writes the cache, atomically; a failure to write is not an error of the run. */
  save(): Promise<void>;
}

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
  if (!(await stat(join(root, "node_modules")).catch(() => undefined))?.isDirectory()) return undefined;
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

/**
 * Opens update's cache at `path` (`named`: by --cache-location, so that a file there that is no cache is refused, not
 * replaced). Entries are kept by manifest path relative to the cache's folder.
 */
export function openCache(path: string, named = false): UpdateCache {
  const folder = dirname(path);
  const generator = generatorIdentity();
  const file = openCacheFile(path, { field: "generator", value: generator }, isCacheEntry, named);
  const name = (manifestPath: string) => relative(folder, manifestPath).split(sep).join("/");
  return {
    path,
    generator,
    get: (manifestPath) => file.get(name(manifestPath)),
    set: (manifestPath, entry) => file.set(name(manifestPath), entry),
    save: () => file.save(),
  };
}

function isCacheEntry(value: unknown): value is CacheEntry {
  const entry = value as CacheEntry | null | undefined;
  return (
    entry !== null &&
    typeof entry === "object" &&
    typeof entry.key === "string" &&
    typeof entry.output === "string" &&
    typeof entry.records === "number"
  );
}

/** The key of a manifest's output: the generator, the manifest's bytes and the limits. */
export function cacheKey(generator: string, manifestText: string, limits: ArtifactLimits): string {
  return sha256Hex(`${generator}\0${JSON.stringify(limits)}\0${manifestText}`);
}

let identity: string | undefined;

/** A package.json's version, then NUL (`?` when it cannot be read). */
export function versionAt(path: string): string {
  try {
    return `${(JSON.parse(readFileSync(path, "utf8")) as { version?: string }).version ?? ""}\0`;
  } catch {
    return "?\0";
  }
}

/** The modules (`.js`, `.ts`, not `.d.ts`) below a folder and its subfolders, by path from it, in a fixed order. */
export function modulesBelow(folder: string, prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(folder, prefix), { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) found.push(...modulesBelow(folder, `${path}/`));
    else if (/\.(js|ts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(path);
  }
  return found.sort();
}

/**
 * The generator's identity: the SHA-256 of the code that decides generated bytes (this package's
 * version and every module of src/core as built, its subfolders included) and of the versions of
 * the parsers it uses.
 */
export function generatorIdentity(): string {
  if (identity !== undefined) return identity;
  const hash = sha256Stream();
  const core = codePath("core");
  for (const name of modulesBelow(core))
    hash
      .update(`${name}\0`)
      .update(readFileSync(join(core, name)))
      .update("\0");
  hash.update(versionAt(codePath("../package.json")));
  hashPackageVersions(hash, ["markdown-it", "yaml"]);
  identity = hash.digest("hex");
  return identity;
}

/** Adds each package's name and installed version to `hash` (`?` for one that is not installed). */
export function hashPackageVersions(hash: Sha256Stream, names: readonly string[]): void {
  const require = createRequire(import.meta.url);
  for (const name of names) {
    let folder: string;
    try {
      folder = dirname(require.resolve(name));
    } catch {
      hash.update(`${name}?\0`);
      continue;
    }
    while (basename(folder) !== name && dirname(folder) !== folder) folder = dirname(folder);
    hash.update(`${name}\0${versionAt(join(folder, "package.json"))}`);
  }
}
