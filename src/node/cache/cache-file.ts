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
 * stamp (another build of the tool, other settings); an entry that `isEntry` refuses, or that cannot be read, is not
 * there (a cache file is data: nothing else is trusted). Written only when an entry changed, atomically, its
 * entries sorted by name; a failure to write is not an error of the run.
 *
 * The file is one JSON object written a line an entry (writeCacheLines): a run parses an entry only when it asks for
 * it, found by searching the file's bytes for its line (StoredEntries), and writes back the lines of the entries it did
 * not change as they were read. A pre-commit hook checks one law of thousands: decoding, parsing and writing every
 * entry again cost it a quarter of its time (bench/RESULTS.md, "A publisher's repository", the hooks). A file of any
 * other layout that is the same JSON (an older build's, one line) is parsed whole.
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
  /** The entries as read, unparsed. */
  let stored = new StoredEntries(undefined, new Map());
  if (info !== undefined) {
    let read: { head: Record<string, unknown>; stored: StoredEntries } | undefined;
    try {
      read = readCacheBytes(readRegularFileSync(path));
    } catch {
      read = undefined;
    }
    if (named && read === undefined && info.size > 0)
      throw new OperationalError(
        `refusing to write the cache over ${path}: it is not a cache file of citation-targets (an input, or another file, would be replaced); name another with --cache-location, or remove it`,
      );
    if (read !== undefined && read.head.version === CACHE_VERSION && read.head[stamp.field] === stamp.value)
      stored = read.stored;
  }
  /** Entries parsed (undefined: not readable), and the ones set or deleted in this run, by name. */
  const parsed = new Map<string, unknown>();
  const changes = new Map<string, T | undefined>();
  return {
    get(name) {
      let entry: unknown;
      if (changes.has(name)) entry = changes.get(name);
      else if (parsed.has(name)) entry = parsed.get(name);
      else {
        const text = stored.get(JSON.stringify(name));
        try {
          entry = text === undefined ? undefined : JSON.parse(text);
        } catch {
          entry = undefined;
        }
        parsed.set(name, entry);
      }
      return isEntry(entry) ? entry : undefined;
    },
    set(name, entry) {
      const text = JSON.stringify(entry);
      const before = changes.has(name) ? JSON.stringify(changes.get(name)) : stored.get(JSON.stringify(name));
      if (before === text) return;
      changes.set(name, entry);
    },
    delete(name) {
      if (changes.has(name) ? changes.get(name) === undefined : stored.get(JSON.stringify(name)) === undefined) return;
      changes.set(name, undefined);
    },
    async save() {
      if (changes.size === 0) return;
      const values = new Map<string, string | undefined>();
      for (const [name, entry] of changes)
        values.set(JSON.stringify(name), entry === undefined ? undefined : JSON.stringify(entry));
      // Only entries there already, given other values (a hook's verdict on its law): those lines replaced in the bytes
      // read. Else every entry, sorted, written again.
      let data: readonly Uint8Array[] | string | undefined = stored.replaced(values);
      if (data === undefined) {
        const entries = stored.all();
        for (const [name, value] of values) {
          if (value === undefined) entries.delete(name);
          else entries.set(name, value);
        }
        data = writeCacheLines({ version: CACHE_VERSION, [stamp.field]: stamp.value }, entries);
      }
      await writeFileAtomic(path, data).catch(() => undefined);
    },
  };
}

/** A cache file read: its head (`version` and the stamp), and its entries' JSON texts by their names' JSON texts. */
export interface CacheLines {
  head: Record<string, unknown>;
  entries: Map<string, string>;
}

/** After this many entries looked up by search, a file a line an entry is indexed whole (a run that asks for many). */
const SEARCHED_ENTRIES = 16;

