/**
 * The per-file validator (docs/spec.md, section 11): one JSONL file checked in this thread, with the lock manifest in
 * force for it (the one given, else the one beside it) and the cache's verdict on its lock-side checks. `validate`
 * builds one for its own thread, and each worker thread builds its own from the same options (the pool's task
 * `validateFiles`, which worker.ts loads from here).
 */
import { type BigIntStats, closeSync, lstatSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { errorMessage } from "../../core/errors.js";
import type { LockContext } from "../../core/lock/lock-context.js";
import type { FileReport, SchemaSource } from "../../core/report/report.js";
import type { TwinFacts } from "../update/twin-datasets.js";
import { DEFAULT_MANIFEST_NAME, type LockManifest } from "../../core/lock/manifest.js";
import { createFileCheck, type FileCheckOptions, type FileResult } from "../../engine/check-file.js";
import { rules } from "../../rules/index.js";
import { isSettled, type LockVerdict, lockSideClean, verdictHolds } from "../cache/validate-cache.js";
import { loadSchema, schemaForHost } from "../config/schema-source.js";
import { describeIoError, OperationalError } from "../errors.js";
import { confinementRoot, displayPath, STDIN_NAME } from "../files/files.js";
import { DatasetPrints, type Fingerprint, fingerprintAt, fingerprintOf } from "../files/fingerprints.js";
import { openRegularSync, readRegularFileSync } from "../files/regular-file.js";
import { isValidLegislationHost } from "../../core/schema/schema.js";
import { sha256Stream } from "../../core/bytes.js";
import { mapWithLimit } from "../pool/concurrency.js";
import { encodeFailure, type TaskFailure } from "../pool/task-failure.js";
import type { CheckedFile, FileToCheck, ValidateOptions } from "./validate-options.js";
import { elsewhereContexts, openLockContext, provedContexts } from "./validate-lock.js";
import { generatedWindows } from "../../core/records/generated-window.js";
import { countLineFeeds } from "../../core/lines.js";
import { MAIN_THREAD_PARSE_BYTES } from "../pool/thread-limits.js";
import { pushReused, readChunk, readWhole } from "./reused-reads.js";

/** Validators built in this thread, by their options (a run sends the same options with every batch). */
const validators = new Map<string, Promise<FileValidator>>();
/** Those of the main thread's runs, by the run's way to check a file in a capped worker. */
const elsewhereValidators = new WeakMap<CheckElsewhere, Map<string, Promise<FileValidator>>>();

/** Files of a batch in flight at once in one thread, so that one's reads overlap another's checks. */
const FILES_IN_FLIGHT = 4;

/**
 * A task of the pool (worker.ts): checks a batch of whole JSONL files, one after another, each with the lock manifest
 * in force (and the cache's verdict on it, if any). In the main thread, with `elsewhere` (createFileValidator).
 */
export async function validateFiles(
  task: {
    options: ValidateOptions & { cwd: string };
    items: FileToCheck[];
  },
  elsewhere?: CheckElsewhere,
): Promise<CheckedFile[] | TaskFailure> {
  try {
    const key = JSON.stringify(task.options);
    // The main thread's (`elsewhere`: its run's capped workers) apart from those that parse where they are.
    let built = elsewhere === undefined ? validators : elsewhereValidators.get(elsewhere);
    if (built === undefined) {
      built = new Map();
      elsewhereValidators.set(elsewhere!, built);
    }
    let validator = built.get(key);
    if (validator === undefined) {
      validator = createFileValidator(task.options, elsewhere);
      built.set(key, validator);
      if (built.size > 4) built.delete(built.keys().next().value!);
    }
    const ready = await validator;
    return await mapWithLimit(task.items, FILES_IN_FLIGHT, (input) => ready.check(input));
  } catch (error) {
    return encodeFailure(error);
  }
}

/** The kind of task of validate's pool. */
export const VALIDATE_TASKS = { validateFiles };

/**
 * One file's check, ready to run: the engine's options (with the lock manifest in force, if any), and why a manifest
 * beside it could not be read.
 */
export interface PreparedFile {
  input: FileToCheck;
  checkOptions: FileCheckOptions;
  lockError?: string;
  /**
   * Set when the cache is in use: `held`, the lock manifest (as shown) whose lock-side checks the
   * cache's verdict says are clean (they are not run); else what this run's verdict will hold if the
   * file's lock-side checks are clean (none when one cannot be made: the cache forgets the file).
   */
  cached?: { held: { shown: string; twin?: TwinFacts } } | { pending?: PendingVerdict };
}

/**
 * What a file's verdict holds besides the fingerprints of its dataset: those of the JSONL and its manifest, taken
 * before they are read.
 */
interface PendingVerdict {
  jsonl: Fingerprint;
  manifest: Fingerprint;
  prints: DatasetPrints;
}

export interface FileValidator {
  schemaSource: SchemaSource;
  /** Checks one whole file in this thread. */
  check(input: FileToCheck, onRead?: (bytes: number) => void): Promise<CheckedFile>;
  /**
   * Opens the lock manifest in force for the file (or finds the cache's verdict on it still holds) and settles the
   * engine's options.
   */
  prepare(input: FileToCheck): Promise<PreparedFile>;
  /** The report of a prepared file from the engine's result, once the artifact facts of its manifest are in. */
  finish(prepared: PreparedFile, result: FileResult & { error?: string }): CheckedFile;
}

/**
 * Checks a file in a capped worker (validate.ts): its report, or why the worker could not (it ran out of memory).
 * `bytes`: the markdown the worker will parse, which sizes its heap.
 */
export type CheckElsewhere = (input: FileToCheck, bytes: number) => Promise<CheckedFile | { outOfMemory: string }>;

/**
 * Everything needed to check one file after another: the schema (loaded once), the rule
 * settings and the lock manifest in force. Worker threads each build their own from the same
 * options, which is why the options are plain data. With `elsewhere` (the main thread, whose heap has no cap), a file
 * whose dataset has MAIN_THREAD_PARSE_BYTES of markdown or more is checked by it, in a capped worker, rather than
 * parsed here (docs/spec.md, section 13, "heap of the threads that parse markdown").
 */
export async function createFileValidator(
  options: ValidateOptions & { cwd: string },
  elsewhere?: CheckElsewhere,
): Promise<FileValidator> {
  const { cwd } = options;
  const schema = await loadSchema({
    cwd,
    ...(options.schema ? { schemaPath: options.schema } : {}),
    ...(options.legislationHost ? { legislationHost: options.legislationHost } : {}),
  });
  const confinement = {
    allowOutsideRepository: options.allowOutsideRepository ?? false,
    keepBodies: true,
    ...(options.artifacts === false ? { artifacts: false } : {}),
    ...(elsewhere !== undefined ? { parseHereBelow: MAIN_THREAD_PARSE_BYTES } : {}),
  };
  const explicitLock =
    typeof options.lock === "string"
      ? await openLockContext(
          resolve(cwd, options.lock),
          displayPath(resolve(cwd, options.lock), cwd),
          cwd,
          confinement,
        )
      : undefined;
  const cacheInUse = options.cacheRun !== undefined; // never with an explicit or no lock manifest, nor for standard input
  // update's cache, whose entries prove a JSONL is what generate writes (generated-proof.ts): loaded only when there is one.
  const updateCache = options.cacheRun?.updateCache;
  const proof =
    updateCache !== undefined
      ? (await import("../cache/generated-proof.js")).openGeneratedProof(updateCache)
      : undefined;
  const realParents = new Map<string, string>(); // the real paths of the dataset folders' parents, asked once a run
  const prepare = async (input: FileToCheck): Promise<PreparedFile> => {
    const checkOptions: FileCheckOptions = {
      rules,
      file: input.display,
      ...(input.stdin && input.display === STDIN_NAME ? { fileNameUnknown: true } : {}),
      schemaCheck: schema.check,
      ...(options.rules ? { ruleSettings: options.rules } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    };
    if (explicitLock || options.lock === false || (input.stdin && input.display === STDIN_NAME))
      return {
        input,
        checkOptions: explicitLock
          ? {
              ...checkOptions,
              lock: explicitLock,
              schemaCheck: await schemaForHost(explicitLock.manifest.legislationHost, schema),
            }
          : checkOptions,
      };
    const beside = `${input.absolute.replace(/\.jsonl$/, "")}.lock.json`;
    // One synchronous call: thousands of files a run. With the cache in use, its fingerprint too, taken before the
    // manifest is read.
    let sibling = beside;
    let manifestInfo =
      sibling === input.absolute ? undefined : statSync(sibling, { throwIfNoEntry: false, bigint: cacheInUse });
    // None beside it: a dataset folder's own manifest (citation-targets.lock.json), whose JSONL is named by its slug
    // beside it (update writes it there), is this file's when its slug names it.
    if (manifestInfo === undefined && sibling !== input.absolute && !lstatSync(sibling, { throwIfNoEntry: false })) {
      const own = folderManifestOf(input.absolute);
      if (own !== undefined) {
        sibling = own;
        manifestInfo = statSync(own, { throwIfNoEntry: false, bigint: cacheInUse });
      }
    }
    // A FIFO, a folder, a device or a dangling link in the manifest's place is no absent manifest: it is read as one
    // would be, and refused by name (the file's I/O error, below), never checked as if it had none.
    if (
      manifestInfo === undefined &&
      (sibling === input.absolute || !lstatSync(sibling, { throwIfNoEntry: false })?.isSymbolicLink())
    )
      return { input, checkOptions, ...(cacheInUse ? { cached: {} } : {}) };
    const regular = manifestInfo?.isFile() === true;
    // As displayPath shows it: the file's own way with the other name (path.relative costs microseconds a file).
    const shown =
      sibling === beside && input.display.endsWith(".jsonl")
        ? `${input.display.slice(0, -".jsonl".length)}.lock.json`
        : displayPath(sibling, cwd);
    let cached: PreparedFile["cached"];
    if (cacheInUse && regular) {
      const jsonl = fingerprintAt(input.absolute);
      const manifest = fingerprintOf(manifestInfo as BigIntStats);
      if (input.verdict !== undefined) {
        const confinedTo = options.allowOutsideRepository ? undefined : await confinementRoot(dirname(sibling), cwd);
        // The verdict holds: the lock-side checks would find nothing; they are not run, and the report is the same.
        if (verdictHolds(input.verdict, jsonl, manifest, confinedTo, realParents))
          return {
            input,
            checkOptions: {
              ...checkOptions,
              manifestPath: shown,
              // The manifest is not read: its legislation host is the verdict's (the manifest unchanged since).
              schemaCheck: await schemaForHost(input.verdict.legislationHost, schema),
            },
            cached: { held: { shown, ...(input.verdict.twin ? { twin: input.verdict.twin } : {}) } },
          };
      }
      cached = jsonl !== undefined ? { pending: { jsonl, manifest, prints: new DatasetPrints() } } : {};
    }
    const prints = cached && "pending" in cached ? cached.pending?.prints : undefined;
    try {
      const lock = await openLockContext(sibling, shown, cwd, {
        ...confinement,
        ...(prints ? { prints } : {}),
        ...(proof ? { proof } : {}),
        // What generate writes is made as the file is read (generated-window.ts); standard input, read once, is
        // compared with all of it made first (the window may give up, and the file is then read again).
        ...(input.stdin ? {} : { windowFrom: WINDOW_FROM_BYTES }),
      });
      // The dataset's records are checked against the schema of its host (the manifest's legislationHost, if any).
      const schemaCheck = await schemaForHost(lock.manifest.legislationHost, schema);
      return { input, checkOptions: { ...checkOptions, lock, schemaCheck }, ...(cached ? { cached } : {}) };
    } catch (error) {
      // A broken manifest beside one file is that file's I/O error: the file is still checked without it, and so are
      // the others.
      if (!(error instanceof OperationalError)) throw error;
      // Its records are checked against the host it names, if it names a valid one: a manifest refused for another
      // member (a hand-edited name) would otherwise add the default host's error on every record's sourceTextUrl.
      const host = namedHost(sibling);
      return {
        input,
        checkOptions:
          host === undefined ? checkOptions : { ...checkOptions, schemaCheck: await schemaForHost(host, schema) },
        lockError: error.message,
        ...(cached ? { cached } : {}),
      };
    }
  };
  const finish = (prepared: PreparedFile, result: FileResult & { error?: string }): CheckedFile => {
    const lock = prepared.checkOptions.lock;
    const failed = prepared.checkOptions.lock?.artifactsFailed;
    const error = [result.error, prepared.lockError, failed].filter((e) => e !== undefined).join("; ");
    const report: FileReport = error !== "" ? { ...result, error } : result;
    const cached = prepared.cached;
    if (cached !== undefined && "held" in cached)
      return {
        report: { ...report, lockManifest: cached.held.shown },
        ...(cached.held.twin ? { twin: cached.held.twin } : {}),
      };
    if (!lock) return cached ? { report, verdict: null } : { report };
    const full: FileReport = {
      ...report,
      lockManifest: lock.manifestPath,
      ...(lock.artifactsSkipped !== undefined ? { artifactChecksSkipped: lock.artifactsSkipped } : {}),
    };
    const twin = twinFactsOf(lock.manifest);
    if (cached === undefined) return { report: full, twin };
    return {
      report: full,
      twin,
      verdict: cached.pending ? verdictOf(cached.pending, lock, full, options.cacheRun!.settledBefore) : null,
    };
  };
  /**
   * The file checked in a capped worker, its dataset's markdown too much for this thread (elsewhereContexts); standard
   * input is read here and sent whole. A worker that runs out of memory makes the report an error naming the dataset.
   */
  const checkElsewhere = async (prepared: PreparedFile): Promise<CheckedFile> => {
    const { input } = prepared;
    const lock = prepared.checkOptions.lock!;
    const dataset = elsewhereContexts.get(lock)!;
    const stdin = options.stdin?.stream;
    const sent = input.stdin && stdin !== undefined ? { ...input, bytes: await readAll(stdin) } : input;
    const outcome = await elsewhere!(sent, dataset.bytes);
    if (!("outOfMemory" in outcome)) return outcome;
    // Its lock-side rules not run: the records were not compared with anything.
    const result = createFileCheck({ ...prepared.checkOptions, lock: undefined }).end();
    const error = `the dataset of ${lock.manifestPath} (dataset folder ${dataset.root}): ${outcome.outOfMemory}`;
    return finish(prepared, { ...result, error });
  };
  const check = async (input: FileToCheck, onRead?: (bytes: number) => void): Promise<CheckedFile> => {
    const prepared = await prepare(input);
    const lock = prepared.checkOptions.lock;
    if (lock !== undefined && elsewhereContexts.has(lock)) return checkElsewhere(prepared);
    const result = await validateFile(prepared, options.stdin?.stream, onRead);
    // update's cache did not prove the file after all, and its dataset is too large to be parsed here.
    return result === ELSEWHERE ? checkElsewhere(prepared) : finish(prepared, result);
  };
  return { schemaSource: schema.source, check, prepare, finish };
}

/**
 * The verdict a file's check earns: its lock-side checks all ran (the dataset folder there, every
 * artifact and folder read and fingerprinted) and found no problem at all, and every file they read
 * was left alone since `settledBefore`; else null (forget it).
 */
function verdictOf(
  pending: PendingVerdict,
  lock: LockContext,
  report: FileReport,
  settledBefore: string,
): LockVerdict | null {
  const { prints } = pending;
  if (
    lock.artifactsSkipped !== undefined ||
    lock.artifactsFailed !== undefined ||
    !prints.complete ||
    prints.root === undefined
  )
    return null;
  if (!lockSideClean(report)) return null;
  const verdict: LockVerdict = {
    jsonl: pending.jsonl,
    manifest: pending.manifest,
    root: prints.root,
    folders: prints.folders,
    artifacts: prints.artifacts,
    ...(lock.manifest.legislationHost !== undefined ? { legislationHost: lock.manifest.legislationHost } : {}),
    twin: twinFactsOf(lock.manifest),
  };
  return isSettled(verdict, settledBefore) ? verdict : null;
}

/** What the warning about two datasets of one law reads of a manifest (twin-datasets.ts), from the manifest loaded. */
function twinFactsOf(manifest: LockManifest): TwinFacts {
  const { titleId, versionDate, name, datasetRoot } = manifest;
  return { titleId, versionDate, name, ...(datasetRoot !== undefined ? { datasetRoot } : {}) };
}

/** validateFile's answer when the dataset's records are to be made in a capped worker (elsewhereContexts). */
const ELSEWHERE = Symbol("elsewhere");

/** Every byte of a stream. */
async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Small files are read in one call, larger ones streamed in chunks. */
const READ_WHOLE_BELOW = 1 << 20;

/**
 * A dataset of this much markdown or more has what generate writes made as its file is read (generated-window.ts);
 * a smaller one all first (a file of its records is mostly read whole, in one piece).
 */
export const WINDOW_FROM_BYTES = 1 << 20;
/** Records made before the first piece of a file is read in pieces. */
const WINDOW_FIRST_LINES = 2_048;
/**
 * Records of what generate writes made beyond the last line read: a file that lacks a few records still meets each
 * twin made (generated-window.ts).
 */
const WINDOW_AHEAD = 256;
/** Lines read past a record made before its twin is let go: a file with a few records added still meets each. */
const WINDOW_BEHIND = 1_024;

async function validateFile(
  prepared: PreparedFile,
  stdin: AsyncIterable<Uint8Array> | undefined,
  onRead?: (bytes: number) => void,
): Promise<(FileResult & { error?: string }) | typeof ELSEWHERE> {
  const { input, checkOptions } = prepared;
  const check = createFileCheck(checkOptions);
  // update's cache proves what generate writes (generated-proof.ts): the bytes read are digested to see that they are it.
  const lock = checkOptions.lock;
  // What generate writes, made as the file is read (generated-window.ts): before a piece is read into this thread's
  // buffer, the records it is likely to need; before it is checked, those up to its last line and WINDOW_AHEAD more;
  // after, those WINDOW_BEHIND lines back that the file has not met are let go.
  const window = lock !== undefined ? generatedWindows.get(lock) : undefined;
  let lines = 0;
  /** The lines of the piece before: twice as many are made before the next is read. */
  let lastLines = WINDOW_FIRST_LINES;
  /** Before a piece is read (`whole`: the whole file, every record). No wait comes between a read and its check. */
  const before = async (whole: boolean) => {
    if (window !== undefined)
      await window.fill(whole ? Number.POSITIVE_INFINITY : lines + 2 * lastLines + WINDOW_AHEAD);
  };
  /**
   * Checks a piece read (`reused`: in this thread's buffer). When it needs more records than were made before it was
   * read, a copy of it waits for them: another file's read may fill the buffer meanwhile.
   */
  const push = async (bytes: Uint8Array, reused: boolean) => {
    let piece = bytes;
    let inBuffer = reused;
    if (window !== undefined) {
      // The LFs it holds: the most records it ends (a piece read is a Buffer: memchr).
      lastLines = countLineFeeds(bytes);
      lines += lastLines;
      if (!window.covers(lines + WINDOW_AHEAD)) {
        if (inBuffer) piece = new Uint8Array(bytes);
        inBuffer = false;
        await window.fill(lines + WINDOW_AHEAD);
      }
    }
    if (inBuffer) pushReused(piece, check.push);
    else check.push(piece);
    window?.letGoBefore(lines - WINDOW_BEHIND);
  };
  /**
   * The file read, or its read failed: the rest of what generate writes made (for "not in this file"), before the check
   * ends (the last line, if no LF ends it, is checked then: its twin is still held).
   */
  const settled = async (): Promise<void> => {
    if (window !== undefined && !window.abandoned) await window.finish();
  };
  /**
   * The check's result; or, when the window gave up (before the end or at its last line), the file checked again with
   * every record made first. Making them can fail as it does for the map (gatherFacts): the artifact checks could not
   * run, the file's error.
   */
  const ended = async (result: FileResult & { error?: string }) => {
    if (window === undefined || !window.abandoned) return result;
    generatedWindows.delete(lock!);
    try {
      await window.whole();
    } catch (error) {
      lock!.artifactsFailed ??= `the artifact checks of ${lock!.manifestPath} could not run: ${errorMessage(error)}`;
    }
    // Read again: its bytes were counted once (onRead).
    return validateFile(prepared, stdin);
  };
  const proof = lock !== undefined ? provedContexts.get(lock) : undefined;
  const proven = proof !== undefined ? sha256Stream() : undefined;
  /** Not proved after all (other bytes, or the read failed): generate's records made, and the file checked again. */
  const derived = async () => {
    provedContexts.delete(lock!);
    await proof!.derive();
    return elsewhereContexts.has(lock!) ? ELSEWHERE : validateFile(prepared, stdin);
  };
  try {
    if (input.bytes !== undefined) {
      // Standard input, read whole by the main thread (checkElsewhere).
      await push(input.bytes, false);
      onRead?.(input.bytes.length);
    } else if (input.stdin && stdin) {
      for await (const chunk of stdin) {
        await push(chunk, false);
        onRead?.(chunk.length);
      }
    } else {
      // A small file is read in one synchronous call (a promise per open, stat, read and close cost more than the read
      // itself: bench/RESULTS.md, "many files"); a larger one in chunks; both into this thread's one buffer
      // (reused-reads.ts). Opened once without blocking and checked on the descriptor: only a regular file is read (a
      // device or a FIFO is refused, named).
      const { fd, info } = openRegularSync(input.absolute);
      try {
        if (info.size < READ_WHOLE_BELOW) {
          await before(true);
          const bytes = readWhole(fd, info.size);
          proven?.update(bytes);
          await push(bytes, true);
          onRead?.(bytes.length);
        } else {
          // In chunks, this thread's event loop taking its turn between two (a worker waiting for its next batch).
          for (;;) {
            await before(false);
            const chunk = readChunk(fd);
            if (chunk.length === 0) break;
            proven?.update(chunk);
            await push(chunk, true);
            onRead?.(chunk.length);
            // Given up: the file is read again with every record made first.
            if (window?.abandoned) break;
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        }
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    await lockFacts(checkOptions.lock);
    if (proven !== undefined) return derived();
    const unread = { ...check.end(true), error: describeIoError(error, "read", input.display) };
    // The window gave up before the read failed: the lines read are checked again with every record made first (the
    // read fails again, and that check ends here, the window gone).
    if (window?.abandoned) return ended(unread);
    // Not read to its end: what it lacks of what generate writes, or of the manifest's artifacts, is not said (it would
    // name every record of a file that is there, unread); the read error is the file's.
    return unread;
  }
  await lockFacts(checkOptions.lock);
  if (proven !== undefined && proven.digest("hex") !== proof!.digest) return derived();
  await settled();
  return ended(check.end());
}

/**
 * Waits for the facts about the artifact files, gathered while the file was read. A check that could
 * not run (gathering failed, or an artifact or folder could not be read) is an error on the file,
 * with the cause: never a silent pass.
 */
export async function lockFacts(lock: LockContext | undefined): Promise<void> {
  if (!lock?.ready) return;
  try {
    await lock.ready;
  } catch (error) {
    lock.artifactsFailed = `the artifact checks of ${lock.manifestPath} could not run: ${errorMessage(error)}`;
  }
  if (lock.artifactsFailed !== undefined) lock.datasetRoot = undefined;
}

/**
 * The legislation host a lock manifest that could not be used names (`legislationHost`, a valid host name), read as every
 * file is (regular, in the repository); undefined when it names none, or cannot be read or parsed.
 */
function namedHost(manifest: string): string | undefined {
  let text: string;
  try {
    text = readRegularFileSync(manifest).toString("utf8");
  } catch {
    return undefined;
  }
  let host: unknown;
  try {
    const data: unknown = JSON.parse(text);
    host =
      typeof data === "object" && data !== null ? (data as { legislationHost?: unknown }).legislationHost : undefined;
  } catch {
    // Not JSON (left in a merge conflict, cut short): the host its text names, when it names one.
    host = /"legislationHost"\s*:\s*"([^"\\]*)"/.exec(text)?.[1];
  }
  return typeof host === "string" && isValidLegislationHost(host) ? host : undefined;
}

/**
 * The manifest of a dataset folder (citation-targets.lock.json) in the folder of `jsonl`, when its slug names that
 * JSONL (`<slug>.jsonl`, where update writes it) or it cannot be read (its fault is then said on the file, as for a
 * manifest beside it); undefined when there is none, or it is another dataset's.
 */
function folderManifestOf(jsonl: string): string | undefined {
  if (!jsonl.endsWith(".jsonl")) return undefined;
  const own = join(dirname(jsonl), DEFAULT_MANIFEST_NAME);
  if (lstatSync(own, { throwIfNoEntry: false }) === undefined) return undefined;
  let slug: unknown;
  try {
    slug = (JSON.parse(readRegularFileSync(own).toString("utf8")) as { slug?: unknown } | null)?.slug;
  } catch {
    return own;
  }
  return typeof slug !== "string" || `${slug}.jsonl` === basename(jsonl) ? own : undefined;
}
