/** The cap on `--jobs` (pool.ts), apart from the pool so that the command line's notes need not load it. */
import { availableParallelism } from "node:os";

/** The most threads a run may ask for: four per core (more only costs memory). */
export function maxJobs(): number {
  return 4 * availableParallelism();
}
