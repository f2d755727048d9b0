import { createFileCheck, type FileCheckOptions, type FileResult, resolveSeverities } from "../engine/check-file.js";
import { lockPair } from "../rules/lock-pair.js";
import { foldersOf, manifestsWithoutJsonl, orphanReports } from "./orphan-manifests.js";
import type { LockContext } from "../core/lock-context.js";
import type { RuleSetting } from "../core/problem.js";
import { ruleDocsUrl, rules, type RuleId } from "../rules/index.js";
import type { Limits } from "../rules/define.js";
import { collapseWrongKind } from "../core/file-kind.js";
import { summarize, type FileReport, type Report, type RuleDescriptor } from "../core/report.js";
import { closeSync, createReadStream, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { confinementRoot, DEFAULT_PATTERN, displayPath, expandInputs, findRepositoryRoot, shardKey, shardOf, STDIN_NAME, type InputFile } from "./files.js";
import { mapWithLimit } from "./concurrency.js";
import { describeIoError, OperationalError } from "./errors.js";
import { locateEditedTargets } from "./locate-edits.js";
import { openLockContext } from "./validate-lock.js";
import { checkJobs, chooseJobs } from "./pool.js";
import { openRegularSync } from "./regular-file.js";
import { sizesOf, startProgress, VALIDATE_THREADS, validateInPool } from "./validate-workers.js";
import { loadSchema, type SchemaSource } from "./schema-source.js";

export interface ValidateOptions {
  /** Files, directories or globs; default `.tooling/citation-targets/*.jsonl`. */
  patterns?: string[];
  cwd?: string;
  /** The folder patterns are relative to, when not cwd (patterns from a config file); paths are still shown relative to cwd. */
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
  /** Worker threads to spread the files over (one pool for the run); default: one per core for 200+ files or 32+ MB, else 1 (this thread). A file is never split. */
  jobs?: number;
  /**
   * A lock manifest to check every file against (the manifest rules). Without it, a file
   * `<name>.jsonl` is checked against `<name>.lock.json` beside it when that exists; `false` turns that off.
   */
  lock?: string | false;
  /** Caps on line length, nesting depth and problems kept per file (docs/spec.md, "Limits"). */
  limits?: Partial<Limits>;
  /** Check only the files of shard `index` (1-based) of `count`, split by a hash of each path: for a CI matrix. */
  shard?: { index: number; count: number };
  /** Let lock manifests' dataset folders, config patterns and the default pattern lead outside the repository (default: confined to it; SECURITY.md). */
  allowOutsideRepository?: boolean;
  /** The patterns come from a config (or are the default): confine what they match to the repository unless allowOutsideRepository. */
  confinePatterns?: boolean;
  /** Check these bytes (standard input) instead of files; `name` is the path they stand for (display, file-name rule, lock manifest beside it). */
  stdin?: { stream: AsyncIterable<Uint8Array>; name?: string };
  /**
   * Lock manifests to hold to their JSONL besides those of the folders checked (--staged: the staged
   * datasets'). Given with no patterns, no file is checked but these manifests.
   */
  manifests?: string[];
}

export type { FileReport, Report, Summary } from "../core/report.js";
export { exitCodeFor, onlyErrors, summarize } from "../core/report.js";

const CHUNK_SIZE = 1 << 20;
const FILES_AT_ONCE = 8;

/** Validates JSONL files and resolves to a report; throws OperationalError only for bad options, schema or patterns. */
export async function validate(options: ValidateOptions = {}): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  const validator = await createFileValidator({ ...options, cwd });
  // A config's patterns stay in the repository that holds the config (outside one, the config's folder); the default pattern in the working directory's.
  const patternsBase = options.patternsCwd ?? cwd;
  const confineTo = options.allowOutsideRepository ? undefined : await confinementRoot(patternsBase, patternsBase);
  const matched = options.stdin
    ? [stdinInput(options.stdin.name, cwd)]
    : options.manifests !== undefined && !options.patterns?.length
      ? []
      : options.patterns?.length
        ? await expandInputs(options.patterns, cwd, options.allowUnmatched, options.patternsCwd, options.confinePatterns ? confineTo : undefined)
        : await expandInputs([DEFAULT_PATTERN], cwd, options.allowUnmatched, (await findRepositoryRoot(cwd)) ?? cwd, confineTo); // like git: the default is the repository's, from any subfolder
  const shard = options.shard;
  if (shard && (!Number.isInteger(shard.count) || shard.count < 1 || !Number.isInteger(shard.index) || shard.index < 1 || shard.index > shard.count)) {
    throw new OperationalError(`invalid shard ${shard.index}/${shard.count}: expected i/n with 1 ≤ i ≤ n`);
  }
  const root = shard ? await findRepositoryRoot(cwd) : undefined; // the split does not depend on the folder it runs from
  const inputs = shard ? matched.filter((input) => shardOf(shardKey(input.absolute, root), shard.count) === shard.index - 1) : matched;
  // File sizes, read once, for the choice of threads, the ranges and the progress.
  const sizes = options.jobs === 1 && !options.onProgress ? undefined : await sizesOf(inputs);
  const jobs = options.stdin ? 1 : chooseJobs(checkJobs(options.jobs), { items: inputs.length, bytes: (sizes ?? []).reduce((a, b) => a + b, 0) }, VALIDATE_THREADS);
  const progress = options.onProgress ? startProgress(inputs, sizes!, options.onProgress) : undefined;
  const inWorkers = jobs > 1 ? await validateInPool(inputs, { ...options, cwd }, jobs, sizes!, progress) : undefined;
  const checked =
    inWorkers?.files ??
    (await mapWithLimit(inputs, FILES_AT_ONCE, async (input) => {
      const report = await validator.check(input, progress?.read);
      progress?.fileDone();
      return report;
    }));
  const located = await Promise.all(checked.map((file) => locateEditedTargets(file, cwd))); // an edited target: its own line
  const files = located.map(collapseWrongKind); // a markdown file given by mistake: said once, not a problem per line
  if (!options.stdin && options.lock === undefined) {
    // A manifest whose JSONL is gone (git rm): reported on the manifest, under lock-pair.
    const orphans = manifestsWithoutJsonl(foldersOf(inputs.map((input) => input.absolute)), options.manifests ?? []).filter(
      (manifest) => !shard || shardOf(shardKey(`${manifest.slice(0, -".lock.json".length)}.jsonl`, root), shard.count) === shard.index - 1,
    );
    files.push(...orphanReports(orphans, cwd, resolveSeverities([lockPair], options.rules).get(lockPair.id)));
  }
  return { files, summary: summarize(files), schemaSource: validator.schemaSource, threads: inWorkers?.threads ?? 1, rules: ruleDescriptors() };
}

