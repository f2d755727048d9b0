/**
 * One dataset of `update`: re-lock it (its manifest's datasetRoot, keeping kinds, order and
 * ignores), regenerate its JSONL, and compare with the files there. A task of the pool (worker.ts)
 * when a run has many datasets; in the main thread, with the pool parsing its artifacts, when it has
 * few. New bytes go to temporary files that the caller renames into place only once every dataset
 * of the run succeeded (update.ts).
 */
import canonicalize from "canonicalize";
import { noRecordChanges } from "../../core/records/record-fingerprint.js";
import { closeSync, existsSync, readSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { sha256Hex, sha256Stream } from "../../core/bytes.js";
import { DatasetError } from "../../core/errors.js";
import { DEFAULT_MANIFEST_NAME } from "../../core/lock/manifest.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import { displayPath } from "../files/files.js";
import { type DatasetFields, TemplateError } from "../../core/lock/dataset-fields.js";
import { MANIFEST_DATASET_FIELDS, type ManifestDatasetField } from "../../core/model.js";
import { shellQuote } from "../../core/text.js";
import { fillFieldTemplates } from "../dataset/dataset-context.js";
import { defaultJobs, lineStepsOf, linesOf } from "../generate/generated-lines.js";
import { writeSteps } from "../generate/encoded-lines.js";
import { type ManifestOptions, manifestOptionsOf } from "../dataset/manifest-options.js";
import { FieldsError, lock, type LockResult, type ManifestChanges } from "../dataset/lock.js";
import { slugConflict } from "../dataset/hand-edited.js";
import { describeIoError, OperationalError } from "../errors.js";
import { loadManifest, rootOf } from "../dataset/manifest-io.js";
import { rootAbsence, rootParts, rootProblem } from "../dataset/dataset-root.js";
import { ARTIFACT_TASKS, type ArtifactTasks } from "../generate/generate-pool.js";
import type { WorkPool } from "../pool/pool.js";
import { encodeFailure, type TaskFailure } from "../pool/task-failure.js";
import { type RecordChanges, RecordComparer, unexplained } from "../../core/records/record-fingerprint.js";
import { readOldRecords } from "../records/record-changes.js";
import { type CacheEntry, cacheKey } from "../cache/update-cache.js";
import {
  openRegularSync,
  readRegularFileSync,
  readRegularIfPresent,
  regularReadStream,
} from "../files/regular-file.js";
import { openAtomic } from "../writes/write.js";
import { onlyLineEndings } from "../files/line-endings.js";
import { backToLf } from "../files/back-to-lf.js";
import { compareStreamed, type StreamedComparison } from "./streamed-compare.js";
import { configVersionTemplates, markdownChanged } from "./version-templates.js";

export interface DatasetUpdate {
  slug: string;
  /** The manifest and the JSONL as shown (relative to cwd). */
  manifest: string;
  output: string;
  artifacts: ManifestChanges;
  records: RecordChanges;
  /** Whether the manifest's bytes or the JSONL's bytes would change (or did). */
  manifestChanged: boolean;
  /**
   * The manifest changes (`manifestChanged`) with what it holds the same, as JSON: only its form is not the one lock
   * writes (white space, member order, CR LF, a member repeated, of which JSON keeps the last).
   */
  manifestFormOnly?: true;
  outputChanged: boolean;
  written: boolean;
  /** True when the JSONL was known to be what generate writes from the cache, without generating it. */
  cached?: boolean;
  /** Dataset fields whose value changed, with both values (none for a new manifest). */
  fields: DatasetFieldChange[];
  /**
   * The dataset digest before (the old manifest's; absent for a new one) and after: when it changes, so does every
   * record's datasetDigest and citationTargetId.
   */
  datasetDigest: { before?: string; after: string };
  /** What the user should know but that stops nothing (e.g. the markdown changed and the version date did not). */
  warnings: string[];
  /** The manifest's sourceTextUrl and versionDate (after the update). */
  sourceTextUrl: string;
  versionDate: string;
  /** The manifest's legislationHost (after the update), when it has one. */
  legislationHost?: string;
  /** True when this run writes the manifest's sourceTextUrl or legislationHost: a new dataset, or either changed. */
  hostWritten?: boolean;
  /**
   * --check: the dataset is what its manifest pins once CR LF is read as LF (a Windows checkout with
   * core.autocrlf=true): nothing for update to do; its files need LF (`.gitattributes`, adopt writes it).
   */
  lineEndingsOnly?: boolean;
  /** With lineEndingsOnly: what to do about the files that hold CR LF (convert them back to LF, with the commands). */
  lineEndingsAdvice?: string;
  /** The manifest was there and its JSONL was not (deleted, or never generated): it is written again. */
  outputMissing?: true;
}

export interface DatasetFieldChange {
  field: ManifestDatasetField;
  before: string;
  after: string;
}

/** One dataset to update; its manifest options (a new dataset's host, units, alias keys) are passed to lock as given. */
export interface DatasetTask extends ManifestOptions {
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
  /**
   * The stale temporaries of the manifest and of its JSONL were removed by the caller, once per folder (write.ts,
   * removeStaleTemporariesOf).
   */
  swept?: boolean;
  /** A dataset being adopted: its folder (absolute), used when the manifest is not there yet. */
  dir?: string;
  /** Dataset fields to set, as values. */
  fields?: Partial<DatasetFields>;
  /** The manifest's dataset folder moved to `dir` (adopt --move): it is re-locked from there, datasetRoot repointed. */
  move?: boolean;
  /** Dataset fields to set, as templates filled from the dataset's folder and front matter (dataset-context.ts). */
  templates?: Partial<DatasetFields>;
  /**
   * When the markdown changed and no flag set versionDate or sourceTextUrl: fill them from the `adopt` templates of the
   * config that covers the dataset's folder (version-templates.ts).
   */
  configTemplates?: boolean;
  /**
   * `templates`' versionDate and sourceTextUrl (a new version's) are set only when the markdown changed (or the dataset
   * is new): a run over every dataset dates the laws amended, not the others. Without it, they are set in any case (the
   * datasets were named).
   */
  versionOnlyIfChanged?: boolean;
}

export interface DatasetTaskResult {
  update: DatasetUpdate;
  /**
   * Temporary files written (not yet synced: update.ts syncs them all side by side), each to be renamed over its target
   * once the whole run succeeded.
   */
  temporaries: { temporary: string; path: string }[];
  /** What the cache should know of this manifest now. */
  cacheEntry?: CacheEntry;
}

/**
 * The JSONL a manifest generates: `<name>.jsonl` beside `<name>.lock.json`; `<slug>.jsonl` beside a manifest named
 * `citation-targets.lock.json`.
 */
export function outputFor(manifestPath: string, slug: string): string {
  const name = basename(manifestPath);
  if (name === DEFAULT_MANIFEST_NAME || !name.endsWith(".lock.json"))
    return join(dirname(manifestPath), `${slug}.jsonl`);
  return join(dirname(manifestPath), `${name.slice(0, -".lock.json".length)}.jsonl`);
}

/**
 * A dataset's markdown up to this size is read once: the lock pass keeps the bytes it digested, and generation parses
 * them.
 */
const KEEP_CONTENTS_UP_TO = 8 * 2 ** 20;

/**
 * The largest JSONL compared byte for byte with the lines generated, kept in memory meanwhile (a larger one is compared
 * record by record as it streams).
 */
const COMPARE_BYTES_UP_TO = 8 * 2 ** 20;

/**
 * A task of the pool (worker.ts): re-locks and regenerates a batch of whole datasets (update), one after another, each
 * writing into temporary files that the main thread renames; a dataset that fails gives its error as data and the batch
 * goes on.
 */
export async function updateDatasets(task: { datasets: DatasetTask[] }): Promise<(DatasetTaskResult | TaskFailure)[]> {
  const results: (DatasetTaskResult | TaskFailure)[] = [];
  for (const dataset of task.datasets) results.push(await updateOneDataset(dataset).catch(encodeFailure));
  return results;
}

/** The kinds of task of update's pool: whole datasets, or the artifacts of one dataset done in this thread. */
export const UPDATE_TASKS = { updateDatasets, ...ARTIFACT_TASKS };
export type UpdateTasks = typeof UPDATE_TASKS;

/** Updates one dataset; throws DatasetError or OperationalError naming what is wrong. */
export async function updateOneDataset(task: DatasetTask, pool?: WorkPool<ArtifactTasks>): Promise<DatasetTaskResult> {
  const { manifestPath, cwd } = task;
  const shownManifest = displayPath(manifestPath, cwd);
  const adopting = task.dir !== undefined && !existsSync(manifestPath);
  const loaded = adopting
    ? undefined
    : await loadManifest(manifestPath, cwd, shownManifest, {
        allowOutsideRepository: task.allowOutsideRepository ?? false,
      });
  // The dataset root (a folder, or one markdown file), and the folder its artifact paths start from (dataset-root.ts).
  const named = task.move ? task.dir! : loaded !== undefined ? rootOf(loaded) : task.dir!;
  const root = rootParts(named).folder;
  const absence = loaded !== undefined ? rootAbsence(named) : undefined;
  if (absence !== undefined) {
    // The dataset's fault (exit 1), as validate's lock-dataset-files says it: a folder moved or deleted is routine.
    throw new DatasetError([
      rootProblem(
        named,
        absence,
        { shown: shownManifest, datasetRoot: loaded!.manifest.datasetRoot, shownRoot: displayPath(named, cwd) },
        "run update again",
      ),
    ]);
  }
  let locked: LockResult;
  /** A config template's versionDate older than the manifest's, not applied. */
  let keptVersion: { template: string; kept: string } | undefined;
  try {
    const fill = (templates: Partial<DatasetFields> | undefined) =>
      templates !== undefined && Object.keys(templates).length > 0
        ? fillFieldTemplates(templates, named, cwd, undefined, task.limits.maxFrontMatterBytes)
        : Promise.resolve({});
    // A new version's fields wait for the markdown to have changed, when asked: they are not even filled before (a
    // template the front matter of a law not amended cannot fill is no fault of this run).
    const { versionDate, sourceTextUrl, ...others } = task.templates ?? {};
    const versionTemplates = {
      ...(versionDate !== undefined ? { versionDate } : {}),
      ...(sourceTextUrl !== undefined ? { sourceTextUrl } : {}),
    };
    const waits =
      task.versionOnlyIfChanged === true && loaded !== undefined && Object.keys(versionTemplates).length > 0;
    let filled: Partial<DatasetFields> = await fill(waits ? others : task.templates);
    const lockWith = (fields: Partial<DatasetFields>) =>
      lock(
        {
          dir: named,
          output: manifestPath,
          cwd,
          check: true,
          keepContents: KEEP_CONTENTS_UP_TO,
          ...manifestOptionsOf(task),
          ...task.fields,
          ...fields,
          ...(task.maxArtifactBytes !== undefined ? { maxArtifactBytes: task.maxArtifactBytes } : {}),
        },
        loaded,
      );
    locked = await lockWith(filled);
    if (waits && markdownChanged(locked.changes)) {
      filled = { ...filled, ...(await fill(versionTemplates)) };
      locked = await lockWith(filled);
    }
    // The markdown changed and no flag dated the new version: the config's templates do (version-templates.ts).
    if (task.configTemplates && loaded !== undefined && markdownChanged(locked.changes)) {
      const fromConfig = await configVersionTemplates(named, { ...task.fields, ...filled });
      if (fromConfig !== undefined) {
        const more = await fillFieldTemplates(
          fromConfig.templates,
          named,
          cwd,
          undefined,
          task.limits.maxFrontMatterBytes,
        );
        // A template never dates a version back (a front matter date not updated with the law, or a merge that took
        // one side): the manifest keeps its version fields, and the warning below says how to date the new one.
        // The same date is no new version either: its address stays as it was.
        const current = loaded.manifest.versionDate;
        if (more.versionDate !== undefined && more.versionDate <= current) {
          if (more.versionDate < current) keptVersion = { template: more.versionDate, kept: current };
          delete more.versionDate;
          delete more.sourceTextUrl;
        }
        if (Object.keys(more).length > 0) locked = await lockWith({ ...filled, ...more });
      }
    }
  } catch (error) {
    if (error instanceof DatasetError) throw error.reworded((p) => `${shownManifest}: ${p}`);
    // A field a flag set wrong is a usage error (exit 2), as for lock; a template the dataset's front matter cannot
    // fill is the dataset's fault (exit 1).
    if (error instanceof FieldsError)
      throw new OperationalError(
        error.message
          .split("\n")
          .map((p) => `${shownManifest}: ${p}`)
          .join("\n"),
      );
    if (error instanceof TemplateError)
      throw new DatasetError(error.message.split("\n").map((p) => `${shownManifest}: ${p}`));
    throw error;
  }
  const conflict = slugConflict(manifestPath, locked.manifest.slug, cwd);
  // The manifest's own slug, edited by hand, is the dataset's fault (exit 1); one a caller gave is a usage error.
  if (conflict !== undefined)
    throw loaded?.manifest.slug === locked.manifest.slug
      ? new DatasetError([conflict])
      : new OperationalError(conflict);
  const output = outputFor(manifestPath, locked.manifest.slug);
  const before = loaded?.manifest;
  const fields: DatasetFieldChange[] = before
    ? MANIFEST_DATASET_FIELDS.filter((key) => before[key] !== locked.manifest[key]).map((field) => ({
        field,
        before: before[field],
        after: locked.manifest[field],
      }))
    : [];
  const warnings: string[] = [];
  const dated = fields.find((f) => f.field === "versionDate");
  if (dated !== undefined && dated.after < dated.before)
    warnings.push(
      `${locked.manifest.slug}: versionDate goes back, from ${dated.before} to ${dated.after}: a new version is dated after the one it replaces (was a template filled from an older front-matter date?)`,
    );
  if (keptVersion !== undefined)
    warnings.push(
      `${locked.manifest.slug}: the config's versionDate template gives ${keptVersion.template}, older than the version ${keptVersion.kept}: not applied, so that no version is dated back (is the front matter's date the law's new one?); set the new version with citation-targets update ${shellQuote(shownManifest)} --version-date YYYY-MM-DD --source-text-url URL`,
    );
  const { added, removed, changed } = locked.changes;
  // adopt --move of a one-file law renamed on the way: its file is another, its bytes the same; no new version.
  const digests = (artifacts: readonly { sha256: string }[]) =>
    artifacts
      .map((a) => a.sha256)
      .sort()
      .join();
  const renamedOnly =
    task.move === true && before !== undefined && digests(before.artifacts) === digests(locked.manifest.artifacts);
  if (
    keptVersion === undefined &&
    before &&
    !renamedOnly &&
    added.length + removed.length + changed.length > 0 &&
    !fields.some((f) => f.field === "versionDate" || f.field === "sourceTextUrl")
  )
    warnings.push(
      `${locked.manifest.slug}: the markdown changed, but versionDate (${before.versionDate}) and sourceTextUrl did not: if this is a new published version, set them (citation-targets update ${shellQuote(shownManifest)} --version-date YYYY-MM-DD --source-text-url URL)`,
    );
  const base = {
    slug: locked.manifest.slug,
    manifest: shownManifest,
    output: displayPath(output, cwd),
    artifacts: locked.changes,
    manifestChanged: locked.changed,
    // Written again with nothing in it changed: its bytes were not lock's (minified, CR LF, a member repeated).
    ...(locked.changed && loaded !== undefined && sameContents(loaded.text, locked.text)
      ? { manifestFormOnly: true as const }
      : {}),
    fields,
    datasetDigest: { ...(before ? { before: before.datasetDigest } : {}), after: locked.manifest.datasetDigest },
    warnings,
    sourceTextUrl: locked.manifest.sourceTextUrl,
    versionDate: locked.manifest.versionDate,
    ...(locked.manifest.legislationHost !== undefined ? { legislationHost: locked.manifest.legislationHost } : {}),
    ...(before === undefined ||
    before.sourceTextUrl !== locked.manifest.sourceTextUrl ||
    before.legislationHost !== locked.manifest.legislationHost
      ? { hostWritten: true }
      : {}),
  };
  const temporaries: DatasetTaskResult["temporaries"] = [];
  /** The JSONL's bytes when the check below read them (up to COMPARE_BYTES_UP_TO): compared or digested, not read again. */
  let jsonl: Buffer | undefined;
  const crlfIn = (path: string) => {
    // A JSONL compared in memory is read whole and kept; a larger one is scanned a piece at a time, never held.
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size !== undefined && size > COMPARE_BYTES_UP_TO) return holdsCrLf(path);
    const bytes = readRegularIfPresent(path);
    if (bytes !== undefined && bytes.length <= COMPARE_BYTES_UP_TO) jsonl = bytes;
    return bytes?.includes("\r\n");
  };
  if (
    before !== undefined &&
    added.length + removed.length + fields.length === 0 &&
    (changed.length > 0 || locked.lineEndings?.only || crlfIn(output)) &&
    (await onlyLineEndings(before, root, output))
  ) {
    // A Windows checkout: not a change of the law. Nothing is written, with or without --check: a write would pin every
    // digest over CR LF (update used to, while --check said there was nothing to update).
    const count = readRegularIfPresent(output)?.filter((byte) => byte === 0x0a).length ?? 0;
    const records: RecordChanges = { before: count, after: count, added: [], removed: [], changed: [] };
    // As the dataset is, read with CR LF as LF: no artifact changed, the digest the manifest has (not the one a lock of
    // the CR LF bytes made, which is never written).
    const { manifestFormOnly: _formOnly, ...kept } = base as typeof base & { manifestFormOnly?: true };
    return {
      update: {
        ...kept,
        artifacts: { ...base.artifacts, changed: [] },
        datasetDigest: { before: before.datasetDigest, after: before.datasetDigest },
        records,
        manifestChanged: false,
        outputChanged: false,
        written: false,
        warnings: [],
        lineEndingsOnly: true,
        lineEndingsAdvice: backToLf(
          [
            ...(locked.lineEndings?.artifacts ?? []).map((path) => displayPath(join(root, ...path.split("/")), cwd)),
            ...(loaded?.text.includes("\r\n") ? [shownManifest] : []),
            ...(crlfIn(output) ? [base.output] : []),
          ],
          displayPath(root, cwd) || ".",
        ),
      },
      temporaries,
    };
  }
  // Some artifacts differ from their pin only in CR LF, and something else changed (or the JSONL is not what generate
  // writes from them): lock keeps their pins, and regenerating would follow their CR LF bytes. They go back to LF first.
  if (locked.lineEndings !== undefined)
    throw new DatasetError([
      ...locked.lineEndings.artifacts.map(
        (path) =>
          `${shownManifest}: ${path}: differs from its pin only in line endings (CR LF): update would pin the CR LF bytes`,
      ),
      `${shownManifest}: hint: ${locked.lineEndings.advice}; then run update again`,
    ]);
  const key = task.cache ? cacheKey(task.cache.generator, locked.text, task.limits) : undefined;

  // The cache: when the JSONL there is byte for byte what this manifest generated before, it is what it would generate
  // now.
  const known = task.cache?.entry;
  if (
    key !== undefined &&
    known !== undefined &&
    known.key === key &&
    (jsonl !== undefined ? sha256Hex(jsonl) : await fileDigest(output)) === known.output
  ) {
    const records: RecordChanges = { before: known.records, after: known.records, added: [], removed: [], changed: [] };
    if (locked.changed && !task.check) temporaries.push(await writeTemporary(manifestPath, locked.text, task.swept));
    return {
      update: { ...base, records, outputChanged: false, written: !task.check && locked.changed, cached: true },
      temporaries,
      cacheEntry: known,
    };
  }

  // In the pool when it pays, and always when the pool's workers are capped (the parse is then never in this thread).
  const threaded =
    pool && (pool.capped || defaultJobs(locked.bytes, locked.manifest.artifacts.length) > 1) ? pool : undefined;
  // The artifacts' sizes, so that the pool's batches and window ahead are measured in bytes (unknown sizes count as
  // large ones).
  const sizes = threaded
    ? locked.manifest.artifacts.map(
        (artifact) => statSync(join(root, ...artifact.path.split("/")), { throwIfNoEntry: false })?.size ?? 0,
      )
    : [];
  const fromLock = { ...(threaded || locked.contents === undefined ? {} : { contents: locked.contents }) };
  const wrapped = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (error instanceof DatasetError) throw error.reworded((p) => `${shownManifest}: ${p}`);
      throw error;
    }
  };
  const size = statSync(output, { throwIfNoEntry: false })?.size;
  let changes: RecordChanges;
  let outputChanged: boolean;
  let digest: string | undefined;
  let records = 0;
  // With no JSONL yet, its size is judged by the markdown's (a JSONL is about twice its markdown): a large new dataset
  // streams too.
  if (size !== undefined ? size <= COMPARE_BYTES_UP_TO : locked.bytes * 2 <= COMPARE_BYTES_UP_TO) {
    // A small JSONL (a publisher's dataset): the lines generated are kept and compared with the file's bytes, byte for
    // byte (no digest of either, unless the cache needs the new one); its records are parsed only when the bytes
    // differ.
    // Joined as bytes (writeSteps: the markdown's JSON text written from the file's bytes, never serialised as text and
    // encoded again) into a buffer kept from dataset to dataset (bench/RESULTS.md: fresh memory is dear); copied only
    // when the bytes changed.
    const join = joinBuffers.pop() ?? Buffer.allocUnsafeSlow(2 ** 20);
    let joined = join.subarray(0, 0);
    await wrapped(async () => {
      records = await writeSteps(
        lineStepsOf(locked.manifest, root, threaded, sizes, task.limits, fromLock),
        async (all) => {
          joined = Buffer.from(all.buffer, all.byteOffset, all.byteLength); // `join`, or a larger buffer it grew into
        },
        undefined,
        join,
      );
    });
    let bytes = joined;
    const before = size === undefined ? undefined : (jsonl ?? readOutput(output, displayPath(output, cwd)));
    outputChanged = before === undefined || !before.equals(bytes);
    if (key !== undefined) digest = sha256Hex(bytes);
    if (outputChanged) bytes = Buffer.from(bytes); // its own copy: the buffer goes back for the next dataset's lines
    joinBuffers.push(Buffer.from(joined.buffer));
    if (!outputChanged) changes = { before: records, after: records, added: [], removed: [], changed: [] };
    else {
      const compare = new RecordComparer(before === undefined ? undefined : await readOldRecords(output));
      // The records parsed only now that the bytes differ: the lines decoded from them.
      const lines = bytes.toString("utf8").split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      for (const line of lines) compare.add(JSON.parse(line) as Record<string, unknown>);
      changes = compare.finish();
      if (before !== undefined && unexplained(changes)) changes.firstDifferentLine = firstDifferentLine(before, bytes);
      if (!task.check) temporaries.push(await writeTemporary(output, bytes, task.swept));
    }
  } else {
    // A large JSONL: the new one streams into its temporary file, compared with the file's bytes as it comes, and by
    // record only from where they differ (streamed-compare.ts), so that memory stays bounded and a dataset up to date
    // costs its generation and one read of its file.
    const readError = (error: unknown) =>
      error instanceof OperationalError
        ? error
        : new OperationalError(describeIoError(error, "read", displayPath(output, cwd)));
    const file = task.check ? undefined : await openAtomic(output, { sweep: task.swept !== true });
    let compared: StreamedComparison | undefined;
    await wrapped(async () => {
      compared = await compareStreamed(
        lineStepsOf(locked.manifest, root, threaded, sizes, task.limits, fromLock),
        output,
        file,
        readError,
      );
      records = compared.records;
      digest = compared.digest;
      // A file that holds an address twice: its records compared with what is generated again, by record throughout.
      if (compared.changes === undefined) {
        const comparer = new RecordComparer(
          await readOldRecords(output).catch((error: unknown) => {
            throw readError(error);
          }),
        );
        const again = linesOf(locked.manifest, root, threaded, sizes, task.limits);
        for await (const batch of again)
          for (const line of batch) comparer.add(JSON.parse(line) as Record<string, unknown>);
        compared.changes = comparer.finish();
      }
    }).catch(async (error: unknown) => {
      await file?.abort();
      throw error;
    });
    changes = compared!.changes!;
    outputChanged = compared!.changed;
    if (file) {
      if (outputChanged) temporaries.push({ temporary: await file.detach({ sync: false }), path: output });
      else await file.abort();
    }
  }
  // A new datasetDigest (a new version) changes every line's ids: that is why, not a line edited by hand.
  if (changes.firstDifferentLine !== undefined && loaded?.manifest.datasetDigest !== locked.manifest.datasetDigest)
    delete changes.firstDifferentLine;
  if (locked.changed && !task.check) temporaries.push(await writeTemporary(manifestPath, locked.text, task.swept));
  return {
    update: {
      ...base,
      records: changes,
      outputChanged,
      written: !task.check && (locked.changed || outputChanged),
      ...(loaded !== undefined && size === undefined ? { outputMissing: true as const } : {}),
    },
    temporaries,
    ...(key !== undefined && digest !== undefined ? { cacheEntry: { key, output: digest, records } } : {}),
  };
}

