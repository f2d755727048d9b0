/**
 * One dataset of `update`: re-lock it (its manifest's datasetRoot, keeping kinds, order and
 * ignores), regenerate its JSONL, and compare with the files there. A task of the pool (worker.ts)
 * when a run has many datasets; in the main thread, with the pool parsing its artifacts, when it has
 * few. New bytes go to temporary files that the caller renames into place only once every dataset
 * of the run succeeded (update.ts).
 */
import { createHash } from "node:crypto";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { DatasetError } from "../core/generate.js";
import { DEFAULT_MANIFEST_NAME } from "../core/manifest.js";
import type { ArtifactLimits } from "../core/markdown.js";
import { displayPath } from "./files.js";
import { defaultJobs, linesOf, writeLinesTo } from "./generate.js";
import { lock, type LockResult, type ManifestChanges } from "./lock.js";
import { loadManifest } from "./manifest-io.js";
import type { WorkPool } from "./pool.js";
import { type OldRecords, readOldRecords, RecordComparer, type RecordChanges } from "./record-changes.js";
import { type CacheEntry, cacheKey } from "./update-cache.js";
import { openAtomic } from "./write.js";

export interface DatasetUpdate {
  slug: string;
  /** The manifest and the JSONL as shown (relative to cwd). */
  manifest: string;
  output: string;
  artifacts: ManifestChanges;
  records: RecordChanges;
  /** Whether the manifest's bytes or the JSONL's bytes would change (or did). */
  manifestChanged: boolean;
  outputChanged: boolean;
  written: boolean;
  /** True when the JSONL was known to be what generate writes from the cache, without generating it. */
  cached?: boolean;
}

export interface DatasetTask {
  /** Absolute path of the lock manifest. */
  manifestPath: string;
  cwd: string;
  check: boolean;
  maxArtifactBytes?: number;
  limits: ArtifactLimits;
  /** Let the manifest's dataset folder lead outside the repository (SECURITY.md). */
  allowOutsideRepository?: boolean;
  /** What the cache knew of this manifest, and the generator's identity (update-cache.ts); absent: no cache. */
  cache?: { generator: string; entry?: CacheEntry };
}

export interface DatasetTaskResult {
  update: DatasetUpdate;
  /** Temporary files written, each to be renamed over its target once the whole run succeeded. */
  temporaries: { temporary: string; path: string }[];
  /** What the cache should know of this manifest now. */
  cacheEntry?: CacheEntry;
}

/** The JSONL a manifest generates: `<name>.jsonl` beside `<name>.lock.json`; `<slug>.jsonl` beside a manifest named `citation-targets.lock.json`. */
export function outputFor(manifestPath: string, slug: string): string {
  const name = basename(manifestPath);
  if (name === DEFAULT_MANIFEST_NAME || !name.endsWith(".lock.json")) return join(dirname(manifestPath), `${slug}.jsonl`);
  return join(dirname(manifestPath), `${name.slice(0, -".lock.json".length)}.jsonl`);
}

/** The largest JSONL compared by digest before its records are read (update-dataset's memory: its generated lines). */
const COMPARE_BY_DIGEST_UP_TO = 8 * 2 ** 20;

