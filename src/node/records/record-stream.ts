/**
 * The one reader of a JSONL file's records outside validate (which reports what is wrong with each line, and has its
 * own reader, src/engine/read-records.ts): `diff` and `view` read their sides with it, `update` and `generate --check`
 * the old file's records, validate the records whose markdown was edited (locate-edits.ts). It reads leniently: each
 * line that parses as a JSON object is a record, and the others are counted, never reported one by one.
 */
import { isConflictMarker } from "../../core/lines.js";
import { decodeUtf8Lenient } from "../../core/bytes.js";
import { LineReader, LineSplitter } from "../../core/lines.js";

export interface RecordStreamOptions {
  /**
   * How bytes are read as text. `strict`: a line that is not UTF-8 is unreadable, and a byte-order mark is dropped from
   * the first line only. `lenient`: bytes that are not UTF-8 read as U+FFFD, and a byte-order mark is dropped from any
   * line (decodeUtf8Lenient).
   */
  decoding: "strict" | "lenient";
  /**
   * What a record is: `addressed` (the default), a JSON object whose citationAddress is a string; `object`, any JSON
   * object.
   */
  records?: "addressed" | "object";
  /**
   * Only the lines of these numbers are parsed; the others are not looked at, nor counted (but for a line that is not
   * UTF-8, when strict).
   */
  only?: ReadonlySet<number>;
}

/** A record, its line number and the line's text as parsed. */
export type OnRecord = (record: Record<string, unknown>, line: number, text: string) => void;

/** A JSON value that is a record: an object, not null or an array. */
function isRecordObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A record with a string citationAddress: what the commands that read records by their address read. */
export function isAddressedRecord(value: unknown): value is Record<string, unknown> {
  return isRecordObject(value) && typeof value.citationAddress === "string";
}

/** Streams the records of a file's bytes to `onRecord`, in order; resolves to the count of lines that are no record. */
export async function readRecordStream(
  chunks: AsyncIterable<Uint8Array>,
  onRecord: OnRecord,
  options: RecordStreamOptions,
): Promise<{ unreadable: number; conflictMarkers: number }> {
  const { only } = options;
  const addressed = (options.records ?? "addressed") === "addressed";
  let unreadable = 0;
  /** Lines that are git's merge conflict markers: a file left in conflict, which no command reads as records. */
  let conflictMarkers = 0;
  const take = (text: string, line: number) => {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      unreadable++;
      if (isConflictMarker(text)) conflictMarkers++;
      return;
    }
    if (!(addressed ? isAddressedRecord(record) : isRecordObject(record))) {
      unreadable++;
      return;
    }
    onRecord(record as Record<string, unknown>, line, text);
  };
  const reader =
    options.decoding === "strict"
      ? new LineReader(
          (line) => {
            if (only !== undefined && !only.has(line.number)) return;
            take(line.number === 1 && line.text.startsWith("\uFEFF") ? line.text.slice(1) : line.text, line.number);
          },
          () => unreadable++,
        )
      : new LineSplitter((line) => {
          if (only !== undefined && !only.has(line.number)) return;
          take(decodeUtf8Lenient(line.bytes), line.number);
        });
  for await (const chunk of chunks) reader.push(chunk);
  reader.end();
  return { unreadable, conflictMarkers };
}

/** A line of a file read leniently (as `lenient` above), without its LF. */
export interface LenientLine {
  text: string;
  number: number;
  /** False only for a last line that has no LF after it. */
  terminated: boolean;
}

/** The lines of a file's bytes, read leniently, one after another (for a reader that compares them as it goes). */
export async function* lenientLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<LenientLine> {
  const lines: LenientLine[] = [];
  const splitter = new LineSplitter((line) =>
    lines.push({ text: decodeUtf8Lenient(line.bytes), number: line.number, terminated: line.terminated }),
  );
  for await (const chunk of chunks) {
    splitter.push(chunk);
    yield* lines.splice(0);
  }
  splitter.end();
  yield* lines.splice(0);
}
