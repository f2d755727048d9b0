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
  type ParsedSource,
} from "../../core/records/generate.js";
import { DatasetError } from "../../core/errors.js";
import { resolveArtifact } from "../dataset/manifest-io.js";
import { ioError, OperationalError } from "../errors.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { chooseJobs, type ThreadPolicy, type WorkPool } from "../pool/pool.js";
import { acceptSpares, batchEncoder } from "./encoded-lines.js";
import { type ArtifactTasks, buffersOf, encodeArtifact, poolLineSource } from "./generate-pool.js";
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
  const source = sourceOf(manifest, root, pool, sizes, limits, locked, staged);
  return releasing(generateLineBatchesFrom(manifest, source, locked !== undefined), source);
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
  const source = sourceOf(manifest, root, pool, sizes, limits, locked, staged);
  return releasing(generateLineStepsFrom(manifest, source, locked !== undefined), source);
}

/** An artifact read (or as the caller's lock read it) and parsed in this thread, with its bytes. */
type ParsedAt = (position: number) => Promise<ParsedSource & { bytes: Uint8Array }>;

/** A LineSource that holds buffers until the dataset's lines are all taken (encodedInThread). */
type ReleasingSource = LineSource & { release?: () => void };

/** The items, and the source's buffers let go once the caller is done with them (or stops early). */
async function* releasing<T>(items: AsyncGenerator<T>, source: ReleasingSource): AsyncGenerator<T> {
  try {
    yield* items;
  } finally {
    source.release?.();
  }
}

function sourceOf(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks> | undefined,
  sizes: readonly number[],
  limits: ArtifactLimits,
  locked?: FromLock,
  staged = false,
): ReleasingSource {
  // Synchronous reads, when an artifact's turn comes: the files are small and many, and this thread would wait for each
  // anyway. Bytes the caller read and digested already (update's lock pass) are not read or checked again.
  const parsedAt: ParsedAt = async (position) => {
    const artifact = manifest.artifacts[position]!;
    const kept = locked?.contents?.get(artifact.path);
    let bytes = kept;
    if (bytes === undefined) {
      const path = resolveArtifact(root, artifact.path);
      try {
        bytes = readRegularFileSync(path);
      } catch (error) {
        // Named, as a worker names it (a FIFO, a link to a device: `generate -o` reads before it verifies).
        if (error instanceof DatasetError || error instanceof OperationalError) throw error;
        throw ioError(error, "read", artifact.path);
      }
    }
    // The parsers load only when this thread parses (no worker script: the library run from its sources; or generate
    // of less than MAIN_THREAD_PARSE_BYTES of markdown); otherwise a capped worker does (pool.ts, `capped`).
    const { parseArtifactBytes } = await import("../../core/records/parse-artifact.js");
    return { bytes, ...parseArtifactBytes(artifact, bytes, limits, kept !== undefined, manifest.units === true) };
  };
  const inThread = linesInThread(manifest, parsedAt);
  if (pool === undefined || pool.workers === 0) return encodedInThread(manifest, parsedAt, inThread);
  // By stage (staged-parse.ts): the pool's worker parses, this thread makes the lines.
  if (staged && pool.workers === 1 && locked === undefined)
    return stagedLineSource(manifest, root, pool, sizes, limits);
  return poolLineSource(manifest, root, pool, sizes, inThread, limits);
}

/**
 * The artifacts' lines made in this thread as a worker makes them (generate-pool.ts, artifactBatch): encoded, the
 * markdown's JSON text written from the file's bytes, not serialised as text and encoded again (a fifth of `update`'s
 * workers' time over 6,636 small datasets: bench/RESULTS.md). The same bytes. An artifact read early (a folder's
 * heading) is read as `inThread` reads it; the buffers of the lines handed out go back to the encoder when the caller
 * asks for the next artifact's, as it is done with them then, and the last artifact's when it is done with the dataset
 * (`release`): a buffer a dataset made anew cost `update` of 6,636 small ones 3.9 → 6.2 s.
 */
function encodedInThread(manifest: LockManifest, parsedAt: ParsedAt, inThread: LineSource): ReleasingSource {
  let handed: ArrayBuffer[] = [];
  const source: ReleasingSource = async (position, early = false) => {
    if (early) return inThread(position, true);
    acceptSpares(handed);
    handed = [];
    const { bytes, text, parsed } = await parsedAt(position);
    const encoder = batchEncoder();
    const lines = encodeArtifact(encoder, manifest, manifest.artifacts[position]!, parsed, text, bytes);
    encoder.done();
    handed = buffersOf(lines);
    return lines;
  };
  source.release = () => {
    acceptSpares(handed);
    handed = [];
  };
  return source;
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
