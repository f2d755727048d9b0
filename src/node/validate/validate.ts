import { errorMessage } from "../../core/errors.js";
import { createFileCheck, type FileCheckOptions, type FileResult, resolveSeverities } from "../../engine/check-file.js";
import { lockPair } from "../../rules/lock-pair.js";
import { foldersOf, manifestsWithoutJsonl, orphanReports } from "./orphan-manifests.js";
import type { LockContext } from "../../core/lock/lock-context.js";
import type { RuleSetting } from "../../core/report/problem.js";
import { ruleDocsUrl, rules, type RuleId } from "../../rules/index.js";
import type { Limits } from "../../rules/define.js";
import { collapseWrongKind } from "../../core/report/file-kind.js";
import { summarize, type FileReport, type Report, type RuleDescriptor } from "../../core/report/report.js";
import { type BigIntStats, closeSync, createReadStream, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DatasetPrints, type Fingerprint, fingerprintAt, fingerprintOf } from "../files/fingerprints.js";
import {
  isSettled,
  type LockVerdict,
  lockSideClean,
  openValidateCache,
  SETTLE_MS,
  validateCacheLocation,
  verdictHolds,
  verdictKey,
} from "../cache/validate-cache.js";
import {
  confinementRoot,
  DEFAULT_PATTERN,
  displayPath,
  expandInputs,
  findRepositoryRoot,
  shardKey,
  shardOf,
  STDIN_NAME,
  type InputFile,
} from "../files/files.js";
import { mapWithLimit } from "../pool/concurrency.js";
import { describeIoError, OperationalError } from "../errors.js";
import { locateEditedTargets } from "./locate-edits.js";
import { openLockContext } from "./validate-lock.js";
import { checkJobs, chooseJobs } from "../pool/pool.js";
import { openRegularSync, withOutsideReads } from "../files/regular-file.js";
import { sizesOf, startProgress, VALIDATE_THREADS, validateInPool } from "./validate-workers.js";
import { refuseOverInputs } from "../writes/write.js";
import { encodeFailure, type TaskFailure } from "../pool/task-failure.js";
import { loadSchema } from "../config/schema-source.js";
import type { SchemaSource } from "../../core/report/report.js";

export interface ValidateOptions {
  /** Files, directories or globs; default `.tooling/citation-targets/*.jsonl`. */
  patterns?: string[];
  cwd?: string;
  /**
   * The folder patterns are relative to, when not cwd (patterns from a config file); paths are still shown relative to
   * cwd.
   */
  patternsCwd?: string;
  /** A schema file that replaces the repository's and the bundled one. */
  schema?: string;
  /** Host that `sourceTextUrl` must be on (bundled schema only); default www.legislation.gov.au. */
  legislationHost?: string;
  /** Per-rule severity: "error", "warning" or "off". */
  rules?: Partial<Record<RuleId, RuleSetting>>;
  /** Do not fail when a pattern matches no file. */
  allowUnmatched?: boolean;
  /** Called as the run advances (after each chunk read in this thread, each file done). */
  onProgress?: (progress: { files: number; filesDone: number; bytes: number; bytesDone: number }) => void;
  /**
   * Worker threads to spread the files over (one pool for the run); default: one per core for 200+ files or 32+ MB,
   * else 1 (this thread). A file is never split.
   */
  jobs?: number;
  /**
   * A lock manifest to check every file against (the manifest rules). Without it, a file
   * `<name>.jsonl` is checked against `<name>.lock.json` beside it when that exists; `false` turns that off.
   */
  lock?: string | false;
  /**
   * false: do not check the artifacts of the lock manifests (a sparse checkout without the datasets): the records are
   * still checked against the manifest, and each file's report says so (`artifactChecksSkipped`). Default true: a
   * dataset folder that is not there is an error.
   */
  artifacts?: boolean;
  /** Caps on line length, nesting depth and problems kept per file (docs/spec.md, "Limits"). */
  limits?: Partial<Limits>;
  /** Check only the files of shard `index` (1-based) of `count`, split by a hash of each path: for a CI matrix. */
  shard?: { index: number; count: number };
  /**
   * Let lock manifests' dataset folders, config patterns and the default pattern lead outside the repository (default:
   * confined to it; SECURITY.md).
   */
  allowOutsideRepository?: boolean;
  /**
   * The patterns come from a config (or are the default): confine what they match to the repository unless
   * allowOutsideRepository.
   */
  confinePatterns?: boolean;
  /**
   * Check these bytes (standard input) instead of files; `name` is the path they stand for (display, file-name rule,
   * lock manifest beside it).
   */
  stdin?: { stream: AsyncIterable<Uint8Array>; name?: string };
  /**
   * Lock manifests to hold to their JSONL besides those of the folders checked (--staged: the staged
   * datasets'). Given with no patterns, no file is checked but these manifests.
   */
  manifests?: string[];
  /**
   * The cache of lock-side outcomes (validate-cache.ts): its file, or false for none (`--no-cache`).
   * Default: `node_modules/.cache/citation-targets/validate.json` of the repository when it has
   * `node_modules`. Not used with `lock` given or false, nor for standard input.
   */
  cache?: string | false;
  /**
   * How long (ms) a file must have been left alone before the run for its outcome to be cached; default SETTLE_MS (2
   * s). For tests.
   */
  cacheSettleMs?: number;
  /** Told, at the end of a run that used the cache, what it took from it and stored (--verbose). */
  onCache?: (use: CacheUse) => void;
  /**
   * Set by validate for the threads that check files when the cache is in use (verdicts come with the
   * files; fingerprints are taken): a name of the run, so that what a thread learns of the file system
   * in one run (the real paths of folders) is never taken for another's, and the moment (ns since the
   * epoch, in decimal) before which a file must have been left alone for its verdict to be kept.
   */
  cacheRun?: { name: string; settledBefore: string };
}

