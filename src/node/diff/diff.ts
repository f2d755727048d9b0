/**
 * `diff`: what changed between two versions of citation-targets files, by change kind and class
 * (docs/spec.md, section 12). Finds the pairs (two files, two folders matched by
 * file name, or the working tree against a git revision), streams each pair through the core's
 * RecordDiff or diffSchemas, applies the approvals and the gate.
 */
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, join, relative, resolve, sep } from "node:path";
import {
  applyApprovals,
  type Approval,
  approvalWarnings,
  type DiffPair,
  type DiffReport,
  type FailOn,
  parseApprovals,
  summarizeDiff,
} from "../../core/diff/diff.js";
import { errorMessage } from "../../core/errors.js";
import { RecordDiff } from "../../core/diff/diff-records.js";
import { passEditorialChanges } from "../../core/diff/text-change.js";
import { diffSchemas } from "../../core/diff/diff-schema.js";
import { looksLike } from "../../core/report/file-kind.js";
import { countLines, LineReader } from "../../core/lines.js";
import { buildRecordSchema } from "../../core/schema/schema.js";
import {
  BlobReader,
  blobId,
  filesAt,
  gitBlob,
  gitTopLevel,
  resolveRevision,
  type TreeEntry,
  treeAt,
} from "../git/diff-git.js";
import { DatasetNotes, markTextChanges } from "./diff-datasets.js";
import { describeIoError, OperationalError } from "../errors.js";
import {
  readRegularFileSync,
  readRegularIfPresent,
  regularReadStream,
  withOutsideReads,
} from "../files/regular-file.js";
import { DEFAULT_FOLDER, DEFAULT_PATTERN, displayPath, isInside } from "../files/files.js";
import { readJsonFile } from "../files/json-file.js";
import { checkJobs, createPool, type WorkPool } from "../pool/pool.js";
import { decodeFailure, encodeFailure, type TaskFailure } from "../pool/task-failure.js";
import { UNCOMPARED_FIELDS } from "../../core/records/record-fingerprint.js";
import { REPOSITORY_SCHEMA_PATH } from "../config/schema-source.js";

/** The folder of the default pattern: `.tooling/citation-targets`. */

export interface DiffOptions {
  cwd?: string;
  /**
   * Without `against`: two paths, old then new (two files, two folders whose `*.jsonl` are paired by
   * file name, or a folder and a file). With `against`: working-tree files or folders (default: the
   * repository's `.tooling/citation-targets/*.jsonl` and its record schema, when it has one).
   */
  paths?: string[];
  /** A git revision: compare the working tree's files with the same paths at it. */
  against?: string;
  /** The paths are record JSON Schemas. */
  schema?: boolean;
  /** A reviewed approvals file (README, "diff", approvals). */
  approvals?: string;
  /** Which changes fail the run: breaking (default), any, none. */
  failOn?: FailOn;
  /** Editorial changes (footnotes or white space only) pass the gate (docs/spec.md, section 12.4). */
  passEditorial?: boolean;
  /** `diff REV1 REV2`: the new side is read at this revision too (`against` is the old one). */
  to?: string;
  /**
   * Threads to compare the pairs on (one pool for the run); default: one per core when many pairs differ, else 1 (this
   * thread).
   */
  jobs?: number;
  /** Read files that symbolic links lead to outside the repository (default: refused, named; SECURITY.md). */
  allowOutsideRepository?: boolean;
}

/** One side of a pair: a file on disk, a file at a git revision, or nothing (a dataset added or deleted). */
export interface DiffSide {
  label: string;
  missing: boolean;
  open(): AsyncIterable<Uint8Array>;
  /** Starts reading the side ahead of its turn (a blob asked of git while earlier pairs are compared). */
  prefetch?(): void;
  /** Lets go of what was read (the pair is done). */
  release?(): void;
  /** The size of a file side, as found when the side was made (a stat, not read again). */
  size?: number;
  /**
   * The side as plain data, for a worker thread to read or compare (absent: a side only this thread reads, such as a
   * blob streamed by git).
   */
  data?(): Promise<SideData>;
}

/**
 * A side as plain data: missing, a file on disk (the worker reads it), or bytes already read (a blob from git's batch,
 * moved to the worker).
 */
