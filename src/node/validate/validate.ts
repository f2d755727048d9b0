/**
 * `validate` (README, "validate"; docs/spec.md, section 11): finds the files (patterns, the default pattern, standard
 * input, a shard), opens the cache, checks each file with the per-file validator (file-validator.ts) in this thread or
 * over the run's pool, and makes the report: edited targets located, orphaned manifests added.
 */
import { resolve } from "node:path";
import { collapseWrongKind } from "../../core/report/file-kind.js";
import { type Report, type RuleDescriptor, summarize } from "../../core/report/report.js";
import { resolveSeverities } from "../../engine/check-file.js";
import { ruleDocsUrl, rules } from "../../rules/index.js";
import { lockPair } from "../../rules/lock-pair.js";
import {
  type LockVerdict,
  openValidateCache,
  SETTLE_MS,
  validateCacheLocation,
  verdictKey,
} from "../cache/validate-cache.js";
import { cacheLocation } from "../cache/cache-file.js";
import { OperationalError } from "../errors.js";
import {
  confinementRoot,
  DEFAULT_PATTERN,
  displayPath,
  expandInputs,
  findRepositoryRoot,
  type InputFile,
  STDIN_NAME,
  shardKey,
  shardOf,
} from "../files/files.js";
import { withOutsideReads } from "../files/regular-file.js";
import { mapWithLimit } from "../pool/concurrency.js";
import { checkJobs, chooseJobs } from "../pool/pool.js";
import { refuseOverInputs } from "../writes/write.js";
import { cappedChecks } from "./capped-checks.js";
import { createFileValidator, VALIDATE_TASKS, validateFiles } from "./file-validator.js";
import { locateEditedTargets } from "./locate-edits.js";
import { foldersOf, manifestsWithoutJsonl, orphanReports } from "./orphan-manifests.js";
import type { CacheUse, CheckedFile, FileToCheck, ValidateOptions } from "./validate-options.js";
import {
  sizesOf,
  startProgress,
  startValidatePool,
  VALIDATE_NO_LOCK_THREADS,
  VALIDATE_THREADS,
  validateInPool,
} from "./validate-workers.js";

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
  // update's cache at its default place proves which JSONL generate writes (generated-proof.ts): read with validate's own
  // cache at its default place only (not with --cache-location or --no-cache).
  const updateCache =
    cache && options.cache === undefined ? await cacheLocation(cwd, undefined, "update.json") : undefined;
  const cacheRun = cache
    ? { name: `${process.pid}.${startedMs}.${++runs}`, settledBefore, ...(updateCache ? { updateCache } : {}) }
    : undefined;
  // A dataset too large to parse in this thread: its file is checked in a capped worker (capped-checks.ts), in the run's
  // pool when there is one.
  let runPool:
    | ReturnType<typeof startValidatePool<ValidateOptions & { cwd: string }, FileToCheck, CheckedFile>>
    | undefined;
  const capped = cappedChecks(workerOptionsOf({ ...options, cwd, ...(cacheRun ? { cacheRun } : {}) }), () => runPool);
  const validator = await createFileValidator({ ...options, cwd, ...(cacheRun ? { cacheRun } : {}) }, capped.elsewhere);
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
  const asked = checkJobs(options.jobs);
  // A file checked without its lock-side checks is less work: without lock manifests, or with the cache's verdict on
  // them (nine files in ten or more), the workers pay off later (VALIDATE_NO_LOCK_THREADS). With the cache, the count
  // settles the threads only past that policy's count, the verdicts not read yet.
  const light = options.lock === false;
  // When the count of files alone settles the threads (asked for, or many files), the pool starts now: its workers load
  // their modules while this thread reads the sizes and the cache's verdicts (bench/RESULTS.md, "A publisher's
  // repository").
  const byCount = light || cache !== undefined ? VALIDATE_NO_LOCK_THREADS : VALIDATE_THREADS;
  const settledByCount =
    !options.stdin &&
    (asked !== undefined || inputs.length < 2 || inputs.length >= (byCount.fromItems ?? Number.POSITIVE_INFINITY));
  const early = settledByCount ? chooseJobs(asked, { items: inputs.length, bytes: 0 }, byCount) : undefined;
  let pool = early !== undefined && early > 1 ? startValidatePool(early, VALIDATE_TASKS) : undefined;
  pool?.catch(() => undefined); // a pool that cannot start says so where it is awaited
  let inWorkers: { files: CheckedFile[]; threads: number } | undefined;
  let sizes: number[] | undefined;
  let progress: ReturnType<typeof startProgress> | undefined;
  let items: FileToCheck[];
  let handedOver = false; // validateInPool closes the pool it is given, whatever happens
  try {
    // File sizes, read once, for the choice of threads, the ranges and the progress.
    sizes = options.jobs === 1 && !options.onProgress ? undefined : await sizesOf(inputs);
    items = cache ? inputs.map((input) => withVerdict(input, cache.get(input.absolute))) : inputs;
    let held = 0;
    if (cache) for (const item of items) if (item.verdict !== undefined) held++;
    const threads = light || (held > 0 && held * 10 >= items.length * 9) ? VALIDATE_NO_LOCK_THREADS : VALIDATE_THREADS;
    const jobs = options.stdin
      ? 1
      : (early ??
        chooseJobs(asked, { items: inputs.length, bytes: (sizes ?? []).reduce((a, b) => a + b, 0) }, threads));
    progress = options.onProgress ? startProgress(inputs, sizes!, options.onProgress) : undefined;
    if (jobs > 1) {
      pool ??= startValidatePool(jobs, VALIDATE_TASKS);
      runPool = pool;
    }
    handedOver = jobs > 1;
    inWorkers =
      jobs > 1
        ? await validateInPool(
            items,
            workerOptionsOf({ ...options, cwd, ...(cacheRun ? { cacheRun } : {}) }),
            jobs,
            sizes!,
            // This thread's share, its large datasets handed to the capped workers.
            { validateFiles: (task) => validateFiles(task, capped.elsewhere) },
            progress,
            pool,
          )
        : undefined;
  } catch (error) {
    if (pool !== undefined && !handedOver) await (await pool).close();
    await capped.close();
    throw error;
  }
  let outcomes: CheckedFile[];
  try {
    outcomes =
      inWorkers?.files ??
      (await mapWithLimit(items, FILES_AT_ONCE, async (item) => {
        const outcome = await validator.check(item, progress?.read);
        progress?.fileDone();
        return outcome;
      }));
  } finally {
    await capped.close();
  }
  if (cache) {
    // Written once, at the end.
    const use: CacheUse = { path: cache.path, files: inputs.length, reused: 0, stored: 0 };
    outcomes.forEach(({ verdict }, i) => {
      if (verdict === undefined)
        use.reused++; // the verdict held: it stands
      else if (verdict !== null) {
        cache.set(inputs[i]!.absolute, verdict);
        use.stored++;
      }
      // A verdict that no longer held is left in the file, not deleted: one of the files it fingerprints changed, and a
      // file's ctime never goes back, so it cannot match again (one refused only because its dataset folder is outside
      // the repository holds again once the folder is back, rightly). Deleting it rewrote the whole file, the first hook
      // after an amended law paying for it; a new verdict replaces it in place (cache-file.ts).
    });
    await cache.save();
    options.onCache?.(use);
  }
  options.onTwinFacts?.(
    new Map(
      outcomes.flatMap(({ report, twin }) =>
        report.lockManifest !== undefined && twin !== undefined ? [[report.lockManifest, twin]] : [],
      ),
    ),
  );
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
    const severity = resolveSeverities([lockPair], options.rules).get(lockPair.id);
    for (const report of await orphanReports(orphans, cwd, severity, {
      allowOutsideRepository: options.allowOutsideRepository ?? false,
    }))
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
    onTwinFacts: _onTwinFacts,
    ...rest
  } = options;
  return rest;
}

/** A file with its verdict, without an empty one (the object crosses to the worker threads). */
function withVerdict(input: InputFile, verdict: LockVerdict | undefined): FileToCheck {
  return verdict === undefined ? input : { ...input, verdict };
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
