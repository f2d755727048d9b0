/**
 * How validate spreads work: the progress it reports, and whole files over worker threads (the
 * worker protocol: the main thread hands each worker the next file, the worker answers with the
 * file's report; reports are put back in input order).
 */
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FileReport } from "../core/report.js";
import { mapWithLimit } from "./concurrency.js";
import { OperationalError } from "./errors.js";
import type { InputFile } from "./files.js";
import type { ValidateOptions } from "./validate.js";

const FILES_AT_ONCE_PER_WORKER = 4;

export interface ProgressTracker {
  read(bytes: number): void;
  fileDone(bytesOfFile?: number): void;
}

export async function sizesOf(inputs: InputFile[]): Promise<number[]> {
  return mapWithLimit(inputs, 32, async (input) => (await stat(input.absolute).catch(() => undefined))?.size ?? 0);
}

/** Reports progress after each read or finished file. */
export function startProgress(inputs: InputFile[], sizes: number[], onProgress: NonNullable<ValidateOptions["onProgress"]>): ProgressTracker {
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

/** Worker threads pay off for many files or much data: 200 files, or 32 MB in all. */
const WORKERS_FROM_FILES = 200;
const WORKERS_FROM_BYTES = 32 * 2 ** 20;

export function chooseJobs(inputs: InputFile[], jobs: number | undefined, sizes: number[] | undefined): number {
  if (jobs !== undefined) return Math.max(1, Math.min(jobs, inputs.length));
  const cores = availableParallelism();
  if (cores < 2 || inputs.length < 2) return 1;
  const bytes = (sizes ?? []).reduce((a, b) => a + b, 0);
  return inputs.length >= WORKERS_FROM_FILES || bytes >= WORKERS_FROM_BYTES ? Math.min(cores, inputs.length) : 1;
}

/**
 * Spreads whole files over worker threads, each asking for the next file when it is done, and puts
 * the reports back in input order. Undefined when the worker script is not built (tests run the
 * TypeScript sources), so the caller checks in this thread instead.
 */
export async function validateInWorkers(
  inputs: InputFile[],
  options: ValidateOptions & { cwd: string },
  jobs: number,
  progress?: { tracker: ProgressTracker; sizes: number[] },
): Promise<FileReport[] | undefined> {
  const script = new URL("./validate-worker.js", import.meta.url);
  if (!(await stat(fileURLToPath(script)).catch(() => undefined))) return undefined;
  const files: FileReport[] = new Array(inputs.length);
  let next = 0;
  const { patterns: _patterns, patternsCwd: _patternsCwd, onProgress: _onProgress, ...workerOptions } = options;
  await Promise.all(
    Array.from(
      { length: jobs },
      () =>
        new Promise<void>((done, fail) => {
          const worker = new Worker(script, { workerData: workerOptions });
          let inFlight = 0;
          let closed = false;
          const send = () => {
            if (next < inputs.length) {
              inFlight++;
              worker.postMessage({ index: next, input: inputs[next++] });
            } else if (inFlight === 0 && !closed) {
              closed = true;
              worker.postMessage(null);
            }
          };
          worker.on("message", (message: { ready?: true; index?: number; report?: FileReport; error?: { name: string; message: string } }) => {
            if (message.error) {
              fail(message.error.name === "OperationalError" ? new OperationalError(message.error.message) : new Error(message.error.message));
              void worker.terminate();
              return;
            }
            if (message.index !== undefined) {
              files[message.index] = message.report!;
              inFlight--;
              progress?.tracker.fileDone(progress.sizes[message.index]);
              send();
            } else {
              for (let i = 0; i < FILES_AT_ONCE_PER_WORKER; i++) send(); // ready: a few files in flight, so reads overlap checks
            }
          });
          worker.on("error", fail);
          worker.on("exit", () => done());
        }),
    ),
  );
  return files;
}
