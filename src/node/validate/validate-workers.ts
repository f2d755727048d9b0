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

/**
 * Checks the inputs over a pool of `jobs` threads and gives the reports in input order, with the
 * number of threads that did the work. Batches are small enough that every thread gets several, large
 * enough that messages are few; a large file is a batch of its own. `options` are plain data, the
 * same for every batch.
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
  const pool = await createPool(jobs, tasks);
  try {
    await Promise.all(
      batches.map(async (indexes) => {
        const reports = await pool.run("validateFiles", {
          options,
          items: indexes.map((index) => inputs[index]!),
        });
        // As validate always reported a failed batch: a dataset failure as an operational error.
        if ("failed" in reports) throw decodeFailure(reports, { dataset: "operational" });
        for (const [i, report] of reports.entries()) {
          files[indexes[i]!] = report;
          progress?.fileDone(sizes[indexes[i]!]);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  return { files, threads: pool.threads };
}