export type SideData =
  | { label: string; missing: true }
  | { label: string; path: string }
  | { label: string; bytes: Uint8Array };

/** A pair of dataset files that a worker compares. */
export interface PairTask {
  old: SideData;
  new: SideData;
}

export interface DiffTarget {
  type: "records" | "schema";
  old: DiffSide;
  new: DiffSide;
  /**
   * Both sides hold the same bytes (the working tree file's blob id is the revision's): nothing to compare; the count
   * of records.
   */
  identical?: { records: number };
}

const isSchemaPath = (path: string) => path.endsWith(".schema.json");

async function kindOf(path: string): Promise<"file" | "folder" | undefined> {
  const info = statSync(path, { throwIfNoEntry: false }); // synchronous: thousands of dataset files a run
  return info?.isFile() ? "file" : info?.isDirectory() ? "folder" : undefined;
}

/** A file on disk; `missing` when it is not there. */
export async function fileSide(absolute: string, label: string): Promise<DiffSide> {
  const info = statSync(absolute, { throwIfNoEntry: false });
  const missing = !info?.isFile();
  // A dataset file is read in one call (thousands a run); a large one is streamed.
  const whole = info !== undefined && info.size <= WHOLE_BLOB_UP_TO;
  return {
    label,
    missing,
    ...(info !== undefined && !missing ? { size: info.size } : {}),
    data: async () => (missing ? { label, missing: true } : { label, path: absolute }),
    async *open() {
      try {
        if (whole) yield readRegularFileSync(absolute);
        else for await (const chunk of regularReadStream(absolute)) yield chunk as Buffer;
      } catch (error) {
        throw new OperationalError(describeIoError(error, "read", label));
      }
    },
  };
}

const missingSide = (label: string): DiffSide => ({
  label,
  missing: true,
  data: async () => ({ label, missing: true }),
  async *open() {},
});

/** A side from its plain data (in a worker thread). */
async function sideOf(data: SideData): Promise<DiffSide> {
  if ("missing" in data) return missingSide(data.label);
  if ("path" in data) return fileSide(data.path, data.label);
  const { bytes, label } = data;
  return {
    label,
    missing: false,
    async *open() {
      yield bytes;
    },
  };
}

/** Compares a pair given as plain data: what `diffRecordSides` gives for the same sides. */
export async function comparePairTask(task: PairTask): Promise<DiffPair> {
  return diffRecordSides(await sideOf(task.old), await sideOf(task.new));
}

/**
 * A task of the pool (worker.ts): compares a batch of dataset file pairs (diff), in order; the first that fails ends
 * the batch with its error.
 */
export async function diffPairs(task: { pairs: PairTask[] }): Promise<(DiffPair | TaskFailure)[]> {
  const results: (DiffPair | TaskFailure)[] = [];
  for (const pair of task.pairs) {
    try {
      results.push(await comparePairTask(pair));
    } catch (error) {
      results.push(encodeFailure(error));
      break;
    }
  }
  return results;
}

/** The kind of task of diff's pool. */
export const DIFF_TASKS = { diffPairs };
export type DiffTasks = typeof DIFF_TASKS;

/** Streams the records of a side: each line that is a JSON object with a string citationAddress; counts the others. */
export async function readRecords(
  side: DiffSide,
  onRecord: (record: Record<string, unknown>, line: number, text: string) => void,
  only?: ReadonlySet<number>,
): Promise<{ unreadable: number }> {
  let unreadable = 0;
  const reader = new LineReader(
    (line) => {
      if (only !== undefined && !only.has(line.number)) return; // not looked at: not parsed (the count of unreadable lines is then of these only)
      const text = line.number === 1 && line.text.startsWith("\uFEFF") ? line.text.slice(1) : line.text;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch {
        unreadable++;
        return;
      }
      if (
        record === null ||
        typeof record !== "object" ||
        Array.isArray(record) ||
        typeof (record as { citationAddress?: unknown }).citationAddress !== "string"
      ) {
        unreadable++;
        return;
      }
      onRecord(record as Record<string, unknown>, line.number, text);
    },
    () => unreadable++,
  );
  for await (const chunk of side.open()) reader.push(chunk);
  reader.end();
  return { unreadable };
}

