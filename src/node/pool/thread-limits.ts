/**
 * The limits of a run's threads (pool.ts), apart from the pool so that what only needs them (the command line's notes,
 * the worker started with the command line: direct-worker.ts) does not load it.
 */
import { availableParallelism } from "node:os";

/** The most threads a run may ask for: four per core (more only costs memory). */
export function maxJobs(): number {
  return 4 * availableParallelism();
}

/**
 * A worker holds what one task needs (a batch of files, a dataset's artifacts): a capped old
 * generation makes V8 collect as it goes instead of growing the heap after the machine's memory,
 * and the young generation is sized for throughput (bench/RESULTS.md). The cap is far above what a
 * task within the size caps needs.
 */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 1024 };
