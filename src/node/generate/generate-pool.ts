/**
 * generate of one large dataset over the run's pool (docs/spec.md, "Generation"): artifacts are read and parsed in the
 * pool's workers, in batches of neighbours, and in this thread for its share, a bounded window ahead of the record
 * builder, which takes them in document order. The records are built in this thread from the same parses, so the output
 * is byte-identical to a one-thread run; memory holds at most the window's artifacts.
 */
import {
  sourceBytesOf,
  targetLineTemplate,
  writeArtifactByteLines,
  type EncodedArtifactLines,
  type LineSource,
  type RecordManifest,
  type SomeArtifactLines,
} from "../../core/records/generate.js";
import { acceptSpares, batchEncoder } from "./encoded-lines.js";
import { DatasetError, errorMessage } from "../../core/errors.js";
import type { LockManifest, ManifestArtifact } from "../../core/lock/manifest.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import type { ParsedArtifact } from "../../core/markdown/targets.js";
import { OperationalError } from "../errors.js";
import { resolveArtifact } from "../dataset/manifest-io.js";
import type { WorkPool } from "../pool/pool.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { decodeFailure, encodeFailure, isTaskFailure, type TaskFailure } from "../pool/task-failure.js";
import { parseBatch } from "./parse-batch.js";

/**
 * The dataset-level fields a worker reads: what a record needs besides its artifact (RecordManifest: the compiler holds
 * writeArtifactByteLines to it, and headOf below to all of it), and whether the dataset has units. Only these go with each batch: the rest of the manifest (the artifacts,
 * a statute book's `documentAliases` of every law) is not read there, and a structured clone of it with every batch
 * cost as much as the units' records themselves (bench/RESULTS.md, "Units").
 */
export type ManifestHead = RecordManifest & Pick<LockManifest, "lockVersion" | "units">;

/** The ManifestHead of a manifest. */
function headOf(manifest: LockManifest): ManifestHead {
  const { lockVersion, slug, titleId, name, versionDate, sourceTextUrl, datasetDigest, units } = manifest;
  return {
    lockVersion,
    slug,
    titleId,
    name,
    versionDate,
    sourceTextUrl,
    datasetDigest,
    ...(units !== undefined ? { units } : {}),
  };
}

/** One artifact's lines, or why it could not be parsed. */
export type ArtifactResult = { lines: EncodedArtifactLines } | TaskFailure;

/**
 * A task of the pool (worker.ts): reads, parses and serialises a batch of artifacts of one dataset (generate of a large
 * dataset). A dataset problem comes back as it is; any other error as an operational one naming the artifact.
 */
export async function artifactBatch(task: {
  root: string;
  fields: ManifestHead;
  artifacts: ManifestArtifact[];
  limits: ArtifactLimits;
  /** Buffers of earlier answers the main thread is done with, for this batch's lines (encoded-lines.ts, spares). */
  spares?: ArrayBuffer[];
}): Promise<ArtifactResult[]> {
  if (task.spares !== undefined) acceptSpares(task.spares);
  // The markdown and YAML parsers load with the first batch (in a worker, as it starts: worker.ts), not with this module,
  // which the main thread loads to hand out the batches.
  const { parseArtifactBytes } = await import("../../core/records/parse-artifact.js");
  const encoder = batchEncoder();
  const results = task.artifacts.map((artifact): ArtifactResult => {
    try {
      const bytes = readRegularFileSync(resolveArtifact(task.root, artifact.path));
      const { text, parsed } = parseArtifactBytes(artifact, bytes, task.limits, false, task.fields.units === true);
      return { lines: encodeArtifact(encoder, task.fields, artifact, parsed, text, bytes) };
    } catch (error) {
      if (error instanceof DatasetError) return encodeFailure(error);
      return encodeFailure(new OperationalError(`${artifact.path}: ${errorMessage(error)}`));
    }
  });
  encoder.done();
  return results;
}

/**
 * An artifact's lines, encoded by `encoder` from its parse: the markdown's JSON text written from its bytes (`text` is
 * them decoded). As a worker makes them (artifactBatch), and this thread when it parses (generated-lines.ts).
 */
export function encodeArtifact(
  encoder: ReturnType<typeof batchEncoder>,
  fields: RecordManifest,
  artifact: ManifestArtifact,
  parsed: ParsedArtifact,
  text: string,
  bytes: Uint8Array,
): EncodedArtifactLines {
  const source = sourceBytesOf(text, bytes);
  return encoder.add(targetLineTemplate(fields, artifact), (line) =>
    writeArtifactByteLines(fields, artifact, parsed, source, line),
  );
}

/** The kinds of task a pool that parses artifacts runs. */
export const ARTIFACT_TASKS = { artifactBatch, parseBatch };
export type ArtifactTasks = typeof ARTIFACT_TASKS;

/**
 * How far the pool may run ahead of this thread: at most this many bytes of markdown (their lines
 * take about twice that), and this many artifacts. Far enough that a long statute in one thread does
 * not leave the others idle; bounded, so that memory does not grow with the corpus.
 */
export const AHEAD_BYTES = 4 * 2 ** 20;
export const AHEAD_ARTIFACTS = 512;
/** Neighbouring artifacts travel in one task up to this many bytes of markdown, or this many artifacts. */
const BATCH_BYTES = 256 * 1024;
const BATCH_ARTIFACTS = 32;

/**
 * Where the batch of neighbours from `first` ends (BATCH_BYTES, BATCH_ARTIFACTS; a larger artifact is a batch of its
 * own), and its bytes of markdown.
 */
