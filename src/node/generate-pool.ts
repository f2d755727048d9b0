/**
 * generate of one large dataset over the run's pool (docs/spec.md, "Generation"): artifacts are read
 * and parsed in the pool's threads, in batches of neighbours, a bounded window ahead of the record
 * builder, which takes them in document order. The records are built in this thread from the same
 * parses, so the output is byte-identical to a one-thread run; memory holds at most the window's
 * artifacts.
 */
import { type ArtifactLines, DatasetError, type LineSource } from "../core/generate.js";
import type { LockManifest } from "../core/manifest.js";
import type { ArtifactLimits } from "../core/markdown.js";
import { OperationalError } from "./errors.js";
import type { WorkPool } from "./pool.js";
import type { ArtifactResult, DatasetFields } from "./worker.js";

/**
 * How far the pool may run ahead of this thread: at most this many bytes of markdown (their lines
 * take about twice that), and this many artifacts. Far enough that a long statute in one thread does
 * not leave the others idle; bounded, so that memory does not grow with the corpus.
 */
const AHEAD_BYTES = 16 * 2 ** 20;
const AHEAD_ARTIFACTS = 512;
/** Neighbouring artifacts travel in one task up to this many bytes of markdown, or this many artifacts. */
const BATCH_BYTES = 256 * 1024;
const BATCH_ARTIFACTS = 32;

/** The lines of the dataset's artifacts, parsed in the pool: a LineSource for generateLineBatchesFrom. */
export function poolLineSource(manifest: LockManifest, root: string, pool: WorkPool, sizes: readonly number[], limits: ArtifactLimits = {}): LineSource {
  const { artifacts, ignore: _ignore, ...fields } = manifest;
  const datasetFields: DatasetFields = fields;
  /** An artifact's size; where it is not known, a large one is assumed, so that memory stays bounded. */
  const sizeOf = (position: number) => sizes[position] ?? 256 * 1024;
  const results = new Map<number, Promise<ArtifactLines>>();
  let dispatched = 0;
  let aheadBytes = 0;
  /** Sends the next batch of neighbours, from the first position not yet sent. */
  const dispatchBatch = () => {
    const first = dispatched;
    let bytes = 0;
    while (dispatched < artifacts.length && dispatched - first < BATCH_ARTIFACTS && (dispatched === first || bytes + sizeOf(dispatched) <= BATCH_BYTES)) bytes += sizeOf(dispatched++);
    aheadBytes += bytes;
    const batch = pool.run("artifactBatch", { root, fields: datasetFields, artifacts: artifacts.slice(first, dispatched), limits });
    batch.catch(() => undefined); // surfaces when a position of it is awaited
    for (let position = first; position < dispatched; position++) {
      const result = batch.then((answers) => lineOf(answers[position - first]!));
      result.catch(() => undefined);
      results.set(position, result);
    }
  };
  return async (position, early = false) => {
    while (dispatched <= position) dispatchBatch();
    if (early) return results.get(position)!; // a directory-index asked for its folder's heading: kept until its own turn
    while (dispatched < artifacts.length && dispatched - position < AHEAD_ARTIFACTS && aheadBytes < AHEAD_BYTES) dispatchBatch();
    const result = await results.get(position)!;
    results.delete(position);
    aheadBytes -= sizeOf(position);
    return result;
  };
}

function lineOf(answer: ArtifactResult): ArtifactLines {
  if ("lines" in answer) return answer.lines;
  throw answer.operational ? new OperationalError(answer.problems.join("\n")) : new DatasetError(answer.problems);
}