/**
 * Whether the file holds CR LF, read 1 MiB at a time (a pair split between two reads counts); false when it cannot be
 * read, as for a file not there.
 */
function holdsCrLf(path: string): boolean {
  let fd: number;
  try {
    fd = openRegularSync(path).fd;
  } catch {
    return false;
  }
  const chunk = Buffer.allocUnsafe(2 ** 20);
  try {
    let carriage = false;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return false;
      if ((carriage && chunk[0] === 0x0a) || chunk.subarray(0, read).includes("\r\n")) return true;
      carriage = chunk[read - 1] === 0x0d;
    }
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The buffers a small dataset's lines are joined into (writeSteps' `join`), kept from dataset to dataset, each grown to
 * the largest JSONL compared in memory at most: one taken for a dataset's lines and given back when it is done with
 * them, so that two datasets a thread works on at once (a worker holds two tasks) never share one.
 */
const joinBuffers: Buffer[] = [];

async function writeTemporary(
  path: string,
  text: string | Uint8Array,
  swept = false,
): Promise<{ temporary: string; path: string }> {
  const file = await openAtomic(path, { sweep: !swept });
  try {
    await file.write(text);
    return { temporary: await file.detach({ sync: false }), path };
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/**
 * The JSONL as it is, to compare with; undefined when there is none. One that cannot be read (not a regular file, or a
 * link out of the repository: regular-file.ts) is refused by name, never taken for absent.
 */
function readOutput(path: string, shown: string): Buffer | undefined {
  try {
    return readRegularFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new OperationalError(describeIoError(error, "read", shown));
  }
}

/** The SHA-256 of a file's bytes; undefined when it cannot be read. */
async function fileDigest(path: string): Promise<string | undefined> {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined) return undefined;
  if (size <= COMPARE_BYTES_UP_TO) {
    try {
      return sha256Hex(readRegularFileSync(path));
    } catch {
      return undefined;
    }
  }
  const hash = sha256Stream();
  try {
    for await (const chunk of regularReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest("hex");
}

/** True when an update found nothing to change. */
export function upToDate(result: DatasetUpdate): boolean {
  return !result.manifestChanged && !result.outputChanged && noRecordChanges(result.records);
}

/** Two manifest texts that hold the same JSON value (compared in canonical form); false when either is not JSON. */
function sameContents(a: string, b: string): boolean {
  try {
    return canonicalize(JSON.parse(a)) === canonicalize(JSON.parse(b));
  } catch {
    return false;
  }
}

/** The 1-based line of `a` where its bytes first differ from `b`'s (the line after the last one when one is a prefix). */
function firstDifferentLine(a: Uint8Array, b: Uint8Array): number {
  let line = 1;
  const end = Math.min(a.length, b.length);
  for (let i = 0; i < end && a[i] === b[i]; i++) if (a[i] === 0x0a) line++;
  return line;
}
