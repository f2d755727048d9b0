/**
 * `update` of a large dataset (a JSONL too large to compare in memory: update-dataset.ts): the lines generated are
 * joined as bytes, digested, written into the temporary file (unless `--check`) and compared with the file's bytes as they
 * stream. While they match, nothing is parsed: a dataset that is up to date costs its generation and one read of its
 * file. From the first line that differs (or a file that goes on past the last line), the file's records are read as
 * address → fingerprint (readOldRecords) and each line from there on is compared by record, as before this shortcut;
 * the lines before it are the file's own, byte for byte, so they are its first records, unchanged.
 */
import { closeSync, readSync } from "node:fs";
import { decodeUtf8, sha256Stream } from "../../core/bytes.js";
import type { LineStep } from "../../core/records/generate.js";
import { type RecordChanges, RecordComparer, unexplained } from "../../core/records/record-fingerprint.js";
import { openRegularSync } from "../files/regular-file.js";
import { type OldRecords, readOldRecords } from "../records/record-changes.js";
import type { AtomicFile } from "../writes/write.js";
import { writeSteps } from "../generate/encoded-lines.js";
import { lineAddress } from "./line-address.js";

/** A file's bytes, read in order 1 MiB at a time and compared with what is given. */
class FileBytes {
  private readonly chunk = Buffer.allocUnsafe(2 ** 20);
  private start = 0;
  private end = 0;
  private closed = false;

  private constructor(private readonly fd: number) {}

  /** The file opened (as every read is: regular, in the repository), or undefined when it is not there. */
  static open(path: string): FileBytes | undefined {
    try {
      return new FileBytes(openRegularSync(path).fd);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** Reads on when what was read is used up; false at the end of the file. */
  private fill(): boolean {
    if (this.start < this.end) return true;
    if (this.closed) return false;
    this.start = 0;
    this.end = readSync(this.fd, this.chunk, 0, this.chunk.length, null);
    if (this.end === 0) this.close();
    return this.end > 0;
  }

  /** Whether the file's next bytes are `bytes` (consumed either way: after a mismatch, the place is no longer kept). */
  matches(bytes: Uint8Array): boolean {
    let at = 0;
    while (at < bytes.length) {
      if (!this.fill()) return false;
      const length = Math.min(bytes.length - at, this.end - this.start);
      if (this.chunk.compare(bytes, at, at + length, this.start, this.start + length) !== 0) return false;
      this.start += length;
      at += length;
    }
    return true;
  }

  /** Whether nothing is left to read. */
  atEnd(): boolean {
    return !this.fill();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/** What the comparison found. */
export interface StreamedComparison {
  /** The lines generated. */
  records: number;
  /** SHA-256 (hex) of the bytes generated. */
  digest: string;
  /** Whether they differ from the file's (or there is no file). */
  changed: boolean;
  /** By record, as RecordComparer says; undefined when the file holds an address twice (see compareStreamed). */
  changes: RecordChanges | undefined;
}

/**
 * Generates into `file` (when given) while comparing with the JSONL at `path`. `changes` is undefined only when the
 * file differs and holds one address twice: the lines before the difference cannot then stand for their records (the
 * fingerprint kept of such an address is its last line's), and the caller compares by record from the start.
 * The lines are joined as bytes (writeSteps: the worker threads' UTF-8, never decoded while the file matches); a line
 * is decoded and parsed only from the first difference.
 */
export async function compareStreamed(
  steps: AsyncIterable<LineStep>,
  path: string,
  file: AtomicFile | undefined,
  readError: (error: unknown) => Error,
): Promise<StreamedComparison> {
  /** A read of the file that fails is said as such (`readError`), not as a failure of the generation. */
  const reading = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw readError(error);
    }
  };
  const old = reading(() => FileBytes.open(path));
  const hash = sha256Stream();
  /** Lines equal to the file's so far; once one differs, the records compared from there. */
  let same = old !== undefined;
  let kept = 0;
  // No file: every record is added.
  let comparer: RecordComparer | undefined = old === undefined ? new RecordComparer(undefined) : undefined;
  let duplicated = false;
  const compareFrom = async (): Promise<void> => {
    old!.close();
    const records: OldRecords | undefined = await readOldRecords(path).catch((error: unknown) => {
      throw readError(error);
    });
    if (records?.duplicates) duplicated = true;
    comparer = new RecordComparer(records);
    comparer.keepFirst(kept);
  };
  const byRecord = (out: Buffer, from: number, to: number) => {
    if (duplicated) return;
    const line = out.subarray(from, to);
    // No old record left to compare with (a new dataset: adopt): the record is added, and its address is all that is
    // needed, read from the line's bytes (line-address.ts) rather than parsing the record.
    if (comparer!.oldLeft === 0) {
      const address = lineAddress(line);
      if (address !== undefined) {
        comparer!.addAdded(address);
        return;
      }
    }
    comparer!.add(JSON.parse(decodeUtf8(line)) as Record<string, unknown>);
  };
  let records: number;
  try {
    records = await writeSteps(
      steps,
      async (bytes) => {
        hash.update(bytes);
        await file?.write(bytes);
      },
      (out, from, to) => {
        if (!same) {
          byRecord(out, from, to);
          return undefined;
        }
        if (reading(() => old!.matches(out.subarray(from, to)))) {
          kept++;
          return undefined;
        }
        same = false;
        return compareFrom().then(() => byRecord(out, from, to));
      },
    );
    // Every line matched: the same file, unless it goes on (records removed from its end, or lines that are none).
    if (same && !reading(() => old!.atEnd())) {
      same = false;
      await compareFrom();
    }
  } finally {
    old?.close();
  }
  const digest = hash.digest("hex");
  if (same) return { records, digest, changed: false, changes: noChanges(records) };
  if (duplicated) return { records, digest, changed: true, changes: undefined };
  const changes = comparer!.finish();
  // Nothing by record: the first line that differs says where (kept lines matched before it).
  if (old !== undefined && unexplained(changes)) changes.firstDifferentLine = kept + 1;
  return { records, digest, changed: true, changes };
}

function noChanges(records: number): RecordChanges {
  return { before: records, after: records, added: [], removed: [], changed: [] };
}