/** Compares two versions of one dataset file: three streaming passes at most (src/core/diff/diff-records.ts). */
export async function diffRecordSides(old: DiffSide, now: DiffSide): Promise<DiffPair> {
  const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: old.label, newFile: now.label });
  const warnings: string[] = [];
  const unreadable = (side: DiffSide, count: number) => {
    if (count > 0)
      warnings.push(
        `${side.label}: ${count} ${count === 1 ? "line is" : "lines are"} not a record with a citationAddress and ${count === 1 ? "was" : "were"} not compared (run citation-targets validate)`,
      );
  };
  /**
   * Reads one side; a side with lines but not one record is not a dataset file at all, and comparing it would say "no
   * changes".
   */
  const read = async (side: DiffSide, add: (record: Record<string, unknown>, line: number, text: string) => void) => {
    let records = 0;
    const { unreadable: count } = await readRecords(side, (record, line, text) => {
      records++;
      add(record, line, text);
    });
    if (records === 0 && count > 0) {
      const kind = looksLike(side.label);
      throw new OperationalError(
        `${side.label} is not a citation-targets JSONL file: none of its ${count} ${count === 1 ? "line is a record" : "lines is a record"}${kind !== undefined && !kind.startsWith("JSON Lines") ? ` (it looks like ${kind})` : ""}; diff compares JSONL files of records, or two record JSON Schemas with --schema`,
      );
    }
    unreadable(side, count);
  };
  const notes = new DatasetNotes();
  if (!old.missing)
    await read(old, (record, line, text) => {
      notes.old(record, line);
      diff.addOld(record, line, text.length);
    });
  if (!now.missing)
    await read(now, (record, line) => {
      notes.now(record);
      diff.addNew(record, line);
    });
  // Pass 3 parses only the old lines it looks at: those of the records that went (or changed, in a large file).
  if (diff.endNew() && !old.missing) await readRecords(old, (record) => diff.addOldDetail(record), diff.detailLines());
  const result = diff.finish();
  await markTextChanges(
    result.changes,
    notes.oldLines,
    (onRecord, only) => readRecords(old, onRecord, only),
    (onRecord, only) => readRecords(now, onRecord, only),
  );
  return {
    type: "records",
    old: old.label,
    new: now.label,
    ...(old.missing ? { oldMissing: true } : {}),
    ...(now.missing ? { newMissing: true } : {}),
    dataset: notes.dataset(now.missing ? old.label : now.label),
    records: { before: result.before, after: result.after },
    changes: result.changes,
    warnings: [...warnings, ...result.warnings],
  };
}

async function readSchema(side: DiffSide): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of side.open()) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OperationalError(`schema ${side.label} is not valid JSON: ${errorMessage(error)}`);
  }
}

/**
 * Compares two record schemas. A side that is missing stands for the bundled schema (what validate uses when a
 * repository has none).
 */
export async function diffSchemaSides(old: DiffSide, now: DiffSide): Promise<DiffPair> {
  const bundled = "(bundled schema)";
  const before = old.missing ? buildRecordSchema() : await readSchema(old);
  const after = now.missing ? buildRecordSchema() : await readSchema(now);
  const result = diffSchemas(before, after);
  return {
    type: "schema",
    old: old.missing ? `${old.label} ${bundled}` : old.label,
    new: now.missing ? `${now.label} ${bundled}` : now.label,
    ...(old.missing ? { oldMissing: true } : {}),
    ...(now.missing ? { newMissing: true } : {}),
    digests: result.digests,
    changes: result.changes,
    warnings: [],
  };
}

/** The `*.jsonl` files directly in a folder (names). */
async function jsonlIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl")).map((entry) => entry.name);
}

/**
 * Two paths: file and file, folder and folder (paired by file name), or a folder and a file (the file's name in the
 * folder).
 */
