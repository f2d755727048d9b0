/**
 * generate over two threads by stage (docs/spec.md, "Generation"): this thread reads and verifies the artifacts, a
 * capped worker parses them, and this thread makes their lines from what the parse found. Each thread then compiles the code of its own
 * stage only: with both threads doing every stage, each compiled all of it, some 0.65 s of CPU a thread for the statute
 * book, which on two cores was a fifth of the run (bench/RESULTS.md, "generate against markdown-it"). Used for a
 * dataset with or without units on two threads; the lines are made by the same code as in the workers, byte for byte
 * the same.
 *
 * What crosses from the worker is small: the artifact's bytes (moved, not copied), and its targets as numbers in one
 * typed array with their headings' texts, each target's bounds given both in the text (UTF-16) and in the bytes, so
 * that this thread never decodes the text.
 */
import { DatasetError, errorMessage } from "../../core/errors.js";
import type { LockManifest, ManifestArtifact } from "../../core/lock/manifest.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import type { Leaf } from "../../core/markdown/leaves.js";
import type { ParsedArtifact, TargetCut } from "../../core/markdown/targets.js";
import type { UnitCut } from "../../core/markdown/units.js";
import {
  type EncodedArtifactLines,
  type LineSource,
  type SourceBytes,
  targetLineTemplate,
  writeArtifactByteLines,
} from "../../core/records/generate.js";
import { resolveArtifact } from "../dataset/manifest-io.js";
import { OperationalError } from "../errors.js";
import { readRegularFileSync } from "../files/regular-file.js";
import type { WorkPool } from "../pool/pool.js";
import { decodeFailure, isTaskFailure } from "../pool/task-failure.js";
import { verifyArtifactBytes } from "../../core/records/verify-artifact.js";
import { acceptSpares, batchEncoder } from "./encoded-lines.js";
import { FIELDS, ownBuffer, type PackedParse, type PackedUnits, type ParseResult } from "./parse-batch.js";
import { AHEAD_ARTIFACTS, AHEAD_BYTES, type ArtifactTasks, batchFrom, buffersOf, namingHeld } from "./generate-pool.js";

/** An artifact's lines from its parse made in a worker: the same bytes as artifactBatch makes there. */
function linesOfPacked(manifest: LockManifest, artifact: ManifestArtifact, packed: PackedParse): EncodedArtifactLines {
  const targets: TargetCut[] = [];
  /** The targets' bounds in the text, to their offsets in the bytes. */
  const known = new Map<number, number>();
  const numbers = packed.targets;
  let h = 0;
  for (let at = 0; at < numbers.length; at += FIELDS) {
    const depth = numbers[at + 4]!;
    targets.push({
      start: numbers[at]!,
      end: numbers[at + 1]!,
      blockStart: numbers[at + 2]!,
      blockEnd: numbers[at + 3]!,
      heading: depth === 0 ? undefined : { text: packed.headings[h++]!, depth },
    });
    known.set(numbers[at]!, numbers[at + 5]!);
    known.set(numbers[at + 1]!, numbers[at + 6]!);
  }
  const parsed: ParsedArtifact = {
    bodyStart: packed.bodyStart,
    body: "",
    blockCount: packed.blockCount,
    targets,
    firstHeading: packed.firstHeading,
    characters: packed.characters,
    locals: packed.locals,
  };
  if (packed.units !== undefined) unpackUnits(parsed, packed.units);
  const source: SourceBytes = {
    bytes: packed.bytes,
    offsets: {
      byteOf(offset) {
        const byte = known.get(offset);
        if (byte === undefined) throw new Error(`no byte offset known for the text offset ${offset}`);
        return byte;
      },
    },
  };
  const encoder = batchEncoder();
  try {
    const lines = encoder.add(targetLineTemplate(manifest, artifact), (line) =>
      writeArtifactByteLines(manifest, artifact, parsed, source, line),
    );
    encoder.done();
    return lines;
  } catch (error) {
    // As a worker reports it (generate-pool.ts, artifactBatch).
    if (error instanceof DatasetError) throw error;
    throw new OperationalError(`${artifact.path}: ${errorMessage(error)}`);
  }
}

/** No chain: the units are cut in the worker, and only a leaf's line start and number are read here. */
const NO_CHAIN: readonly number[] = [];