/** What a run took from the cache and stored in it. */
export interface CacheUse {
  /** The cache file. */
  path: string;
  /** Files checked. */
  files: number;
  /** Files whose lock-side checks the cache's verdict stood for. */
  reused: number;
  /** Verdicts stored: files whose lock-side checks ran and found no problem, left alone since well before the run. */
  stored: number;
}

/** A file to check, with the cache's verdict on its lock-side checks when there is one. */
export type FileToCheck = InputFile & { verdict?: LockVerdict };

/**
 * A file's report, and what the cache learns of it: undefined when nothing (no cache in use, or its
 * verdict held and stands), null when it must forget the file (checked again, not clean), or the new
 * verdict (clean).
 */
export interface CheckedFile {
  report: FileReport;
  verdict?: LockVerdict | null;
}

const CHUNK_SIZE = 1 << 20;
const FILES_AT_ONCE = 8;

/** Runs of validate in this process, to name each. */
let runs = 0;

/** Validates JSONL files and resolves to a report; throws OperationalError only for bad options, schema or patterns. */
export async function validate(options: ValidateOptions = {}): Promise<Report> {
  return withOutsideReads(options.allowOutsideRepository, () => validateConfined(options));
}

async function validateConfined(options: ValidateOptions = {}): Promise<Report> {
  const startedMs = Date.now(); // what the cache trusts: files left alone since well before this
  const cwd = options.cwd ?? process.cwd();
  // The cache of lock-side outcomes: only where each file's own manifest is looked for, in files (not standard input).
  const cacheFile =
    options.stdin || options.lock !== undefined || options.artifacts === false
      ? undefined
      : await validateCacheLocation(cwd, options.cache);
  const cache =
    cacheFile !== undefined
      ? openValidateCache(cacheFile, verdictKey(options), typeof options.cache === "string")
      : undefined;
  // Files changed since shortly before the run are not trusted (racily clean): their verdicts are not kept.
  const settledBefore = (BigInt(startedMs - (options.cacheSettleMs ?? SETTLE_MS)) * 1_000_000n).toString();
  const cacheRun = cache ? { name: `${process.pid}.${startedMs}.${++runs}`, settledBefore } : undefined;
  const validator = await createFileValidator({ ...options, cwd, ...(cacheRun ? { cacheRun } : {}) });
  // A config's patterns stay in the repository that holds the config (outside one, the config's folder); the default
  // pattern in the working directory's.
  const patternsBase = options.patternsCwd ?? cwd;
  const confineTo = options.allowOutsideRepository ? undefined : await confinementRoot(patternsBase, patternsBase);
  const matched = options.stdin
    ? [stdinInput(options.stdin.name, cwd)]
    : options.manifests !== undefined && !options.patterns?.length
      ? []
      : options.patterns?.length
        ? await expandInputs(
            options.patterns,
            cwd,
            options.allowUnmatched,
            options.patternsCwd,
            options.confinePatterns ? confineTo : undefined,
          )
        : await expandInputs(
            [DEFAULT_PATTERN],
            cwd,
            options.allowUnmatched,
            (await findRepositoryRoot(cwd)) ?? cwd,
            confineTo,
          ); // like git: the default is the repository's, from any subfolder
  const shard = options.shard;
  if (
    shard &&
    (!Number.isInteger(shard.count) ||
      shard.count < 1 ||
      !Number.isInteger(shard.index) ||
      shard.index < 1 ||
      shard.index > shard.count)
  ) {
    throw new OperationalError(`invalid shard ${shard.index}/${shard.count}: expected i/n with 1 ≤ i ≤ n`);
  }
  const root = shard ? await findRepositoryRoot(cwd) : undefined; // the split does not depend on the folder it runs from
  const inputs = shard
    ? matched.filter((input) => shardOf(shardKey(input.absolute, root), shard.count) === shard.index - 1)
    : matched;
  // --cache-location never over a file checked (the rule of --output-file; a file that is no cache is refused when
  // opened).
  if (cacheFile !== undefined && typeof options.cache === "string")
    refuseOverInputs(
      cacheFile,
      inputs.map((input) => ({ path: input.absolute, what: `the file checked ${input.display}` })),
      displayPath(cacheFile, cwd),
    );
  // File sizes, read once, for the choice of threads, the ranges and the progress.
  const sizes = options.jobs === 1 && !options.onProgress ? undefined : await sizesOf(inputs);
  const jobs = options.stdin
    ? 1
    : chooseJobs(
        checkJobs(options.jobs),
        { items: inputs.length, bytes: (sizes ?? []).reduce((a, b) => a + b, 0) },
        VALIDATE_THREADS,
      );
  const progress = options.onProgress ? startProgress(inputs, sizes!, options.onProgress) : undefined;
  const items: FileToCheck[] = cache ? inputs.map((input) => withVerdict(input, cache.get(input.absolute))) : inputs;
  const inWorkers =
    jobs > 1
      ? await validateInPool(
          items,
          workerOptionsOf({ ...options, cwd, ...(cacheRun ? { cacheRun } : {}) }),
          jobs,
          sizes!,
          VALIDATE_TASKS,
          progress,
        )
      : undefined;
  const outcomes =
    inWorkers?.files ??
    (await mapWithLimit(items, FILES_AT_ONCE, async (item) => {
      const outcome = await validator.check(item, progress?.read);
      progress?.fileDone();
      return outcome;
    }));
  if (cache) {
    // Written once, at the end.
    const use: CacheUse = { path: cache.path, files: inputs.length, reused: 0, stored: 0 };
    outcomes.forEach(({ verdict }, i) => {
      if (verdict === undefined)
        use.reused++; // the verdict held: it stands
      else if (verdict !== null) {
        cache.set(inputs[i]!.absolute, verdict);
        use.stored++;
      } else cache.delete(inputs[i]!.absolute);
    });
    await cache.save();
    options.onCache?.(use);
  }
  const checked = outcomes.map((outcome) => outcome.report);
  const located = await Promise.all(checked.map((file) => locateEditedTargets(file, cwd))); // an edited target: its own line
  const files = located.map(collapseWrongKind); // a markdown file given by mistake: said once, not a problem per line
  if (!options.stdin && options.lock === undefined) {
    // A manifest whose JSONL is gone (git rm): reported on the manifest, under lock-pair.
    const orphans = manifestsWithoutJsonl(
      foldersOf(inputs.map((input) => input.absolute)),
      options.manifests ?? [],
    ).filter(
      (manifest) =>
        !shard ||
        shardOf(shardKey(`${manifest.slice(0, -".lock.json".length)}.jsonl`, root), shard.count) === shard.index - 1,
    );
    for (const report of orphanReports(orphans, cwd, resolveSeverities([lockPair], options.rules).get(lockPair.id)))
      files.push(report);
  }
  return {
    files,
    summary: summarize(files),
    schemaSource: validator.schemaSource,
    threads: inWorkers?.threads ?? 1,
    rules: ruleDescriptors(),
  };
}

