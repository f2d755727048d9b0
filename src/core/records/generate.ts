/**
 * Deterministic generation of citation-target records from a lock manifest and its artifacts
 * (docs/spec.md, "Generation"). Pure: the artifact bytes come through `read`, so the same
 * manifest and bytes give the same records on every machine. Memory grows with the largest
 * artifact, not the dataset: records are yielded one artifact at a time.
 */

import { formatAddress, isLocalCoordinate, targetAddress, targetAddressPrefix } from "../address/address.js";
import { decodeUtf8, utf8ByteLength } from "../bytes.js";
import { assignLocalCoordinates, type HeadingInput } from "../address/numbering.js";
import {
  type CitationTargetIdHead,
  citationTargetIdHead,
  citationTargetIdOf,
  UnitIds,
  deriveCitationTargetId,
  deriveTextDigest,
  deriveTextDigestOfUtf8,
} from "../digest.js";
import { computeDatasetDigest, type LockManifest, type ManifestArtifact } from "../lock/manifest.js";
import { headingTrailCap, headingTrailRefusal } from "../markdown/limits.js";
import type { ParsedArtifact } from "../markdown/targets.js";
import { cutUnits, type UnitCut } from "../markdown/units.js";
import { SCHEMA_VERSION } from "../schema/schema.js";
import { DatasetError } from "../errors.js";
import { dirnameOf, folderChain } from "../paths.js";
import {
  artifactRecordFields,
  artifactSegments,
  artifactTrailBase,
  canonicalPathOf,
  containerStructuralPath,
  targetStructuralPath,
} from "../model.js";
import {
  byteAndJsonOffsets,
  escapedOffsets,
  type OutputRecord,
  serializeRecord,
  serializeRecordCut,
  valueJson,
} from "./record-line.js";

export type ArtifactReader = (path: string) => Promise<Uint8Array>;

/** The effective kind of an artifact: as set, else `file`. */
export function artifactKind(artifact: ManifestArtifact) {
  return artifactRecordFields(artifact).sourceArtifactKind;
}

/**
 * Checks what can be checked without reading artifacts: paths, duplicates, directory contiguity, one index per folder.
 */
export function planDataset(manifest: LockManifest): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const closed = new Set<string>();
  const indexes = new Map<string, string>();
  let open: string[] = [];
  for (const artifact of manifest.artifacts) {
    const path = artifact.path;
    if (seen.has(path)) problems.push(`${path}: listed twice in the manifest`);
    seen.add(path);
    if (path.normalize("NFC") !== path) problems.push(`${path}: the path is not in Unicode NFC; rename the file`);
    const stem = path.slice(path.lastIndexOf("/") + 1, -3);
    if (
      path.split("/").some((s) => s === "" || s === "." || s === "..") ||
      !path.endsWith(".md") ||
      /[\u0000\r\n\\]/.test(path) ||
      stem === "" ||
      stem === "." ||
      stem === ".."
    ) {
      problems.push(`${path}: not a relative POSIX path to a .md file inside the dataset root`);
      continue;
    }
    const chain = folderChain(path);
    open = open.filter((folder, i) => {
      if (chain[i] === folder) return true;
      closed.add(folder);
      return false;
    });
    for (const folder of chain.slice(open.length)) {
      if (closed.has(folder))
        problems.push(
          `${path}: folder "${folder}" is not contiguous in document order (its artifacts must follow each other)`,
        );
      open.push(folder);
    }
    if (artifactKind(artifact) === "directory-index") {
      const folder = dirnameOf(path);
      const other = indexes.get(folder);
      if (other !== undefined)
        problems.push(`${path}: folder "${folder || "."}" already has a directory-index artifact (${other})`);
      else indexes.set(folder, path);
    }
  }
  for (const path of Object.keys(manifest.documentAliases ?? {}))
    if (!seen.has(path))
      problems.push(
        `${path}: documentAliases names it, but it is not an artifact of the manifest (lock the dataset again)`,
      );
  if (manifest.aliases !== undefined && manifest.documentAliases !== undefined)
    problems.push(
      "aliases and documentAliases are both set: a dataset is one law (aliases) or several (documentAliases); lock it again",
    );
  return problems;
}

interface OpenFolder {
  path: string;
  headingText: string;
}

/** An artifact read, verified, decoded and cut into targets. */
export interface ParsedSource {
  text: string;
  parsed: ParsedArtifact;
}

/**
 * Gives the artifact at a position of the manifest, parsed. Positions are asked for in order, except
 * that a folder's directory-index may be asked for early (for the folder's heading) and again at its
 * turn; an implementation may work ahead (read-ahead, worker threads), holding a bounded number.
 */
export type ArtifactSource = (position: number, early?: boolean) => Promise<ParsedSource>;

/** The fields every record of the dataset repeats. */
interface Common {
  datasetDigest: string;
  name: string;
  schemaVersion: string;
  slug: string;
  sourceTextUrl: string;
  textDigestAlgorithm: string;
  titleId: string;
  versionDate: string;
}

/**
 * Checks the manifest as generation needs it and gives the fields every record repeats. `checked`: lock made the
 * manifest in this run, and checked it so (update).
 */
function datasetCommon(manifest: LockManifest, checked = false): Common {
  if (checked) return commonOf(manifest);
  const planned = planDataset(manifest);
  if (planned.length > 0) throw new DatasetError(planned);
  const datasetDigest = computeDatasetDigest(manifest);
  if (manifest.datasetDigest !== datasetDigest) {
    throw new DatasetError([
      `manifest datasetDigest is ${manifest.datasetDigest} but its content digests to ${datasetDigest}: it was edited by hand: run \`citation-targets update <manifest>\` to keep the edit, or set it back`,
    ]);
  }
  return commonOf(manifest);
}

/**
 * The members of a markdown-artifact target's record that only the whole dataset decides: its place in the dataset, and
 * the trail of the folders above its artifact.
 */
const DATASET_PLACED = ["documentOrder", "headingTrail"];

/**
 * Every string of a generated record is well-formed UTF-16 (no lone surrogate): the manifest's
 * strings passed the canonicaliser of its datasetDigest (datasetCommon), the markdown was decoded from
 * valid UTF-8 and is cut at line starts, and the addresses passed their grammar. So the serialiser
 * is told so, and skips that pass over every string (what a general caller's records need).
 */
const WELL_FORMED = true;

/**
 * A markdown-artifact target as its artifact alone decides it: the members of its record that differ between the
 * targets of one artifact (recordOf makes the record of them, with `documentOrder` 0 and `headingTrail` its
 * `ownTrail`, for the walk over the dataset to set; a writer of bytes writes them into its line template,
 * TargetLineTemplate), and what is known of their JCS texts. Made with every member set (targetOf), one shape for all.
 */
