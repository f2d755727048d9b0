/**
 * `resolve` (README, "resolve"; docs/spec.md, section 19): the datasets of the repository (or those named) loaded into
 * the index of src/core/resolve/resolve-index.ts, each citation read and found in it.
 *
 * The index is cached (docs/spec.md, section 14, item 10): `node_modules/.cache/citation-targets/resolve.json` keeps,
 * for each lock manifest, what the index holds of its dataset (the manifest's fields, aliases and documentAliases, each record's
 * address, id and heading), with the stat fingerprint of the manifest and of its JSONL, under the code identity of
 * this module's import graph. A dataset whose two fingerprints are unchanged is not read again.
 */
import { conflictMarkerLines, conflictMessage } from "../../core/lines.js";
import { basename, dirname, relative, sep } from "node:path";
import { deriveCitationTargetId } from "../../core/digest.js";
import {
  columnsText,
  type ResolveColumns,
  ResolveIndex,
  type ResolveResult,
} from "../../core/resolve/resolve-index.js";
import { cacheLocation, openCacheFile } from "../cache/cache-file.js";
import { codeIdentity } from "../cache/code-identity.js";
import { DatasetOperands } from "../dataset/dataset-operands.js";
import { OperationalError } from "../errors.js";
import { displayPath } from "../files/files.js";
import { type Fingerprint, fingerprintAt } from "../files/fingerprints.js";
import { describeJsonError } from "../files/json-file.js";
import { readRegularFileSync } from "../files/regular-file.js";

export interface ResolveOptions {
  /** The citations, in order. */
  citations: readonly string[];
  cwd?: string;
  /**
   * Datasets to resolve against, as the other commands name them (a lock manifest, its JSONL, a dataset folder, a
   * slug); default every dataset of the repository's tooling folder. When given, a citation that names no law is looked
   * for in these.
   */
  datasets?: readonly string[];
  /** The cache file (default `node_modules/.cache/citation-targets/resolve.json` when there is a node_modules), or false. */
  cache?: string | false;
  /**
   * How long a file must have been left alone for its entry to be kept (default 2 s; the tests set 0).
   * @internal Not of the library's API: for tests.
   */
  cacheSettleMs?: number;
}

export interface ResolveReport {
  results: ResolveResult[];
  /** Datasets left out (a JSONL not there), lines that are no record, manifests not matching their schema: for stderr. */
  warnings: string[];
  /**
   * The lock manifests that could not be read, whose datasets were left out (shown paths): the results may then be
   * wrong (a citation of that law matched in another dataset, or ambiguous no more). Present only when there is one.
   */
  unreadable?: string[];
}

/** The modules the index cache serves: its entries stand for what this code would read. */
export const RESOLVE_CACHE_CODE = ["node/resolve/resolve.js"];

/** One dataset's entry in the cache. */
interface ResolveEntry {
  manifest: Fingerprint;
  jsonl: Fingerprint;
  dataset: ResolveColumns;
  unreadable: number;
  /** The first thing wrong with the manifest by its schema, when something is: its dataset is read as it is. */
  invalid?: string;
}

const isEntry = (value: unknown): value is ResolveEntry => {
  if (value === null || typeof value !== "object") return false;
  const entry = value as Partial<ResolveEntry>;
  const dataset = entry.dataset as Partial<ResolveColumns> | undefined;
  return (
    typeof entry.manifest === "string" &&
    typeof entry.jsonl === "string" &&
    typeof entry.unreadable === "number" &&
    (entry.invalid === undefined || typeof entry.invalid === "string") &&
    dataset !== undefined &&
    dataset !== null &&
    typeof dataset.slug === "string" &&
    typeof dataset.titleId === "string" &&
    typeof dataset.name === "string" &&
    typeof dataset.datasetDigest === "string" &&
    (dataset.aliases === undefined || Array.isArray(dataset.aliases)) &&
    (dataset.units === undefined || dataset.units === true) &&
    (dataset.documentAliases === undefined ||
      (typeof dataset.documentAliases === "object" && dataset.documentAliases !== null)) &&
    typeof dataset.records === "string"
  );
};