/** Validators built in this thread, by their options (a run sends the same options with every batch). */
const validators = new Map<string, Promise<FileValidator>>();

/** Files of a batch in flight at once in one thread, so that one's reads overlap another's checks. */
const FILES_IN_FLIGHT = 4;

/**
 * A task of the pool (worker.ts): checks a batch of whole JSONL files, one after another, each with the lock manifest
 * in force (and the cache's verdict on it, if any).
 */
export async function validateFiles(task: {
  options: ValidateOptions & { cwd: string };
  items: FileToCheck[];
}): Promise<CheckedFile[] | TaskFailure> {
  try {
    const key = JSON.stringify(task.options);
    let validator = validators.get(key);
    if (validator === undefined) {
      validator = createFileValidator(task.options);
      validators.set(key, validator);
      if (validators.size > 4) validators.delete(validators.keys().next().value!);
    }
    const ready = await validator;
    return await mapWithLimit(task.items, FILES_IN_FLIGHT, (input) => ready.check(input));
  } catch (error) {
    return encodeFailure(error);
  }
}

/** The kind of task of validate's pool. */
export const VALIDATE_TASKS = { validateFiles };

/** The options a worker builds its own file validator from: plain data, without what only the main thread uses. */
function workerOptionsOf(options: ValidateOptions & { cwd: string }): ValidateOptions & { cwd: string } {
  const {
    patterns: _patterns,
    patternsCwd: _patternsCwd,
    confinePatterns: _confinePatterns,
    onProgress: _onProgress,
    stdin: _stdin,
    jobs: _jobs,
    shard: _shard,
    cache: _cache,
    cacheSettleMs: _cacheSettleMs,
    onCache: _onCache,
    ...rest
  } = options;
  return rest;
}