interface ArtifactTarget {
  /** Its local coordinate: the structuralPath and canonicalPath are the artifact's and it (recordOf). */
  local: string;
  citationAddress: string;
  citationTargetId: string;
  headingText: string;
  /**
   * The markdown; "" when the target is made on the source bytes (SourceBytes), whose writer writes its JSON text from
   * them (`markdownBytes`).
   */
  markdown: string;
  blockEnd: number;
  blockStart: number;
  textDigest: string;
  /**
   * The headings above the target inside its artifact (the end of its headingTrail); not made for a unit whose
   * `ownTrailJson` is given, when its record is not made (a writer of bytes).
   */
  ownTrail: string[] | undefined;
  /**
   * The JCS text of its markdown, when made already without the source bytes: a heading with units below it and its
   * units (a unit's text is a slice of its heading's, escaped once).
   */
  markdownJson: string | undefined;
  /**
   * A unit's, made on the source bytes: where its markdown's JSON text is in its heading's (which has its opening quote
   * at 0): the writer copies it from the heading's line, the last line before it with `markdownBytes`. Else -1.
   */
  jsonFrom: number;
  jsonTo: number;
  /** The JCS text of `ownTrail`, when made already: a unit's, its parent's with one more entry. */
  ownTrailJson: string | undefined;
  /** The JCS text of `headingText`, when made already: a unit's. */
  headingTextJson: string | undefined;
  /** Where its markdown starts and ends in the source bytes, when made on them (SourceBytes): a heading's. Else -1. */
  byteStart: number;
  byteEnd: number;
  /**
   * The source bytes, for a heading made on them: the writer writes the JSON text of their run `[byteStart, byteEnd)`
   * itself (what `JSON.stringify` of the run read as Latin-1 gives: SourceBytes), and `markdownJson` is not made. Else
   * undefined.
   */
  markdownBytes: Uint8Array | undefined;
  /**
   * A unit's, made on the source bytes: its local as UTF-8, `localBytes[localFrom, localTo)` (valid until the next unit
   * is made), written by the writer as it is (`local` is not made then). Else undefined and -1.
   */
  localBytes: Uint8Array | undefined;
  localFrom: number;
  localTo: number;
}

/**
 * An artifact's source bytes, for a generator that writes bytes (worker threads): each target's markdown is a slice of
 * them, so its textDigest is the SHA-256 of that slice (the same as of the text encoded: deriveTextDigestOfUtf8), and
 * its JSON text is written from the bytes read one byte to one character (Latin-1): `JSON.stringify` escapes only `"`,
 * `\` and characters below U+0020 (JSON_ESCAPES), and in UTF-8 those bytes are never part of a longer sequence, so the
 * escaped bytes are the UTF-8 bytes of the escaped text.
 */
export interface SourceBytes {
  bytes: Uint8Array;
  /** UTF-16 offsets of the artifact's text to byte offsets. */
  offsets: ByteOffsets;
}

/** UTF-16 offsets of an artifact's text to the offsets of its bytes (Utf8Offsets; its targets' bounds, known). */
export interface ByteOffsets {
  byteOf(offset: number): number;
}

/** The source bytes of an artifact whose text is `text` (its bytes decoded). */
export function sourceBytesOf(text: string, bytes: Uint8Array): SourceBytes {
  return { bytes, offsets: new Utf8Offsets(text) };
}

/**
 * For each byte, what JSON.stringify writes for it as a character of a string read one byte to one character (Latin-1):
 * 0 for itself; else the letter of its escape after the backslash (`"`, `\\`, `b`, `t`, `n`, `f`, `r`), or `u` for the
 * other characters below U+0020, written `\u00` and two lowercase hex digits (five characters more than the byte).
 */
export const JSON_ESCAPES = (() => {
  const escapes = new Uint8Array(256);
  for (let b = 0; b < 0x20; b++) escapes[b] = 0x75;
  escapes[0x08] = 0x62;
  escapes[0x09] = 0x74;
  escapes[0x0a] = 0x6e;
  escapes[0x0c] = 0x66;
  escapes[0x0d] = 0x72;
  escapes[0x22] = 0x22;
  escapes[0x5c] = 0x5c;
  return escapes;
})();

/**
 * Whether none of the four bytes of `word` is escaped in JSON: none below 0x20, none `"` (0x22) or `\` (0x5c). The
 * tests of a byte below a value and of a byte equal to one, on the word's bytes at once (each may say yes for a byte
 * next to one that is, never no for one that is: such a word goes a byte at a time).
 */
export function plainJsonWord(word: number): boolean {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  const below = (word - 0x20202020) & ~word;
  const quotes = (quote - 0x01010101) & ~quote;
  const backslashes = (backslash - 0x01010101) & ~backslash;
  return ((below | quotes | backslashes) & 0x80808080) === 0;
}

/**
 * UTF-16 offsets of a text to the offsets of its UTF-8 bytes, for offsets asked mostly in ascending order (each
 * measured from the nearest offset known below it, never from the start again).
 */
export class Utf8Offsets implements ByteOffsets {
  /** Offsets known, ascending: text, bytes. */
  private readonly texts: number[] = [0];
  private readonly bytes: number[] = [0];
  /** A cursor behind the last offset known (a unit inside its heading's target): text, bytes. */
  private backText = 0;
  private backByte = 0;
  constructor(private readonly text: string) {}

  /** Offsets asked below the last known, and their bytes (a unit's bounds are asked again for its record). */
  private readonly asked = new Map<number, number>();

  byteOf(offset: number): number {
    const known = this.asked.get(offset);
    if (known !== undefined) return known;
    const last = this.texts.length - 1;
    const lastText = this.texts[last]!;
    if (offset >= lastText) {
      if (offset === lastText) return this.bytes[last]!;
      const byte = this.bytes[last]! + utf8ByteLength(this.text.slice(lastText, offset));
      this.texts.push(offset);
      this.bytes.push(byte);
      return byte;
    }
    if (!(this.backText <= offset && this.nextKnown(this.backText) > offset)) {
      // The nearest offset known below: binary search.
      let lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.texts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      this.backText = this.texts[lo]!;
      this.backByte = this.bytes[lo]!;
    }
    this.backByte += utf8ByteLength(this.text.slice(this.backText, offset));
    this.backText = offset;
    this.asked.set(offset, this.backByte);
    return this.backByte;
  }

  /** The first offset known above `offset`. */
  private nextKnown(offset: number): number {
    let lo = 0;
    let hi = this.texts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.texts[mid]! > offset) hi = mid;
      else lo = mid + 1;
    }
    return this.texts[lo]! > offset ? this.texts[lo]! : Number.POSITIVE_INFINITY;
  }
}

/**
 * The targets of one parsed artifact as records: their locals, addresses, paths, trails inside the artifact and
 * digests.
 */
