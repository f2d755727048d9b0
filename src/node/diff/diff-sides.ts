/**
 * The two sides of a pair `diff` compares (docs/spec.md, section 12): a file on disk, a file at a git revision (a blob
 * read whole through git's batch, or streamed), or nothing (a dataset added or deleted); as plain data for a worker
 * thread, and their records read.
 */
import { statSync } from "node:fs";
import { describeIoError, OperationalError } from "../errors.js";
import { readRegularFileSync, regularReadStream } from "../files/regular-file.js";
import { type OnRecord, readRecordStream } from "../records/record-stream.js";

/** One side of a pair: a file on disk, a file at a git revision, or nothing (a dataset added or deleted). */
export interface DiffSide {
  label: string;
  missing: boolean;
  open(): AsyncIterable<Uint8Array>;
  /** Starts reading the side ahead of its turn (a blob asked of git while earlier pairs are compared). */
  prefetch?(): void;
  /** Lets go of what was read (the pair is done). */
  release?(): void;
  /** The size of a file side, as found when the side was made (a stat, not read again). */
  size?: number;
  /**
   * The side as plain data, for a worker thread to read or compare (absent: a side only this thread reads, such as a
   * blob streamed by git).
   */
  data?(): Promise<SideData>;
}

/**
 * A side as plain data: missing, a file on disk (the worker reads it), or bytes already read (a blob from git's batch,
 * moved to the worker).
 */
export type SideData =
  | { label: string; missing: true }
  | { label: string; path: string }
  | { label: string; bytes: Uint8Array };

/** A file on disk; `missing` when it is not there. */
export async function fileSide(absolute: string, label: string): Promise<DiffSide> {
  const info = statSync(absolute, { throwIfNoEntry: false });
  const missing = !info?.isFile();
  // A dataset file is read in one call (thousands a run); a large one is streamed.
  const whole = info !== undefined && info.size <= WHOLE_BLOB_UP_TO;
  return {
    label,
    missing,
    ...(info !== undefined && !missing ? { size: info.size } : {}),
    data: async () => (missing ? { label, missing: true } : { label, path: absolute }),
    async *open() {
      try {
        if (whole) yield readRegularFileSync(absolute);
        else for await (const chunk of regularReadStream(absolute)) yield chunk as Buffer;
      } catch (error) {
        throw new OperationalError(describeIoError(error, "read", label));
      }
    },
  };
}

export const missingSide = (label: string): DiffSide => ({
  label,
  missing: true,
  data: async () => ({ label, missing: true }),
  async *open() {},
});

/** A side from its plain data (in a worker thread). */
export async function sideOf(data: SideData): Promise<DiffSide> {
  if ("missing" in data) return missingSide(data.label);
  if ("path" in data) return fileSide(data.path, data.label);
  const { bytes, label } = data;
  return {
    label,
    missing: false,
    async *open() {
      yield bytes;
    },
  };
}

/** A side read whole from git's batch, once (the comparison may read it twice), and asked for ahead of its turn. */
export function blobSide(label: string, fetch: () => Promise<Buffer>): DiffSide {
  let bytes: Promise<Buffer> | undefined;
  const get = () => {
    bytes ??= fetch();
    bytes.catch(() => undefined); // surfaces when the side is read
    return bytes;
  };
  return {
    label,
    missing: false,
    async *open() {
      yield await get();
    },
    prefetch: () => void get(),
    release: () => {
      bytes = undefined;
    },
    data: async () => ({ label, bytes: await get() }),
  };
}

/**
 * A blob up to this size is read whole through the run's cat-file --batch; a larger one is streamed by a git process of
 * its own.
 */
export const WHOLE_BLOB_UP_TO = 64 * 2 ** 20;

/**
 * Streams the records of a side: each line that is a JSON object with a string citationAddress; counts the others
 * (record-stream.ts, strict). With `only`, only those lines are parsed (the count of unreadable lines is then of these
 * only).
 */
export function readRecords(
  side: DiffSide,
  onRecord: OnRecord,
  only?: ReadonlySet<number>,
): Promise<{ unreadable: number; conflictMarkers: number }> {
  return readRecordStream(side.open(), onRecord, { decoding: "strict", ...(only !== undefined ? { only } : {}) });
}
