/**
 * The record half of `diff`: two versions of one dataset file, matched by citationAddress
 * (docs/spec.md, section 8, "What changed, by address"; section 12). Pure: the caller streams the
 * records in, in three passes:
 *
 *   1. every old record (`addOld`): while the old file is small (KEEP_OLD_UP_TO), kept itself; past it,
 *      as address → a row of 64-bit digests, one per compared field;
 *   2. every new record (`addNew`): compared field by field with its old record, or with its old row,
 *      as it streams past; `endNew()` then settles what was removed, the fields added to or removed
 *      from a variant, and the likely moves;
 *   3. only when something was removed, or changed in a file too large to keep: the old lines of those
 *      records again (`addOldDetail`), for the old values of the changed fields and the heading of
 *      each removed record.
 *
 * A publisher's datasets (one law each) are compared with no digest at all. Memory past KEEP_OLD_UP_TO:
 * the address map and the digest rows (about 8 bytes per compared field and record), plus what is
 * reported; never a whole record of the old file.
 */
import { parseAddress } from "../address/address.js";
import { sha256Bytes, sha256Hex } from "../bytes.js";
import { deriveCitationTargetId } from "../digest.js";
import {
  classOf,
  designationOf,
  type DiffChange,
  type FieldChange,
  type LikelyMove,
  MAX_MOVES,
  type MoveEvidence,
  sortChanges,
  VALUE_LIMIT,
} from "./diff.js";
import { differingFields, fieldValueText } from "../records/record-fingerprint.js";
import { buildRecordSchema } from "../schema/schema.js";

/** The 32-bit word (little-endian) of a digest at byte `at`. */
function wordAt(digest: Uint8Array, at: number): number {
  return (digest[at]! | (digest[at + 1]! << 8) | (digest[at + 2]! << 16) | (digest[at + 3]! << 24)) >>> 0;
}
/** A string value that is a SHA-256 in lowercase hex, behind its "s" tag. */
const HEX_DIGEST = /^s[0-9a-f]{64}$/;
/** Keeps a hex digest's 64 bits apart from the SHA-256 of a string that happens to start with them. */
const HEX_TAG = 0x5a5a5a5a;
/**
 * The records of each side whose citationTargetId is checked against the v1 framing: enough to tell a framing that
 * changed for the whole file.
 */
const FRAMING_SAMPLE = 1000;
/**
 * An old side up to this many characters of lines is kept as its records, and each new record is
 * compared with its old one field by field, with no digest at all: the datasets of a publisher's
 * repository (one law each, a few MiB at most). Past it, the records kept so far are digested and
 * let go, and the rest of the file is compared through digests, so a huge file holds no more.
 */
const KEEP_OLD_UP_TO = 8 * 2 ** 20;

/** A sampled record's framing inputs. */
type FramingSample = [datasetDigest: string, citationAddress: string, citationTargetId: string];

/**
 * Whether the framing of citationTargetId changed (docs/spec.md, section 12.1): the old file's first
 * FRAMING_SAMPLE records are all derived with the v1 framing, and none of the new file's first ones
 * is. The new side is looked at first, as its records come, and only until one of them is derived
 * (the usual case: one digest a file); the old side's sample is kept, unhashed, and derived only when
 * the new side's says the framing may have changed.
 */
class Framing {
  private readonly old: FramingSample[] = [];
  private newSeen = 0;
  private newDerived = false;

  add(which: "old" | "new", record: Record<string, unknown>): void {
    const { datasetDigest, citationAddress, citationTargetId } = record;
    if (
      typeof datasetDigest !== "string" ||
      typeof citationAddress !== "string" ||
      typeof citationTargetId !== "string"
    )
      return;
    if (which === "old") {
      if (this.old.length < FRAMING_SAMPLE) this.old.push([datasetDigest, citationAddress, citationTargetId]);
      return;
    }
    if (this.newDerived || this.newSeen >= FRAMING_SAMPLE) return;
    this.newSeen++;
    if (deriveCitationTargetId(datasetDigest, citationAddress) === citationTargetId) this.newDerived = true;
  }

