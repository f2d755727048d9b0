/**
 * The worker's stage of generate by stage (staged-parse.ts): a batch of artifacts verified and parsed, and what the main
 * thread makes their lines of, packed to cross between the threads. Loaded by the main thread for the pool's table of
 * tasks only: the parsers load with the first batch, in the worker.
 */
import { DatasetError, errorMessage } from "../../core/errors.js";
import type { ManifestArtifact } from "../../core/lock/manifest.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import type { ParsedArtifact } from "../../core/markdown/targets.js";
import { targetAddressPrefix } from "../../core/address/address.js";
import { citationTargetIdHead, deriveTextDigestOfUtf8, UnitIds } from "../../core/digest.js";
import { localsOf, unitCutsOf, Utf8Offsets } from "../../core/records/generate.js";
import { OperationalError } from "../errors.js";
import { encodeFailure, type TaskFailure } from "../pool/task-failure.js";

/** An artifact parsed in a worker, for its lines to be made in the main thread. */
export interface PackedParse {
  /** The artifact's bytes, as read and verified. */
  bytes: Uint8Array;
  /** FIELDS numbers a target, in order: its start and end in the text, its block indices, its heading's depth (0: none), its start and end in the bytes. */
  targets: Float64Array;
  /** The texts of the targets' headings, in order (a target without a heading has none here). */
  headings: string[];
  firstHeading: string | undefined;
  bodyStart: number;
  blockCount: number;
  /** The text's length. */
  characters: number;
  /** The targets' local coordinates (localsOf), made in the worker. */
  locals: string[];
  /** In a dataset with units: what the main thread makes the units' lines of (PackedUnits). */
  units: PackedUnits | undefined;
}

/** The leaves and the units of an artifact of a dataset with units, cut in the worker (unitCutsOf). */
export interface PackedUnits {
  /** Two numbers a leaf: its line's start in the text, and that line's number (what the units' lines are made of). */
  leaves: Float64Array;
  /** For each target, how many units are cut below it (0: none). */
  counts: Float64Array;
  /** Three numbers a unit, in order: its first leaf, its end, its depth. */
  cuts: Float64Array;
  /** Each unit's step and printed designation. */
  steps: string[];
  printed: string[];
  /** Each unit's citationTargetId and textDigest, made in the worker (two a unit). */
  digests: string[];
}

export const FIELDS = 7;

/** `bytes` in a buffer of their own, which can move to another thread (a file read whole is; a pooled one is copied). */
export function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** What the worker needs of the dataset's fields: the units' citationTargetIds are made there. */
export interface DatasetHead {
  datasetDigest: string;
  slug: string;
}

/** One artifact's answer of a parseBatch task. */
export type ParseResult = { packed: PackedParse } | TaskFailure;

/** What the main thread needs of a parsed artifact (in a worker: `text` is its bytes decoded). */
export function packParse(
  artifact: ManifestArtifact,
  head: DatasetHead,
  text: string,
  parsed: ParsedArtifact,
  bytes: Uint8Array,
): PackedParse {
  const offsets = new Utf8Offsets(text);
  const locals = localsOf(parsed);
  const targets = new Float64Array(parsed.targets.length * FIELDS);
  const headings: string[] = [];
  let at = 0;
  for (const target of parsed.targets) {
    targets[at++] = target.start;
    targets[at++] = target.end;
    targets[at++] = target.blockStart;
    targets[at++] = target.blockEnd;
    targets[at++] = target.heading === undefined ? 0 : target.heading.depth;
    // Asked in the order generation asks them (start, then end, target by target): the same offsets.
    targets[at++] = offsets.byteOf(target.start);
    targets[at++] = offsets.byteOf(target.end);
    if (target.heading !== undefined) headings.push(target.heading.text);
  }
  return {
    // Moves back to the main thread: a buffer of its own (as the main thread sent it).
    bytes: ownBuffer(bytes),
    targets,
    headings,
    firstHeading: parsed.firstHeading,
    bodyStart: parsed.bodyStart,
    blockCount: parsed.blockCount,
    characters: parsed.bodyStart + parsed.body.length,
    locals,
    units: packUnits(artifact, head, parsed, locals, offsets, bytes),
  };
}

