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

/**
 * Below this many bytes of markdown in all, `generate` parses in the main thread, whose heap is not capped, rather than
 * start a capped worker for it (docs/spec.md, section 13, "heap of the threads that parse markdown"): every cost of a
 * parse is bounded by the caps, or grows linearly with its input, so that this much markdown cannot hold more than
 * about 200 MB (the YAML parser's 650 bytes or so per byte of front matter the most of it), below the heap V8 gives
 * the main thread even on a machine of 1 GB (256 MB; 4 GB from 16 GB), and a worker's start (tens of milliseconds)
 * would be most of a small run.
 */
export const MAIN_THREAD_PARSE_BYTES = 128 * 1024;
