/** Splits a byte stream into lines at LF, without holding more than the current line. */
import { decodeUtf8, isUtf8, utf8ByteLength } from "./bytes.js";

export interface Line {
  /** The line's bytes without the terminating LF. */
  bytes: Uint8Array;
  /** 1-based line number. */
  number: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** False only for a last line that has no LF after it. */
  terminated: boolean;
  /** Set (to the line's length in bytes) when the line is longer than the reader's cap: its bytes were not kept. */
  overlong?: number;
}

/** A push-style line splitter: feed chunks, receive lines; call `end()` once at the end of input. */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private number = 0;
  private offset = 0;

  constructor(private readonly onLine: (line: Line) => void) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      let bytes = chunk.subarray(start, end);
      if (this.pendingLength > 0) {
        this.pending.push(bytes);
        bytes = concat(this.pending, this.pendingLength + bytes.length);
        this.pending = [];
        this.pendingLength = 0;
      }
      this.emit(bytes, true);
      start = end + 1;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingLength += chunk.length - start;
    }
  }

  /** Flushes a last line that has no LF after it. */
  end(): void {
    if (this.pendingLength > 0) {
      const bytes = concat(this.pending, this.pendingLength);
      this.pending = [];
      this.pendingLength = 0;
      this.emit(bytes, false);
    }
  }

  private emit(bytes: Uint8Array, terminated: boolean): void {
    this.number++;
    this.onLine({ bytes, number: this.number, offset: this.offset, terminated });
    this.offset += bytes.length + (terminated ? 1 : 0);
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A line known to be valid UTF-8, already decoded (without its LF). */
export interface TextLine {
  text: string;
  number: number;
  terminated: boolean;
}

/** How many bytes of complete lines are decoded in one call (a longer line goes whole). */
const PIECE_BYTES = 1 << 16;

/**
 * A push-style reader that decodes runs of complete lines at once: each chunk's complete lines are
 * checked for UTF-8 in one call and decoded in pieces of about 64 KiB (much cheaper than per line;
 * pieces of this size decode faster than whole megabytes, and the decoder's copies outside the heap
 * stay small, see decodeUtf8). A run that is not valid UTF-8 is handed over line by line as bytes,
 * so the bad line can be named and its neighbours still read.
 */
export class LineReader {
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private number = 0;
  /** Bytes of the current line dropped so far, once it is longer than the cap; -1 while not dropping. */
  private dropped = -1;

  constructor(
    private readonly onText: (line: TextLine) => void,
    private readonly onBytes: (line: Line) => void,
    /**
     * The longest line, in bytes, that is kept; a longer one is handed over as `overlong` without its bytes, so memory
     * stays bounded.
     */
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
  ) {}

  push(input: Uint8Array): void {
    let chunk = input;
    if (this.dropped >= 0) {
      // Inside an overlong line: skip to its end.
      const newline = chunk.indexOf(0x0a);
      if (newline === -1) {
        this.dropped += chunk.length;
        return;
      }
      this.emitOverlong(this.dropped + newline, true);
      chunk = chunk.subarray(newline + 1);
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last === -1) {
      this.pending.push(chunk);
      this.pendingLength += chunk.length;
      if (this.pendingLength > this.maxLineBytes) {
        this.dropped = this.pendingLength;
        this.pending = [];
        this.pendingLength = 0;
      }
      return;
    }
    if (this.pendingLength > 0) {
      // The line begun in the chunks before ends in this one: it alone is joined, so the rest of the chunk is read
      // where it lies, uncopied.
      const first = chunk.indexOf(0x0a);
      this.pending.push(chunk.subarray(0, first + 1));
      const line = concat(this.pending, this.pendingLength + first + 1);
      this.pending = [];
      this.pendingLength = 0;
      this.read(line);
      chunk = chunk.subarray(first + 1);
    }
    const end = chunk.lastIndexOf(0x0a) + 1; // complete lines end here
    this.pending = end < chunk.length ? [chunk.subarray(end)] : [];
    this.pendingLength = chunk.length - end;
    if (end > 0) this.read(chunk.subarray(0, end));
    if (this.pendingLength > this.maxLineBytes) {
      this.dropped = this.pendingLength;
      this.pending = [];
      this.pendingLength = 0;
    }
  }

  /** Reads a last line that has no LF after it. */
  end(): void {
    if (this.dropped >= 0) {
      this.emitOverlong(this.dropped, false);
      return;
    }
    if (this.pendingLength === 0) return;
    const run = concat(this.pending, this.pendingLength);
    this.pending = [];
    this.pendingLength = 0;
    this.read(run);
  }

  private emitOverlong(length: number, terminated: boolean): void {
    this.dropped = -1;
    this.onBytes({ bytes: new Uint8Array(0), number: ++this.number, offset: -1, terminated, overlong: length });
  }

  /**
   * Reads complete lines (the last one may lack its LF at the end of the input): checked for UTF-8
   * together, then decoded a piece at a time; when they are not valid UTF-8, handed over as bytes.
   */
  private read(run: Uint8Array): void {
    if (isUtf8(run)) {
      for (let start = 0; start < run.length; ) {
        let end = run.length;
        if (start + PIECE_BYTES < run.length) {
          end = run.lastIndexOf(0x0a, start + PIECE_BYTES - 1) + 1;
          if (end <= start) end = run.indexOf(0x0a, start + PIECE_BYTES) + 1 || run.length; // one line longer than a piece
        }
        this.readText(decodeUtf8(run.subarray(start, end)));
        start = end;
      }
      return;
    }
    const splitter = new LineSplitter((line) => {
      const number = this.number + line.number;
      if (line.bytes.length > this.maxLineBytes)
        this.onBytes({
          bytes: new Uint8Array(0),
          number,
          offset: line.offset,
          terminated: line.terminated,
          overlong: line.bytes.length,
        });
      else this.onBytes({ ...line, number });
    });
    splitter.push(run);
    splitter.end();
    this.number += countLines(run);
  }

  /** Hands over the lines of decoded text. */
  private readText(text: string): void {
    let start = 0;
    const capped = Number.isFinite(this.maxLineBytes);
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const line = text.slice(start, end);
      // A line of a run can still be longer than the cap (the run was read whole): its length in bytes decides.
      const bytes = capped && line.length * 3 > this.maxLineBytes ? utf8ByteLength(line) : 0;
      if (bytes > this.maxLineBytes)
        this.onBytes({
          bytes: new Uint8Array(0),
          number: ++this.number,
          offset: -1,
          terminated: newline !== -1,
          overlong: bytes,
        });
      else this.onText({ text: line, number: ++this.number, terminated: newline !== -1 });
      start = end + 1;
    }
  }
}