  /** True when the old sample is all v1 and the new one has records, none of them v1. */
  changed(): boolean {
    if (this.newDerived || this.newSeen === 0 || this.old.length === 0) return false;
    return this.old.every(([datasetDigest, address, id]) => deriveCitationTargetId(datasetDigest, address) === id);
  }
}

/** The schema's field names, built once (a diff of thousands of datasets builds a RecordDiff per pair). */
let fieldNames: readonly string[] | undefined;

/** Every field either variant of the bundled schema has, in the schema's (sorted) order. */
export function schemaFieldNames(): string[] {
  fieldNames ??= namesInSchema();
  return [...fieldNames];
}

function namesInSchema(): string[] {
  const defs = (buildRecordSchema() as { $defs: Record<string, { properties?: Record<string, unknown> }> }).$defs;
  const names = new Set<string>();
  for (const variant of ["markdownArtifact", "structuralContainer"])
    for (const name of Object.keys(defs[variant]?.properties ?? {})) names.add(name);
  return [...names].sort();
}

export interface RecordDiffOptions {
  /** Fields that are not compared: the version-scoped and positional ones (UNCOMPARED_FIELDS). */
  uncompared: readonly string[];
  /** How the old and new file are shown (for the line of each change). */
  oldFile: string;
  newFile: string;
}

type Row = number;

/** A matched record whose compared fields changed. */
interface Candidate {
  address: string;
  row: Row;
  line: number;
  targetKind: string;
  headingText?: string;
  fields: string[];
  /** New values of the changed fields, as reported. */
  after: Map<string, Reported>;
  /** Old values of the changed fields: at once when the old record is kept, else from pass 3. */
  before?: Map<string, Reported>;
}

interface Added {
  address: string;
  line: number;
  digest0: number;
  digest1: number;
  headingText?: string;
}

interface Removed {
  address: string;
  row: Row;
  line: number;
  headingText?: string;
  likelyMoves?: LikelyMove[];
  otherMoveCandidates?: number;
}

/** Per record variant: the fields seen in it, and how many records it had. */
type FieldSets = Map<string, { fields: Set<string>; records: number }>;

/** A value as reported: itself, or only its length (markdown, long strings); nothing when absent. */
interface Reported {
  value?: unknown;
  length?: number;
}

function reported(field: string, value: unknown): Reported {
  if (value === undefined) return {};
  if (typeof value === "string" && (field === "markdown" || value.length > VALUE_LIMIT))
    return { length: value.length };
  return { value };
}

/** A positional tie-break at the end of an address: `…#art-2~3`. */
const POSITIONAL = /~[1-9][0-9]*$/;

/**
 * The addresses whose positional tie-break (`~N`, docs/spec.md, "Ties") may now name another of its truly identical
 * siblings: every address of a tie group (an address and its `~2`, `~3`, … forms) that is in both versions, when the
 * number of the group's addresses changed, and every address below one of them (`…#art-92/fussnoten`). A sibling
 * inserted or deleted among identical ones shifts the `~N` of the ones after it; `diff` reports them as breaking so
 * that such a shift is never silent.
 */
export function tieBreakShifts(before: Iterable<string>, after: Iterable<string>): string[] {
  const old = new Set(before);
  const now = new Set(after);
  const bases = new Set<string>();
  for (const address of old) if (POSITIONAL.test(address)) bases.add(address.replace(POSITIONAL, ""));
  for (const address of now) if (POSITIONAL.test(address)) bases.add(address.replace(POSITIONAL, ""));
  if (bases.size === 0) return [];
  const count = (set: Set<string>) => {
    const counts = new Map<string, number>();
    for (const address of set) {
      const base = POSITIONAL.test(address) ? address.replace(POSITIONAL, "") : address;
      if (bases.has(base)) counts.set(base, (counts.get(base) ?? 0) + 1);
    }
    return counts;
  };
  const was = count(old);
  const is = count(now);
  const changed = new Set([...bases].filter((base) => was.get(base) !== is.get(base)));
  if (changed.size === 0) return [];
  const shifted: string[] = [];
  for (const address of old) {
    if (!now.has(address)) continue;
    const base = POSITIONAL.test(address) ? address.replace(POSITIONAL, "") : address;
    if (changed.has(base)) {
      shifted.push(address);
      continue;
    }
    // The addresses below a shifted one (`…#art-92/fussnoten` below `…#art-92`) moved with it.
    const hash = address.indexOf("#");
    for (
      let slash = address.indexOf("/", hash + 1);
      hash !== -1 && slash !== -1;
      slash = address.indexOf("/", slash + 1)
    ) {
      if (changed.has(address.slice(0, slash))) {
        shifted.push(address);
        break;
      }
    }
  }
  return shifted.sort();
}

