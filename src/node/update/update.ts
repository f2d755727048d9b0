/**
 * `update`: re-lock and regenerate datasets in one step, atomically across the run (docs/spec.md,
 * "Generation"; README, "update"). Each dataset is computed into temporary files (update-dataset.ts),
 * many datasets side by side as tasks of the run's pool; only when every dataset succeeded are the
 * files renamed into place. Every fault of every dataset is reported, named, and then nothing is
 * written. The cache (update-cache.ts) spares regenerating a dataset whose JSONL is known to be what
 * its manifest generates.
 */
import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, join, relative as relativePath, resolve } from "node:path";
import { errorMessage } from "../../core/errors.js";
import { checkDatasetFields, type DatasetFields, isTemplate } from "../../core/lock/dataset-fields.js";
import { FieldsError } from "../dataset/fields-error.js";
import { DEFAULT_MANIFEST_NAME } from "../../core/lock/manifest.js";
import { DatasetError, NOTHING_WRITTEN } from "../../core/errors.js";
import { OperationalError } from "../errors.js";
import { DEFAULT_MANIFEST_PATTERN, displayPath, findRepositoryRoot } from "../files/files.js";
import { batchesOf, checkJobs, createPool, WorkerMemoryError } from "../pool/pool.js";
import { decodeFailure, encodeFailure, isTaskFailure, type TaskFailure } from "../pool/task-failure.js";
import { ARTIFACT_BATCH_YOUNG_MB } from "../pool/thread-limits.js";
import { cacheLocation } from "../cache/cache-file.js";
import { openCache, type UpdateCache } from "../cache/update-cache.js";
import {
  type DatasetTask,
  type DatasetTaskResult,
  type DatasetUpdate,
  outputFor,
  UPDATE_TASKS,
  updateOneDataset,
} from "./update-dataset.js";
import type { ArtifactReadingOptions } from "../generate/generate-options.js";
import { limitsOf } from "../generate/generated-lines.js";
import { journalPath, pendingJournal, recoverJournal, renameAll } from "../writes/journal.js";
import {
  discardTemporary,
  refuseOverInputs,
  removeOwnTemporariesOf,
  removeStaleTemporariesOf,
  syncFiles,
} from "../writes/write.js";
import { noteOf, withWriterLock } from "../writes/writer-lock.js";
import { readRegularFileSync, readRegularIfPresent, withOutsideReads } from "../files/regular-file.js";
import { filesEndingIn } from "../files/folder-files.js";
import { MANIFEST_FOLDER } from "../files/tooling-paths.js";
import { removeOnInterrupt } from "../writes/interrupted-writes.js";
import { layerManifestOptions, type ManifestOptions } from "../dataset/manifest-options.js";
import { type HostInForce, hostInForce, hostProblems } from "../config/legislation-host.js";