/** The lines of a file: its line feeds, and one more when the last line has none. */
export function countLines(bytes: Uint8Array): number {
  const count = countLineFeeds(bytes);
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? count + 1 : count;
}

/** The line feeds in `bytes` (a Buffer's own indexOf, memchr, when it is one). */
export function countLineFeeds(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
}

// Git's merge conflict markers in a generated file (a JSONL or a lock manifest merged by git with both sides changed):
// such a file is never merged by hand, so every command says what to do instead of where its JSON breaks.

/**
 * A line that is a conflict marker: `<<<<<<<`, `=======`, `>>>>>>>` or `|||||||` (the base, with merge.conflictStyle
 * diff3 or zdiff3), alone or followed by a space and a label.
 */
const MARKER = /^(?:<{7}|={7}|>{7}|\|{7})(?:[ \t]|\r?$)/;

/** True when the line is a conflict marker. */
export function isConflictMarker(line: string): boolean {
  return MARKER.test(line);
}

/** The 1-based numbers of the text's lines that are conflict markers (at most `limit` of them). */
export function conflictMarkerLines(text: string, limit = 6): number[] {
  const lines: number[] = [];
  let start = 0;
  for (let number = 1; start <= text.length && lines.length < limit; number++) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (isConflictMarker(line)) lines.push(number);
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

/** What to do about a generated file (a lock manifest or a JSONL) git left in conflict. */
export const CONFLICT_ADVICE =
  "generated files are not merged by hand: take one side of the lock manifest and its JSONL (git checkout --ours -- FILES, or --theirs), then run citation-targets update, which locks and generates the merged markdown again";

/**
 * What every command says of a file git left in conflict: `subject` (the file, named as its kind says it), `where` (its
 * markers: `markers on lines 13, 18` or `3 marker lines`); a generated file (a lock manifest, a JSONL) with what to do
 * instead of merging it, any other file (a config, an approvals file) to be resolved.
 */
export function conflictMessage(subject: string, where: string, generated: boolean): string {
  return `${subject} holds a git merge conflict (${where}): ${generated ? CONFLICT_ADVICE : "resolve the conflict (keep one side, or join them by hand), then run the command again"}`;
}