/** A file with its verdict, without an empty one (the object crosses to the worker threads). */
function withVerdict(input: InputFile, verdict: LockVerdict | undefined): FileToCheck {
  return verdict === undefined ? input : { ...input, verdict };
}

/**
 * One file's check, ready to run: the engine's options (with the lock manifest in force, if any), and why a manifest
 * beside it could not be read.
 */
export interface PreparedFile {
  input: InputFile;
  checkOptions: FileCheckOptions;
  lockError?: string;
  /**
   * Set when the cache is in use: `held`, the lock manifest (as shown) whose lock-side checks the
   * cache's verdict says are clean (they are not run); else what this run's verdict will hold if the
   * file's lock-side checks are clean (none when one cannot be made: the cache forgets the file).
   */
  cached?: { held: string } | { pending?: PendingVerdict };
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
 * Everything needed to check one file after another: the schema (loaded once), the rule
 * settings and the lock manifest in force. Worker threads each build their own from the same
 * options, which is why the options are plain data.
 */
export async function createFileValidator(options: ValidateOptions & { cwd: string }): Promise<FileValidator> {
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
      return { input, checkOptions: explicitLock ? { ...checkOptions, lock: explicitLock } : checkOptions };
    const sibling = `${input.absolute.replace(/\.jsonl$/, "")}.lock.json`;
    // One synchronous call: thousands of files a run. With the cache in use, its fingerprint too, taken before the
    // manifest is read.
    const manifestInfo =
      sibling === input.absolute ? undefined : statSync(sibling, { throwIfNoEntry: false, bigint: cacheInUse });
    if (!manifestInfo?.isFile()) return { input, checkOptions, ...(cacheInUse ? { cached: {} } : {}) };
    // As displayPath shows it: the file's own way with the other name (path.relative costs microseconds a file).
    const shown = input.display.endsWith(".jsonl")
      ? `${input.display.slice(0, -".jsonl".length)}.lock.json`
      : displayPath(sibling, cwd);
    let cached: PreparedFile["cached"];
    if (cacheInUse) {
      const jsonl = fingerprintAt(input.absolute);
      const manifest = fingerprintOf(manifestInfo as BigIntStats);
      if (input.verdict !== undefined) {
        const confinedTo = options.allowOutsideRepository ? undefined : await confinementRoot(dirname(sibling), cwd);
        // The verdict holds: the lock-side checks would find nothing; they are not run, and the report is the same.
        if (verdictHolds(input.verdict, jsonl, manifest, confinedTo, realParents))
          return { input, checkOptions: { ...checkOptions, manifestPath: shown }, cached: { held: shown } };
      }
      cached = jsonl !== undefined ? { pending: { jsonl, manifest, prints: new DatasetPrints() } } : {};
    }
    const prints = cached && "pending" in cached ? cached.pending?.prints : undefined;
    try {
      const lock = await openLockContext(sibling, shown, cwd, prints ? { ...confinement, prints } : confinement);
      return { input, checkOptions: { ...checkOptions, lock }, ...(cached ? { cached } : {}) };
    } catch (error) {
      // A broken manifest beside one file is that file's I/O error: the file is still checked without it, and so are
      // the others.
      if (!(error instanceof OperationalError)) throw error;
      return { input, checkOptions, lockError: error.message, ...(cached ? { cached } : {}) };
    }
  };
  const finish = (prepared: PreparedFile, result: FileResult & { error?: string }): CheckedFile => {
    const lock = prepared.checkOptions.lock;
    const failed = prepared.checkOptions.lock?.artifactsFailed;
    const error = [result.error, prepared.lockError, failed].filter((e) => e !== undefined).join("; ");
    const report: FileReport = error !== "" ? { ...result, error } : result;
    const cached = prepared.cached;
    if (cached !== undefined && "held" in cached) return { report: { ...report, lockManifest: cached.held } };
    if (!lock) return cached ? { report, verdict: null } : { report };
    const full: FileReport = {
      ...report,
      lockManifest: lock.manifestPath,
      ...(lock.artifactsSkipped !== undefined ? { artifactChecksSkipped: lock.artifactsSkipped } : {}),
    };
    if (cached === undefined) return { report: full };
    return {
      report: full,
      verdict: cached.pending ? verdictOf(cached.pending, lock, full, options.cacheRun!.settledBefore) : null,
    };
  };
  const check = async (input: FileToCheck, onRead?: (bytes: number) => void): Promise<CheckedFile> => {
    const prepared = await prepare(input);
    return finish(prepared, await validateFile(prepared, options.stdin?.stream, onRead));
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
  };
  return isSettled(verdict, settledBefore) ? verdict : null;
}