/** A changed record of the new side, with its new values of the fields that changed (the old ones come later). */
function candidateOf(
  address: string,
  row: number,
  line: number,
  record: Record<string, unknown>,
  fields: string[],
): Candidate {
  return {
    address,
    row,
    line,
    targetKind: String(record.targetKind),
    ...(typeof record.headingText === "string" ? { headingText: record.headingText } : {}),
    fields,
    after: new Map(fields.map((field) => [field, reported(field, record[field])])),
  };
}

export class RecordDiff {
  private readonly known: string[];
  private readonly slot = new Map<string, number>();
  private readonly uncompared: Set<string>;
  /** Two 32-bit words a known compared field in a row of field digests. */
  private readonly width: number;
  private readonly textDigestSlot: number;
  /** Per old row, `width` words: its field digests (only textDigest's while the old records are kept). */
  private rows = new Uint32Array(0);
  private lines = new Int32Array(0);
  private seen = new Uint8Array(0);
  private count = 0;
  private readonly old = new Map<string, Row>();
  /** The old records, by row, while the old side is small enough to keep (KEEP_OLD_UP_TO); then undefined. */
  private kept: Record<string, unknown>[] | undefined = [];
  private keptLength = 0;
  /** Unknown compared fields (not in the schema) of old rows: rare, so kept apart. */
  private readonly extras = new Map<Row, Map<string, string>>();
  private readonly lastText: (string | undefined)[];
  private readonly lastDigest: Uint32Array;
  private readonly scratch: Uint32Array;
  private readonly oldFields: FieldSets = new Map();
  private readonly newFields: FieldSets = new Map();
  private readonly framing = new Framing();
  private readonly added: Added[] = [];
  private readonly addedSet = new Set<string>();
  private candidates: Candidate[] = [];
  private removed: Removed[] = [];
  private readonly fieldChanges: DiffChange[] = [];
  private readonly details = new Map<string, Candidate | Removed>();
  private readonly warnings: string[] = [];
  private duplicatesOld = 0;
  /** The old lines of duplicate addresses (rare): pass 3 looks at them too. */
  private readonly duplicateLines: number[] = [];
  private duplicatesNew = 0;
  private newRecords = 0;
  private firstOld?: { slug?: unknown; titleId?: unknown };
  private firstNew?: { slug?: unknown; titleId?: unknown };
  private phase: "old" | "new" | "detail" | "done" = "old";

  constructor(private readonly options: RecordDiffOptions) {
    this.uncompared = new Set(options.uncompared);
    // citationAddress is the key: matched records have the same one.
    this.known = schemaFieldNames().filter((name) => !this.uncompared.has(name) && name !== "citationAddress");
    for (const [index, name] of this.known.entries()) this.slot.set(name, index);
    this.width = this.known.length * 2;
    this.textDigestSlot = this.slot.get("textDigest")!;
    this.lastText = new Array(this.known.length);
    this.lastDigest = new Uint32Array(this.width);
    this.scratch = new Uint32Array(this.width);
  }