/** Loads the datasets into an index (from the cache where it holds them); the index and the warnings. */
export async function loadResolveIndex(
  options: Omit<ResolveOptions, "citations">,
): Promise<{ index: ResolveIndex; warnings: string[]; datasetsNamed: boolean; unreadable: string[] }> {
  const cwd = options.cwd ?? process.cwd();
  const started = Date.now();
  const operands = await DatasetOperands.create(cwd);
  const named = options.datasets !== undefined && options.datasets.length > 0;
  const manifests = named ? operands.resolveAll(options.datasets!).manifests : operands.toolingManifests();
  if (manifests.length === 0)
    throw new OperationalError(
      `no dataset to resolve against: no lock manifest in ${displayPath(operands.toolingFolder, cwd)} (adopt or lock the datasets first, or name one with --dataset)`,
    );
  const location = await cacheLocation(cwd, options.cache, "resolve.json");
  const cache =
    location === undefined
      ? undefined
      : openCacheFile(
          location,
          { field: "key", value: codeIdentity(RESOLVE_CACHE_CODE) },
          isEntry,
          options.cache !== undefined,
        );
  const warnings: string[] = [];
  const datasets: ResolveColumns[] = [];
  /** The first manifest that could not be read: the run's error when no dataset could be. */
  let failed: OperationalError | undefined;
  const unreadable: string[] = [];
  /** The manifest schema's check, loaded at the first manifest read (a warm run reads none). */
  let schemaCheck: ((data: unknown) => string[]) | undefined;
  for (const manifest of manifests) {
    const jsonl = operands.jsonlOf(manifest);
    const name = location === undefined ? manifest : cacheName(dirname(location), manifest);
    const prints = { manifest: fingerprintAt(manifest), jsonl: fingerprintAt(jsonl) };
    const cached = cache?.get(name);
    let entry: ResolveEntry | undefined;
    if (cached !== undefined && cached.manifest === prints.manifest && cached.jsonl === prints.jsonl) entry = cached;
    else {
      schemaCheck ??= await (await import("../dataset/manifest-io.js")).manifestSchemaCheck();
      let read: ReturnType<typeof readDataset>;
      try {
        read = readDataset(manifest, jsonl, prints.jsonl !== undefined, cwd, schemaCheck);
      } catch (error) {
        // A manifest that cannot be read (broken by hand, a merge conflict) among the repository's: its dataset is left
        // out, said, and the citations of the other laws are resolved. One named with --dataset is the run's error.
        if (named || !(error instanceof OperationalError)) throw error;
        warnings.push(`${error.message}; its dataset is left out (run citation-targets validate)`);
        failed ??= error;
        unreadable.push(displayPath(manifest, cwd));
        cache?.delete(name);
        continue;
      }
      if (read === undefined) {
        warnings.push(
          `${displayPath(manifest, cwd)}: its dataset file ${displayPath(jsonl, cwd)} is not there, so its dataset is left out (run citation-targets update)`,
        );
        cache?.delete(name);
        continue;
      }
      entry = { manifest: prints.manifest ?? "", jsonl: prints.jsonl ?? "", ...read };
      if (cache !== undefined) {
        if (
          prints.manifest !== undefined &&
          prints.jsonl !== undefined &&
          settled([prints.manifest, prints.jsonl], started - (options.cacheSettleMs ?? SETTLE_MS))
        )
          cache.set(name, entry);
        else cache.delete(name);
      }
    }
    if (entry.invalid !== undefined)
      warnings.push(
        `${displayPath(manifest, cwd)}: does not match the lock manifest schema (${entry.invalid}); its dataset is resolved as it is (run citation-targets validate)`,
      );
    if (entry.unreadable > 0)
      warnings.push(
        `${displayPath(jsonl, cwd)}: ${entry.unreadable} ${entry.unreadable === 1 ? "line is" : "lines are"} not a record with a citationAddress and ${entry.unreadable === 1 ? "is" : "are"} left out (run citation-targets validate)`,
      );
    datasets.push(entry.unreadable > 0 ? { ...entry.dataset, unreadable: entry.unreadable } : entry.dataset);
  }
  await cache?.save();
  if (datasets.length === 0 && failed !== undefined) throw failed;
  // Every dataset left out (no JSONL generated yet): nothing to resolve against, as with no manifest at all.
  if (datasets.length === 0)
    throw new OperationalError(
      `no dataset to resolve against: ${manifests.length === 1 ? "its one dataset was left out, its JSONL" : `all ${manifests.length} datasets were left out, their JSONL`} not there (run citation-targets update)`,
    );
  return { index: new ResolveIndex(datasets), warnings, datasetsNamed: named, unreadable };
}

/** Resolves citations (README, "resolve"); throws OperationalError when no dataset can be loaded. */
export async function resolveCitations(options: ResolveOptions): Promise<ResolveReport> {
  const { index, warnings, datasetsNamed, unreadable } = await loadResolveIndex(options);
  const results = options.citations.map((citation) => index.resolve(citation, { lawOptional: datasetsNamed }));
  return { results, warnings, ...(unreadable.length > 0 ? { unreadable } : {}) };
}

