/**
 * The one record comparer: what two versions of a record are compared on (docs/spec.md, section 12.1), and how.
 * A field's two values are the same exactly when their canonical JSON (RFC 8785) is (`sameFieldValue`); the fields
 * compared are every field but the version-scoped and positional ones (UNCOMPARED_FIELDS), the key apart.
 * - `update` and `generate --check` tell what a regeneration changes by address (`RecordComparer`): the old file is
 *   kept as one fingerprint per address, the SHA-256 of the compared fields' text (`comparedText`), equal exactly
 *   when every compared field is the same.
 * - `diff` names the fields that differ (`differingFields`, over the same fields, the schema's first).
 * - `generate --check` names the first field, in code-unit order of the names, that differs from the generated record
 *   (`differingFields` over every field: it explains bytes, so the uncompared fields count too).
 */
import canonicalize from "canonicalize";
import { sha256Latin1 } from "../bytes.js";

/**
 * Fields left out when deciding whether a record changed: the version-scoped ones change with every
 * version of the dataset, and the positional ones shift whenever anything is inserted before the record.
 */
export const UNCOMPARED_FIELDS: readonly string[] = [
  "datasetDigest",
  "citationTargetId",
  "versionDate",
  "sourceTextUrl",
  "documentOrder",
  "structuralPreorderIndex",
  "sourceArtifactBlockStartIndex",
  "sourceArtifactBlockEndExclusive",
];

const UNCOMPARED = new Set(UNCOMPARED_FIELDS);

/**
 * The compared fields of a record as one JSON text, member names sorted: equal for two records
 * exactly when every compared field is. A record's values are strings, numbers and arrays of strings:
 * JSON.stringify with the member names sorted is then as deterministic as RFC 8785 and several times
 * faster; anything else (a nested object, in a broken file) takes the canonicaliser.
 */
export function comparedText(record: Record<string, unknown>, uncompared: ReadonlySet<string> = UNCOMPARED): string {
  const keys = Object.keys(record)
    .filter((key) => !uncompared.has(key))
    .sort();
  let flat = true;
  const kept: Record<string, unknown> = Object.create(null); // no prototype: a "__proto__" member stays a member
  for (const key of keys) {
    const value = record[key];
    if (
      flat &&
      value !== null &&
      typeof value === "object" &&
      !(Array.isArray(value) && value.every((item) => item === null || typeof item !== "object"))
    )
      flat = false;
    kept[key] = value; // inserted in sorted order, so JSON.stringify writes them so
  }
  return (flat ? JSON.stringify(kept) : canonicalize(kept)) ?? "";
}

/**
 * The text a field's value is compared by: `s` and the string itself for a string, else `j` and its canonical JSON
 * (RFC 8785; an array of strings through JSON.stringify, which writes it the same way, faster). Two values are the same
 * exactly when their texts are equal.
 */
export function fieldValueText(value: unknown): string {
  if (typeof value === "string") return `s${value}`;
  return `j${Array.isArray(value) && value.every((item) => typeof item === "string") ? JSON.stringify(value) : (canonicalize(value) ?? "")}`;
}

/** Whether two values of a field (undefined: absent) are the same: their canonical JSON texts are equal. */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || typeof a === "string" || typeof b === "string") return false;
  if (
    Array.isArray(a) &&
    Array.isArray(b) &&
    a.length === b.length &&
    a.every((item, i) => typeof item === "string" && item === b[i])
  )
    return true;
  return fieldValueText(a) === fieldValueText(b);
}

/**
 * The fields whose values differ between two records: those of `first` in its order, then the other fields of either
 * record (the before record's first, each once) that `skip` does not leave out, in the order they are met.
 */
export function differingFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  first: readonly string[],
  skip: (field: string) => boolean,
): string[] {
  const fields: string[] = [];
  for (const name of first) if (!sameFieldValue(before[name], after[name])) fields.push(name);
  let others: Set<string> | undefined;
  for (const record of [before, after]) {
    for (const key of Object.keys(record)) {
      if (skip(key)) continue;
      others ??= new Set();
      others.add(key);
    }
  }
  for (const key of others ?? []) if (!sameFieldValue(before[key], after[key])) fields.push(key);
  return fields;
}

