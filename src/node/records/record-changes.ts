/**
 * The old file's side of what a regeneration changes: its records read as citation address → fingerprint, for the one
 * record comparer (`RecordComparer`, src/core/records/record-fingerprint.ts). Used by `generate --check` and `update`
 * to say why a file is stale (docs/spec.md, "Generation").
 */
import { regularReadStream } from "../files/regular-file.js";
import { sha256Stream } from "../../core/bytes.js";
import { LineSplitter } from "../../core/lines.js";
import { type OldFingerprints, recordFingerprint } from "../../core/records/record-fingerprint.js";
import { decodeUtf8Lenient } from "../../core/bytes.js";

export interface OldRecords extends OldFingerprints {
  /** SHA-256 of the file's bytes, taken while reading it (to tell whether new output would differ). */
  fileDigest: string;
  /** The datasetDigest of the first record, when there is one. */
  datasetDigest?: string;
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
  const splitter = new LineSplitter((line) => {
    let record: unknown;
    try {
      record = JSON.parse(decodeUtf8Lenient(line.bytes));
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
  const file = sha256Stream();
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
