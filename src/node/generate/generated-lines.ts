/**
 * The lines of a dataset's JSONL as generate writes them (docs/spec.md, "Generation"), made from its lock manifest over
 * the run's pool, and written: to a file atomically (`generate -o`), or compared with the file there as they stream into
 * a temporary file (`update`: src/node/update/streamed-compare.ts). Shared by the two commands.
 */
import type { LockManifest } from "../../core/lock/manifest.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import {
  generateLineBatchesFrom,
  generateLineStepsFrom,
  type LineStep,
  linesInThread,
} from "../../core/records/generate.js";
import { resolveArtifact } from "../dataset/manifest-io.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { chooseJobs, type ThreadPolicy, type WorkPool } from "../pool/pool.js";
import { type ArtifactTasks, poolLineSource } from "./generate-pool.js";
import { stagedLineSource } from "./staged-parse.js";
import type { LineSource } from "../../core/records/generate.js";

/**
 * Worker threads pay off from 4 MB of markdown (below it, starting them costs more than they save); one per core, at
 * most 4.
 */
export const GENERATE_THREADS: ThreadPolicy = { fromBytes: 4 * 2 ** 20, most: 4 };

/** The limits on reading one artifact, from the options that set them (generate's and update's). */
export function limitsOf(options: ArtifactLimits): ArtifactLimits {
  return {
    ...(options.maxFrontMatterBytes !== undefined ? { maxFrontMatterBytes: options.maxFrontMatterBytes } : {}),
    ...(options.maxYamlAliases !== undefined ? { maxYamlAliases: options.maxYamlAliases } : {}),
    ...(options.maxHeadings !== undefined ? { maxHeadings: options.maxHeadings } : {}),
    ...(options.maxHeadingLength !== undefined ? { maxHeadingLength: options.maxHeadingLength } : {}),
  };
}

/**
 * The dataset's JSONL lines, the markdown parsed and serialised in the pool's threads (in this thread
 * when the pool has one); the lines are joined in document order in this thread, so they are the
 * same whatever the number.
 */
export function linesOf(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks> | undefined,
  sizes: readonly number[] = [],
  limits: ArtifactLimits = {},
  locked?: FromLock,
  staged = false,
): AsyncGenerator<string[]> {
  return generateLineBatchesFrom(
    manifest,
    sourceOf(manifest, root, pool, sizes, limits, locked, staged),
    locked !== undefined,
  );
}

/**
 * The same lines a step at a time, still cut (generateLineStepsFrom): for a writer that joins them as bytes (generate's,
 * and update's of a large dataset).
 */
export function lineStepsOf(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks> | undefined,
  sizes: readonly number[] = [],
  limits: ArtifactLimits = {},
  locked?: FromLock,
  staged = false,
): AsyncGenerator<LineStep> {
  return generateLineStepsFrom(
    manifest,
    sourceOf(manifest, root, pool, sizes, limits, locked, staged),
    locked !== undefined,
  );
}

function sourceOf(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks> | undefined,
  sizes: readonly number[],
  limits: ArtifactLimits,
  locked?: FromLock,
  staged = false,
): LineSource {
  // Synchronous reads, when an artifact's turn comes: the files are small and many, and this thread would wait for each
  // anyway. Bytes the caller read and digested already (update's lock pass) are not read or checked again.
  const inThread = linesInThread(manifest, async (position) => {
    const artifact = manifest.artifacts[position]!;
    const kept = locked?.contents?.get(artifact.path);
    // The parsers load only when this thread parses (no worker script: the library run from its sources; or generate
    // of less than MAIN_THREAD_PARSE_BYTES of markdown); otherwise a capped worker does (pool.ts, `capped`).
    const { parseArtifactBytes } = await import("../../core/records/parse-artifact.js");
    return parseArtifactBytes(
      artifact,
      kept ?? readRegularFileSync(resolveArtifact(root, artifact.path)),
      limits,
      kept !== undefined,
      manifest.units === true,
    );
  });
  if (pool === undefined || pool.workers === 0) return inThread;
  // By stage (staged-parse.ts): the pool's worker parses, this thread makes the lines.
  if (staged && pool.workers === 1 && locked === undefined)
    return stagedLineSource(manifest, root, pool, sizes, limits);
  return poolLineSource(manifest, root, pool, sizes, inThread, limits);
}

/**
 * What `update` knows when it generates from the manifest lock just made (lock.ts): the manifest's plan and digest
 * were checked by lock, and `contents` are artifacts' bytes as lock read them, digested and found UTF-8.
 */
export interface FromLock {
  contents?: ReadonlyMap<string, Uint8Array>;
}

/** The default threads for a dataset of this many bytes and artifacts. */
export function defaultJobs(bytes: number, artifacts: number): number {
  return chooseJobs(undefined, { items: artifacts, bytes }, GENERATE_THREADS);
}

const FLUSH_AT = 1 << 20;

/** Writes lines to `write` in chunks of about 1 MiB; resolves to the line count. */
export async function pipeLines(
  batches: AsyncIterable<string[]>,
  write: (text: string) => unknown,
  each?: (line: string) => void,
): Promise<number> {
  let count = 0;
  let buffer = "";
  for await (const batch of batches) {
    for (const line of batch) {
      each?.(line);
      buffer += line;
      // Within the batch too: one artifact's batch of a million targets joined is longer than a string may be.
      if (buffer.length >= FLUSH_AT) {
        await write(buffer);
        buffer = "";
      }
    }
    count += batch.length;
  }
  if (buffer !== "") await write(buffer);
  return count;
}