function artifactTargets(
  common: Common,
  artifact: ManifestArtifact,
  parsed: ParsedArtifact,
): { targets: RecordTarget[]; trails: TrailSpent } {
  const fields = artifactRecordFields(artifact);
  const targets: RecordTarget[] = [];
  const trails = visitArtifactTargets(common, artifact, parsed, undefined, (target) => {
    // Without source bytes every target has its trail (visitArtifactTargets).
    const ownTrail = target.ownTrail!;
    targets.push({
      record: recordOf(common, fields, artifact.path, target, ownTrail),
      ownTrail,
      markdownJson: target.markdownJson,
      ownTrailJson: target.ownTrailJson,
    });
  });
  return { targets, trails };
}

/** A target's record (recordOf), with what ArtifactTarget knows of its JCS texts. */
interface RecordTarget {
  record: OutputRecord;
  ownTrail: string[];
  markdownJson: string | undefined;
  ownTrailJson: string | undefined;
}

/**
 * What an artifact's own trails spent of its cap (docs/spec.md, section 13, "heading trails"): its length, and the
 * characters of the headings above its targets inside it, added up over its records. The walk over the dataset adds
 * what its folders' trails repeat in them (TrailCharge).
 */
export interface TrailSpent {
  characters: number;
  trail: number;
}

/**
 * artifactTargets one target at a time, in document order, to `visit` as each is made: a caller that serialises and
 * writes each at once keeps none of them (garbage that dies young is cheap to collect; an artifact's targets kept
 * until the last is made survive the young generation's collections: bench/RESULTS.md, "Units").
 */
function visitArtifactTargets(
  common: Common,
  artifact: ManifestArtifact,
  parsed: ParsedArtifact,
  source: SourceBytes | undefined,
  visit: (target: ArtifactTarget) => void,
): TrailSpent {
  const fields = artifactRecordFields(artifact);
  const idHead = citationTargetIdHead(common.datasetDigest, targetAddressPrefix(common.slug, artifact.path));
  // Arrays that the compiled code reads are built by push from a literal, so that they are of one elements kind
  // whatever the artifact (an array of another kind met costs a deoptimisation: bench/RESULTS.md, "Units").
  const locals: string[] = [];
  for (const local of parsed.locals ?? localsOf(parsed)) locals.push(local);
  const headingStack: { depth: number; text: string }[] = [];
  // The cap on the trails is checked as each record is made, before its line: a file over it stops at the record that
  // passes it, having made lines for at most the cap.
  const characters = parsed.characters ?? parsed.bodyStart + parsed.body.length;
  const cap = headingTrailCap(characters);
  let trail = 0;
  const spend = (more: number) => {
    trail += more;
    if (trail > cap) throw new DatasetError([headingTrailRefusal(artifact.path, characters)]);
  };
  /** The characters of the headings on headingStack. */
  let stackCharacters = 0;
  for (const [i, target] of parsed.targets.entries()) {
    if (target.heading)
      while (headingStack.length > 0 && headingStack[headingStack.length - 1]!.depth >= target.heading.depth)
        stackCharacters -= headingStack.pop()!.text.length;
    spend(stackCharacters);
    const ownTrail: string[] = [];
    for (let h = 0; h < headingStack.length; h++) ownTrail.push(headingStack[h]!.text);
    const local = locals[i]!;
    const headingText = target.heading?.text ?? "";
    const heading: ArtifactTarget = targetOf(
      idHead,
      parsed,
      target.start,
      target.end,
      target.blockStart,
      target.blockEnd,
      local,
      headingText,
      source,
    );
    heading.ownTrail = ownTrail;
    // The units below the heading (docs/spec.md, "Units below the heading"), in a dataset with units.
    const units = parsed.unitCuts !== undefined ? parsed.unitCuts[i] : unitsOf(parsed, fields, target);
    if (units !== undefined && units.length > 0)
      visitUnits(idHead, parsed, source, target, heading, units, ownTrail, stackCharacters, spend, visit);
    else visit(heading);
    if (target.heading) {
      headingStack.push(target.heading);
      stackCharacters += target.heading.text.length;
    }
  }
  return { characters, trail };
}

/** The units below a target, in a dataset with units (cutUnits); undefined where none are cut. */
function unitsOf(
  parsed: ParsedArtifact,
  fields: ReturnType<typeof artifactRecordFields>,
  target: ParsedArtifact["targets"][number],
): UnitCut[] | undefined {
  return parsed.leaves !== undefined && target.heading && fields.sourceIndexKind === "body-block"
    ? cutUnits(parsed.leaves, target.blockStart + 1, target.blockEnd)
    : undefined;
}

/** The units below each of a parsed artifact's targets (unitsOf), in a dataset with units; undefined without. */
export function unitCutsOf(artifact: ManifestArtifact, parsed: ParsedArtifact): (UnitCut[] | undefined)[] | undefined {
  if (parsed.leaves === undefined) return undefined;
  const fields = artifactRecordFields(artifact);
  const cuts: (UnitCut[] | undefined)[] = [];
  for (const target of parsed.targets) cuts.push(unitsOf(parsed, fields, target));
  return cuts;
}

/** The local coordinates of a parsed artifact's targets (assignLocalCoordinates of their headings). */
export function localsOf(parsed: ParsedArtifact): string[] {
  const headings: (HeadingInput | undefined)[] = [];
  for (const target of parsed.targets) headings.push(target.heading);
  return assignLocalCoordinates(headings);
}

/**
 * A heading's target and then its units' (cutUnits), to `visit` (visitArtifactTargets; a function of its own, so that
 * the JIT compiles the heading's loop and the units' apart: bench/RESULTS.md, "Units"). `stackCharacters`: of the
 * heading's own trail; `spend`: charges a unit's trail to the artifact's cap.
 */
