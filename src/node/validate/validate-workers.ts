/**
 * How validate spreads files over the run's pool of worker threads (pool.ts), and the progress it
 * reports. Files go to the pool whole, small ones in batches, in input order; each thread checks a
 * file with the lock manifest in force for it, artifact facts included, so a file and its dataset are
 * one piece of work. The reports come back in input order, so the report is the same whatever the
 * number of threads (docs/spec.md, "Worker threads").
 */
import { statSync } from "node:fs";
import type { InputFile } from "../files/files.js";
import { createPool, type ThreadPolicy, type WorkPool, WorkerMemoryError } from "../pool/pool.js";
import { decodeFailure, type TaskFailure } from "../pool/task-failure.js";
import { MAIN_THREAD_PARSE_BYTES } from "../pool/thread-limits.js";

/** The kind of task of validate's pool (validate.ts): a batch of files checked with the options of the run. */
export type ValidateTasks<Options, Item, Checked> = {
  validateFiles(task: { options: Options; items: Item[] }): Promise<Checked[] | TaskFailure>;
};

/** What validate reports as it goes (ValidateOptions' onProgress). */
export type OnProgress = (progress: { files: number; filesDone: number; bytes: number; bytesDone: number }) => void;

export interface ProgressTracker {
  read(bytes: number): void;
  fileDone(bytesOfFile?: number): void;
}

/**
 * The sizes of the files in bytes (0 for one that cannot be asked: its read says why): as the listing found them when
 * it asked (InputFile's `size`: a path named, whose stat told it a file, 6,636 of them a shell's `*.jsonl`), else one
 * synchronous stat each: a promise per file cost about ten times as much in this thread, before any worker had its first
 * batch (6,636 files).
 */
export async function sizesOf(inputs: InputFile[]): Promise<number[]> {
  return inputs.map((input) => {
    if (input.size !== undefined) return input.size;
    try {
      return statSync(input.absolute, { throwIfNoEntry: false })?.size ?? 0;
    } catch {
      return 0;
    }
  });
}

/** Reports progress after each read or finished file. */
export function startProgress(inputs: InputFile[], sizes: number[], onProgress: OnProgress): ProgressTracker {
  const state = { files: inputs.length, filesDone: 0, bytes: sizes.reduce((a, b) => a + b, 0), bytesDone: 0 };
  return {
    read(n) {
      state.bytesDone += n;
      onProgress({ ...state });
    },
    fileDone(bytesOfFile = 0) {
      state.filesDone++;
      state.bytesDone += bytesOfFile;
      onProgress({ ...state });
    },
  };
}

/** Worker threads pay off for many files or much data: 200 files, or 32 MB in all; one per core. */
export const VALIDATE_THREADS: ThreadPolicy = { fromItems: 200, fromBytes: 32 * 2 ** 20 };

/**
 * Without lock manifests (`--no-lock`) a file is less work, and a worker's start and warm-up pay off later: 5,000
 * files, or 64 MB. Measured on two cores over laws of the corpus (bench/RESULTS.md), one thread against two: 200 files
 * (7.7 MB) 175 against 222 ms, 1,000 (43 MB) 396 against 439 ms, 2,200 (94 MB) 790 against 724 ms, 6,636 (298 MB)
 * 2.05 against 1.51 s.
 */
export const VALIDATE_NO_LOCK_THREADS: ThreadPolicy = { fromItems: 5_000, fromBytes: 64 * 2 ** 20 };
/** Small files travel to a worker in batches of up to this many, or this many bytes. */
const FILES_PER_TASK = 64;
const BYTES_PER_TASK = 4 * 2 ** 20;
/** Batches a worker holds at once (pool.ts: two tasks at once in a worker). */
const WORKER_BATCHES = 2;
/**
 * A worker's batch holds at most this fraction of the bytes left per thread, so that batches shrink as the run nears
 * its end and no thread is left waiting for another's last batch.
 */
const SHARE_OF_WHAT_IS_LEFT = 8;

/**
 * The pool of a run of `jobs` threads, this one among them, its workers started at once and loading the modules of
 * `validateFiles` (started before the run knows its files' sizes when their count settles the threads: validate.ts).
 */
export function startValidatePool<Options, Item, Checked>(
  jobs: number,
  tasks: ValidateTasks<Options, Item, Checked>,
): Promise<WorkPool<ValidateTasks<Options, Item, Checked>>> {
  return createPool(jobs, tasks, { mainWorks: true, warm: "validateFiles" });
}