/** Updates one dataset; throws DatasetError or OperationalError naming what is wrong. */
export async function updateOneDataset(task: DatasetTask, pool?: WorkPool): Promise<DatasetTaskResult> {
  const { manifestPath, cwd } = task;
  const shownManifest = displayPath(manifestPath, cwd);
  const loaded = await loadManifest(manifestPath, cwd, shownManifest, { allowOutsideRepository: task.allowOutsideRepository ?? false });
  let locked: LockResult;
  try {
    locked = await lock({ dir: loaded.root, output: manifestPath, cwd, check: true, ...(task.maxArtifactBytes !== undefined ? { maxArtifactBytes: task.maxArtifactBytes } : {}) }, loaded);
  } catch (error) {
    if (error instanceof DatasetError) throw new DatasetError(error.problems.map((p) => `${shownManifest}: ${p}`));
    throw error;
  }
  const output = outputFor(manifestPath, locked.manifest.slug);
  const base = { slug: locked.manifest.slug, manifest: shownManifest, output: displayPath(output, cwd), artifacts: locked.changes, manifestChanged: locked.changed };
  const temporaries: DatasetTaskResult["temporaries"] = [];
  const key = task.cache ? cacheKey(task.cache.generator, locked.text, task.limits) : undefined;

  // The cache: when the JSONL there is byte for byte what this manifest generated before, it is what it would generate now.
  const known = task.cache?.entry;
  if (key !== undefined && known !== undefined && known.key === key && (await fileDigest(output)) === known.output) {
    const records: RecordChanges = { before: known.records, after: known.records, added: [], removed: [], changed: [] };
    if (locked.changed && !task.check) temporaries.push(await writeTemporary(manifestPath, locked.text));
    return {
      update: { ...base, records, outputChanged: false, written: !task.check && locked.changed, cached: true },
      temporaries,
      cacheEntry: known,
    };
  }

  // A JSONL up to this size is compared by its digest first, its records parsed only when the bytes differ (the lines
  // generated are kept meanwhile); a larger one is read as address → fingerprint first, so that memory stays bounded.
  const size = statSync(output, { throwIfNoEntry: false })?.size;
  const fingerprintsFirst = size !== undefined && size > COMPARE_BY_DIGEST_UP_TO;
  const old = fingerprintsFirst ? await readOldRecords(output) : size === undefined ? undefined : { fileDigest: await fileDigest(output) };
  const comparer = fingerprintsFirst ? new RecordComparer(old as OldRecords) : undefined;
  const kept: string[] = [];
  // A large JSONL streams into its temporary file as it is generated; a small one is written from the lines kept, only when it changed.
  const file = task.check || !fingerprintsFirst ? undefined : await openAtomic(output);
  let digest: string;
  let records = 0;
  try {
    const threaded = pool && defaultJobs(locked.bytes, locked.manifest.artifacts.length) > 1 ? pool : undefined;
    digest = await writeLinesTo(linesOf(locked.manifest, loaded.root, threaded, [], task.limits), file, (line) => {
      records++;
      if (comparer) comparer.add(JSON.parse(line) as Record<string, unknown>);
      else kept.push(line);
    });
  } catch (error) {
    await file?.abort();
    if (error instanceof DatasetError) throw new DatasetError(error.problems.map((p) => `${shownManifest}: ${p}`));
    throw error;
  }
  let changes: RecordChanges;
  if (comparer) changes = comparer.finish();
  else if (old !== undefined && old.fileDigest === digest) changes = { before: records, after: records, added: [], removed: [], changed: [] };
  else {
    const compare = new RecordComparer(old === undefined ? undefined : await readOldRecords(output));
    for (const line of kept) compare.add(JSON.parse(line) as Record<string, unknown>);
    changes = compare.finish();
  }
  const outputChanged = old === undefined || old.fileDigest !== digest;
  if (file) {
    if (outputChanged) temporaries.push({ temporary: await file.detach(), path: output });
    else await file.abort();
  } else if (outputChanged && !task.check) temporaries.push(await writeTemporary(output, kept.join("")));
  if (locked.changed && !task.check) temporaries.push(await writeTemporary(manifestPath, locked.text));
  return {
    update: { ...base, records: changes, outputChanged, written: !task.check && (locked.changed || outputChanged) },
    temporaries,
    ...(key !== undefined ? { cacheEntry: { key, output: digest, records } } : {}),
  };
}

async function writeTemporary(path: string, text: string): Promise<{ temporary: string; path: string }> {
  const file = await openAtomic(path);
  try {
    await file.write(text);
    return { temporary: await file.detach(), path };
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/** The SHA-256 of a file's bytes; undefined when it cannot be read. */
async function fileDigest(path: string): Promise<string | undefined> {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined) return undefined;
  if (size <= COMPARE_BY_DIGEST_UP_TO) {
    try {
      return createHash("sha256").update(readFileSync(path)).digest("hex");
    } catch {
      return undefined;
    }
  }
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest("hex");
}