/** The leaves and units of an artifact of a dataset with units, as the worker cut them (PackedUnits). */
function unpackUnits(parsed: ParsedArtifact, units: PackedUnits): void {
  const leaves: Leaf[] = [];
  for (let k = 0; k < units.leaves.length; k += 2)
    leaves.push({
      lineStart: units.leaves[k]!,
      line: units.leaves[k + 1]!,
      text: "",
      chain: NO_CHAIN,
      item: undefined,
      indented: undefined,
    });
  const perTarget: (UnitCut[] | undefined)[] = [];
  let u = 0;
  for (let i = 0; i < units.counts.length; i++) {
    const count = units.counts[i]!;
    if (count === 0) {
      perTarget.push(undefined);
      continue;
    }
    const cut: UnitCut[] = [];
    for (let j = 0; j < count; j++, u++)
      cut.push({
        step: units.steps[u]!,
        headingText: units.printed[u]!,
        first: units.cuts[3 * u]!,
        end: units.cuts[3 * u + 1]!,
        depth: units.cuts[3 * u + 2]!,
        citationTargetId: units.digests[2 * u]!,
        textDigest: units.digests[2 * u + 1]!,
      });
    perTarget.push(cut);
  }
  parsed.leaves = leaves;
  parsed.unitCuts = perTarget;
}

/**
 * The lines of the dataset's artifacts, parsed in the pool's one worker a bounded window ahead and made here in
 * document order: a LineSource for generateLineStepsFrom. An artifact asked for early (a folder's directory-index, for
 * the folder's heading) has its lines made then, and kept for its turn.
 */
export function stagedLineSource(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks>,
  sizes: readonly number[],
  limits: ArtifactLimits = {},
): LineSource {
  const { artifacts } = manifest;
  const sizeOf = (position: number) => sizes[position] ?? 256 * 1024;
  const parses = new Map<number, Promise<PackedParse>>();
  /** Lines made for an artifact asked for early, until its turn. */
  const early = new Map<number, EncodedArtifactLines>();
  let dispatched = 0;
  let aheadBytes = 0;
  /** The buffers of the lines handed out last: taken back for the next lines when the caller asks for those. */
  let handed: ArrayBuffer[] = [];
  const dispatchBatch = () => {
    const first = dispatched;
    const { end, bytes } = batchFrom(first, artifacts.length, sizeOf);
    dispatched = end;
    aheadBytes += bytes;
    // Read here, as a worker reads them (generate-pool.ts, artifactBatch): the worker is the busier of the two threads.
    // One that cannot be read fails its position, named as a worker names it.
    const sent: ManifestArtifact[] = [];
    const contents: Uint8Array[] = [];
    const unread = new Map<number, Error>();
    for (let position = first; position < dispatched; position++) {
      const artifact = artifacts[position]!;
      try {
        const bytes = readRegularFileSync(resolveArtifact(root, artifact.path));
        // Verified here (sha256, UTF-8), as the worker would: of the two threads, the worker is the busier.
        verifyArtifactBytes(artifact, bytes);
        contents.push(ownBuffer(bytes));
        sent.push(artifact);
      } catch (error) {
        unread.set(
          position,
          error instanceof DatasetError ? error : new OperationalError(`${artifact.path}: ${errorMessage(error)}`),
        );
      }
    }
    const moved: ArrayBuffer[] = [];
    for (const bytes of contents) if (bytes.byteLength > 0) moved.push(bytes.buffer as ArrayBuffer);
    // None read: nothing to send (a batch of one large file that could not be read, or of several that all failed).
    const batch: Promise<ParseResult[]> =
      sent.length === 0
        ? Promise.resolve([])
        : pool
            .run(
              "parseBatch",
              {
                artifacts: sent,
                contents,
                limits,
                units: manifest.units === true,
                head: { datasetDigest: manifest.datasetDigest, slug: manifest.slug },
              },
              moved,
            )
            .catch(namingHeld(sent));
    // Its failure surfaces at the positions that await it; a batch none of whose positions is awaited any more (the run
    // stopped at an earlier one, the pool closed) fails unheard, not as an unhandled rejection that ends the process.
    batch.catch(() => undefined);
    let answered = 0;
    for (let position = first; position < dispatched; position++) {
      const failed = unread.get(position);
      const index = failed === undefined ? answered++ : -1;
      const parse =
        failed !== undefined
          ? Promise.reject(failed)
          : batch.then((answers) => {
              const answer = answers[index]!;
              if (isTaskFailure(answer)) throw decodeFailure(answer);
              return answer.packed;
            });
      parse.catch(() => undefined); // a failure surfaces when its position is awaited
      parses.set(position, parse);
    }
  };
  const made = async (position: number) => {
    const packed = await parses.get(position)!;
    parses.delete(position);
    return linesOfPacked(manifest, artifacts[position]!, packed);
  };
  return async (position, isEarly = false) => {
    while (dispatched <= position) dispatchBatch();
    if (isEarly) {
      let lines = early.get(position);
      if (lines === undefined) {
        lines = await made(position);
        early.set(position, lines);
      }
      return lines;
    }
    // The caller is done with the lines handed out before.
    acceptSpares(handed);
    handed = [];
    while (dispatched < artifacts.length && dispatched - position < AHEAD_ARTIFACTS && aheadBytes < AHEAD_BYTES)
      dispatchBatch();
    let lines = early.get(position);
    if (lines === undefined) lines = await made(position);
    else early.delete(position);
    aheadBytes -= sizeOf(position);
    handed = buffersOf(lines);
    return lines;
  };
}