export interface UpdateOptions {
  /** Lock manifests; default every `*.lock.json` in `.tooling/citation-targets/` of the repository. */
  manifests?: string[];
  /**
   * Give every dataset updated targets for the units below the heading (the manifest's `units`, docs/spec.md, "Units
   * below the heading"); a manifest that has them keeps them without it.
   */
  units?: boolean;
  cwd?: string;
  /** Compute only; write no manifest or JSONL (the cache is still written). */
  check?: boolean;
  /** Threads for the run's pool (default: one per core). */
  jobs?: number;
  /** The largest artifact read, in bytes (default 64 MiB). */
  maxArtifactBytes?: number;
  /** The most YAML aliases an artifact's front matter may hold (default 1000). */
  maxYamlAliases?: number;
  /** The most headings (targets) one artifact may have (default 100,000); more is refused, named. */
  maxHeadings?: number;
  /** The longest inline content of a heading, in UTF-16 code units (default 65,536); longer is refused, named. */
  maxHeadingLength?: number;
  /** The largest front matter, in UTF-8 bytes (default 1 MiB); a larger one is refused, named. */
  maxFrontMatterBytes?: number;
  /** Let manifests' dataset folders lead outside the repository (default: confined to it; SECURITY.md). */
  allowOutsideRepository?: boolean;
  /**
   * The cache file; default `node_modules/.cache/citation-targets/update.json` of the repository when it has
   * `node_modules`; false for none.
   */
  cache?: string | false;
  /**
   * Dataset fields to set in every manifest updated (a new version's versionDate and sourceTextUrl, say; with
   * `versionOnlyIfChanged`, those two only where the dataset changed): values, or templates filled from each dataset's
   * folder and front matter (docs/spec.md, "Field templates").
   */
  set?: Partial<DatasetFields>;
  /**
   * When a dataset's markdown changed and `set` gives no versionDate or sourceTextUrl: fill them from the `adopt`
   * templates of the config that covers the dataset's folder (README, "update"). Default false.
   */
  configTemplates?: boolean;
  /**
   * `set`'s versionDate and sourceTextUrl go only to the datasets whose markdown changed, or whose manifest git sees
   * changed since HEAD (and new ones): a run over every dataset dates the laws amended, not the others (README,
   * "update"; the command line sets it when no dataset is named). Default false: every manifest updated.
   */
  versionOnlyIfChanged?: boolean;
  /**
   * Front matter keys (`jurabk`) whose values become each manifest's `aliases` (README, "resolve"); without them, each
   * manifest keeps its aliases.
   */
  aliasKeys?: string[];
  /**
   * Datasets being adopted (`adopt`): the manifest to write, the dataset folder, and its fields; updated with the
   * manifests, all or nothing.
   */
  datasets?: AdoptedDataset[];
  /**
   * The legislation host in force for datasets whose manifest names none (legislation-host.ts); default: the
   * repository's schema file when it has one, else the default host. A dataset whose sourceTextUrl this run writes on
   * another host than its own is refused before anything is written.
   */
  hostInForce?: HostInForce;
  /** Called as datasets are done (a progress display): how many of how many. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Told of what the run notes on the way (a writer lock taken over from a process that is gone, a lock file git tracks);
   * default: a process warning.
   */
  onNote?: (text: string) => void;
}

/** A dataset being adopted; its manifest options come from its adopt section and the command line (manifest-options.ts). */
export interface AdoptedDataset extends ManifestOptions {
  /** Where the manifest goes (absolute, or relative to cwd); its JSONL goes beside it. */
  manifest: string;
  /** The dataset folder (absolute, or relative to cwd). */
  dir: string;
  fields: Partial<DatasetFields>;
  /** The manifest's dataset folder moved to `dir` (adopt --move): it is repointed there, its slug and fields kept. */
  move?: boolean;
}

/** Finds the manifests to update: the named ones, else those of the default pattern at the repository root. */
async function manifestsToUpdate(options: UpdateOptions, cwd: string): Promise<string[]> {
  if (options.manifests && options.manifests.length > 0) return options.manifests.map((m) => resolve(cwd, m));
  if (options.datasets !== undefined) return [];
  const root = (await findRepositoryRoot(cwd)) ?? cwd;
  // DEFAULT_MANIFEST_PATTERN is `<folder>/*.lock.json`: one folder read (folder-files.ts), no glob library.
  const found = filesEndingIn(join(root, ...MANIFEST_FOLDER.split("/")), ".lock.json");
  if (found.length === 0)
    throw new OperationalError(
      `no lock manifests match ${DEFAULT_MANIFEST_PATTERN} in ${displayPath(root, cwd) || "."} (looked in ${join(root, ...DEFAULT_MANIFEST_PATTERN.split("/").slice(0, -1))}): name them (a manifest inside a dataset folder too, e.g. citation-targets update laws/x/${DEFAULT_MANIFEST_NAME}), or write them with lock or adopt`,
    );
  return found.sort();
}

/**
 * Datasets go to the pool whole when there are at least this many per thread; with fewer (one large
 * dataset, say), they are done one after another here, the pool parsing each one's artifacts.
 */
const DATASETS_PER_THREAD = 2;

/** Whole datasets travel to a worker in batches of up to this many, or until their JSONLs hold this many bytes. */
const DATASETS_PER_TASK = { items: 32, bytes: 2 ** 20 };

