// Loaded with `node --import`: every worker thread gets a small heap (SMALL_WORKER_HEAP_MB, default 48 MiB), so that the
// tests of a worker running out of memory (test/limits.test.ts) need a few megabytes of hostile markdown, not a
// gigabyte. The main thread is untouched.
import module from "node:module";
import workerThreads from "node:worker_threads";

const heap = Number(process.env.SMALL_WORKER_HEAP_MB ?? 48);
const { Worker } = workerThreads;
workerThreads.Worker = class extends Worker {
  constructor(filename, options = {}) {
    super(filename, {
      ...options,
      resourceLimits: { ...options.resourceLimits, maxOldGenerationSizeMb: heap, maxYoungGenerationSizeMb: 8 },
    });
  }
};
module.syncBuiltinESMExports();
