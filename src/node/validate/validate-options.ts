/**
 * What `validate` is given (README, "validate"; the library's ValidateOptions) and what it hands between its threads:
 * a file to check with the cache's verdict on it, and a file's report with what the cache learns of it.
 */
import type { RuleSetting } from "../../core/report/problem.js";
import type { FileReport } from "../../core/report/report.js";
import type { Limits } from "../../rules/define.js";
import type { RuleId } from "../../rules/index.js";
import type { LockVerdict } from "../cache/validate-cache.js";
import type { TwinFacts } from "../update/twin-datasets.js";
import type { InputFile } from "../files/files.js";

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
   * @internal Not of the library's API: the command line's and its threads'.
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
   * @internal Not of the library's API: the command line's and its threads'.
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
   * @internal Not of the library's API: the command line's and its threads'.
   */
  cacheSettleMs?: number;
  /** Told, at the end of a run that used the cache, what it took from it and stored (--verbose). */
  onCache?: (use: CacheUse) => void;
  /**
   * Told, at the end of a run, what the warning about two datasets of one law reads of each lock manifest the files were
   * checked against (by its path as the reports show it), so that the warning reads none of them again.
   * @internal Not of the library's API: the command line's and its threads'.
   */
  onTwinFacts?: (facts: ReadonlyMap<string, TwinFacts>) => void;
  /**
   * Set by validate for the threads that check files when the cache is in use (verdicts come with the
   * files; fingerprints are taken): a name of the run, so that what a thread learns of the file system
   * in one run (the real paths of folders) is never taken for another's, and the moment (ns since the
   * epoch, in decimal) before which a file must have been left alone for its verdict to be kept; and `update`'s cache
   * file at its default place, when there is one, whose entries prove a JSONL is what generate writes (generated-proof.ts).
   * @internal Not of the library's API: the command line's and its threads'.
   */
  cacheRun?: { name: string; settledBefore: string; updateCache?: string };
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
export type FileToCheck = InputFile & {
  verdict?: LockVerdict;
  /** Standard input, read whole by the main thread, for the capped worker that checks it (file-validator.ts). */
  bytes?: Uint8Array;
};

/**
 * A file's report, and what the cache learns of it: undefined when nothing (no cache in use, or its
 * verdict held and stands), null when it must forget the file (checked again, not clean), or the new
 * verdict (clean).
 */
export interface CheckedFile {
  report: FileReport;
  verdict?: LockVerdict | null;
  /** What the warning about two datasets of one law reads of the lock manifest the file was checked against. */
  twin?: TwinFacts;
}