  /**
   * Digests the known compared field `k` of `record` into `out` at `at` (0,0 when absent): the first
   * 64 bits of the SHA-256 of its canonical JSON (so that no crafted value can pass for another), or,
   * for a value that is itself a SHA-256 in hex (textDigest), its first 64 bits. A field whose text is
   * the one digested before (dataset fields, trails) reuses its digest.
   */
  private digestField(record: Record<string, unknown>, k: number, out: Uint32Array, at: number): void {
    const value = record[this.known[k]!];
    if (value === undefined) {
      out[at] = 0;
      out[at + 1] = 0;
      return;
    }
    const text = fieldValueText(value);
    if (text === this.lastText[k]) {
      out[at] = this.lastDigest[2 * k]!;
      out[at + 1] = this.lastDigest[2 * k + 1]!;
      return;
    }
    let d0: number;
    let d1: number;
    if (text.length === 65 && HEX_DIGEST.test(text)) {
      d0 = Number.parseInt(text.slice(1, 9), 16) ^ HEX_TAG;
      d1 = Number.parseInt(text.slice(9, 17), 16);
    } else {
      const digest = sha256Bytes(text);
      d0 = wordAt(digest, 0);
      d1 = wordAt(digest, 4);
    }
    if (d0 === 0 && d1 === 0) d0 = 1; // 0,0 means absent
    out[at] = d0;
    out[at + 1] = d1;
    this.lastText[k] = text;
    this.lastDigest[2 * k] = d0;
    this.lastDigest[2 * k + 1] = d1;
  }

  /** Every known compared field of `record`, digested into `scratch`. */
  private digestRow(record: Record<string, unknown>): void {
    for (let k = 0; k < this.known.length; k++) this.digestField(record, k, this.scratch, 2 * k);
  }

  /** Unknown compared fields of a record (field → digest), or undefined when it has none. */
  private extraFields(record: Record<string, unknown>): Map<string, string> | undefined {
    let extra: Map<string, string> | undefined;
    for (const key of Object.keys(record)) {
      if (this.slot.has(key) || this.uncompared.has(key) || key === "citationAddress") continue;
      extra ??= new Map();
      extra.set(key, sha256Hex(fieldValueText(record[key])).slice(0, 16));
    }
    return extra;
  }

  private track(sets: FieldSets, record: Record<string, unknown>, which: "old" | "new"): void {
    const kind = String(record.targetKind);
    let entry = sets.get(kind);
    if (!entry) {
      entry = { fields: new Set(), records: 0 };
      sets.set(kind, entry);
    }
    entry.records++;
    for (const key of Object.keys(record)) entry.fields.add(key);
    this.framing.add(which, record);
  }

  private grow(): void {
    if (this.count < this.lines.length) return;
    const capacity = Math.max(1024, this.lines.length * 2);
    const rows = new Uint32Array(capacity * this.width);
    rows.set(this.rows);
    this.rows = rows;
    const lines = new Int32Array(capacity);
    lines.set(this.lines);
    this.lines = lines;
    const seen = new Uint8Array(capacity);
    seen.set(this.seen);
    this.seen = seen;
  }

  /**
   * Pass 1: a record of the old file, with a string citationAddress (and the length of its line, when the caller has
   * it).
   */
  addOld(record: Record<string, unknown>, line: number, length = 0): void {
    const address = record.citationAddress as string;
    this.firstOld ??= { slug: record.slug, titleId: record.titleId };
    if (this.old.has(address)) {
      this.duplicatesOld++;
      this.duplicateLines.push(line);
      return;
    }
    this.track(this.oldFields, record, "old");
    this.grow();
    const row = this.count++;
    if (this.kept) {
      this.keptLength += length;
      if (this.keptLength > KEEP_OLD_UP_TO) this.letGo();
    }
    if (this.kept) {
      this.kept[row] = record;
      this.digestField(record, this.textDigestSlot, this.rows, row * this.width + 2 * this.textDigestSlot);
    } else this.digestOld(record, row);
    this.lines[row] = line;
    this.old.set(address, row);
  }

  /** The old side is too large to keep: the records kept so far are digested and let go. */
  private letGo(): void {
    for (const [row, record] of (this.kept ?? []).entries()) this.digestOld(record, row);
    this.kept = undefined;
  }