/**
 * The JSONL beside a manifest named `<name>.lock.json`, for its size (a hint for the batches: for a manifest named
 * `citation-targets.lock.json`, whose JSONL is named after its slug, a file that is not there, size 0).
 */
function guessOutput(manifestPath: string): string {
  return manifestPath.endsWith(".lock.json") ? `${manifestPath.slice(0, -".lock.json".length)}.jsonl` : manifestPath;
}

/** The caps UpdateOptions lists are generate's, of the same types (a compile error otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type True<T extends true> = T;
export type UpdateCapsAreGenerates = True<
  Same<Pick<UpdateOptions, keyof ArtifactReadingOptions>, ArtifactReadingOptions>
>;

/**
 * Re-locks each dataset (its manifest's datasetRoot, keeping kinds, order and ignores) and
 * regenerates its JSONL. On any error in any dataset nothing is written, and every error is
 * reported; with `check`, no manifest or JSONL is ever written.
 */
export async function update(options: UpdateOptions = {}): Promise<DatasetUpdate[]> {
  return withOutsideReads(options.allowOutsideRepository, () => updateConfined(options));
}

async function updateConfined(options: UpdateOptions = {}): Promise<DatasetUpdate[]> {
  const cwd = options.cwd ?? process.cwd();
  if (options.check) return updateLocked(options, cwd);
  // One writer at a time (writer-lock.ts): a second update, or update --recover, never renames beside this one.
  return withWriterLock(cwd, options.datasets !== undefined ? "adopt" : "update", noteOf(options), () =>
    updateLocked(options, cwd),
  );
}

