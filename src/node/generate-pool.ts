/**
 * Worker threads for `generate` (docs/spec.md, "Generation"): artifacts are read and parsed in
 * parallel, a bounded window ahead of the record builder, which takes them in document order. The
 * records are built in one thread from the same parses, so the output is byte-identical to a
 * one-thread run; memory holds at most the window's artifacts.
 */
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type ArtifactLines, DatasetError, type LineSource } from "../core/generate.js";
import type { LockManifest } from "../core/manifest.js";
import type { ArtifactLimits } from "../core/markdown.js";
import { OperationalError } from "./errors.js";

/**
 * How far the workers may run ahead of the main thread: at most this many bytes of markdown (their
 * lines take about twice that), and this many artifacts. Far enough that a long statute on one
 * worker does not leave the others idle; bounded, so that memory does not grow with the corpus.
 */
const AHEAD_BYTES = 16 * 2 ** 20;
const AHEAD_ARTIFACTS = 512;

/**
 * A worker holds one artifact's tokens and lines at a time: a capped old generation makes V8
 * collect them as it goes rather than grow the heap after the machine's memory (peak RSS); the
 * young generation is sized by measurement (150 MB corpus: 8 MB spent 17 % of the time in GC,
 * 32 MB was 15 % faster for 30 MB more at peak, 64 MB no faster). The cap is far above what an
 * artifact within the size cap needs.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 1024 };

export interface ArtifactPool {
  source: LineSource;
  close(): Promise<void>;
}

type Reply = { position: number; lines: ArtifactLines } | { position: number; problems: string[]; operational: boolean };

/**
 * The share of the markdown this thread parses itself, next to its workers: it also joins the lines
 * in order and writes them, so it takes less than a worker. With `jobs` threads in all, there are
 * `jobs - 1` workers: one isolate fewer in memory than `jobs` workers and an idle coordinator.
 */
const OWN_SHARE = 0.6;

/**
 * Spreads the artifacts over `jobs` threads: this one and `jobs - 1` workers; undefined when the
 * worker script is not built (tests run the TypeScript sources). `inThread` makes the lines of the
 * artifacts this thread takes.
 */
export async function startArtifactPool(
  manifest: LockManifest,
  root: string,
  jobs: number,
  sizes: readonly number[],
  inThread: LineSource,
  limits: ArtifactLimits = {},
): Promise<ArtifactPool | undefined> {
  const script = new URL("./generate-worker.js", import.meta.url);
  if (jobs < 2 || !(await stat(fileURLToPath(script)).catch(() => undefined))) return undefined;
  const workers = Array.from({ length: jobs - 1 }, () => new Worker(script, { workerData: { root, manifest, limits }, resourceLimits: WORKER_LIMITS }));
  /** Positions this thread parses itself, when their turn comes, and the bytes of markdown they hold. */
  const own = new Set<number>();
  let ownLoad = 0;
  const waiting = new Map<number, { resolve: (value: ArtifactLines) => void; reject: (error: Error) => void }>();
  const results = new Map<number, Promise<ArtifactLines>>();
  /** An artifact's size; where it is not known (update), a large one is assumed, so that memory stays bounded. */
  const sizeOf = (position: number) => sizes[position] ?? 256 * 1024;
  /** Bytes of markdown each worker has been given and not yet answered. */
  const load = workers.map(() => 0);
  let failure: Error | undefined;
  for (const [w, worker] of workers.entries()) {
    worker.on("message", (reply: Reply) => {
      load[w]! -= sizeOf(reply.position);
      const waiter = waiting.get(reply.position);
      waiting.delete(reply.position);
      if ("problems" in reply) {
        waiter?.reject(reply.operational ? new OperationalError(reply.problems.join("\n")) : new DatasetError(reply.problems));
      } else {
        waiter?.resolve(reply.lines);
      }
    });
    worker.on("error", (error) => {
      failure = error;
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    });
  }
  const dispatch = (position: number) => {
    if (results.has(position) || own.has(position) || position >= manifest.artifacts.length) return;
    const least = Math.min(...load);
    if (ownLoad + sizeOf(position) <= OWN_SHARE * (least + sizeOf(position))) {
      own.add(position);
      ownLoad += sizeOf(position);
      aheadBytes += sizeOf(position);
      return;
    }
    const promise = new Promise<ArtifactLines>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting.set(position, { resolve, reject });
    });
    promise.catch(() => undefined); // rejections surface when the position's turn comes
    results.set(position, promise);
    const w = load.indexOf(least); // the worker with the least markdown to get through
    load[w]! += sizeOf(position);
    aheadBytes += sizeOf(position);
    workers[w]!.postMessage({ position });
  };
  let aheadBytes = 0;
  let next = 0;
  const source: LineSource = async (position, early = false) => {
    dispatch(position);
    if (early) return own.has(position) ? inThread(position, true) : results.get(position)!; // a directory-index asked for its folder's heading: kept until its own turn
    next = Math.max(next, position + 1);
    while (next < manifest.artifacts.length && next - position < AHEAD_ARTIFACTS && aheadBytes < AHEAD_BYTES) dispatch(next++);
    let result: ArtifactLines;
    if (own.delete(position)) {
      result = await inThread(position);
      ownLoad -= sizeOf(position);
    } else {
      result = await results.get(position)!;
      results.delete(position);
    }
    aheadBytes -= sizeOf(position);
    return result;
  };
  return {
    source,
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
