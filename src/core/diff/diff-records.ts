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
import { isPositionalAddress, looseTextKey } from "./unit-changes.js";
import { classOf, type DiffChange, sortChanges } from "./diff.js";
import { differingFields } from "../records/record-fingerprint.js";
import { FieldDigests } from "./field-digests.js";
import { Framing } from "./framing.js";
import {
  type Added,
  type Candidate,
  candidateOf,
  findMoves,
  recordChanges,
  type Removed,
  reported,
  type Row,
} from "./record-entries.js";
import { tieBreakShifts } from "./tie-breaks.js";

/**
 * An old side up to this many characters of lines is kept as its records, and each new record is
 * compared with its old one field by field, with no digest at all: the datasets of a publisher's
 * repository (one law each, a few MiB at most). Past it, the records kept so far are digested and
 * let go, and the rest of the file is compared through digests, so a huge file holds no more.
 */
const KEEP_OLD_UP_TO = 8 * 2 ** 20;

/** Per record variant: the fields seen in it, and how many records it had. */
type FieldSets = Map<string, { fields: Set<string>; records: number }>;

export interface RecordDiffOptions {
  /** Fields that are not compared: the version-scoped and positional ones (UNCOMPARED_FIELDS). */
  uncompared: readonly string[];
  /** How the old and new file are shown (for the line of each change). */
  oldFile: string;
  newFile: string;
}

export class RecordDiff {
  private readonly digests: FieldDigests;
  /** Two 32-bit words a known compared field in a row of field digests (`digests.width`). */
  private readonly width: number;
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
  /**
   * Set when the old side has positional units below the heading (`…#§-9/_2`): the new side's text digests are then
   * kept by address, so that a positional unit whose old text stands elsewhere now is said to have likely moved.
   */
  private newTexts: Map<string, string> | undefined;
  /** An old positional unit's text with its white space collapsed (looseTextKey), by row: moved and re-indented. */
  private readonly oldLoose = new Map<Row, number>();

  constructor(private readonly options: RecordDiffOptions) {
    this.digests = new FieldDigests(options.uncompared);
    this.width = this.digests.width;
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
      const slot = this.digests.textDigestSlot;
      this.digests.digestField(record, slot, this.rows, row * this.width + 2 * slot);
    } else this.digestOld(record, row);
    this.lines[row] = line;
    this.old.set(address, row);
    if (isPositionalAddress(address)) {
      this.newTexts ??= new Map();
      const key = looseTextKey(record.markdown);
      if (key !== undefined) this.oldLoose.set(row, key);
    }
  }

  /** A changed positional unit whose old text is another record's new text: a likely move (docs/spec.md, 12.4). */
  private positionalMoves(newTexts: Map<string, string>): void {
    const slot = this.digests.textDigestSlot;
    for (const candidate of this.candidates) {
      if (!candidate.fields.includes("textDigest") || !isPositionalAddress(candidate.address)) continue;
      const base = candidate.row * this.width + 2 * slot;
      const to = newTexts.get(`${this.rows[base]}:${this.rows[base + 1]}`);
      if (to !== undefined && to !== candidate.address) candidate.likelyMoves = [{ address: to, by: ["textDigest"] }];
    }
  }

  /** The old side is too large to keep: the records kept so far are digested and let go. */
  private letGo(): void {
    for (const [row, record] of (this.kept ?? []).entries()) this.digestOld(record, row);
    this.kept = undefined;
  }

  /** An old record's row of field digests, and its unknown compared fields. */
  private digestOld(record: Record<string, unknown>, row: Row): void {
    this.digests.digestRow(record);
    this.rows.set(this.digests.scratch, row * this.width);
    const extra = this.digests.extraFields(record);
    if (extra) this.extras.set(row, extra);
  }

  /**
   * The compared fields that differ between an old and a new record: the known ones in the schema's order, then the
   * others.
   */
  private differingFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
    return differingFields(before, after, this.digests.known, (key) => this.digests.notExtra(key));
  }

  /** Pass 2: a record of the new file, with a string citationAddress. */
  addNew(record: Record<string, unknown>, line: number): void {
    if (this.phase === "old") this.phase = "new";
    const address = record.citationAddress as string;
    this.firstNew ??= { slug: record.slug, titleId: record.titleId };
    if (this.newTexts !== undefined) {
      const { scratch } = this.digests;
      this.digests.digestField(record, this.digests.textDigestSlot, scratch, 0);
      const key = `${scratch[0]}:${scratch[1]}`;
      if (!this.newTexts.has(key)) this.newTexts.set(key, address);
    }
    const row = this.old.get(address);
    if (row === undefined) {
      if (this.addedSet.has(address)) {
        this.duplicatesNew++;
        return;
      }
      this.track(this.newFields, record, "new");
      this.newRecords++;
      this.addedSet.add(address);
      const { scratch } = this.digests;
      this.digests.digestField(record, this.digests.textDigestSlot, scratch, 0);
      const loose = isPositionalAddress(address) ? looseTextKey(record.markdown) : undefined;
      this.added.push({
        address,
        line,
        digest0: scratch[0]!,
        digest1: scratch[1]!,
        ...(typeof record.headingText === "string" ? { headingText: record.headingText } : {}),
        ...(loose !== undefined ? { loose } : {}),
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
    const { known, scratch } = this.digests;
    this.digests.digestRow(record);
    const base = row * this.width;
    const fields: string[] = [];
    for (let k = 0; k < known.length; k++) {
      if (this.rows[base + 2 * k] !== scratch[2 * k] || this.rows[base + 2 * k + 1] !== scratch[2 * k + 1]) {
        fields.push(known[k]!);
      }
    }
    const before = this.extras.get(row);
    const after = this.digests.extraFields(record);
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
    if (this.newTexts !== undefined) this.positionalMoves(this.newTexts);
    findMoves(
      this.removed,
      this.added,
      (row) => {
        const base = row * this.width + 2 * this.digests.textDigestSlot;
        return [this.rows[base]!, this.rows[base + 1]!];
      },
      (row) => this.oldLoose.get(row),
    );
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
    const changes: DiffChange[] = [
      ...this.fieldChanges,
      ...recordChanges(this.removed, this.candidates, this.added, oldFile, newFile),
    ];
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
