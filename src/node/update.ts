/**
 * `update`: re-lock and regenerate datasets in one step, atomically (docs/spec.md, "Generation";
 * README, "Regenerate after amending the law"). Everything is computed into temporary files
 * first; only when every dataset succeeded are they renamed into place.
 */
import { basename, dirname, join, resolve } from "node:path";
import { DatasetError } from "../core/generate.js";
import { DEFAULT_MANIFEST_NAME } from "../core/manifest.js";
import { OperationalError } from "./errors.js";
import { DEFAULT_MANIFEST_PATTERN, displayPath, findRepositoryRoot } from "./files.js";
import { defaultJobs, linesOf, writeLinesTo } from "./generate.js";
import { lock, type LockResult, type ManifestChanges } from "./lock.js";
import { loadManifest } from "./manifest-io.js";
import { noRecordChanges, readOldRecords, RecordComparer, type RecordChanges } from "./record-changes.js";
import { openAtomic, type AtomicFile } from "./write.js";

export interface UpdateOptions {
  /** Lock manifests; default every `*.lock.json` in `.tooling/citation-targets/` of the repository. */
  manifests?: string[];
  cwd?: string;
  /** Compute only; write nothing. */
  check?: boolean;
  /** Worker threads to parse the markdown in (default as for generate). */
  jobs?: number;
  /** The largest artifact read, in bytes (default 64 MiB). */
  maxArtifactBytes?: number;
  /** The most YAML aliases an artifact's front matter may hold (default 1000). */
  maxYamlAliases?: number;
}

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
}

/** The JSONL a manifest generates: `<name>.jsonl` beside `<name>.lock.json`; `<slug>.jsonl` beside a manifest named `citation-targets.lock.json`. */
export function outputFor(manifestPath: string, slug: string): string {
  const name = basename(manifestPath);
  if (name === DEFAULT_MANIFEST_NAME || !name.endsWith(".lock.json")) return join(dirname(manifestPath), `${slug}.jsonl`);
  return join(dirname(manifestPath), `${name.slice(0, -".lock.json".length)}.jsonl`);
}

/** Finds the manifests to update: the named ones, else those of the default pattern at the repository root. */
async function manifestsToUpdate(options: UpdateOptions, cwd: string): Promise<string[]> {
  if (options.manifests && options.manifests.length > 0) return options.manifests.map((m) => resolve(cwd, m));
  const root = (await findRepositoryRoot(cwd)) ?? cwd;
  const { default: fg } = await import("fast-glob");
  const found = await fg(DEFAULT_MANIFEST_PATTERN, { cwd: root, absolute: true, onlyFiles: true, dot: true });
  if (found.length === 0)
    throw new OperationalError(`no lock manifests match ${DEFAULT_MANIFEST_PATTERN} in ${displayPath(root, cwd) || "."}: name them, e.g. citation-targets update path/to/<slug>.lock.json`);
  return found.sort();
}

/**
 * Re-locks each dataset (its manifest's datasetRoot, keeping kinds, order and ignores) and
 * regenerates its JSONL. On any error nothing is written; with `check`, nothing is ever written.
 */
export async function update(options: UpdateOptions = {}): Promise<DatasetUpdate[]> {
  const cwd = options.cwd ?? process.cwd();
  const manifests = await manifestsToUpdate(options, cwd);
  const pending: AtomicFile[] = [];
  const results: DatasetUpdate[] = [];
  const problems: string[] = [];
  try {
    for (const manifestPath of manifests) {
      const shownManifest = displayPath(manifestPath, cwd);
      const loaded = await loadManifest(manifestPath, cwd, shownManifest);
      let locked: LockResult;
      try {
        locked = await lock({ dir: loaded.root, output: manifestPath, cwd, check: true, ...(options.maxArtifactBytes !== undefined ? { maxArtifactBytes: options.maxArtifactBytes } : {}) });
      } catch (error) {
        if (!(error instanceof DatasetError)) throw error;
        problems.push(...error.problems.map((p) => `${shownManifest}: ${p}`));
        continue;
      }
      const output = outputFor(manifestPath, locked.manifest.slug);
      const old = await readOldRecords(output);
      const comparer = new RecordComparer(old);
      const file = options.check ? undefined : await openAtomic(output);
      if (file) pending.push(file);
      let digest: string;
      try {
        const limits = options.maxYamlAliases !== undefined ? { maxYamlAliases: options.maxYamlAliases } : {};
        const { lines } = await linesOf(locked.manifest, loaded.root, options.jobs ?? defaultJobs(locked.bytes, locked.manifest.artifacts.length), [], limits);
        digest = await writeLinesTo(lines, file, (line) => comparer.add(JSON.parse(line) as Record<string, unknown>));
      } catch (error) {
        if (!(error instanceof DatasetError)) throw error;
        problems.push(...error.problems.map((p) => `${shownManifest}: ${p}`));
        continue;
      }
      const outputChanged = old === undefined || old.fileDigest !== digest;
      if (file && !outputChanged) {
        pending.splice(pending.indexOf(file), 1);
        await file.abort();
      }
      if (locked.changed && !options.check) {
        const manifestFile = await openAtomic(manifestPath);
        pending.push(manifestFile);
        await manifestFile.write(locked.text);
      }
      results.push({
        slug: locked.manifest.slug,
        manifest: shownManifest,
        output: displayPath(output, cwd),
        artifacts: locked.changes,
        records: comparer.finish(),
        manifestChanged: locked.changed,
        outputChanged,
        written: !options.check && (locked.changed || outputChanged),
      });
    }
    if (problems.length > 0) throw new DatasetError(problems);
    for (const file of pending) await file.commit();
    pending.length = 0;
    return results;
  } finally {
    for (const file of pending) await file.abort();
  }
}

/** True when an update found nothing to change. */
export function upToDate(result: DatasetUpdate): boolean {
  return !result.manifestChanged && !result.outputChanged && noRecordChanges(result.records);
}