/** One UnitIds for the worker's units (their ids made from their locals' bytes, as generation makes them). */
const unitIds = new UnitIds();

function packUnits(
  artifact: ManifestArtifact,
  head: DatasetHead,
  parsed: ParsedArtifact,
  locals: readonly string[],
  offsets: Utf8Offsets,
  bytes: Uint8Array,
): PackedUnits | undefined {
  const perTarget = unitCutsOf(artifact, parsed);
  if (perTarget === undefined || parsed.leaves === undefined) return undefined;
  const leafStarts = parsed.leaves;
  const idHead = citationTargetIdHead(head.datasetDigest, targetAddressPrefix(head.slug, artifact.path));
  const digests: string[] = [];
  // Each unit's citationTargetId and textDigest, as visitUnits makes them (docs/spec.md, "Units below the heading"): its
  // local is its parent's, `/` and its step (units come in pre-order); its markdown runs from its first leaf's line to
  // the next unit's, or to its heading's end.
  for (const [i, units] of perTarget.entries()) {
    if (units === undefined || units.length === 0) continue;
    const target = parsed.targets[i]!;
    const startOf = (leaf: number) => (leaf < target.blockEnd ? leafStarts[leaf]!.lineStart : target.end);
    const parents = [unitIds.heading(idHead, locals[i]!)];
    for (const [u, unit] of units.entries()) {
      while (parents.length > unit.depth) parents.pop();
      const id = unitIds.unit(parents[unit.depth - 1]!, unit.step);
      const from = offsets.byteOf(startOf(unit.first));
      const to = offsets.byteOf(startOf(unit.end));
      digests.push(id, deriveTextDigestOfUtf8(bytes.subarray(from, to)));
      if (u + 1 < units.length && units[u + 1]!.depth > unit.depth) parents.push(unitIds.end);
    }
  }
  const leaves = new Float64Array(parsed.leaves.length * 2);
  for (let k = 0; k < parsed.leaves.length; k++) {
    leaves[2 * k] = parsed.leaves[k]!.lineStart;
    leaves[2 * k + 1] = parsed.leaves[k]!.line;
  }
  const counts = new Float64Array(perTarget.length);
  let total = 0;
  for (let i = 0; i < perTarget.length; i++) {
    counts[i] = perTarget[i]?.length ?? 0;
    total += counts[i]!;
  }
  const cuts = new Float64Array(total * 3);
  const steps: string[] = [];
  const printed: string[] = [];
  let at = 0;
  for (const units of perTarget)
    for (const unit of units ?? []) {
      cuts[at++] = unit.first;
      cuts[at++] = unit.end;
      cuts[at++] = unit.depth;
      steps.push(unit.step);
      printed.push(unit.headingText);
    }
  return { leaves, counts, cuts, steps, printed, digests };
}

/**
 * A task of the pool (worker.ts) when generate runs by stage (staged-parse.ts): parses a batch of artifacts of a
 * dataset (their bytes read and verified by the main thread), and gives what the main thread makes their lines
 * of. A dataset problem comes back as it is; any other error as an operational one naming the artifact.
 */
export async function parseBatch(task: {
  artifacts: ManifestArtifact[];
  /** Their bytes, as the main thread read them (staged-parse.ts). */
  contents: Uint8Array[];
  limits: ArtifactLimits;
  /** The dataset has units below the heading. */
  units: boolean;
  /** What the units' citationTargetIds are made of. */
  head: DatasetHead;
}): Promise<ParseResult[]> {
  const { parseArtifactBytes } = await import("../../core/records/parse-artifact.js");
  return task.artifacts.map((artifact, i): ParseResult => {
    try {
      const bytes = task.contents[i]!;
      // Verified by the main thread as it read them (staged-parse.ts).
      const { text, parsed } = parseArtifactBytes(artifact, bytes, task.limits, true, task.units);
      return { packed: packParse(artifact, task.head, text, parsed, bytes) };
    } catch (error) {
      if (error instanceof DatasetError) return encodeFailure(error);
      return encodeFailure(new OperationalError(`${artifact.path}: ${errorMessage(error)}`));
    }
  });
}