/** A manifest's name in the cache: its path from the cache's folder (POSIX); the tooling folder's worked out once. */
const cacheNames = new Map<string, string>();
function cacheName(cacheFolder: string, manifest: string): string {
  const folder = dirname(manifest);
  const key = `${cacheFolder}\0${folder}`;
  let prefix = cacheNames.get(key);
  if (prefix === undefined) {
    prefix = relative(cacheFolder, folder).split(sep).join("/");
    cacheNames.set(key, prefix);
  }
  return `${prefix === "" ? "" : `${prefix}/`}${basename(manifest)}`;
}

/**
 * How long a file must have been left alone before the run for its fingerprint to be trusted: the rule of validate's
 * cache (docs/spec.md, section 14, item 8, "racily clean"), not imported from it so that this code's identity and its
 * start-up leave validate's rules out.
 */
const SETTLE_MS = 2000;

/** True when each fingerprint's mtime and ctime are before `before` (ms since the epoch). */
function settled(prints: readonly string[], before: number): boolean {
  const limit = BigInt(Math.floor(before)) * 1_000_000n;
  return prints.every((print) => {
    const [, mtime, ctime] = print.split(":");
    return mtime !== undefined && ctime !== undefined && BigInt(mtime) < limit && BigInt(ctime) < limit;
  });
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * A dataset's manifest fields and its records' addresses, headings and ids in columns (undefined when its JSONL is not
 * there); an OperationalError naming a manifest that cannot be read.
 */
function readDataset(
  manifest: string,
  jsonl: string,
  present: boolean,
  cwd: string,
  schemaCheck: (data: unknown) => string[],
): { dataset: ResolveColumns; unreadable: number; invalid?: string } | undefined {
  const shown = displayPath(manifest, cwd);
  let data: Record<string, unknown>;
  let read: string | undefined;
  try {
    read = readRegularFileSync(manifest).toString("utf8");
    data = JSON.parse(read) as Record<string, unknown>;
  } catch (error) {
    const markers = read === undefined ? [] : conflictMarkerLines(read);
    if (markers.length > 0)
      throw new OperationalError(
        conflictMessage(`lock manifest ${shown}`, `markers on lines ${markers.join(", ")}`, true),
      );
    throw new OperationalError(
      `${shown}: cannot be read as a lock manifest (${error instanceof SyntaxError && read !== undefined ? `not valid JSON: ${describeJsonError(read, error)}` : (error as Error).message})`,
    );
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new OperationalError(`${shown}: not a lock manifest (not a JSON object)`);
  if (!present) return undefined;
  const invalid = schemaCheck(data)[0]?.trim();
  const slug = text(data.slug) ?? basename(manifest).replace(/\.lock\.json$/, "");
  const aliases = Array.isArray(data.aliases) ? data.aliases.filter((a): a is string => typeof a === "string") : [];
  // A dataset of several laws: each law's aliases by its document (only lists of texts are taken).
  const documentAliases: Record<string, string[]> = {};
  if (data.documentAliases !== null && typeof data.documentAliases === "object" && !Array.isArray(data.documentAliases))
    for (const [path, list] of Object.entries(data.documentAliases as Record<string, unknown>))
      if (Array.isArray(list)) {
        const texts = list.filter((a): a is string => typeof a === "string");
        if (texts.length > 0) documentAliases[path] = texts;
      }
  let datasetDigest = text(data.datasetDigest);
  const addresses: string[] = [];
  const headings: string[] = [];
  const ids: Record<string, string> = {};
  let unreadable = 0;
  for (const line of readRegularFileSync(jsonl).toString("utf8").split("\n")) {
    if (line.trim() === "") continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      unreadable++;
      continue;
    }
    const address = record !== null && typeof record === "object" ? text(record.citationAddress) : undefined;
    if (address === undefined) {
      unreadable++;
      continue;
    }
    datasetDigest ??= text(record.datasetDigest) ?? "";
    // The id a record carries is the one answered; kept only where it is not the derived one (docs/spec.md, section 3).
    const id = text(record.citationTargetId) ?? "";
    if (id !== deriveCitationTargetId(datasetDigest, address)) ids[addresses.length] = id;
    addresses.push(address);
    headings.push(text(record.headingText) ?? "");
  }
  return {
    dataset: {
      slug,
      titleId: text(data.titleId) ?? "",
      name: text(data.name) ?? "",
      ...(aliases.length > 0 ? { aliases } : {}),
      ...(Object.keys(documentAliases).length > 0 ? { documentAliases } : {}),
      ...(data.units === true ? { units: true as const } : {}),
      datasetDigest: datasetDigest ?? "",
      records: columnsText(addresses, headings, ids),
    },
    unreadable,
    ...(invalid !== undefined ? { invalid } : {}),
  };
}