function visitUnits(
  idHead: CitationTargetIdHead,
  parsed: ParsedArtifact,
  source: SourceBytes | undefined,
  target: ParsedArtifact["targets"][number],
  heading: ArtifactTarget,
  units: readonly UnitCut[],
  ownTrail: readonly string[],
  stackCharacters: number,
  spend: (more: number) => void,
  visit: (target: ArtifactTarget) => void,
): void {
  const leaves = parsed.leaves!;
  const local = heading.local;
  const headingText = heading.headingText;
  // The units' text is their heading's: escaped once, each unit's JCS text a slice of the heading's (on the bytes
  // read as Latin-1, when the source bytes are given: SourceBytes). A unit starts where a leaf of the heading's body
  // starts and ends where the next one starts, or at the heading's end: where each of those falls in the JSON text,
  // by leaf (the last entry the end).
  const first = target.blockStart + 1;
  /**
   * Where each leaf of the body starts in the artifact's text, the heading's end last: made where the offsets are found
   * from them (not on the bytes, where the line numbers serve). Built by push, of one elements kind (as `inside`).
   */
  const startsOf = (): number[] => {
    const starts: number[] = [];
    for (let k = first; k < target.blockEnd; k++) starts.push(leaves[k]!.lineStart);
    starts.push(target.end);
    return starts;
  };
  /** The text offsets of startsOf, for the record path (its units' markdown is sliced from the text). */
  let starts: number[] | undefined;
  let json: string;
  let moved: number[];
  /** On the source bytes: where each entry of `starts` falls in them (absolute). */
  let byteAt: number[] | undefined;
  if (source === undefined) {
    const markdown = heading.markdown;
    json = valueJson(markdown, WELL_FORMED);
    starts = startsOf();
    moved = escapedAt(
      starts,
      (offsets) => escapedOffsets(markdown, offsets),
      (o) => o - target.start,
    );
  } else {
    json = "";
    const from = heading.byteStart;
    // The leaves start at line starts: where each falls in the heading's JSON text (which the writer makes from its
    // bytes) is read off its bytes by their line endings (lineStartsInBytes); else (a heading whose leaf does not start
    // where its target does) by a walk over its bytes.
    const headingLeaf = leaves[target.blockStart]!;
    const lines: number[] = [];
    for (let k = first; k < target.blockEnd; k++) lines.push(leaves[k]!.line - headingLeaf.line);
    const read =
      headingLeaf.lineStart === target.start
        ? lineStartsInBytes(source.bytes, from, heading.byteEnd, lines)
        : undefined;
    if (read !== undefined) {
      read.json.push(read.end);
      read.bytes.push(heading.byteEnd - from);
      moved = read.json;
      byteAt = read.bytes;
    } else {
      const inside: number[] = [];
      for (const start of startsOf()) inside.push(start - target.start);
      const walked = bytesAndJsonAt(source.bytes, from, inside);
      moved = walked.json;
      byteAt = walked.bytes;
    }
    for (let k = 0; k < byteAt.length; k++) byteAt[k]! += from;
  }
  if (source === undefined) heading.markdownJson = json;
  visit(heading);
  /** The enclosing units' locals and printed designations, by depth. */
  // Each entry also has the JCS text of the trail of a unit below it (ownTrailJson): its parent's and one more.
  const trail: string[] = [];
  for (let h = 0; h < ownTrail.length; h++) trail.push(ownTrail[h]!);
  trail.push(headingText);
  const trailJson = valueJson(trail, WELL_FORMED);
  // `characters`: of the unit's trail (the heading's own trail, the heading, the units above).
  // `idEnd`: where its local's bytes end in unitIds (on the source bytes).
  const above: { local: string; text: string; trailJson: string; characters: number; idEnd: number }[] = [
    {
      local,
      text: headingText,
      trailJson,
      characters: stackCharacters + headingText.length,
      idEnd: source === undefined ? 0 : unitIds.heading(idHead, local),
    },
  ];
  for (let u = 0; u < units.length; u++) {
    const unit = units[u]!;
    // Popped, not cut by setting `length` (a call into the runtime for each unit, even when nothing is cut).
    while (above.length > unit.depth) above.pop();
    const parent = above[unit.depth - 1]!;
    spend(parent.characters);
    // On the source bytes no local is made as text: its bytes are unitIds' (its parent's, `/`, the step).
    const unitLocal = source === undefined ? `${parent.local}/${unit.step}` : "";
    const headingJson = printedJson(unit.headingText);
    let made: ArtifactTarget;
    if (source !== undefined) {
      // On the source bytes: the unit's local is its parent's (checked) and a step checked once (checkUnitStep), and
      // its values go to the writer in one object made once (unitLine), written before the next unit is made.
      checkUnitStep(unit.step);
      made = unitLine;
      if (unit.citationTargetId === undefined) made.citationTargetId = unitIds.unit(parent.idEnd, unit.step);
      else {
        unitIds.local(parent.idEnd, unit.step);
        made.citationTargetId = unit.citationTargetId;
      }
      made.localBytes = unitIds.bytes;
      made.localFrom = unitIds.localStart;
      made.localTo = unitIds.end;
      made.headingText = unit.headingText;
      made.blockEnd = unit.end;
      made.blockStart = unit.first;
      made.textDigest =
        unit.textDigest ??
        deriveTextDigestOfUtf8(source.bytes.subarray(byteAt![unit.first - first], byteAt![unit.end - first]));
      // Copied by the writer from its heading's line: no text made.
      made.jsonFrom = moved[unit.first - first]!;
      made.jsonTo = moved[unit.end - first]!;
    } else {
      const start = starts![unit.first - first]!;
      const end = starts![unit.end - first]!;
      made = targetOf(idHead, parsed, start, end, unit.first, unit.end, unitLocal, unit.headingText, source);
      // The trail as an array only for a caller that makes records (no source bytes).
      made.ownTrail = [...ownTrail, ...above.map((a) => a.text)];
      made.markdownJson = `"${json.slice(moved[unit.first - first], moved[unit.end - first])}"`;
    }
    made.ownTrailJson = parent.trailJson;
    made.headingTextJson = headingJson;
    visit(made);
    // Units come in pre-order: a unit is a parent when the next one is deeper (its trail's text made only then).
    if (u + 1 < units.length && units[u + 1]!.depth > unit.depth)
      above.push({
        local: unitLocal,
        text: unit.headingText,
        trailJson: `${parent.trailJson.slice(0, -1)},${headingJson}]`,
        characters: parent.characters + unit.headingText.length,
        idEnd: unitIds.end,
      });
  }
}

/** The citationTargetIds of units on the source bytes (visitUnits), from their locals' bytes. */
const unitIds = new UnitIds();

/**
 * Where lines of the text `bytes[from, to)` start, by their number from its first (ascending, repeats allowed): in its
 * JSON text as the writer writes it (SourceBytes; its opening quote at 0) and in the bytes (from `from`); and `end`,
 * where that JSON text's closing quote is. A line ends at `\n`, at `\r\n` and at a `\r` alone, as CommonMark's lines
 * do. Undefined when the text has fewer lines than asked for.
 */
export function lineStartsInBytes(
  bytes: Uint8Array,
  from: number,
  to: number,
  lines: readonly number[],
): { json: number[]; bytes: number[]; end: number } | undefined {
  const jsonAt: number[] = [];
  const byteAt: number[] = [];
  let k = 0;
  while (k < lines.length && lines[k] === 0) {
    jsonAt.push(1);
    byteAt.push(0);
    k++;
  }
  /** What the escapes add before `i`. */
  let extra = 0;
  let line = 0;
  // Four bytes at a time where none is escaped (a line's end is: LF and CR are below 0x20), as writeJsonBytes writes
  // them: a byte at a time, this was a seventh of the main thread of generate with units (bench/RESULTS.md, "Units").
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = from; i < to; i++) {
    while (i + 4 <= to && plainJsonWord(view.getUint32(i, true))) i += 4;
    if (i >= to) break;
    const b = bytes[i]!;
    const letter = JSON_ESCAPES[b]!;
    if (letter === 0) continue;
    extra += letter === 0x75 ? 5 : 1;
    // A line ends at \n, and at a \r not followed by \n (\r\n ends at its \n).
    if (b === 0x0a || (b === 0x0d && !(i + 1 < to && bytes[i + 1] === 0x0a))) {
      line++;
      while (k < lines.length && lines[k] === line) {
        jsonAt.push(1 + i + 1 - from + extra);
        byteAt.push(i + 1 - from);
        k++;
      }
    }
  }
  if (k < lines.length) return undefined;
  return { json: jsonAt, bytes: byteAt, end: 1 + to - from + extra };
}

