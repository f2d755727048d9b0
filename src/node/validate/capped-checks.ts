/**
 * Where validate's main thread sends a file whose dataset it may not parse (file-validator.ts, `elsewhere`): the main
 * thread's heap is sized when Node starts and cannot be capped after, so a dataset of MAIN_THREAD_PARSE_BYTES of markdown
 * or more is parsed, and its file checked, in a worker whose heap is (docs/spec.md, section 13, "heap of the threads that
 * parse markdown"). In the run's pool when its workers' 1 GiB has room for the dataset; else in a worker of its own,
 * sized for it (validateHeapMb), kept for the next file that fits it.
 */
import type { CheckElsewhere } from "./file-validator.js";
import { VALIDATE_TASKS } from "./file-validator.js";
import type { CheckedFile, FileToCheck, ValidateOptions } from "./validate-options.js";
import { createPool, type WorkPool, WorkerMemoryError } from "../pool/pool.js";
import { validateHeapMb, WORKER_LIMITS } from "../pool/thread-limits.js";
import { decodeFailure } from "../pool/task-failure.js";
import type { ValidateTasks } from "./validate-workers.js";

type Pool = WorkPool<ValidateTasks<ValidateOptions & { cwd: string }, FileToCheck, CheckedFile>>;

export interface CappedChecks {
  elsewhere: CheckElsewhere;
  /** Closes the workers started here (not the run's pool). */
  close(): Promise<void>;
}

/**
 * The capped checks of a run with `options` (plain data: what the workers build their validators from); `runPool`, the
 * run's pool once it has one.
 */
export function cappedChecks(
  options: ValidateOptions & { cwd: string },
  runPool: () => Promise<Pool> | undefined,
): CappedChecks {
  /** Workers of their own, by the old generation (MiB) each was started with. */
  const own = new Map<number, Promise<Pool>>();
  const poolFor = async (heapMb: number): Promise<Pool> => {
    const shared = runPool();
    if (shared !== undefined && heapMb <= WORKER_LIMITS.maxOldGenerationSizeMb) {
      const pool = await shared;
      if (pool.workers > 0) return pool;
    }
    // The smallest started that is large enough; else one of this size.
    const fits = [...own.keys()].filter((size) => size >= heapMb).sort((a, b) => a - b)[0];
    if (fits !== undefined) return own.get(fits)!;
    const started = createPool(1, VALIDATE_TASKS, { capped: true, warm: "validateFiles", heapMb });
    own.set(heapMb, started);
    return started;
  };
  return {
    async elsewhere(input, bytes) {
      // First in a worker of 1 GiB: the records generate writes are made as the file is read, a few thousand held at
      // a time (generated-window.ts). A file far from them has every one held: when that fills the worker, the file is
      // checked again in one sized for the dataset (validateHeapMb), which a file close to them does not need (V8 lets a
      // larger heap grow more: the statute book as one dataset took 381 MB in one of 6 GiB, 250 MB in one of 1 GiB).
      const heaps = [...new Set([WORKER_LIMITS.maxOldGenerationSizeMb, validateHeapMb(bytes)])];
      for (const [tried, heapMb] of heaps.entries()) {
        const pool = await poolFor(heapMb);
        try {
          const reports = await pool.run("validateFiles", { options, items: [input] });
          // As validate always reported a failed batch: a dataset failure as an operational error.
          if ("failed" in reports) throw decodeFailure(reports, { dataset: "operational" });
          return reports[0]!;
        } catch (error) {
          if (!(error instanceof WorkerMemoryError)) throw error;
          if (tried === heaps.length - 1) return { outOfMemory: error.message };
        }
      }
      throw new Error("unreachable: the last heap tried returns");
    },
    async close() {
      await Promise.all([...own.values()].map(async (pool) => (await pool.catch(() => undefined))?.close()));
    },
  };
}
