/**
 * generate -o and update in a thread with a capped heap. Left to itself, V8 sizes the main thread's
 * heap after the machine's memory (gigabytes on a big machine) and collects lazily: generating a
 * 150 MB corpus then peaked at about 330 MB. Any explicit cap makes it collect as it goes (about
 * 270 MB, no slower); the cap is generous, so that it is never reached by a dataset within the
 * artifact size cap.
 */
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { DatasetError } from "../core/errors.js";
import { OperationalError } from "./errors.js";
import { generate, type GenerateOptions, type GenerateResult } from "./generate.js";
import { type DatasetUpdate, update, type UpdateOptions } from "./update.js";

/** The heap cap of the thread, in MiB. */
export const BOUNDED_HEAP_MB = 1024;

type Task = { task: "generate"; options: GenerateOptions } | { task: "update"; options: UpdateOptions };

async function runBounded<T>(work: Task, inThread: () => Promise<T>): Promise<T> {
  const script = new URL("./run-bounded-worker.js", import.meta.url);
  if (!(await stat(fileURLToPath(script)).catch(() => undefined))) return inThread(); // the TypeScript sources (tests): in this thread
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, { workerData: work, resourceLimits: { maxOldGenerationSizeMb: BOUNDED_HEAP_MB } });
    worker.once("message", (message: { result?: T; error?: { kind: string; message: string; problems?: string[]; code?: string } }) => {
      void worker.terminate();
      if (message.error === undefined) return resolve(message.result as T);
      const { kind, problems } = message.error;
      if (kind === "dataset") return reject(new DatasetError(problems ?? [message.error.message]));
      if (kind === "operational") return reject(new OperationalError(message.error.message));
      return reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
    });
    worker.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY")
        reject(new OperationalError(`ran out of memory (the heap is capped at ${BOUNDED_HEAP_MB} MiB): lower --max-artifact-bytes, or check with --jobs 1`));
      else reject(error);
    });
  });
}

/** generate() with an output file, in a thread with a capped heap. */
export function generateBounded(options: GenerateOptions & { output: string }): Promise<GenerateResult> {
  const { write: _write, ...plain } = options; // a function cannot cross to the thread; with an output file it is not used
  return runBounded({ task: "generate", options: plain }, () => generate(options));
}

/** update(), in a thread with a capped heap. */
export function updateBounded(options: UpdateOptions): Promise<DatasetUpdate[]> {
  return runBounded({ task: "update", options }, () => update(options));
}