/**
 * The values of a unit's line on the source bytes (visitUnits): one object, filled for each unit and read by the
 * writer before the next (writeArtifactByteLines keeps none of them), so that a statute book's units make no object
 * each. The members a unit's line does not read stay as made here.
 */
const unitLine: ArtifactTarget = {
  local: "",
  citationAddress: "",
  citationTargetId: "",
  headingText: "",
  markdown: "",
  blockEnd: 0,
  blockStart: 0,
  textDigest: "",
  ownTrail: undefined,
  markdownJson: undefined,
  jsonFrom: -1,
  jsonTo: -1,
  ownTrailJson: undefined,
  headingTextJson: undefined,
  byteStart: -1,
  byteEnd: -1,
  markdownBytes: undefined,
  localBytes: undefined,
  localFrom: -1,
  localTo: -1,
};

/** The JCS texts of printed designations (`(1)`, `1a.`, `a)`): few, and each made once (at most PRINTED_KEPT kept). */
const printedTexts = new Map<string, string>();
const PRINTED_KEPT = 4096;

function printedJson(printed: string): string {
  let json = printedTexts.get(printed);
  if (json === undefined) {
    json = valueJson(printed, WELL_FORMED);
    if (printedTexts.size >= PRINTED_KEPT) printedTexts.clear();
    printedTexts.set(printed, json);
  }
  return json;
}

/** Unit steps seen well-formed after a `/` of a local coordinate (`abs-1`, `nr-2~r2`, `_1`): few, checked once each. */
const checkedSteps = new Set<string>();
const STEPS_KEPT = 4096;

/**
 * Throws when `step` cannot follow a `/` in a local coordinate, as targetAddress throws on a malformed local: a unit's
 * local is its parent's (checked) and its step, and whether a step may follow a `/` does not depend on what stands
 * before it (the grammar's segments are separated by `/`, and a local with units above `_top` has none).
 */
function checkUnitStep(step: string): void {
  if (checkedSteps.has(step)) return;
  if (!isLocalCoordinate(`a/${step}`)) throw new Error(`invalid local coordinate step ${JSON.stringify(step)}`);
  if (checkedSteps.size >= STEPS_KEPT) checkedSteps.clear();
  checkedSteps.add(step);
}

/**
 * One markdown-artifact target as its artifact decides it: a heading's, or a unit's made without the source bytes (on
 * them, visitUnits fills `unitLine`). `idHead`: the head of its artifact's targets' citationTargetIds
 * (citationTargetIdHead).
 */
function targetOf(
  idHead: CitationTargetIdHead,
  parsed: ParsedArtifact,
  start: number,
  end: number,
  blockStart: number,
  blockEnd: number,
  local: string,
  headingText: string,
  source?: SourceBytes,
): ArtifactTarget {
  // With the source bytes: the digest of the markdown's bytes, and its JSON text made on them. The markdown itself is
  // left out then (""): its JSON text is written.
  let markdown = "";
  let textDigest: string;
  let markdownJson: string | undefined;
  let byteStart = -1;
  let byteEnd = -1;
  let markdownBytes: Uint8Array | undefined;
  if (source === undefined) {
    markdown = parsed.body.slice(start - parsed.bodyStart, end - parsed.bodyStart);
    textDigest = deriveTextDigest(markdown);
  } else {
    byteStart = source.offsets.byteOf(start);
    byteEnd = source.offsets.byteOf(end);
    textDigest = deriveTextDigestOfUtf8(source.bytes.subarray(byteStart, byteEnd));
    // Its JSON text is written from the bytes by the writer (its units' are runs of it in the line: visitUnits).
    markdownBytes = source.bytes;
  }
  // On the source bytes no address is made (the writer writes the local into its line template): the local is checked
  // here (a unit's, by its step: checkUnitStep).
  let citationAddress = "";
  if (source === undefined) citationAddress = targetAddress(idHead.addressPrefix, local);
  else if (!isLocalCoordinate(local)) throw new Error(`invalid local coordinate ${JSON.stringify(local)}`);
  return {
    local,
    citationAddress,
    citationTargetId: citationTargetIdOf(idHead, local),
    headingText,
    markdown,
    blockEnd,
    blockStart,
    textDigest,
    ownTrail: undefined,
    markdownJson,
    jsonFrom: -1,
    jsonTo: -1,
    ownTrailJson: undefined,
    headingTextJson: undefined,
    byteStart,
    byteEnd,
    markdownBytes,
    localBytes: undefined,
    localFrom: -1,
    localTo: -1,
  };
}

/** The record of a markdown-artifact target (targetOf), `documentOrder` 0 and `headingTrail` its own trail. */
function recordOf(
  common: Common,
  artifactFields: ReturnType<typeof artifactRecordFields>,
  path: string,
  fields: ArtifactTarget,
  ownTrail: string[],
): OutputRecord {
  const structuralPath = targetStructuralPath(path, fields.local);
  // Members in canonical (code-unit) order, so that the serialiser need not sort them.
  return {
    artifactRelativePath: path,
    canonicalPath: canonicalPathOf(structuralPath),
    citationAddress: fields.citationAddress,
    citationTargetId: fields.citationTargetId,
    datasetDigest: common.datasetDigest,
    documentOrder: 0,
    headingText: fields.headingText,
    headingTrail: ownTrail,
    markdown: fields.markdown,
    name: common.name,
    schemaVersion: common.schemaVersion,
    slug: common.slug,
    sourceArtifactBlockEndExclusive: fields.blockEnd,
    sourceArtifactBlockStartIndex: fields.blockStart,
    sourceArtifactKind: artifactFields.sourceArtifactKind,
    sourceDocumentPath: artifactFields.sourceDocumentPath,
    sourceIndexKind: artifactFields.sourceIndexKind,
    sourceTextUrl: common.sourceTextUrl,
    structuralPath,
    targetKind: "markdown-artifact",
    textDigest: fields.textDigest,
    textDigestAlgorithm: common.textDigestAlgorithm,
    titleId: common.titleId,
    versionDate: common.versionDate,
  };
}

