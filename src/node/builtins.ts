/**
 * Node's modules that only some runs use, loaded on first use rather than at start-up: `node:child_process` (git,
 * some 2.5 ms to load, with `net` and `dgram`), `node:worker_threads` (the pool, some 1.5 ms) and `node:crypto` (5 to
 * 8 ms; src/core/bytes.ts loads it so too, for the core's hashes). Most commands on a small input use none of them
 * (bench/RESULTS.md, start-up). A module is loaded once; later calls return it.
 */
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

/** `node:child_process`, loaded on the first call. */
export const childProcess = (): typeof import("node:child_process") => load("node:child_process");

/** `node:worker_threads`, loaded on the first call. */
export const workerThreads = (): typeof import("node:worker_threads") => load("node:worker_threads");

/** `node:crypto`, loaded on the first call. */
export const crypto = (): typeof import("node:crypto") => load("node:crypto");

/** `count` random bytes from Node's cryptographic generator, as lowercase hex (temporary names, lock tokens). */
export const randomHex = (count: number): string => crypto().randomBytes(count).toString("hex");
