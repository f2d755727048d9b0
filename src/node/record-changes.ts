/**
 * What a regeneration changes, told by citation address: records added, removed, and changed in
 * content. Used by `generate --check` and `update` to say why a file is stale (docs/spec.md, "Generation").
 */
import { createHash } from "node:crypto";
import { regularReadStream } from "./regular-file.js";
import { sha256Hex } from "../core/digest.js";
import { LineSplitter } from "../core/lines.js";
import { comparedText } from "../core/records/record-fingerprint.js";

export { UNCOMPARED_FIELDS } from "../core/records/record-fingerprint.js";

/** The SHA-256 of a record's compared fields (`comparedText`): equal exactly when no compared field changed. */
export function recordFingerprint(record: Record<string, unknown>): string {
  return sha256Hex(comparedText(record));
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
}

export interface OldRecords {
  /** SHA-256 of the file's bytes, taken while reading it (to tell whether new output would differ). */
  fileDigest: string;
  /** citationAddress → fingerprint, in file order. */
  fingerprints: Map<string, string>;
  /** The datasetDigest of the first record, when there is one. */
  datasetDigest?: string;
  /** Lines that were not a JSON record with a citationAddress. */
  unreadable: number;
  /** Lines whose citationAddress an earlier line already had. */
  duplicates?: number;
}

/**
 * Reads a JSONL file's records as address → fingerprint; undefined when the file does not exist. Memory: one entry per
 * address.
 */
export async function readOldRecords(path: string): Promise<OldRecords | undefined> {
  const fingerprints = new Map<string, string>();
  let datasetDigest: string | undefined;
  let unreadable = 0;
  let duplicates = 0;
  const decoder = new TextDecoder();
  const splitter = new LineSplitter((line) => {
    let record: unknown;
    try {
      record = JSON.parse(decoder.decode(line.bytes));
    } catch {
      unreadable++;
      return;
    }
    const address = (record as { citationAddress?: unknown } | null)?.citationAddress;
    if (typeof address !== "string") {
      unreadable++;
      return;
    }
    if (datasetDigest === undefined && typeof (record as { datasetDigest?: unknown }).datasetDigest === "string")
      datasetDigest = (record as { datasetDigest: string }).datasetDigest;
    if (fingerprints.has(address)) duplicates++;
    fingerprints.set(address, recordFingerprint(record as Record<string, unknown>));
  });
  const file = createHash("sha256");
  try {
    for await (const chunk of regularReadStream(path)) {
      file.update(chunk as Buffer);
      splitter.push(chunk as Buffer);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  splitter.end();
  return {
    fingerprints,
    unreadable,
    ...(duplicates > 0 ? { duplicates } : {}),
    fileDigest: file.digest("hex"),
    ...(datasetDigest !== undefined ? { datasetDigest } : {}),
  };
}

/** Compares new records, fed one by one, against the old file's. */
export class RecordComparer {
  private readonly remaining: Map<string, string>;
  private readonly changes: RecordChanges;

  constructor(old: OldRecords | undefined) {
    this.remaining = new Map(old?.fingerprints);
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

  finish(): RecordChanges {
    return { ...this.changes, removed: [...this.remaining.keys()] };
  }
}

/** True when nothing was added, removed or changed. */
export function noRecordChanges(changes: RecordChanges): boolean {
  return changes.added.length === 0 && changes.removed.length === 0 && changes.changed.length === 0;
}