async function localTargets(paths: string[], cwd: string, schema: boolean): Promise<DiffTarget[]> {
  if (paths.length !== 2)
    throw new OperationalError(
      `diff needs two paths, old then new (got ${paths.length}); or --against REV to compare with a git revision`,
    );
  const [oldPath, newPath] = paths as [string, string];
  const oldAbsolute = resolve(cwd, oldPath);
  const newAbsolute = resolve(cwd, newPath);
  const oldKind = await kindOf(oldAbsolute);
  const newKind = await kindOf(newAbsolute);
  for (const [kind, path] of [
    [oldKind, oldPath],
    [newKind, newPath],
  ] as const) {
    if (kind === undefined) throw new OperationalError(`cannot read ${path}: no such file or folder`);
  }
  const type = schema || (isSchemaPath(oldPath) && isSchemaPath(newPath)) ? "schema" : "records";
  const pair = async (o: string, n: string): Promise<DiffTarget> => {
    const target: DiffTarget = {
      type,
      old: await fileSide(o, displayPath(o, cwd)),
      new: await fileSide(n, displayPath(n, cwd)),
    };
    // Two files with the same bytes are not parsed: nothing changed (many datasets, few of them amended).
    const size = statSync(o, { throwIfNoEntry: false })?.size;
    if (
      type === "records" &&
      !target.old.missing &&
      !target.new.missing &&
      size !== undefined &&
      size <= WHOLE_BLOB_UP_TO &&
      statSync(n, { throwIfNoEntry: false })?.size === size
    ) {
      const [before, after] = [readRegularIfPresent(o), readRegularIfPresent(n)];
      if (before !== undefined && after !== undefined && before.equals(after))
        target.identical = { records: countLines(after) };
    }
    return target;
  };
  if (type === "schema" && (oldKind !== "file" || newKind !== "file"))
    throw new OperationalError("--schema compares two schema files, not folders");
  if (oldKind === "file" && newKind === "file") return [await pair(oldAbsolute, newAbsolute)];
  if (oldKind === "folder" && newKind === "file")
    return [await pair(join(oldAbsolute, basename(newAbsolute)), newAbsolute)];
  if (oldKind === "file" && newKind === "folder")
    return [await pair(oldAbsolute, join(newAbsolute, basename(oldAbsolute)))];
  const names = [...new Set([...(await jsonlIn(oldAbsolute)), ...(await jsonlIn(newAbsolute))])].sort();
  if (names.length === 0) throw new OperationalError(`no *.jsonl files in ${oldPath} or ${newPath}`);
  return Promise.all(names.map((name) => pair(join(oldAbsolute, name), join(newAbsolute, name))));
}

const posix = (path: string) => path.split(sep).join("/");

/** The working tree's files against the same paths at a revision, read with git. */
async function gitTargets(
  revision: string,
  paths: string[],
  cwd: string,
  schema: boolean,
): Promise<{ targets: DiffTarget[]; commit: string; close: () => void }> {
  const root = await gitTopLevel(cwd);
  const commit = await resolveRevision(root, revision);
  const targets: DiffTarget[] = [];
  // The revision's side: one ls-tree per folder for the blob ids, one cat-file --batch for the blobs.
  const trees = new Map<string, Promise<Map<string, TreeEntry>>>();
  const treeOf = (dir: string) => {
    let tree = trees.get(dir);
    if (tree === undefined) {
      tree = treeAt(root, commit, dir);
      tree.catch(() => undefined); // asked ahead of its use: a failure surfaces where it is awaited
      trees.set(dir, tree);
    }
    return tree;
  };
  const entryAt = async (rel: string) =>
    (await treeOf(rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "")).get(rel);
  let reader: BlobReader | undefined;
  const add = async (rel: string, type: "records" | "schema") => {
    const absolute = join(root, ...rel.split("/"));
    const label = `${revision}:${rel}`;
    const at = await entryAt(rel);
    const now = await fileSide(absolute, displayPath(absolute, cwd));
    let old: DiffSide = missingSide(label);
    if (at !== undefined) {
      const { blob, size } = at;
      old =
        size > WHOLE_BLOB_UP_TO
          ? { label, missing: false, open: () => gitBlob(root, commit, rel) }
          : blobSide(label, () => {
              reader ??= new BlobReader(root);
              return reader.read(blob, label);
            });
    }
    const target: DiffTarget = { type, old, new: now };
    // Same size first (a file of another size is not the same blob), so that a large file is never read whole.
    if (at !== undefined && !now.missing && type === "records" && at.size <= WHOLE_BLOB_UP_TO && now.size === at.size) {
      const bytes = readRegularIfPresent(absolute);
      if (bytes !== undefined && blobId(bytes, at.blob.length === 64 ? "sha256" : "sha1") === at.blob)
        target.identical = { records: countLines(bytes) };
    }
    targets.push(target);
  };
  const close = () => reader?.close();
  const folder = async (rel: string, shown: string) => {
    const absolute = join(root, ...rel.split("/"));
    const tree = treeOf(rel); // git lists the revision's folder while this one is read
    const here = (await kindOf(absolute)) === "folder" ? (await jsonlIn(absolute)).map((name) => `${rel}/${name}`) : [];
    const there = [...(await tree).keys()].filter(
      (path) => path.endsWith(".jsonl") && !path.slice(rel.length + 1).includes("/"),
    );
    const all = [...new Set([...here, ...there])].sort();
    if (all.length === 0)
      throw new OperationalError(`no *.jsonl files in ${shown}, in the working tree or at ${revision}`);
    for (const path of all) await add(path, "records");
  };
  if (paths.length === 0) {
    if (schema) await add(REPOSITORY_SCHEMA_PATH, "schema");
    else {
      await folder(DEFAULT_FOLDER, DEFAULT_PATTERN);
      const schemaHere = (await kindOf(join(root, ...REPOSITORY_SCHEMA_PATH.split("/")))) === "file";
      if (schemaHere || (await entryAt(REPOSITORY_SCHEMA_PATH)) !== undefined)
        await add(REPOSITORY_SCHEMA_PATH, "schema");
    }
    return { targets, commit, close };
  }
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const rel = posix(relative(root, absolute));
    if (!isInside(root, absolute) || rel === "")
      throw new OperationalError(`${path} is not inside the repository (${root})`);
    const type = schema || isSchemaPath(rel) ? "schema" : "records";
    const kind = await kindOf(absolute);
    if (kind === "folder") await folder(rel, path);
    else if (kind === "file" || (await entryAt(rel)) !== undefined) await add(rel, type);
    else if ((await filesAt(root, commit, rel)).length > 0) await folder(rel, path);
    else
      throw new OperationalError(`cannot read ${path}: no such file or folder in the working tree or at ${revision}`);
  }
  return { targets, commit, close };
}