/** Small files are read in one call, larger ones streamed in chunks. */
const READ_WHOLE_BELOW = 1 << 20;

async function validateFile(
  prepared: PreparedFile,
  stdin: AsyncIterable<Uint8Array> | undefined,
  onRead?: (bytes: number) => void,
): Promise<FileResult & { error?: string }> {
  const { input, checkOptions } = prepared;
  const check = createFileCheck(checkOptions);
  try {
    if (input.stdin && stdin) {
      for await (const chunk of stdin) {
        check.push(chunk);
        onRead?.(chunk.length);
      }
    } else {
      // A small file is read in one synchronous call (a promise per open, stat, read and close cost more than the read
      // itself: bench/RESULTS.md, "many files"); a larger one is streamed. Opened once without blocking and checked on
      // the descriptor: only a regular file is read (a device or a FIFO is refused, named).
      const { fd, info } = openRegularSync(input.absolute);
      if (info.size < READ_WHOLE_BELOW) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(fd);
        } finally {
          closeSync(fd);
        }
        check.push(bytes);
        onRead?.(bytes.length);
      } else {
        for await (const chunk of createReadStream("", { fd, highWaterMark: CHUNK_SIZE })) {
          check.push(chunk as Buffer);
          onRead?.((chunk as Buffer).length);
        }
      }
    }
  } catch (error) {
    await lockFacts(checkOptions.lock);
    return { ...check.end(), error: describeIoError(error, "read", input.display) };
  }
  await lockFacts(checkOptions.lock);
  return check.end();
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

function stdinInput(name: string | undefined, cwd: string): InputFile {
  if (name === undefined) return { absolute: resolve(cwd, STDIN_NAME), display: STDIN_NAME, stdin: true };
  const absolute = resolve(cwd, name);
  return { absolute, display: displayPath(absolute, cwd), stdin: true };
}

/** The registry's rules as the report describes them. */
function ruleDescriptors(): RuleDescriptor[] {
  return rules.map((rule) => ({
    id: rule.id,
    description: rule.meta.description,
    defaultSeverity: rule.meta.defaultSeverity,
    docs: ruleDocsUrl(rule.id),
  }));
}
