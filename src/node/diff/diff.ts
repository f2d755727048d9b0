/**
 * `diff`: what changed between two versions of citation-targets files, by change kind and class
 * (docs/spec.md, section 12). Finds the pairs (two files, two folders matched by
 * file name, or the working tree against a git revision), streams each pair through the core's
 * RecordDiff or diffSchemas, applies the approvals and the gate.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
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
import { passEditorialChanges } from "../../core/diff/text-change.js";
import { errorMessage } from "../../core/errors.js";
import { OperationalError } from "../errors.js";
import { readJsonFile } from "../files/json-file.js";
import { withOutsideReads } from "../files/regular-file.js";
import { checkJobs, createPool, type WorkPool } from "../pool/pool.js";
import { decodeFailure, type TaskFailure } from "../pool/task-failure.js";
import { DIFF_TASKS, type DiffTasks, diffRecordSides, diffSchemaSides, type PairTask } from "./diff-pairs.js";
import { blobSide, missingSide, WHOLE_BLOB_UP_TO } from "./diff-sides.js";
import { type DiffTarget, gitTargets, localTargets } from "./diff-targets.js";

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

/**
 * Pairs whose old side is asked of git ahead of their turn: enough to keep git busy while the pairs before are
 * compared.
 */
const PREFETCH_PAIRS = 16;

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
  // Two files compared are one pair, which is never compared in a pool: no workers started for it (bench/RESULTS.md,
  // start-up).
  const onePair =
    options.against === undefined &&
    options.paths?.length === 2 &&
    options.paths.every((path) => statSync(resolve(cwd, path), { throwIfNoEntry: false })?.isFile() === true);
  const early = onePair ? undefined : earlyPool(jobs);
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