/** One file's check, ready to run: the engine's options (with the lock manifest in force, if any), and why a manifest beside it could not be read. */
export interface PreparedFile {
  input: InputFile;
  checkOptions: FileCheckOptions;
  lockError?: string;
}

export interface FileValidator {
  schemaSource: SchemaSource;
  /** Checks one whole file in this thread. */
  check(input: InputFile, onRead?: (bytes: number) => void): Promise<FileReport>;
  /** Opens the lock manifest in force for the file and settles the engine's options. */
  prepare(input: InputFile): Promise<PreparedFile>;
  /** The report of a prepared file from the engine's result, once the artifact facts of its manifest are in. */
  finish(prepared: PreparedFile, result: FileResult & { error?: string }): FileReport;
}

/**
 * Everything needed to check one file after another: the schema (loaded once), the rule
 * settings and the lock manifest in force. Worker threads each build their own from the same
 * options, which is why the options are plain data.
 */
export async function createFileValidator(options: ValidateOptions & { cwd: string }): Promise<FileValidator> {
  const { cwd } = options;
  const schema = await loadSchema({ cwd, ...(options.schema ? { schemaPath: options.schema } : {}), ...(options.legislationHost ? { legislationHost: options.legislationHost } : {}) });
  const confinement = { allowOutsideRepository: options.allowOutsideRepository ?? false, keepBodies: true };
  const explicitLock = typeof options.lock === "string" ? await openLockContext(resolve(cwd, options.lock), displayPath(resolve(cwd, options.lock), cwd), cwd, confinement) : undefined;
  const lockFor = async (input: InputFile): Promise<LockContext | undefined> => {
    if (explicitLock || options.lock === false) return explicitLock;
    if (input.stdin && input.display === STDIN_NAME) return undefined;
    const sibling = `${input.absolute.replace(/\.jsonl$/, "")}.lock.json`;
    if (sibling === input.absolute || !statSync(sibling, { throwIfNoEntry: false })?.isFile()) return undefined; // one synchronous call: thousands of files a run
    return openLockContext(sibling, displayPath(sibling, cwd), cwd, confinement);
  };
  const prepare = async (input: InputFile): Promise<PreparedFile> => {
    const checkOptions: FileCheckOptions = {
      rules,
      file: input.display,
      ...(input.stdin && input.display === STDIN_NAME ? { fileNameUnknown: true } : {}),
      schemaCheck: schema.check,
      ...(options.rules ? { ruleSettings: options.rules } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    };
    try {
      const lock = await lockFor(input);
      return { input, checkOptions: lock ? { ...checkOptions, lock } : checkOptions };
    } catch (error) {
      // A broken manifest beside one file is that file's I/O error: the file is still checked without it, and so are the others.
      if (!(error instanceof OperationalError)) throw error;
      return { input, checkOptions, lockError: error.message };
    }
  };
  const finish = (prepared: PreparedFile, result: FileResult & { error?: string }): FileReport => {
    const lock = prepared.checkOptions.lock;
    const failed = prepared.checkOptions.lock?.artifactsFailed;
    const error = [result.error, prepared.lockError, failed].filter((e) => e !== undefined).join("; ");
    const report: FileReport = error !== "" ? { ...result, error } : result;
    if (!lock) return report;
    return { ...report, lockManifest: lock.manifestPath, ...(lock.artifactsSkipped !== undefined ? { artifactChecksSkipped: lock.artifactsSkipped } : {}) };
  };
  const check = async (input: InputFile, onRead?: (bytes: number) => void): Promise<FileReport> => {
    const prepared = await prepare(input);
    return finish(prepared, await validateFile(prepared, options.stdin?.stream, onRead));
  };
  return { schemaSource: schema.source, check, prepare, finish };
}

/** Small files are read in one call, larger ones streamed in chunks. */
const READ_WHOLE_BELOW = 1 << 20;

async function validateFile(prepared: PreparedFile, stdin: AsyncIterable<Uint8Array> | undefined, onRead?: (bytes: number) => void): Promise<FileResult & { error?: string }> {
  const { input, checkOptions } = prepared;
  const check = createFileCheck(checkOptions);
  try {
    if (input.stdin && stdin) {
      for await (const chunk of stdin) {
        check.push(chunk);
        onRead?.(chunk.length);
      }
    } else {
      // A small file is read in one synchronous call (a promise per open, stat, read and close cost
      // more than the read itself, 5,000 files of 30 KB: 1.8 s of 4.6); a larger one is streamed.
      // Opened once without blocking and checked on the descriptor: only a regular file is read (a device or a FIFO is refused, named).
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
    lock.artifactsFailed = `the artifact checks of ${lock.manifestPath} could not run: ${error instanceof Error ? error.message : String(error)}`;
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
  return rules.map((rule) => ({ id: rule.id, description: rule.meta.description, defaultSeverity: rule.meta.defaultSeverity, docs: ruleDocsUrl(rule.id) }));
}
