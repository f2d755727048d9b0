/**
 * The one worker entry of the pool (pool.ts): each exported function is a kind of task, by the name the
 * commands run it by. Each kind lives with its command's code (file-validator.ts, generate-pool.ts,
 * update-dataset.ts, diff-pairs.ts), which also runs it in the main thread when the run has one thread;
 * here it is only loaded and called. A task's input and result are plain data; errors a user acts on
 * come back as data (task-failure.ts), so that their kind (a dataset problem, an operational error)
 * survives the crossing. This module imports the commands; none of them imports it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { joinInterruptGate } from "../writes/interrupted-writes.js";
import { errorMessage } from "../../core/errors.js";
import type { DirectReply, DirectRequest } from "./direct-worker.js";
import type { DiffTasks } from "../diff/diff-pairs.js";
import type { ArtifactTasks } from "../generate/generate-pool.js";
import { encodeFailure } from "./task-failure.js";
import type { UpdateTasks } from "../update/update-dataset.js";
import type { VALIDATE_TASKS } from "../validate/file-validator.js";
import type { FRONT_MATTER_TASKS } from "../dataset/dataset-context.js";

type Task<F extends (task: never) => unknown> = Parameters<F>[0];

// Each kind of task loads its modules when it first runs, so that a worker that only validates never
// loads the markdown parser, and one that only generates never compiles a schema.

/** Checks a batch of whole JSONL files (file-validator.ts); when its modules cannot be loaded, the batch fails with that error. */
async function validateFiles(task: Task<(typeof VALIDATE_TASKS)["validateFiles"]>) {
  let run: (typeof VALIDATE_TASKS)["validateFiles"];
  try {
    ({ validateFiles: run } = await import("../validate/file-validator.js"));
  } catch (error) {
    return encodeFailure(error);
  }
  return run(task);
}

/**
 * Reads, parses and serialises a batch of artifacts of one dataset (generate-pool.ts). The lines' bytes move to the
 * main thread, not copied (`transfers`): in Piscina's worker by its `move`, in the direct worker by serveDirect.
 */
async function artifactBatch(task: Task<ArtifactTasks["artifactBatch"]>) {
  return moving("artifactBatch", await (await import("../generate/generate-pool.js")).artifactBatch(task));
}

/**
 * Parses a batch of artifacts the main thread read and verified, for it to make their lines of (parse-batch.ts,
 * staged-parse.ts). Their bytes and targets move to the main thread, as artifactBatch's lines do.
 */
async function parseBatch(task: Task<ArtifactTasks["parseBatch"]>) {
  return moving("parseBatch", await (await import("../generate/parse-batch.js")).parseBatch(task));
}

/**
 * A result whose buffers (`transfers`) move to the main thread rather than being copied: in Piscina's worker by its
 * `move`; the direct worker moves them itself (serveDirect).
 */
async function moving<T>(name: "artifactBatch" | "parseBatch", results: T): Promise<T> {
  if (direct === true) return results;
  const { move } = await import("piscina");
  const movable = {
    [Symbol.for("Piscina.transferable")]: transfers[name]!(results),
    [Symbol.for("Piscina.valueOf")]: results,
  };
  return move(movable as unknown as Parameters<typeof move>[0]) as unknown as T;
}

/** The buffers of a kind of task's result that move to the main thread rather than being copied. */
const transfers = {
  artifactBatch(results: unknown): ArrayBuffer[] {
    // A batch's answers share buffers of bytes (generate-pool.ts, batchEncoder): each buffer once.
    const buffers = new Set<ArrayBuffer>();
    for (const result of results as {
      lines?: { bytes: Uint8Array; more?: { bytes: Uint8Array }[]; ends: Uint32Array };
    }[])
      if (result.lines !== undefined) {
        buffers.add(result.lines.bytes.buffer as ArrayBuffer).add(result.lines.ends.buffer as ArrayBuffer);
        for (const run of result.lines.more ?? []) buffers.add(run.bytes.buffer as ArrayBuffer);
      }
    return [...buffers];
  },
  parseBatch(results: unknown): ArrayBuffer[] {
    // Each artifact's bytes and targets (staged-parse.ts, PackedParse): buffers of their own.
    const buffers = new Set<ArrayBuffer>();
    for (const result of results as {
      packed?: {
        bytes: Uint8Array;
        targets: Float64Array;
        units?: { leaves: Float64Array; counts: Float64Array; cuts: Float64Array };
      };
    }[])
      if (result.packed !== undefined) {
        const { bytes, targets, units } = result.packed;
        for (const view of [bytes, targets, units?.leaves, units?.counts, units?.cuts])
          if (view !== undefined && view.byteLength > 0) buffers.add(view.buffer as ArrayBuffer);
      }
    return [...buffers];
  },
} as Partial<Record<string, (result: unknown) => ArrayBuffer[]>>;