/**
 * The SHA-256 of a record's compared fields (`comparedText`), its 32 bytes as a one-byte-a-character string (a large
 * dataset's old file holds one a record: 620,027 for the statute book with its units): equal exactly when no compared
 * field changed.
 */
export function recordFingerprint(record: Record<string, unknown>): string {
  return sha256Latin1(comparedText(record));
}

export interface RecordChanges {
  /** Records in the old file (lines that hold a record with a citationAddress) and in the new output. */
  before: number;
  after: number;
  /** Addresses, in the order of the file they are found in. */
  added: string[];
  removed: string[];
  changed: string[];
  /**
   * Lines of the old file that repeated an address already seen (kept by nobody: regenerating drops them), when there
   * were any.
   */
  duplicates?: number;
  /** Lines of the old file that were not a record with a citationAddress, when there were any. */
  unreadable?: number;
  /**
   * The first line of the old file whose bytes are not what is generated, when no record changed and no line is
   * dropped (a line edited by hand into another form of the same record: not canonical, say).
   */
  firstDifferentLine?: number;
}

/** True when no record change and no line dropped explains why a JSONL is written again (firstDifferentLine). */
export function unexplained(changes: RecordChanges): boolean {
  return (
    changes.added.length + changes.removed.length + changes.changed.length === 0 &&
    !changes.duplicates &&
    !changes.unreadable
  );
}

/** An old file's records as the comparer takes them: citationAddress → fingerprint, and the lines that were not kept. */
export interface OldFingerprints {
  /** citationAddress → fingerprint (recordFingerprint), in file order. */
  fingerprints: Map<string, string>;
  /** Lines that were not a JSON record with a citationAddress. */
  unreadable: number;
  /** Lines whose citationAddress an earlier line already had. */
  duplicates?: number;
}

/** Compares new records, fed one by one, against the old file's fingerprints. */
export class RecordComparer {
  private readonly remaining: Map<string, string>;
  private readonly changes: RecordChanges;

  /**
   * `old`: its map of fingerprints is taken, not copied (the comparer deletes from it as records come): a large dataset's
   * old file held it twice. The caller does not use it after.
   */
  constructor(old: OldFingerprints | undefined) {
    this.remaining = old?.fingerprints ?? new Map();
    this.changes = {
      before: old?.fingerprints.size ?? 0,
      after: 0,
      added: [],
      removed: [],
      changed: [],
      ...(old?.duplicates ? { duplicates: old.duplicates } : {}),
      ...(old?.unreadable ? { unreadable: old.unreadable } : {}),
    };
  }

  add(record: Record<string, unknown>): void {
    this.changes.after++;
    const address = String(record.citationAddress);
    const before = this.remaining.get(address);
    if (before === undefined) this.changes.added.push(address);
    else if (before !== recordFingerprint(record)) this.changes.changed.push(address);
    this.remaining.delete(address);
  }

  /** How many old records no new record has met yet: none, and every record to come is added. */
  get oldLeft(): number {
    return this.remaining.size;
  }

  /** A record at an address no old record is left at (oldLeft 0): what `add` of it does, without the record. */
  addAdded(address: string): void {
    this.changes.after++;
    this.changes.added.push(address);
  }

  /**
   * The first `count` records of the old file (in its order) come again unchanged, byte for byte: what `add` of each
   * would do, without the records at hand (streamed-compare.ts). Only for an old file without duplicate addresses.
   */
  keepFirst(count: number): void {
    let left = count;
    for (const address of this.remaining.keys()) {
      if (left-- === 0) break;
      this.remaining.delete(address);
    }
    this.changes.after += count;
  }

  finish(): RecordChanges {
    return { ...this.changes, removed: [...this.remaining.keys()] };
  }
}

/** True when nothing was added, removed or changed. */
export function noRecordChanges(changes: RecordChanges): boolean {
  return changes.added.length === 0 && changes.removed.length === 0 && changes.changed.length === 0;
}
