/** Splits a byte stream into lines at LF, without holding more than the current line. */

export interface Line {
  /** The line's bytes without the terminating LF. */
  bytes: Uint8Array;
  /** 1-based line number. */
  number: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** False only for a last line that has no LF after it. */
  terminated: boolean;
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