/**
 * The texts of a markdown-artifact target's line that are the same for every target of an artifact, in the order of
 * the line (the members in code-unit order, as recordOf makes them), for a writer of bytes: the line is `texts[0]` +
 * local + `texts[1]` + local + `texts[2]` + citationTargetId + `texts[3]` (piece 0 ends: the documentOrder goes here) +
 * `texts[4]` + headingText + `texts[5]` (piece 1 ends: the headingTrail goes here) + `texts[6]` + markdown + `texts[7]`
 * + block end + `texts[8]` + block start + `texts[9]` + local with each `/` written `","` + `texts[10]` + textDigest +
 * `texts[11]` (piece 2 ends), each value as TargetLine has it. The canonicalPath, citationAddress and structuralPath
 * are the artifact's (in the texts) followed by the local coordinate, whose characters JSON never escapes (its
 * grammar: docs/spec.md, section 7). This is the text of serializeRecord of recordOf's record
 * (test/generate-bytes.test.ts proves them equal).
 */
export type TargetLineTemplate = readonly string[];

/** The TargetLineTemplate of an artifact's targets. */
export function targetLineTemplate(manifest: RecordManifest, artifact: ManifestArtifact): TargetLineTemplate {
  const common = commonOf(manifest);
  const fields = artifactRecordFields(artifact);
  const json = (value: string) => valueJson(value, WELL_FORMED);
  /** A string's JSON text without its closing quote: what the local coordinate continues. */
  const open = (value: string) => json(value).slice(0, -1);
  const segments = artifactSegments(artifact.path);
  const canonical = segments.length === 0 ? "" : `${canonicalPathOf(segments)}/`;
  let structural = "[";
  for (const segment of segments) structural += `${json(segment)},`;
  return [
    `{"artifactRelativePath":${json(artifact.path)},"canonicalPath":${open(canonical)}`,
    `","citationAddress":${open(targetAddressPrefix(common.slug, artifact.path))}`,
    '","citationTargetId":"',
    `","datasetDigest":${json(common.datasetDigest)},"documentOrder":`,
    ',"headingText":',
    ',"headingTrail":',
    ',"markdown":"',
    `","name":${json(common.name)},"schemaVersion":${json(common.schemaVersion)},"slug":${json(common.slug)},"sourceArtifactBlockEndExclusive":`,
    ',"sourceArtifactBlockStartIndex":',
    `,"sourceArtifactKind":${json(fields.sourceArtifactKind)},"sourceDocumentPath":${json(fields.sourceDocumentPath)},"sourceIndexKind":${json(fields.sourceIndexKind)},"sourceTextUrl":${json(common.sourceTextUrl)},"structuralPath":${structural}"`,
    '"],"targetKind":"markdown-artifact","textDigest":"',
    `","textDigestAlgorithm":${json(common.textDigestAlgorithm)},"titleId":${json(common.titleId)},"versionDate":${json(common.versionDate)}}\n`,
  ];
}

/**
 * The texts of a target's line that differ between the targets of an artifact (TargetLineTemplate): JCS texts, the hex
 * digests and the markdown's JSON text without their quotes (the markdown as Latin-1 for its UTF-8 bytes: SourceBytes).
 */
export interface TargetLine {
  /** The local coordinate; "" when `localBytes` holds it (a unit's: ArtifactTarget). */
  local: string;
  localBytes: Uint8Array | undefined;
  localFrom: number;
  localTo: number;
  citationTargetId: string;
  headingTextJson: string;
  /**
   * A heading's source bytes, its markdown their run `[byteStart, byteEnd)`; undefined for a unit's, which is a run of
   * its heading's JSON text (`jsonFrom`, `jsonTo`: ArtifactTarget).
   */
  markdownBytes: Uint8Array | undefined;
  byteStart: number;
  byteEnd: number;
  jsonFrom: number;
  jsonTo: number;
  blockEnd: number;
  blockStart: number;
  textDigest: string;
  ownTrailJson: string;
}

/**
 * One step of the walk over the dataset: a folder's container record, or an artifact with the trail its folders give
 * it.
 */
type WalkStep<T> = { container: OutputRecord } | { artifact: ManifestArtifact; data: T; folderTrail: string[] };

/**
 * Walks the manifest's artifacts in order, opening and closing folders: yields the container record
 * of each folder entered (its heading from its directory-index, read early when it comes later),
 * then the artifact itself, from `source`, with the trail of its folders.
 */
async function* walkDataset<T extends { firstHeading: string | undefined }>(
  manifest: LockManifest,
  common: Common,
  source: (position: number, early?: boolean) => Promise<T>,
): AsyncGenerator<WalkStep<T>> {
  const indexOf = new Map<string, number>();
  manifest.artifacts.forEach((artifact, position) => {
    if (artifactKind(artifact) === "directory-index") indexOf.set(dirnameOf(artifact.path), position);
  });
  const open: OpenFolder[] = [];
  let preorder = 0;
  for (const [position, artifact] of manifest.artifacts.entries()) {
    const data = await source(position);
    const chain = folderChain(artifact.path);
    while (open.length > 0 && chain[open.length - 1] !== open[open.length - 1]!.path) open.pop();
    for (const folder of chain.slice(open.length)) {
      const index = indexOf.get(folder);
      let headingText = folder.slice(folder.lastIndexOf("/") + 1);
      if (index !== undefined) {
        const heading = index === position ? data.firstHeading : (await source(index, true)).firstHeading;
        if (heading !== undefined) headingText = heading;
      }
      const citationAddress = formatAddress({ slug: common.slug, targetKind: "structural-container", path: folder });
      const structuralPath = containerStructuralPath(folder);
      // Members in canonical (code-unit) order, so that the serialiser need not sort them.
      const container: OutputRecord = {
        artifactRelativePath: folder,
        canonicalPath: canonicalPathOf(structuralPath),
        citationAddress,
        citationTargetId: deriveCitationTargetId(common.datasetDigest, citationAddress),
        datasetDigest: common.datasetDigest,
        headingText,
        headingTrail: open.map((f) => f.headingText),
        name: common.name,
        schemaVersion: common.schemaVersion,
        slug: common.slug,
        sourceArtifactKind: "structural-container",
        sourceTextUrl: common.sourceTextUrl,
        structuralPath,
        structuralPreorderIndex: preorder++,
        targetKind: "structural-container",
        textDigest: deriveTextDigest(headingText),
        textDigestAlgorithm: common.textDigestAlgorithm,
        titleId: common.titleId,
        versionDate: common.versionDate,
      };
      yield { container };
      open.push({ path: folder, headingText });
    }
    const innermost = open[open.length - 1];
    const folderTrail = innermost
      ? artifactTrailBase(
          artifactKind(artifact),
          open.slice(0, -1).map((f) => f.headingText),
          innermost.headingText,
        )
      : [];
    yield { artifact, data, folderTrail };
  }
}

/**
 * Yields the dataset's records in file order, the artifacts coming parsed from `source` (one thread, or worker threads:
 * the same records).
 */