/**
 * Re-locks and regenerates a batch of whole datasets (update-dataset.ts); when its modules cannot be loaded, every
 * dataset of the batch fails with that error.
 */
async function updateDatasets(task: Task<UpdateTasks["updateDatasets"]>) {
  let run: UpdateTasks["updateDatasets"];
  try {
    ({ updateDatasets: run } = await import("../update/update-dataset.js"));
  } catch (error) {
    return task.datasets.map(() => encodeFailure(error));
  }
  return run(task);
}

/** Compares a batch of dataset file pairs (diff-pairs.ts). */
async function diffPairs(task: Task<DiffTasks["diffPairs"]>) {
  return (await import("../diff/diff-pairs.js")).diffPairs(task);
}

/** Parses a front matter too large for the main thread (dataset-context.ts). */
async function frontMatter(task: Task<(typeof FRONT_MATTER_TASKS)["frontMatter"]>) {
  return (await import("../dataset/dataset-context.js")).frontMatter(task);
}

/** The kinds of task, by name: the same signatures as the commands' own. */
export const tasks = {
  validateFiles,
  artifactBatch,
  parseBatch,
  updateDatasets,
  diffPairs,
  frontMatter,
} satisfies typeof VALIDATE_TASKS & ArtifactTasks & UpdateTasks & DiffTasks & typeof FRONT_MATTER_TASKS;
type TaskName = keyof typeof tasks;

/** The modules of a kind of task that loads its own (the others load little). */
const MODULES: Partial<Record<TaskName, () => Promise<unknown>>> = {
  validateFiles: () => import("../validate/file-validator.js"),
  artifactBatch: () =>
    Promise.all([import("../generate/generate-pool.js"), import("../../core/records/parse-artifact.js")]),
  parseBatch: () => Promise.all([import("../generate/parse-batch.js"), import("../../core/records/parse-artifact.js")]),
  updateDatasets: () => import("../update/update-dataset.js"),
  diffPairs: () => import("../diff/diff-pairs.js"),
  frontMatter: () => Promise.all([import("yaml"), import("../../core/markdown/targets.js")]),
};

// A pool told which kind of task its run sends (pool.ts, `warm`) has each worker load that kind's modules as it
// starts, while the main thread still prepares the first tasks. Awaited here, before Piscina hears the worker is ready:
// a ready worker waits for its first task in Atomics.wait, which would hold a load left running.
const { warm, outsideAllowed, direct, interruptGate } = (workerData ?? {}) as {
  warm?: TaskName;
  outsideAllowed?: boolean;
  direct?: boolean;
  interruptGate?: SharedArrayBuffer;
};
// Temporary files are created through the main thread's gate: none after a signal (interrupted-writes.ts).
joinInterruptGate(interruptGate);
// Reads outside the repository as the run allows them (`--allow-outside-repository`; regular-file.ts).
if (outsideAllowed === true) (await import("../files/regular-file.js")).allowReadsOutsideRepository(true);
if (warm !== undefined) await MODULES[warm]?.().catch(() => undefined); // a failure shows when the first task loads them

/**
 * The worker of a run's single capped thread, without Piscina (direct-worker.ts): the run's reading rule comes first
 * (this worker may have started before the command line was read), then tasks by id, each answered with its result or
 * the message of what it threw. Messages sent before this listener wait in the port.
 */
function serveDirect(): void {
  const port = parentPort!;
  let ready: Promise<void> = Promise.resolve();
  port.on("message", (request: DirectRequest) => {
    if (!("id" in request)) {
      if (request.outsideAllowed)
        ready = ready.then(async () => (await import("../files/regular-file.js")).allowReadsOutsideRepository(true));
      return;
    }
    const { id, name, task } = request;
    void (async () => {
      let reply: DirectReply;
      let moved: ArrayBuffer[] = [];
      try {
        await ready;
        const value = await (tasks[name as TaskName] as (task: unknown) => Promise<unknown>)(task);
        moved = transfers[name]?.(value) ?? [];
        reply = { id, value };
      } catch (error) {
        reply = { id, thrown: errorMessage(error) };
      }
      port.postMessage(reply, moved);
    })();
  });
}
if (direct === true) serveDirect();

export { validateFiles, artifactBatch, parseBatch, updateDatasets, diffPairs, frontMatter };