/**
 * The entries of a cache file as read, unparsed: the JSON text of each value by the JSON text of its name. In a file a
 * line an entry, an entry asked for is searched for in the file's bytes (`raw`, as read: searching them is a `memmem`,
 * and cutting them costs no decoding), its line alone decoded: a hook asks for one of thousands. Once more are asked
 * for, the file is decoded and indexed whole (`index`), as a file of another layout is from the start, and the bytes are
 * let go. An entry given a new value is written back as the bytes read around its new line: a hook's verdict on its law
 * rewrites one line of a file of megabytes (held as a Latin-1 string, made and written back as bytes again, the file
 * cost the validate hook 60 of its 400 ms of CPU; bench/RESULTS.md, the hooks).
 */
class StoredEntries {
  private found = new Map<string, { start: number; end: number; comma: boolean; value: string } | null>();
  private searched = 0;
  constructor(
    private raw: Buffer | undefined,
    private index?: Map<string, string>,
    /** The offset of the LF that ends the head's line. */
    private readonly headEnd = 0,
  ) {}

  get(name: string): string | undefined {
    if (this.index !== undefined) return this.index.get(name);
    if (++this.searched > SEARCHED_ENTRIES) {
      this.index = this.all();
      this.raw = undefined;
      return this.index.get(name);
    }
    return this.line(name)?.value;
  }

  /** The entry's line in the bytes, found by its start (the last of lines of the same name, as JSON.parse takes it). */
  private line(name: string) {
    const known = this.found.get(name);
    if (known !== undefined) return known;
    const raw = this.raw!;
    const key = Buffer.from(`\n${name}:`, "utf8");
    let at = raw.indexOf(key, this.headEnd);
    for (let next = at; next !== -1; next = raw.indexOf(key, at + 1)) at = next;
    let line: { start: number; end: number; comma: boolean; value: string } | null = null;
    if (at !== -1) {
      const end = raw.indexOf(0x0a, at + 1);
      const comma = raw[end - 1] === 0x2c;
      line = { start: at + 1, end, comma, value: raw.toString("utf8", at + key.length, comma ? end - 1 : end) };
    }
    this.found.set(name, line);
    return line;
  }

  /** Every entry, indexed (a copy the caller may change). */
  all(): Map<string, string> {
    if (this.index !== undefined) return new Map(this.index);
    // The head was read already: the lines are entries (readCacheLines parses a text of another layout whole).
    try {
      return readCacheLines(this.raw!.toString("utf8"))?.entries ?? new Map();
    } catch {
      return new Map();
    }
  }

  /**
   * The file's bytes with the lines of these entries holding these values, in pieces to write one after another:
   * undefined unless the file is a line an entry (not indexed whole yet) and each of them is there already, and is
   * given a value (not deleted).
   */
  replaced(values: ReadonlyMap<string, string | undefined>): Uint8Array[] | undefined {
    if (this.raw === undefined) return undefined;
    const lines: { start: number; end: number; comma: boolean; text: string }[] = [];
    for (const [name, value] of values) {
      const line = this.line(name);
      if (line === null || value === undefined) return undefined;
      lines.push({ ...line, text: `${name}:${value}` });
    }
    lines.sort((a, b) => a.start - b.start);
    const pieces: Uint8Array[] = [];
    let from = 0;
    for (const { start, end, comma, text } of lines) {
      pieces.push(this.raw.subarray(from, start), Buffer.from(comma ? `${text},` : text, "utf8"));
      from = end;
    }
    pieces.push(this.raw.subarray(from));
    return pieces;
  }
}

/**
 * A cache file's bytes read: a file a line an entry (writeCacheLines) by its head alone, its entries looked into as
 * they are asked for; any other parsed whole (parseWhole). Undefined when it is not a cache's; throws when it is no
 * JSON.
 */