  /** An old record's row of field digests, and its unknown compared fields. */
  private digestOld(record: Record<string, unknown>, row: Row): void {
    this.digestRow(record);
    this.rows.set(this.scratch, row * this.width);
    const extra = this.extraFields(record);
    if (extra) this.extras.set(row, extra);
  }

  /**
   * The compared fields that differ between an old and a new record: the known ones in the schema's order, then the
   * others.
   */
  private differingFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
    return differingFields(
      before,
      after,
      this.known,
      (key) => this.slot.has(key) || this.uncompared.has(key) || key === "citationAddress",
    );
  }

  /** Pass 2: a record of the new file, with a string citationAddress. */
  addNew(record: Record<string, unknown>, line: number): void {
    if (this.phase === "old") this.phase = "new";
    const address = record.citationAddress as string;
    this.firstNew ??= { slug: record.slug, titleId: record.titleId };
    const row = this.old.get(address);
    if (row === undefined) {
      if (this.addedSet.has(address)) {
        this.duplicatesNew++;
        return;
      }
      this.track(this.newFields, record, "new");
      this.newRecords++;
      this.addedSet.add(address);
      this.digestField(record, this.textDigestSlot, this.scratch, 0);
      this.added.push({
        address,
        line,
        digest0: this.scratch[0]!,
        digest1: this.scratch[1]!,
        ...(typeof record.headingText === "string" ? { headingText: record.headingText } : {}),
      });
      return;
    }
    if (this.seen[row]) {
      this.duplicatesNew++;
      return;
    }
    this.seen[row] = 1;
    this.track(this.newFields, record, "new");
    this.newRecords++;
    const old = this.kept?.[row];
    if (old) {
      const fields = this.differingFields(old, record);
      if (fields.length === 0) return;
      this.candidates.push({
        ...candidateOf(address, row, line, record, fields),
        before: new Map(fields.map((field) => [field, reported(field, old[field])])),
      });
      return;
    }
    this.digestRow(record);
    const base = row * this.width;
    const fields: string[] = [];
    for (let k = 0; k < this.known.length; k++) {
      if (this.rows[base + 2 * k] !== this.scratch[2 * k] || this.rows[base + 2 * k + 1] !== this.scratch[2 * k + 1]) {
        fields.push(this.known[k]!);
      }
    }
    const before = this.extras.get(row);
    const after = this.extraFields(record);
    if (before || after) {
      for (const key of new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])])) {
        if (before?.get(key) !== after?.get(key)) fields.push(key);
      }
    }
    if (fields.length === 0) return;
    this.candidates.push(candidateOf(address, row, line, record, fields));
  }

  /**
   * After pass 2: settles removed records, fields added to or removed from a variant (not counted as
   * record changes), and likely moves. Returns true when pass 3 (`addOldDetail`) is needed.
   */
  endNew(): boolean {
    this.phase = "detail";
    for (const [address, row] of this.old)
      if (!this.seen[row]) this.removed.push({ address, row, line: this.lines[row]! });
    // Fields a whole variant gained or lost: reported once, and not as a change of every record.
    const gained = new Map<string, Set<string>>();
    const lost = new Map<string, Set<string>>();
    for (const [kind, before] of this.oldFields) {
      const after = this.newFields.get(kind);
      if (!after) continue;
      const add = [...after.fields].filter((f) => !before.fields.has(f)).sort();
      const remove = [...before.fields].filter((f) => !after.fields.has(f)).sort();
      gained.set(kind, new Set(add));
      lost.set(kind, new Set(remove));
      for (const field of remove) this.fieldChanges.push(this.fieldChange("field-removed", kind, field));
      for (const field of add) this.fieldChanges.push(this.fieldChange("field-added", kind, field));
    }
    this.candidates = this.candidates.filter((candidate) => {
      const kind = candidate.targetKind;
      candidate.fields = candidate.fields.filter((f) => !gained.get(kind)?.has(f) && !lost.get(kind)?.has(f));
      return candidate.fields.length > 0;
    });
    this.findMoves();
    for (const candidate of this.candidates) if (!candidate.before) this.details.set(candidate.address, candidate);
    for (const removed of this.removed) this.details.set(removed.address, removed);
    return this.details.size > 0;
  }

  private fieldChange(kind: "field-added" | "field-removed", targetKind: string, field: string): DiffChange {
    return {
      kind,
      class: classOf(kind),
      pointer: `/${field.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      targetKind,
      message: `field "${field}" ${kind === "field-added" ? "added to" : "removed from"} the ${targetKind} records`,
    };
  }

  /** For each removed address: added addresses with the same textDigest or the same designation, strongest first. */
  private findMoves(): void {
    if (this.removed.length === 0 || this.added.length === 0) return;
    const byDigest = new Map<string, number[]>();
    const byDesignation = new Map<string, number[]>();
    const push = (map: Map<string, number[]>, key: string, index: number) => {
      const list = map.get(key);
      if (list) list.push(index);
      else map.set(key, [index]);
    };
    this.added.forEach((added, index) => {
      if (added.digest0 !== 0 || added.digest1 !== 0) push(byDigest, `${added.digest0}:${added.digest1}`, index);
      const parts = parseAddress(added.address);
      const designation = parts && designationOf(parts);
      if (designation !== undefined) push(byDesignation, designation, index);
    });
    for (const removed of this.removed) {
      const base = removed.row * this.width + 2 * this.textDigestSlot;
      const d0 = this.rows[base]!;
      const d1 = this.rows[base + 1]!;
      const evidence = new Map<number, MoveEvidence[]>();
      if (d0 !== 0 || d1 !== 0)
        for (const index of byDigest.get(`${d0}:${d1}`) ?? []) evidence.set(index, ["textDigest"]);
      const parts = parseAddress(removed.address);
      const designation = parts && designationOf(parts);
      if (designation !== undefined) {
        for (const index of byDesignation.get(designation) ?? []) {
          const by = evidence.get(index);
          if (by) by.push("designation");
          else evidence.set(index, ["designation"]);
        }
      }
      if (evidence.size === 0) continue;
      const ranked = [...evidence].sort(
        ([a, byA], [b, byB]) =>
          byB.length - byA.length || (byA[0] === "textDigest" ? 0 : 1) - (byB[0] === "textDigest" ? 0 : 1) || a - b,
      );
      removed.likelyMoves = ranked
        .slice(0, MAX_MOVES)
        .map(([index, by]) => ({ address: this.added[index]!.address, by }));
      if (ranked.length > MAX_MOVES) removed.otherMoveCandidates = ranked.length - MAX_MOVES;
    }
  }

  /**
   * The old lines pass 3 looks at: the first line of each changed or removed address, and the lines of
   * duplicate addresses. The caller may leave every other line unparsed (addOldDetail ignores them).
   */
  detailLines(): Set<number> {
    const lines = new Set<number>(this.duplicateLines);
    for (const entry of this.details.values()) lines.add(this.lines[entry.row]!);
    return lines;
  }

  /** Pass 3: an old record again; only the changed and removed ones are looked at. */
  addOldDetail(record: Record<string, unknown>): void {
    const entry = this.details.get(record.citationAddress as string);
    if (!entry) return;
    if ("targetKind" in entry) {
      if (entry.before) return; // a duplicate line: the first one counts
      entry.before = new Map(entry.fields.map((field) => [field, reported(field, record[field])]));
    } else if (entry.headingText === undefined && typeof record.headingText === "string") {
      entry.headingText = record.headingText;
    }
  }

  /** The changes, ordered (docs/spec.md, section 12), with the warnings and record counts. */
  finish(): { changes: DiffChange[]; warnings: string[]; before: number; after: number } {
    if (this.phase !== "detail") this.endNew();
    this.phase = "done";
    const { oldFile, newFile } = this.options;
    const changes: DiffChange[] = [...this.fieldChanges];
    for (const removed of this.removed) {
      const moves = removed.likelyMoves;
      const moveText = moves
        ? `; likely moved to ${moves.map((m) => `${m.address} (same ${m.by.join(" and ")})`).join(", ")}`
        : "";
      changes.push({
        kind: "record-removed",
        class: "breaking",
        address: removed.address,
        message: `${removed.address} removed${moveText}`,
        file: oldFile,
        line: removed.line,
        ...(removed.headingText !== undefined ? { headingText: removed.headingText } : {}),
        ...(moves ? { likelyMoves: moves } : {}),
        ...(removed.otherMoveCandidates ? { otherMoveCandidates: removed.otherMoveCandidates } : {}),
      });
    }
    for (const candidate of this.candidates) {
      const fields = candidate.fields.map((field) =>
        fieldChange(field, candidate.before?.get(field) ?? {}, candidate.after.get(field) ?? {}),
      );
      changes.push({
        kind: "record-changed",
        class: "breaking",
        address: candidate.address,
        message: `${candidate.address}: ${candidate.fields.join(", ")} changed`,
        fields,
        file: newFile,
        line: candidate.line,
        ...(candidate.headingText !== undefined ? { headingText: candidate.headingText } : {}),
      });
    }
    for (const added of this.added) {
      changes.push({
        kind: "record-added",
        class: "additive",
        address: added.address,
        message: `${added.address} added`,
        file: newFile,
        line: added.line,
        ...(added.headingText !== undefined ? { headingText: added.headingText } : {}),
      });
    }
    // Truly identical siblings whose number changed: their positional addresses may now name another of them.
    const changed = new Set(this.candidates.map((c) => c.address));
    const matched = [...this.old].filter(([, row]) => this.seen[row]).map(([address]) => address);
    for (const address of tieBreakShifts(this.old.keys(), [...matched, ...this.addedSet])) {
      if (changed.has(address)) continue;
      const row = this.old.get(address)!;
      changes.push({
        kind: "record-changed",
        class: "breaking",
        address,
        message: `${address}: the number of its truly identical siblings changed, so this positional address may now name another of them`,
        fields: [],
        file: oldFile,
        line: this.lines[row]!,
      });
    }
    if (this.framing.changed()) {
      changes.push({
        kind: "digest-framing-changed",
        class: "breaking",
        pointer: "/citationTargetId",
        message:
          "citationTargetId is no longer derived with the citation-target-id/v1 framing (docs/spec.md, section 3): the old file's ids are, the new file's are not",
      });
    }
    if (this.duplicatesOld > 0)
      this.warnings.push(
        `${oldFile}: ${this.duplicatesOld} duplicate citationAddress lines ignored (the first of each counts)`,
      );
    if (this.duplicatesNew > 0)
      this.warnings.push(
        `${newFile}: ${this.duplicatesNew} duplicate citationAddress lines ignored (the first of each counts)`,
      );
    if (this.firstOld && this.firstNew) {
      if (this.firstOld.titleId !== this.firstNew.titleId) {
        this.warnings.push(
          `the files are of different titles (titleId ${JSON.stringify(this.firstOld.titleId)} and ${JSON.stringify(this.firstNew.titleId)})`,
        );
      } else if (this.firstOld.slug !== this.firstNew.slug) {
        this.warnings.push(
          `the slug changed (${JSON.stringify(this.firstOld.slug)} → ${JSON.stringify(this.firstNew.slug)}): every address changes with it`,
        );
      }
    }
    return { changes: sortChanges(changes), warnings: this.warnings, before: this.old.size, after: this.newRecords };
  }
}

/**
 * The text a value other than a string is digested as: its JCS text tagged "j" (strings are tagged "s"; an array of
 * strings: JSON.stringify's text is its JCS).
 */
function fieldChange(field: string, before: Reported, after: Reported): FieldChange {
  return {
    field,
    ...("value" in before ? { before: before.value } : {}),
    ...("value" in after ? { after: after.value } : {}),
    ...(before.length !== undefined ? { beforeLength: before.length } : {}),
    ...(after.length !== undefined ? { afterLength: after.length } : {}),
  };
}
