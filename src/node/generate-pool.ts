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
import { OperationalError } from "./errors.js";

/** Artifacts in flight per worker: enough to keep each busy while the main thread builds records. */
const WINDOW_PER_WORKER = 4;

export interface ArtifactPool {
  source: LineSource;
  close(): Promise<void>;
}

type Reply = { position: number; lines: ArtifactLines } | { position: number; problems: string[]; operational: boolean };

/** Starts `jobs` workers over the manifest's artifacts; undefined when the worker script is not built (tests run the TypeScript sources). */
export async function startArtifactPool(manifest: LockManifest, root: string, jobs: number): Promise<ArtifactPool | undefined> {
  const script = new URL("./generate-worker.js", import.meta.url);
  if (!(await stat(fileURLToPath(script)).catch(() => undefined))) return undefined;
  const workers = Array.from({ length: jobs }, () => new Worker(script, { workerData: { root, manifest } }));
  const waiting = new Map<number, { resolve: (value: ArtifactLines) => void; reject: (error: Error) => void }>();
  const results = new Map<number, Promise<ArtifactLines>>();
  const load = workers.map(() => 0);
  let failure: Error | undefined;
  for (const [w, worker] of workers.entries()) {
    worker.on("message", (reply: Reply) => {
      load[w]!--;
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
    if (results.has(position) || position >= manifest.artifacts.length) return;
    const promise = new Promise<ArtifactLines>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting.set(position, { resolve, reject });
    });
    promise.catch(() => undefined); // rejections surface when the position's turn comes
    results.set(position, promise);
    const w = load.indexOf(Math.min(...load)); // the least busy worker
    load[w]!++;
    workers[w]!.postMessage({ position });
  };
  const window = jobs * WINDOW_PER_WORKER;
  const source: LineSource = async (position, early = false) => {
    dispatch(position);
    if (early) return results.get(position)!; // a directory-index asked for its folder's heading: kept until its own turn
    for (let i = position + 1; i < position + window; i++) dispatch(i);
    const result = await results.get(position)!;
    results.delete(position);
    return result;
  };
  return {
    source,
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