/** A side read whole from git's batch, once (the comparison may read it twice), and asked for ahead of its turn. */
function blobSide(label: string, fetch: () => Promise<Buffer>): DiffSide {
  let bytes: Promise<Buffer> | undefined;
  const get = () => {
    bytes ??= fetch();
    bytes.catch(() => undefined); // surfaces when the side is read
    return bytes;
  };
  return {
    label,
    missing: false,
    async *open() {
      yield await get();
    },
    prefetch: () => void get(),
    release: () => {
      bytes = undefined;
    },
    data: async () => ({ label, bytes: await get() }),
  };
}

/**
 * Pairs whose old side is asked of git ahead of their turn: enough to keep git busy while the pairs before are
 * compared.
 */
const PREFETCH_PAIRS = 16;

/**
 * A blob up to this size is read whole through the run's cat-file --batch; a larger one is streamed by a git process of
 * its own.
 */
const WHOLE_BLOB_UP_TO = 64 * 2 ** 20;

/** Reads and checks an approvals file; an OperationalError (exit 2) names every problem. */
export async function loadApprovals(path: string, cwd: string): Promise<Approval[]> {
  const document = await readJsonFile(resolve(cwd, path), "approvals file", path);
  const { approvals, problems } = parseApprovals(document);
  if (problems.length > 0)
    throw new OperationalError(`approvals file ${path} is not valid:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  return approvals;
}

/** Pairs that differ, from which a run uses one thread per core by default. */
const THREADS_FROM_PAIRS = 32;
/** A batch of pairs for a worker: up to this many pairs, or until the old sides hold this many bytes. */
const BATCH_PAIRS = 32;
const BATCH_BYTES = 2 ** 20;

/**
 * Compares every target, in order: in this thread, or over a pool when many pairs differ (or `jobs` says so). `early`:
 * the pool started before the targets were known, used when the pool is wanted and closed unused otherwise.
 */
async function comparePairs(
  targets: DiffTarget[],
  jobs: number | undefined,
  early?: Promise<WorkPool<DiffTasks>>,
): Promise<DiffPair[]> {
  const differing = targets.filter((target) => !target.identical).length;
  const threads = jobs ?? (differing >= THREADS_FROM_PAIRS && availableParallelism() > 1 ? availableParallelism() : 1);
  if (threads > 1 && differing > 1) {
    const started = early ? await early : undefined;
    if (started?.threads === threads) return compareInPool(targets, started);
    await started?.close();
    return compareInPool(targets, await createPool(threads, DIFF_TASKS));
  }
  await (await early)?.close();
  return compareHere(targets);
}

/**
 * The pool a diff may want, started before its pairs are known (the workers load the comparer while git and the file
 * system answer, about a tenth of a run with every dataset changed: bench/RESULTS.md); undefined when the run has one
 * thread.
 */
function earlyPool(jobs: number | undefined): Promise<WorkPool<DiffTasks>> | undefined {
  const threads = jobs ?? availableParallelism();
  return threads > 1 ? createPool(threads, DIFF_TASKS, { warm: "diffPairs" }) : undefined;
}

/** The report of a pair whose sides hold the same bytes: nothing to compare. */
function identicalPair(target: DiffTarget, records: number): DiffPair {
  return {
    type: "records",
    old: target.old.label,
    new: target.new.label,
    records: { before: records, after: records },
    changes: [],
    warnings: [],
  };
}

function checkSides(target: DiffTarget): void {
  if (target.old.missing && target.new.missing)
    throw new OperationalError(`cannot read ${target.new.label}: it is neither in the old nor in the new version`);
}

/** Compares the targets one after another in this thread, the old sides asked of git a few pairs ahead. */
async function compareHere(targets: DiffTarget[]): Promise<DiffPair[]> {
  const pairs: DiffPair[] = [];
  for (const [i, target] of targets.entries()) {
    for (let ahead = i; ahead < Math.min(targets.length, i + PREFETCH_PAIRS); ahead++)
      if (!targets[ahead]!.identical) targets[ahead]!.old.prefetch?.();
    checkSides(target);
    if (target.identical) {
      pairs.push(identicalPair(target, target.identical.records));
      continue;
    }
    pairs.push(
      target.type === "schema"
        ? await diffSchemaSides(target.old, target.new)
        : await diffRecordSides(target.old, target.new),
    );
    target.old.release?.();
  }
  return pairs;
}

/**
 * Compares the pairs that differ over the run's one pool, in batches (docs/spec.md, section 14): this
 * thread asks git for the old sides (its one cat-file process) and moves their bytes to the workers,
 * which read the new sides themselves. A bounded number of batches is in flight, so memory holds a few
 * batches' bytes whatever the number of pairs. The reports are put back in input order, and the error
 * the run stops with is the first pair's in that order, as in one thread.
 */
async function compareInPool(targets: DiffTarget[], pool: WorkPool<DiffTasks>): Promise<DiffPair[]> {
  const results: Promise<DiffPair>[] = [];
  const settle = (promise: Promise<DiffPair>) => {
    promise.catch(() => undefined); // surfaces when awaited, in order
    results.push(promise);
  };
  const inFlight: Promise<unknown>[] = [];
  let batch: { tasks: PairTask[]; slots: number[]; bytes: number; transfer: ArrayBuffer[] } = {
    tasks: [],
    slots: [],
    bytes: 0,
    transfer: [],
  };
  const resolvers: ((result: DiffPair | TaskFailure | undefined) => void)[] = [];
  const flush = async () => {
    if (batch.tasks.length === 0) return;
    const { tasks, slots, transfer } = batch;
    batch = { tasks: [], slots: [], bytes: 0, transfer: [] };
    const done = pool.run("diffPairs", { pairs: tasks }, transfer).then(
      (answers) => {
        for (const [i, slot] of slots.entries()) resolvers[slot]!(answers[i]);
      },
      (error: unknown) => {
        // The pool failed (a worker stopped): every pair of the batch ends with its error.
        for (const slot of slots)
          resolvers[slot]!({
            failed: { kind: "operational", message: errorMessage(error) },
          });
      },
    );
    inFlight.push(done);
    if (inFlight.length >= 4 * pool.workers) await inFlight.shift();
  };
  try {
    for (const [i, target] of targets.entries()) {
      // Git is asked a few pairs ahead, so that it reads while this thread waits for the one before.
      for (let ahead = i; ahead < Math.min(targets.length, i + PREFETCH_PAIRS); ahead++)
        if (!targets[ahead]!.identical) targets[ahead]!.old.prefetch?.();
      try {
        checkSides(target);
      } catch (error) {
        settle(Promise.reject(error));
        continue;
      }
      if (target.identical) {
        settle(Promise.resolve(identicalPair(target, target.identical.records)));
        continue;
      }
      if (target.type === "schema" || !target.old.data || !target.new.data) {
        // A schema, or a blob too large for git's batch: compared here, in its turn.
        await flush();
        await Promise.all(inFlight);
        settle(
          target.type === "schema" ? diffSchemaSides(target.old, target.new) : diffRecordSides(target.old, target.new),
        );
        await results.at(-1)!.catch(() => undefined);
        continue;
      }
      let task: PairTask;
      try {
        task = { old: await target.old.data(), new: await target.new.data() };
      } catch (error) {
        settle(Promise.reject(error));
        continue;
      }
      target.old.release?.();
      settle(
        new Promise<DiffPair>((resolve, reject) => {
          resolvers[results.length] = (result) => {
            if (result === undefined) reject(new OperationalError(`diff: no result for ${target.new.label}`));
            else if ("failed" in result)
              reject(decodeFailure(result, { dataset: "other" })); // as diff always reported it: a plain Error
            else resolve(result);
          };
        }),
      );
      batch.tasks.push(task);
      batch.slots.push(results.length - 1);
      if ("bytes" in task.old) {
        batch.bytes += task.old.bytes.length;
        batch.transfer.push(task.old.bytes.buffer as ArrayBuffer);
      }
      if (batch.tasks.length >= BATCH_PAIRS || batch.bytes >= BATCH_BYTES) await flush();
    }
    await flush();
    const pairs: DiffPair[] = [];
    for (const result of results) pairs.push(await result);
    return pairs;
  } finally {
    await pool.close();
  }
}

/**
 * Finds the pairs, compares each, applies the approvals and the gate. Throws OperationalError for usage and I/O
 * problems.
 */
export async function diff(options: DiffOptions = {}): Promise<DiffReport> {
  return withOutsideReads(options.allowOutsideRepository, () => diffConfined(options));
}

async function diffConfined(options: DiffOptions): Promise<DiffReport> {
  const cwd = options.cwd ?? process.cwd();
  const failOn = options.failOn ?? "breaking";
  if (options.to !== undefined && options.against === undefined)
    throw new OperationalError("diff: `to` (the new revision) needs `against` (the old one)");
  const approvals = options.approvals !== undefined ? await loadApprovals(options.approvals, cwd) : [];
  let targets: DiffTarget[];
  let against: DiffReport["against"];
  let to: DiffReport["to"];
  let close = () => {};
  const jobs = checkJobs(options.jobs);
  const early = earlyPool(jobs);
  try {
    if (options.against !== undefined && options.to !== undefined) {
      const { revisionTargets } = await import("./diff-revisions.js");
      const found = await revisionTargets(
        options.against,
        options.to,
        options.paths ?? [],
        cwd,
        options.schema ?? false,
        {
          missing: missingSide,
          blob: blobSide,
          stream: (label, open) => ({ label, missing: false, open }),
          wholeUpTo: WHOLE_BLOB_UP_TO,
        },
      );
      targets = found.targets;
      close = found.close;
      against = { revision: options.against, commit: found.commits[0] };
      to = { revision: options.to, commit: found.commits[1] };
    } else if (options.against !== undefined) {
      const found = await gitTargets(options.against, options.paths ?? [], cwd, options.schema ?? false);
      targets = found.targets;
      close = found.close;
      against = { revision: options.against, commit: found.commit };
    } else {
      targets = await localTargets(options.paths ?? [], cwd, options.schema ?? false);
    }
  } catch (error) {
    await (await early)?.close();
    throw error;
  }
  let pairs: DiffPair[];
  try {
    pairs = await comparePairs(targets, jobs, early);
  } finally {
    close();
  }
  const unmatched = applyApprovals(pairs, approvals);
  const warnings = approvalWarnings(approvals, unmatched, pairs);
  if (options.passEditorial) passEditorialChanges(pairs);
  return {
    ...(against ? { against } : {}),
    ...(to ? { to } : {}),
    pairs,
    summary: summarizeDiff(pairs, failOn),
    warnings,
  };
}