function readCacheBytes(bytes: Buffer): { head: Record<string, unknown>; stored: StoredEntries } | undefined {
  const headEnd = bytes.indexOf(0x0a);
  const n = bytes.length;
  if (headEnd > 0 && n >= headEnd + 4 && bytes[n - 4] === 0x0a && bytes[n - 3] === 0x7d && bytes[n - 2] === 0x7d) {
    const headLine = bytes.toString("utf8", 0, headEnd);
    if (bytes[n - 1] === 0x0a && headLine.endsWith(ENTRIES_OPEN)) {
      const head = JSON.parse(`${headLine.slice(0, -ENTRIES_OPEN.length)}}`) as unknown;
      if (isCacheHead(head)) return { head, stored: new StoredEntries(bytes, undefined, headEnd) };
    }
  }
  const read = parseWhole(bytes.toString("utf8"));
  return read === undefined ? undefined : { head: read.head, stored: new StoredEntries(undefined, read.entries) };
}

/** What the line with the head ends with: the entries follow, one a line. */
const ENTRIES_OPEN = ',"entries":{';

/**
 * A cache file's text as written (writeCacheLines): the head's JSON text without its closing brace and
 * `,"entries":{` on the first line, then a line an entry, `<name's JSON text>:<value's JSON text>` and a comma but on
 * the last, then `}}`. JSON text (JSON.stringify's) holds no line feed, so a line is an entry. Any other text is parsed
 * whole as JSON (a file an older build wrote on one line). Undefined when the text is not a cache's (not an object with
 * a numeric version, update's `generator` or validate's `key`, and an object of entries); throws when it is no JSON.
 */
export function readCacheLines(text: string): CacheLines | undefined {
  const lines = text.split("\n");
  if (lines.length >= 3 && lines[0]!.endsWith(ENTRIES_OPEN) && lines[lines.length - 1] === "") {
    const head = JSON.parse(`${lines[0]!.slice(0, -ENTRIES_OPEN.length)}}`) as unknown;
    const last = lines.length - 2;
    if (lines[last] === "}}" && isCacheHead(head)) {
      const entries = new Map<string, string>();
      for (let i = 1; i < last; i++) {
        const line = lines[i]!;
        const value = line.endsWith(",") ? line.slice(0, -1) : line; // a JSON value never ends with a comma
        const colon = nameEnd(value);
        if (colon !== -1) entries.set(value.slice(0, colon), value.slice(colon + 1)); // else no entry (edited by hand)
      }
      return { head, entries };
    }
  }
  return parseWhole(text);
}

/** The end of the JSON string a line starts with (the index of the `:` after it), or -1. */
function nameEnd(line: string): number {
  if (line.charCodeAt(0) !== 0x22) return -1;
  for (let i = 1; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return line.charCodeAt(i + 1) === 0x3a ? i + 1 : -1;
  }
  return -1;
}

/** A cache file's text parsed as one JSON value (any layout). */
function parseWhole(text: string): CacheLines | undefined {
  const data = JSON.parse(text) as unknown;
  if (!isCacheHead(data)) return undefined;
  const { entries, ...head } = data as Record<string, unknown>;
  if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return undefined;
  const texts = new Map<string, string>();
  for (const [name, value] of Object.entries(entries)) texts.set(JSON.stringify(name), JSON.stringify(value));
  return { head, entries: texts };
}

/** An object with a numeric version and update's `generator` or validate's (or resolve's) `key`. */
function isCacheHead(data: unknown): data is Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
  const head = data as Record<string, unknown>;
  return typeof head.version === "number" && (typeof head.generator === "string" || typeof head.key === "string");
}

/** The text of a cache file (readCacheLines): the head, then the entries sorted by name, one a line. */
export function writeCacheLines(head: Record<string, unknown>, entries: ReadonlyMap<string, string>): string {
  const names: { text: string; name: string }[] = [];
  for (const text of entries.keys()) {
    try {
      names.push({ text, name: JSON.parse(text) as string });
    } catch {
      // a name that is no JSON string (a file edited by hand): its entry is dropped
    }
  }
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = [`${JSON.stringify(head).slice(0, -1)}${ENTRIES_OPEN}`];
  for (const [i, { text }] of names.entries())
    lines.push(`${text}:${entries.get(text)!}${i < names.length - 1 ? "," : ""}`);
  lines.push("}}", "");
  return lines.join("\n");
}
