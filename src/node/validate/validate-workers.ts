/**
 * How validate spreads files over the run's pool of worker threads (pool.ts), and the progress it
 * reports. Files go to the pool whole, small ones in batches, in input order; each thread checks a
 * file with the lock manifest in force for it, artifact facts included, so a file and its dataset are
 * one piece of work. The reports come back in input order, so the report is the same whatever the
 * number of threads (docs/spec.md, "Worker threads").
 */
import { stat } from "node:fs/promises";
import { mapWithLimit } from "../pool/concurrency.js";
import type { InputFile } from "../files/files.js";
import { batchesOf, createPool, type ThreadPolicy } from "../pool/pool.js";
import { decodeFailure, type TaskFailure } from "../pool/task-failure.js";

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

export async function sizesOf(inputs: InputFile[]): Promise<number[]> {
  return mapWithLimit(inputs, 32, async (input) => (await stat(input.absolute).catch(() => undefined))?.size ?? 0);
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
/** Small files travel to a worker in batches of up to this many, or this many bytes. */
const FILES_PER_TASK = 64;
const BYTES_PER_TASK = 4 * 2 ** 20;
/** Batches a worker holds at once (pool.ts: two tasks at once in a worker). */
const WORKER_BATCHES = 2;

/**
 * Checks the inputs over `jobs` threads, this one among them, and gives the reports in input order, with
 * the number of threads that did the work. Batches are small enough that every thread gets several,
 * large enough that messages are few; a large file is a batch of its own. `options` are plain data, the
 * same for every batch. Each thread takes the next batch when it is done with one (a worker holds two
 * at once, so that it never waits for this thread to hand it the next).
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
): Promise<{ files: Checked[]; threads: number }> {
  const files: Checked[] = new Array(inputs.length);
  const batches = batchesOf(sizes, jobs, { items: FILES_PER_TASK, bytes: BYTES_PER_TASK });
  const pool = await createPool(jobs, tasks, { mainWorks: true, warm: "validateFiles" });
  let next = 0;
  const settle = (indexes: number[], reports: Checked[] | TaskFailure) => {
    // As validate always reported a failed batch: a dataset failure as an operational error.
    if ("failed" in reports) throw decodeFailure(reports, { dataset: "operational" });
    for (const [i, report] of reports.entries()) {
      files[indexes[i]!] = report;
      progress?.fileDone(sizes[indexes[i]!]);
    }
  };
  const task = (indexes: number[]) => ({ options, items: indexes.map((index) => inputs[index]!) });
  /** Takes batches one after another until none is left: in a worker, or (`here`) in this thread. */
  const runner = async (here: boolean) => {
    try {
      while (next < batches.length) {
        const indexes = batches[next++]!;
        settle(indexes, await (here ? tasks.validateFiles(task(indexes)) : pool.run("validateFiles", task(indexes))));
      }
    } catch (error) {
      next = batches.length; // the run fails: no thread takes another batch
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