/**
 * Checks the inputs over `jobs` threads, this one among them, and gives the reports in input order, with
 * the number of threads that did the work. The files are sorted by their sizes in bytes. The workers take them
 * largest first, so that what is left at the end is small files, whatever their order: a worker takes a batch of them
 * (up to FILES_PER_TASK files or BYTES_PER_TASK bytes, and no more than a share of what is left, so that messages
 * are few and the batches shrink towards the end; a large file is a batch of its own). This thread takes, one file at
 * a time and largest first, the files below MAIN_THREAD_PARSE_BYTES, whose datasets it may parse: a larger dataset is
 * one it hands to a worker and waits for (capped-checks.ts), which at the head of the order left it idle for a third
 * of a cold run over 6,636 laws (bench/RESULTS.md). When one side's files are done it takes the other's. It turns to
 * its event loop between two files, so that a worker that is done with a batch gets the next at once rather than when
 * this thread is done with a file (`started`: the pool, started
 * earlier; it is closed here as one started here). `options` are
 * plain data, the same for every batch. A worker holds two batches at once, so that it never waits for
 * this thread to hand it the next.
 *
 * This thread works beside `jobs - 1` workers rather than handing out work to `jobs`: it has loaded the
 * schema and the rules already, and every worker loads the modules again and warms them up (about 0.7 s
 * of CPU for a run with lock manifests: the markdown parser, the generation, the schema's validator), which
 * a machine whose cores are busy pays in time (bench/RESULTS.md, "A publisher's repository").
 */
export async function validateInPool<Options, Item, Checked>(
  inputs: Item[],
  options: Options,
  jobs: number,
  sizes: number[],
  tasks: ValidateTasks<Options, Item, Checked>,
  progress?: ProgressTracker,
  started?: Promise<WorkPool<ValidateTasks<Options, Item, Checked>>>,
): Promise<{ files: Checked[]; threads: number }> {
  const files: Checked[] = new Array(inputs.length);
  // Largest first; files of one size in input order.
  const order = inputs.map((_, index) => index).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  let left = sizes.reduce((sum, size) => sum + size, 0);
  // Two runs of the order: the files of MAIN_THREAD_PARSE_BYTES or more (`large`, up to `split`), which the workers take
  // first, and the others, which this thread takes, largest first; each side then takes from the other's run. A file's
  // JSONL holds its dataset's markdown, so a smaller file's dataset is one this thread may parse.
  const split = order.findIndex((index) => sizes[index]! < MAIN_THREAD_PARSE_BYTES);
  const cursors = { large: 0, small: split === -1 ? order.length : split };
  const ends = { large: cursors.small, small: order.length };
  const pool = await (started ?? startValidatePool(jobs, tasks));
  const runOf = (first: "large" | "small"): "large" | "small" | undefined => {
    const other = first === "large" ? "small" : "large";
    return cursors[first] < ends[first] ? first : cursors[other] < ends[other] ? other : undefined;
  };
  const more = () => cursors.large < ends.large || cursors.small < ends.small;
  /** The next files of one run, up to `most` of them or `bytes` (at least one file): a worker's from the large first. */
  const take = (most: number, bytes: number, first: "large" | "small" = "large"): number[] => {
    const run = runOf(first);
    const indexes: number[] = [];
    if (run === undefined) return indexes;
    let taken = 0;
    while (cursors[run] < ends[run] && indexes.length < most) {
      const size = sizes[order[cursors[run]]!]!;
      if (indexes.length > 0 && taken + size > bytes) break;
      indexes.push(order[cursors[run]++]!);
      taken += size;
    }
    left -= taken;
    return indexes;
  };
  const settle = (indexes: number[], reports: Checked[] | TaskFailure) => {
    // As validate always reported a failed batch: a dataset failure as an operational error.
    if ("failed" in reports) throw decodeFailure(reports, { dataset: "operational" });
    for (const [i, report] of reports.entries()) {
      files[indexes[i]!] = report;
      progress?.fileDone(sizes[indexes[i]!]);
    }
  };
  const task = (indexes: number[]) => ({ options, items: indexes.map((index) => inputs[index]!) });
  /** Takes batches one after another until none is left: in a worker, or (`here`) one file at a time in this thread. */
  const runner = async (here: boolean) => {
    try {
      while (more()) {
        if (here) {
          const indexes = take(1, 0, "small");
          settle(indexes, await tasks.validateFiles(task(indexes)));
          // The event loop's turn: a worker's finished batch is settled and its next one sent.
          await new Promise<void>((resolve) => setImmediate(resolve));
        } else {
          const share = Math.ceil(left / (pool.threads * SHARE_OF_WHAT_IS_LEFT));
          const indexes = take(FILES_PER_TASK, Math.min(BYTES_PER_TASK, share));
          let reports: Checked[] | TaskFailure;
          try {
            reports = await pool.run("validateFiles", task(indexes));
          } catch (error) {
            if (!(error instanceof WorkerMemoryError)) throw error;
            // A worker out of memory fails its batches: each of their files is checked again on its own by this thread,
            // which hands a large dataset to a capped worker (file-validator.ts, `elsewhere`); one that fills that too
            // is an error of its own, named, and the others are reported as usual.
            for (const index of indexes) settle([index], await tasks.validateFiles(task([index])));
            continue;
          }
          settle(indexes, reports);
        }
      }
    } catch (error) {
      cursors.large = ends.large; // the run fails: no thread takes another batch
      cursors.small = ends.small;
      throw error;
    }
  };
  try {
    const runners: Promise<void>[] = [];
    for (let i = 0; i < pool.workers * WORKER_BATCHES; i++) runners.push(runner(false));
    // Last, once the workers have their first batches; without a worker (the worker script not built), it does all.
    runners.push(runner(true));
    await Promise.all(runners);
  } finally {
    await pool.close();
  }
  return { files, threads: pool.threads };
}