async function updateLocked(options: UpdateOptions, cwd: string): Promise<DatasetUpdate[]> {
  const journal = await journalPath(cwd);
  if (options.check) {
    const pending = await pendingJournal(cwd);
    if (pending !== undefined) throw new OperationalError(pending);
  } else await recoverJournal(journal); // an interrupted run is completed before anything else
  const adopted = new Map((options.datasets ?? []).map((d) => [resolve(cwd, d.manifest), d]));
  const manifests = [...(await manifestsToUpdate(options, cwd)), ...adopted.keys()];
  // A value given (not a template) is checked before any dataset: it is wrong for all of them, and with
  // versionOnlyIfChanged a dataset not amended never reads it.
  const given = Object.fromEntries(
    Object.entries(options.set ?? {}).filter(([, value]) => typeof value !== "string" || !isTemplate(value)),
  );
  const wrong = checkDatasetFields(given);
  if (wrong.length > 0) throw new FieldsError(wrong);
  if (options.set?.sourceTextUrl !== undefined && !isTemplate(options.set.sourceTextUrl) && manifests.length > 1)
    throw new OperationalError(
      `--source-text-url ${options.set.sourceTextUrl} would give ${manifests.length} datasets one address: name one manifest, or use a template such as "https://host/{front.slug}/" (README, "Publishing a new version")`,
    );
  const jobs = checkJobs(options.jobs) ?? availableParallelism();
  // Many datasets: whole datasets go to `jobs` workers, which start now and load their modules while this thread
  // prepares the tasks; with `--jobs 1` to the one capped worker every parse needs anyway (taking them in turn here,
  // each one's artifacts parsed there, cost a round trip a dataset: 6,636 laws 10.8 s against 4.7 s, bench/RESULTS.md).
  // A few: this thread takes them in turn, and the pool's capped workers parse each one's artifacts.
  const wholeDatasets = manifests.length >= DATASETS_PER_THREAD * jobs;
  const pool = await createPool(jobs, UPDATE_TASKS, {
    mainWorks: !wholeDatasets,
    capped: true,
    ...(wholeDatasets ? { warm: "updateDatasets" as const } : { youngMb: ARTIFACT_BATCH_YOUNG_MB }),
  });
  let cache: UpdateCache | undefined;
  let taskOf: (manifestPath: string) => DatasetTask;
  try {
    ({ cache, taskOf } = await prepareTasks(options, cwd, manifests, adopted));
  } catch (error) {
    await pool.close();
    throw error;
  }
  const outcomes: (DatasetTaskResult | TaskFailure)[] = new Array(manifests.length);
  let finished = 0;
  try {
    if (wholeDatasets && pool.workers > 0) {
      // Small datasets travel in batches (sized by their JSONL, about twice their markdown).
      const sizes = manifests.map(
        (manifestPath) => statSync(guessOutput(manifestPath), { throwIfNoEntry: false })?.size ?? 0,
      );
      /** Datasets of the batches whose worker ran out of memory. */
      const again: number[] = [];
      await Promise.all(
        batchesOf(sizes, pool.workers, DATASETS_PER_TASK).map(async (batch) => {
          try {
            const results = await pool.run("updateDatasets", { datasets: batch.map((i) => taskOf(manifests[i]!)) });
            for (const [k, result] of results.entries()) outcomes[batch[k]!] = result;
          } catch (error) {
            if (!(error instanceof WorkerMemoryError)) throw error;
            again.push(...batch);
            return;
          }
          finished += batch.length;
          options.onProgress?.(finished, manifests.length);
        }),
      );
      // A worker ran out of memory: the tasks it held failed (another batch beside the one at fault, maybe). What their
      // datasets wrote is removed, and each is done again on its own, one at a time, so that the one at fault is named
      // and the others are reported as they are.
      for (const i of again.sort((a, b) => a - b)) {
        await removeTemporariesOfDataset(manifests[i]!);
        outcomes[i] = await pool
          .run("updateDatasets", { datasets: [taskOf(manifests[i]!)] })
          .then((one) => one[0]!)
          .catch(async (error: unknown) => {
            await removeTemporariesOfDataset(manifests[i]!);
            return encodeFailure(namedFailure(error, manifests[i]!, cwd));
          });
        options.onProgress?.(++finished, manifests.length);
      }
    } else {
      for (const [i, manifestPath] of manifests.entries()) {
        outcomes[i] = await updateOneDataset(taskOf(manifestPath), pool).catch((error: unknown) =>
          encodeFailure(namedFailure(error, manifestPath, cwd)),
        );
        options.onProgress?.(++finished, manifests.length);
      }
    }
  } catch (error) {
    await discardAll(outcomes);
    throw error;
  } finally {
    await pool.close();
  }
  const failures = outcomes.filter(isTaskFailure).map((failure) => decodeFailure(failure));
  if (failures.length > 0) {
    // Every dataset's fault, in order; an operational one among them makes the run's error operational.
    await discardAll(outcomes);
    const problems = failures.flatMap((error) => (error instanceof DatasetError ? error.problems : [error.message]));
    if (failures.some((error) => !(error instanceof DatasetError)))
      throw new OperationalError(options.check ? problems.join("\n") : `${problems.join("\n")}\n${NOTHING_WRITTEN}`);
    // All or nothing (README): said, as for an operational fault, when a run that writes wrote nothing. A file that
    // could not be read makes the run's exit code 2, as an operational fault does: the checkout is at fault.
    throw new DatasetError(
      problems,
      options.check ? undefined : NOTHING_WRITTEN,
      failures.some((error) => (error as DatasetError).unreadable),
    );
  }
  const done = outcomes as DatasetTaskResult[];
  // A sourceTextUrl written on another host than its dataset's: validate would reject every record of it. Refused
  // before anything is written, identical problems said once (legislation-host.ts).
  const hosts = options.hostInForce ?? (await hostInForce(cwd, undefined));
  const wrongHosts = hostProblems(
    done.map((outcome) => outcome.update).filter((result) => result.hostWritten === true),
    hosts,
  );
  if (wrongHosts.length > 0) {
    await discardAll(done);
    throw new DatasetError(wrongHosts, options.check ? undefined : NOTHING_WRITTEN);
  }
  // All or nothing across every dataset, also when interrupted: through the journal (journal.ts).
  try {
    try {
      await syncFiles(done.flatMap((outcome) => outcome.temporaries));
    } catch (error) {
      await discardAll(done);
      throw error;
    }
    await renameAll(
      done.flatMap((outcome) => outcome.temporaries),
      journal,
    );
  } catch (error) {
    const message = errorMessage(error);
    throw new OperationalError(existsSync(journal) ? message : `${message}\n${NOTHING_WRITTEN}`);
  }
  if (cache) {
    for (const [i, outcome] of done.entries()) if (outcome.cacheEntry) cache.set(manifests[i]!, outcome.cacheEntry);
    await cache.save();
  }
  return done.map((outcome) => outcome.update);
}