export function batchFrom(
  first: number,
  count: number,
  sizeOf: (position: number) => number,
): { end: number; bytes: number } {
  let end = first;
  let bytes = 0;
  while (end < count && end - first < BATCH_ARTIFACTS && (end === first || bytes + sizeOf(end) <= BATCH_BYTES))
    bytes += sizeOf(end++);
  return { end, bytes };
}

/**
 * A batch's failure, as its positions tell it: a worker out of memory (pool.ts, WorkerMemoryError: made again by its
 * own constructor, so that the workers, which load this module, do not load the pool's) names the artifacts it held.
 */
export function namingHeld(sent: readonly ManifestArtifact[]): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof Error) || error.name !== "WorkerMemoryError" || sent.length === 0) throw error;
    const more = sent.length > 1 ? ` (or one of the ${sent.length - 1} after it)` : "";
    const Made = error.constructor as new (heapMb: number, held: string) => Error;
    throw new Made((error as Error & { heapMb: number }).heapMb, `while it parsed ${sent[0]!.path}${more}`);
  };
}
/** At most this many buffers go back to the workers with one batch. */
const SPARES_PER_BATCH = 4;

/**
 * The share of the markdown this thread parses itself, next to the pool's workers: it also joins the
 * lines in order and writes them, so it takes less than a worker.
 */
const OWN_SHARE = 0.6;

/**
 * The lines of the dataset's artifacts, parsed in the pool's workers and, when the pool was made
 * with this thread working too, here (`inThread`): a LineSource for generateLineBatchesFrom.
 */
export function poolLineSource(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks>,
  sizes: readonly number[],
  inThread: LineSource,
  limits: ArtifactLimits = {},
): LineSource {
  const { artifacts } = manifest;
  const datasetFields = headOf(manifest);
  /** An artifact's size; where it is not known, a large one is assumed, so that memory stays bounded. */
  const sizeOf = (position: number) => sizes[position] ?? 256 * 1024;
  const results = new Map<number, Promise<SomeArtifactLines>>();
  /** Positions this thread parses itself when their turn comes. */
  const own = new Set<number>();
  const mainWorks = pool.threads > pool.workers;
  let ownLoad = 0;
  /** Bytes of markdown sent to the workers and not yet answered. */
  let poolLoad = 0;
  let dispatched = 0;
  let aheadBytes = 0;
  /**
   * The buffers of the answer handed out last, each buffer of the batches' answers with the number of its answers not yet
   * done with (an answer's lines may be in two buffers or more, and a buffer may hold several answers' lines: batchEncoder),
   * and the buffers all of whose answers are done: they go back to the workers with the next batches (acceptSpares). The
   * caller is done with an answer's bytes when it asks for the next position.
   */
  let handed: ArrayBuffer[] = [];
  const uses = new Map<ArrayBuffer, number>();
  const returned: ArrayBuffer[] = [];
  /** Sends the next batch of neighbours, from the first position not yet sent, to the workers or to this thread. */
  const dispatchBatch = () => {
    const first = dispatched;
    const { end, bytes } = batchFrom(first, artifacts.length, sizeOf);
    dispatched = end;
    aheadBytes += bytes;
    if (mainWorks && ownLoad + bytes <= OWN_SHARE * (poolLoad / pool.workers + bytes)) {
      ownLoad += bytes;
      for (let position = first; position < dispatched; position++) own.add(position);
      return;
    }
    poolLoad += bytes;
    const spares = returned.splice(0, SPARES_PER_BATCH);
    const sent = artifacts.slice(first, dispatched);
    const batch = pool
      .run("artifactBatch", { root, fields: datasetFields, artifacts: sent, limits, spares }, spares)
      .catch(namingHeld(sent));
    const answered = batch.finally(() => {
      poolLoad -= bytes;
    });
    answered.then(
      (answers) => {
        for (const answer of answers)
          if (!isTaskFailure(answer))
            for (const buffer of buffersOf(answer.lines)) uses.set(buffer, (uses.get(buffer) ?? 0) + 1);
      },
      () => undefined,
    ); // a failure surfaces when a position of it is awaited
    for (let position = first; position < dispatched; position++) {
      const result = answered.then((answers) => lineOf(answers[position - first]!));
      result.catch(() => undefined);
      results.set(position, result);
    }
  };
  return async (position, early = false) => {
    while (dispatched <= position) dispatchBatch();
    if (early) return own.has(position) ? inThread(position, true) : results.get(position)!; // a directory-index asked for its folder's heading: kept until its own turn
    for (const buffer of handed) {
      const left = uses.get(buffer)! - 1;
      if (left > 0) uses.set(buffer, left);
      else {
        uses.delete(buffer);
        returned.push(buffer);
      }
    }
    handed = [];
    while (dispatched < artifacts.length && dispatched - position < AHEAD_ARTIFACTS && aheadBytes < AHEAD_BYTES)
      dispatchBatch();
    let result: SomeArtifactLines;
    if (own.delete(position)) {
      result = await inThread(position);
      ownLoad -= sizeOf(position);
    } else {
      result = await results.get(position)!;
      results.delete(position);
      if ("bytes" in result) handed = buffersOf(result);
    }
    aheadBytes -= sizeOf(position);
    return result;
  };
}

/** The buffers an answer's lines are in (none for an answer with no lines), each once. */
export function buffersOf(lines: EncodedArtifactLines): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  if (lines.bytes.byteLength > 0) buffers.push(lines.bytes.buffer as ArrayBuffer);
  for (const run of lines.more ?? []) {
    const buffer = run.bytes.buffer as ArrayBuffer;
    if (run.bytes.byteLength > 0 && !buffers.includes(buffer)) buffers.push(buffer);
  }
  return buffers;
}

function lineOf(answer: ArtifactResult): EncodedArtifactLines {
  if (isTaskFailure(answer)) throw decodeFailure(answer);
  return answer.lines;
}
