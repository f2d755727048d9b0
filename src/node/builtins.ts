/**
 * Node's modules that only some runs use, loaded on first use rather than at start-up: `node:child_process` (git,
 * some 2.5 ms to load, with `net` and `dgram`) and `node:worker_threads` (the pool, some 1.5 ms). Most commands on a
 * small input use neither (bench/RESULTS.md, start-up). A module is loaded once; later calls return it.
 */
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

/** `node:child_process`, loaded on the first call. */
export const childProcess = (): typeof import("node:child_process") => load("node:child_process");

/** `node:worker_threads`, loaded on the first call. */
export const workerThreads = (): typeof import("node:worker_threads") => load("node:worker_threads");