/**
 * The cache, the stale temporaries swept, and how a manifest becomes its task: what update does before the first
 * task.
 */
async function prepareTasks(
  options: UpdateOptions,
  cwd: string,
  manifests: string[],
  adopted: Map<string, AdoptedDataset>,
): Promise<{ cache: UpdateCache | undefined; taskOf: (manifestPath: string) => DatasetTask }> {
  // A new version's fields with no dataset named: the datasets whose markdown changed take them, and so do those whose
  // manifest changed since the last commit (a plain update locked the new markdown first: the warning "the markdown
  // changed, but versionDate … did not" asks for this run).
  const versionSet = options.set?.versionDate !== undefined || options.set?.sourceTextUrl !== undefined;
  const sinceHead =
    options.versionOnlyIfChanged && versionSet ? await manifestsChangedSinceHead(manifests, cwd) : new Set<string>();
  const location = await cacheLocation(cwd, options.cache);
  if (location !== undefined && typeof options.cache === "string")
    refuseOverInputs(
      location,
      manifests.flatMap((manifest) => [
        { path: manifest, what: `the lock manifest ${displayPath(manifest, cwd)}` },
        { path: guessOutput(manifest), what: `the dataset file ${displayPath(guessOutput(manifest), cwd)}` },
      ]),
      displayPath(location, cwd),
    );
  const cache: UpdateCache | undefined =
    location !== undefined ? openCache(location, typeof options.cache === "string") : undefined;
  // The stale temporaries of every `<name>.lock.json` and `<name>.jsonl` written, each folder read once (not once per
  // dataset).
  const sweepable = options.check
    ? []
    : manifests.filter((manifest) => basename(manifest) !== DEFAULT_MANIFEST_NAME && manifest.endsWith(".lock.json"));
  await removeStaleTemporariesOf(
    sweepable.flatMap((manifest) => [manifest, `${manifest.slice(0, -".lock.json".length)}.jsonl`]),
  );
  const swept = new Set(sweepable);
  // Ctrl-C or SIGTERM while writing: the temporary files of every dataset (written by worker threads too) are removed.
  if (!options.check) removeOnInterrupt(manifests); // every JSONL is written beside its manifest
  const limits = limitsOf(options);
  const taskOf = (manifestPath: string): DatasetTask => {
    const entry = cache?.get(manifestPath);
    const adopting = adopted.get(manifestPath);
    return {
      ...(adopting ? { dir: resolve(cwd, adopting.dir), fields: adopting.fields } : {}),
      ...(adopting?.move ? { move: true } : {}),
      ...(options.set ? { templates: options.set } : {}),
      // The run's units and alias keys over the adopt section's; the host is the adopted dataset's own.
      ...layerManifestOptions({ units: options.units, aliasKeys: options.aliasKeys }, adopting),
      ...(options.configTemplates && !adopting ? { configTemplates: true } : {}),
      ...(options.versionOnlyIfChanged && !adopting && !sinceHead.has(manifestPath)
        ? { versionOnlyIfChanged: true }
        : {}),
      manifestPath,
      cwd,
      check: options.check ?? false,
      ...(swept.has(manifestPath) ? { swept: true } : {}),
      ...(options.allowOutsideRepository ? { allowOutsideRepository: true } : {}),
      ...(options.maxArtifactBytes !== undefined ? { maxArtifactBytes: options.maxArtifactBytes } : {}),
      limits,
      ...(cache ? { cache: { generator: cache.generator, ...(entry ? { entry } : {}) } } : {}),
    };
  };
  return { cache, taskOf };
}

/** A worker's running out of memory, said of the dataset it was updating (other errors name it already). */
function namedFailure(error: unknown, manifestPath: string, cwd: string): unknown {
  return error instanceof WorkerMemoryError
    ? new OperationalError(`${displayPath(manifestPath, cwd)}: ${error.message}`)
    : error;
}

