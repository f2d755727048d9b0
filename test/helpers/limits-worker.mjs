// A worker entry for test/pool-limits.test.ts: its one kind of task answers with the worker's resource limits.
import { resourceLimits } from "node:worker_threads";

export async function limits() {
  return resourceLimits;
}