export async function* generateRecordsFrom(
  manifest: LockManifest,
  source: ArtifactSource,
): AsyncGenerator<OutputRecord> {
  const common = datasetCommon(manifest);
  let documentOrder = 0;
  const parsedSource = async (position: number, early?: boolean) => {
    const { parsed } = await source(position, early);
    if (early) checkOwnTrails(common, manifest.artifacts[position]!, parsed);
    return { parsed, firstHeading: parsed.firstHeading };
  };
  const charge = new TrailCharge();
  for await (const step of walkDataset(manifest, common, parsedSource)) {
    if ("container" in step) {
      charge.container(step.container.headingTrail as string[]);
      yield step.container;
      continue;
    }
    const { targets, trails } = artifactTargets(common, step.artifact, step.data.parsed);
    charge.artifact(step.artifact.path, trails, targets.length, step.folderTrail);
    for (const { record, ownTrail } of targets) {
      record.documentOrder = documentOrder++;
      record.headingTrail = [...step.folderTrail, ...ownTrail];
      yield record;
    }
  }
}

/**
 * What a walk over a heading's text gives for each of `offsets`, by position: `walk` is given them ascending and gives
 * one or more lists by position (undefined when they do not ascend). Offsets that do not ascend (never in document
 * order; kept for safety) are walked sorted and without repeats, and each list put back in their places.
 */
function walkedAt(offsets: readonly number[], walk: (ascending: number[]) => number[][] | undefined): number[][] {
  let ascending = true;
  for (let k = 1; ascending && k < offsets.length; k++) ascending = offsets[k - 1]! <= offsets[k]!;
  if (ascending) {
    const walked = walk(offsets as number[]);
    if (walked !== undefined) return walked;
  }
  const sorted = [...new Set(offsets)].sort((x, y) => x - y);
  const walked = walk(sorted)!;
  const at = new Map(sorted.map((o, k) => [o, k]));
  return walked.map((list) => offsets.map((o) => list[at.get(o)!]!));
}

/**
 * Where offsets of a heading's text fall in its JSON text (escapedOffsets: `escapeAt`; on bytes, bytesAndJsonAt), by
 * position in `offsets` (text offsets, each mapped by `local`, ascending with them, to what `escapeAt` counts from):
 * walkedAt. Exported for its test.
 *
 * @internal
 */
export function escapedAt(
  offsets: readonly number[],
  escapeAt: (local: number[]) => number[] | undefined,
  local: (offset: number) => number,
): number[] {
  return walkedAt(offsets.map(local), (ascending) => {
    const moved = escapeAt(ascending);
    return moved === undefined ? undefined : [moved];
  })[0]!;
}

/** byteAndJsonOffsets of `offsets`, by position (walkedAt). Exported for its test. @internal */
export function bytesAndJsonAt(
  bytes: Uint8Array,
  from: number,
  offsets: readonly number[],
): { bytes: number[]; json: number[] } {
  const [byteAt, jsonAt] = walkedAt(offsets, (ascending) => {
    const walked = byteAndJsonOffsets(bytes, from, ascending);
    return walked === undefined ? undefined : [walked.bytes, walked.json];
  });
  return { bytes: byteAt!, json: jsonAt! };
}

/**
 * Adds to each artifact's own trails (TrailSpent) what its folders' trails repeat in it: in each of its records, and in
 * the container records of the folders it opens; refuses the artifact when that passes its cap (docs/spec.md, section
 * 13). The same in every walk over the dataset, so that every command refuses the same file.
 */
class TrailCharge {
  /** The characters of the trails of the containers yielded since the last artifact (the folders the next one opens). */
  private containers = 0;

  container(trail: readonly string[]): void {
    for (const text of trail) this.containers += text.length;
  }

  artifact(path: string, spent: TrailSpent, records: number, folderTrail: readonly string[]): void {
    let folder = 0;
    for (const text of folderTrail) folder += text.length;
    const total = spent.trail + this.containers + records * folder;
    this.containers = 0;
    if (total > headingTrailCap(spent.characters))
      throw new DatasetError([headingTrailRefusal(path, spent.characters)]);
  }
}

/**
 * An artifact's targets as their canonical JSON lines, each cut where the members that only the
 * whole dataset decides go (serializeRecordCut): `parts[0] + documentOrder + parts[1] + headingTrail
 * + parts[2]`, the headingTrail being the folders' trail followed by `ownTrail` (the JSON of the
 * target's own). Worker threads make these, so that the main thread only joins strings.
 */
export interface ArtifactLines {
  firstHeading: string | undefined;
  targets: { parts: string[]; ownTrail: string }[];
  trails: TrailSpent;
}

/**
 * Serialises an artifact's targets into ArtifactLines, with the one serialiser: the same bytes as serializeRecord of
 * the records generateRecordsFrom builds.
 */
export function artifactLines(
  manifest: LockManifest,
  artifact: ManifestArtifact,
  parsed: ParsedArtifact,
): ArtifactLines {
  const { targets: made, trails } = artifactTargets(commonOf(manifest), artifact, parsed);
  const targets = made.map(({ record, ownTrail, markdownJson, ownTrailJson }) => ({
    parts: serializeRecordCut(
      record,
      DATASET_PLACED,
      WELL_FORMED,
      markdownJson === undefined ? undefined : { markdown: markdownJson },
    ),
    ownTrail: ownTrailJson ?? valueJson(ownTrail, WELL_FORMED),
  }));
  return { firstHeading: parsed.firstHeading, targets, trails };
}

/**
 * An artifact's targets as their lines, for a writer of bytes, a target at a time: each target's values (TargetLine) go
 * to `line` as soon as it is made, for the caller to write into the artifact's TargetLineTemplate and keep nothing
 * (visitArtifactTargets): the same bytes as artifactLines encoded. Returns the artifact's first heading, and what its
 * own trails spent of its cap.
 */
export function writeArtifactByteLines(
  manifest: RecordManifest,
  artifact: ManifestArtifact,
  parsed: ParsedArtifact,
  source: SourceBytes,
  line: (values: TargetLine) => void,
): { firstHeading: string | undefined; trails: TrailSpent } {
  const trails = visitArtifactTargets(commonOf(manifest), artifact, parsed, source, (target) => {
    // The JCS texts not made yet (a heading's), then the target itself as the line's values: no object more per line.
    target.headingTextJson ??= valueJson(target.headingText, WELL_FORMED);
    target.ownTrailJson ??= valueJson(target.ownTrail, WELL_FORMED);
    line(target as TargetLine);
  });
  return { firstHeading: parsed.firstHeading, trails };
}

/**
 * The members of a lock manifest a record is made of (commonOf reads no other): what a worker thread is sent of the
 * manifest with each batch (generate-pool.ts, ManifestHead). Reading another member in commonOf is a type error until
 * it is named here, and then one in the worker's head until it is sent.
 */
export type RecordManifest = Pick<
  LockManifest,
  "datasetDigest" | "name" | "slug" | "sourceTextUrl" | "titleId" | "versionDate"
>;

/**
 * The common fields, for a manifest already checked (datasetCommon; on the workers' side the main thread has run it).
 */