/**
 * The temporary files this process wrote for a dataset (its manifest and its JSONL) in a worker that stopped before it
 * could say what they were.
 */
async function removeTemporariesOfDataset(manifestPath: string): Promise<void> {
  let slug: unknown;
  try {
    slug = (JSON.parse(readRegularIfPresent(manifestPath)?.toString("utf8") ?? "{}") as { slug?: unknown }).slug;
  } catch {
    slug = undefined; // not JSON: its JSONL is named after the manifest, if at all
  }
  const outputs = typeof slug === "string" ? [outputFor(manifestPath, slug)] : [];
  await removeOwnTemporariesOf([manifestPath, guessOutput(manifestPath), ...outputs]);
}

async function discardAll(outcomes: (DatasetTaskResult | TaskFailure | undefined)[]): Promise<void> {
  for (const outcome of outcomes)
    if (outcome && "temporaries" in outcome)
      for (const { temporary } of outcome.temporaries) await discardTemporary(temporary);
}

export { upToDate } from "./update-dataset.js";

/**
 * The manifests (absolute paths) of datasets locked since the last commit but not yet dated: git sees them changed
 * since HEAD (`git status` of their folders), and HEAD's has the same versionDate and sourceTextUrl as the working
 * copy's (a plain `update` locked the amendment; a run that dated it already is not undone by the next one). New
 * manifests (untracked, or only added to the index) have no version to follow. Empty outside a git repository, or when
 * git cannot say.
 */
async function manifestsChangedSinceHead(manifests: readonly string[], cwd: string): Promise<Set<string>> {
  const changed = new Set<string>();
  const root = await findRepositoryRoot(cwd);
  if (root === undefined || manifests.length === 0) return changed;
  const folders = [...new Set(manifests.map((manifest) => relativePath(root, dirname(manifest)) || "."))];
  // Many folders (a manifest in each dataset folder): the whole tree, filtered here.
  const pathspecs = folders.length > 64 ? ["."] : folders;
  const { runGit, BlobReader } = await import("../git/diff-git.js");
  const result = await runGit(
    [
      "--literal-pathspecs",
      "status",
      "--porcelain=v1",
      "-z",
      "--untracked-files=no",
      "--no-renames",
      "--",
      ...pathspecs,
    ],
    root,
  ).catch(() => undefined);
  if (result === undefined || result.code !== 0) return changed;
  const wanted = new Set(manifests.map((manifest) => resolve(manifest)));
  const candidates: { path: string; relative: string }[] = [];
  for (const entry of result.stdout.split("\0")) {
    // `XY path`: a manifest modified in the index or the working tree; one added (A) is new.
    if (entry.length < 4 || entry[0] === "A" || entry[0] === "?") continue;
    const relative = entry.slice(3);
    const path = resolve(root, relative);
    if (wanted.has(path)) candidates.push({ path, relative });
  }
  if (candidates.length === 0) return changed;
  const versionOf = (text: string) => {
    try {
      const data = JSON.parse(text) as { versionDate?: unknown; sourceTextUrl?: unknown };
      return JSON.stringify([data.versionDate, data.sourceTextUrl]);
    } catch {
      return undefined;
    }
  };
  // HEAD's of them all through one `git cat-file --batch` (a plain update may have locked thousands).
  const reader = new BlobReader(root);
  try {
    const heads = candidates.map(({ relative }) =>
      reader.read(`HEAD:${relative}`, relative).then(
        (bytes) => bytes.toString("utf8"),
        () => undefined,
      ),
    );
    for (const [k, { path }] of candidates.entries()) {
      const head = await heads[k];
      if (head === undefined) continue;
      let now: string | undefined;
      try {
        // A regular file inside the repository only (SECURITY.md): a committed link to /dev/zero or out is skipped.
        now = versionOf(readRegularFileSync(path).toString("utf8"));
      } catch {
        continue;
      }
      if (now !== undefined && now === versionOf(head)) changed.add(path);
    }
  } finally {
    reader.close();
  }
  return changed;
}