function commonOf(manifest: RecordManifest): Common {
  return {
    datasetDigest: manifest.datasetDigest,
    name: manifest.name,
    schemaVersion: SCHEMA_VERSION,
    slug: manifest.slug,
    sourceTextUrl: manifest.sourceTextUrl,
    textDigestAlgorithm: "sha256",
    titleId: manifest.titleId,
    versionDate: manifest.versionDate,
  };
}

/**
 * An artifact's lines as worker threads send them: the UTF-8 bytes of each target's four pieces one after another
 * (`parts[0]`, `parts[1]`, `parts[2]`, then `ownTrail`, as in ArtifactLines), piece `k` of target `t` ending at
 * `ends[4 * t + k]`, counted from the start of the run of bytes its line is in: `bytes`, or from its `firstLine` on a
 * run of `more` (lines that went on in another buffer: batchEncoder). The buffers are moved between threads, not copied, and the
 * main thread joins them without encoding text.
 */
export interface EncodedArtifactLines {
  firstHeading: string | undefined;
  bytes: Uint8Array;
  more: { bytes: Uint8Array; firstLine: number }[] | undefined;
  ends: Uint32Array;
  trails: TrailSpent;
}

/** The run of an artifact's encoded lines that its line `line` is in (EncodedArtifactLines). */
export function runOf(lines: EncodedArtifactLines, line: number): Uint8Array {
  let bytes = lines.bytes;
  if (lines.more !== undefined) for (const run of lines.more) if (run.firstLine <= line) bytes = run.bytes;
  return bytes;
}

/** Either form of an artifact's lines. */
export type SomeArtifactLines = ArtifactLines | EncodedArtifactLines;

/** How many targets (lines) an artifact's lines hold. */
export function targetCount(lines: SomeArtifactLines): number {
  return "targets" in lines ? lines.targets.length : lines.ends.length / 4;
}

/** Gives an artifact's lines: made in this thread from an ArtifactSource, or by worker threads. */
export type LineSource = (position: number, early?: boolean) => Promise<SomeArtifactLines>;

/** A LineSource that serialises in this thread, from parsed artifacts. */
export function linesInThread(manifest: LockManifest, source: ArtifactSource): LineSource {
  return async (position, early) => {
    const { parsed } = await source(position, early);
    // Read early, an artifact gives only its first heading (a folder's heading): its lines come at its turn. Its own
    // trails are checked all the same, as a worker that reads it early checks them (checkOwnTrails).
    if (!early) return artifactLines(manifest, manifest.artifacts[position]!, parsed);
    checkOwnTrails(commonOf(manifest), manifest.artifacts[position]!, parsed);
    return { firstHeading: parsed.firstHeading, targets: [], trails: { characters: 0, trail: 0 } };
  };
}

/**
 * Refuses an artifact read early (a folder's index that comes after other files of its folder) whose own trails pass its
 * cap, there and then: a worker thread makes its lines when it reads it, and refuses it then, so that the walk meets the
 * refusal at the early read on every path (one thread, worker threads, validate's records), naming the same file.
 */
function checkOwnTrails(common: Common, artifact: ManifestArtifact, parsed: ParsedArtifact): void {
  visitArtifactTargets(common, artifact, parsed, undefined, () => undefined);
}

/**
 * Yields the dataset's JSONL lines in file order: byte for byte `serializeRecord` of generateRecordsFrom's records, at
 * a fraction of the cost.
 */
export async function* generateLinesFrom(manifest: LockManifest, source: LineSource): AsyncGenerator<string> {
  for await (const batch of generateLineBatchesFrom(manifest, source)) yield* batch;
}

/**
 * One step of the dataset's lines in file order: a folder's container line, or an artifact's lines with the JSON text
 * of its folders' trail and the documentOrder of its first target.
 */
export type LineStep = { line: string } | { lines: SomeArtifactLines; folderTrail: string; firstOrder: number };

/**
 * The dataset's lines a step at a time (a container's line, or an artifact's lines still cut): for a caller that joins
 * them itself (generateLineBatchesFrom as text; generate's writer as bytes). `checked`: the manifest was made by lock
 * in this run, which checked its plan and computed its datasetDigest; they are not checked again.
 */
export async function* generateLineStepsFrom(
  manifest: LockManifest,
  source: LineSource,
  checked = false,
): AsyncGenerator<LineStep> {
  const common = datasetCommon(manifest, checked);
  let documentOrder = 0;
  const charge = new TrailCharge();
  for await (const step of walkDataset(manifest, common, source)) {
    if ("container" in step) {
      charge.container(step.container.headingTrail as string[]);
      yield { line: serializeRecord(step.container) };
      continue;
    }
    charge.artifact(step.artifact.path, step.data.trails, targetCount(step.data), step.folderTrail);
    const firstOrder = documentOrder;
    documentOrder += targetCount(step.data);
    yield { lines: step.data, folderTrail: valueJson(step.folderTrail, WELL_FORMED), firstOrder };
  }
}

/**
 * A target's headingTrail: the folders' trail followed by its own (both JSON texts of arrays of strings, joined as
 * one).
 */
export function joinTrails(folderTrail: string, ownTrail: string): string {
  return folderTrail === "[]"
    ? ownTrail
    : ownTrail === "[]"
      ? folderTrail
      : `${folderTrail.slice(0, -1)},${ownTrail.slice(1)}`;
}

/**
 * The same lines, a batch per container or artifact: one step of the async iteration per artifact rather than per line
 * (fewer allocations on the main thread). `checked` as for generateLineStepsFrom.
 */
export async function* generateLineBatchesFrom(
  manifest: LockManifest,
  source: LineSource,
  checked = false,
): AsyncGenerator<string[]> {
  for await (const step of generateLineStepsFrom(manifest, source, checked)) {
    if ("line" in step) {
      yield [step.line];
      continue;
    }
    const { lines, folderTrail } = step;
    let documentOrder = step.firstOrder;
    const batch: string[] = [];
    if ("targets" in lines) {
      for (const { parts, ownTrail } of lines.targets)
        batch.push(
          `${parts[0]}${valueJson(documentOrder++)}${parts[1]}${joinTrails(folderTrail, ownTrail)}${parts[2]}`,
        );
    } else {
      const { ends } = lines;
      for (let k = 0; k < ends.length; k += 4) {
        const bytes = runOf(lines, k / 4);
        // A line's first piece starts where the line before it ends, or at its run's start.
        const start = k === 0 || bytes !== runOf(lines, k / 4 - 1) ? 0 : ends[k - 1]!;
        const piece = (i: number) => decodeUtf8(bytes.subarray(i === k ? start : ends[i - 1]!, ends[i]!));
        batch.push(
          `${piece(k)}${valueJson(documentOrder++)}${piece(k + 1)}${joinTrails(folderTrail, piece(k + 3))}${piece(k + 2)}`,
        );
      }
    }
    yield batch;
  }
}
