/**
 * A dataset's lines as bytes (docs/spec.md, "Generation"; bench/RESULTS.md, "generate"): the worker threads encode each
 * artifact's cut lines as UTF-8 once (EncodedArtifactLines), and the thread that writes the file joins bytes, the
 * documentOrder and the trails of the folders, without encoding or joining text. The bytes are those of the text lines
 * (generateLineBatchesFrom) encoded, byte for byte.
 */
import {
  type EncodedArtifactLines,
  JSON_ESCAPES,
  plainJsonWord,
  joinTrails,
  type LineStep,
  type TargetLine,
  type TargetLineTemplate,
  type TrailSpent,
} from "../../core/records/generate.js";
import { type AtomicFile, openAtomic } from "../writes/write.js";

/**
 * Buffer's own writers of one encoding (Node's, under `Buffer#write`, which checks and dispatches its arguments on each
 * call: a cost at a few calls per line).
 */
interface Writers {
  utf8Write(text: string, offset: number): number;
  latin1Write(text: string, offset: number): number;
}

/**
 * Buffers the thread that writes the file is done with (a batch's bytes, once joined into the output), sent back with
 * the next batches (acceptSpares): lines are encoded into one of them rather than into new memory. Memory new to a
 * thread costs far more than encoding into it (its pages are touched for the first time, about 5 ms a MB on the machine
 * of the benches, and what the main thread lets go of is freed only at its next garbage collection, rare in a thread
 * that mostly waits): bench/RESULTS.md, "Units". At most SPARE_BYTES are kept.
 */
const spares: ArrayBuffer[] = [];
let spareBytes = 0;
const SPARE_BYTES = 16 * 2 ** 20;
/** Buffers are made a power of two in size, at least this (batchEncoder asks for BATCH_START, or a longer line's size). */
const SPARE_STEP = 64 * 1024;
/**
 * The size of the buffers lines are encoded into (batchEncoder): one size, so that any spare fits any batch's lines
 * (a buffer of a batch of neighbours, up to 256 KB of markdown, holds the lines of one or more of its artifacts).
 */
const BATCH_START = 2 ** 20;

/** Takes buffers back for the lines of the next batches (from the thread that wrote their bytes out). */
export function acceptSpares(buffers: readonly ArrayBuffer[]): void {
  for (const buffer of buffers) keepSpare(buffer);
}

function keepSpare(buffer: ArrayBuffer): void {
  if (buffer.byteLength > 0 && spareBytes + buffer.byteLength <= SPARE_BYTES) {
    spares.push(buffer);
    spareBytes += buffer.byteLength;
  }
}

/**
 * A buffer of at least `size` bytes: the smallest spare that large (`largest`: the largest), else a new one (a power of
 * two, at least SPARE_STEP).
 */
function takeBuffer(size: number, largest = false): Buffer {
  let best = -1;
  for (let i = 0; i < spares.length; i++) {
    const length = spares[i]!.byteLength;
    if (length < size) continue;
    if (best === -1 || (largest ? length > spares[best]!.byteLength : length < spares[best]!.byteLength)) best = i;
  }
  if (best === -1) return Buffer.from(new ArrayBuffer(Math.max(SPARE_STEP, 2 ** Math.ceil(Math.log2(size)))));
  const buffer = spares[best]!;
  spares[best] = spares[spares.length - 1]!;
  spares.pop();
  spareBytes -= buffer.byteLength;
  return Buffer.from(buffer);
}

/** Where this thread encodes a batch: its ArrayBuffers cross to the other thread (batchEncoder). */
let target: Buffer = Buffer.alloc(0);

/** Where this thread writes an artifact's line ends while it encodes them: grown as needed, copied out exactly. */
let endsScratch = new Uint32Array(4096);

/**
 * `String.prototype.charCodeAt`, called as `charCodeAt.call(text, j)` in writeShort's loop over a line's short texts
 * (locals, printed designations): they come in every representation V8 has (flat, joined, sliced; one or two bytes a
 * character), and `text.charCodeAt` looks the method up through a generic cache at each character where a call of the
 * known function is compiled inline (bench/RESULTS.md, "Units"). (In writeOneByte, whose texts are mostly hex digests
 * as `crypto.hash` makes them, the same measured no gain.)
 */
const charCodeAt = String.prototype.charCodeAt;

/** Copies `bytes` to `to` at `at`; the offset after them (short ones byte by byte: a call to `set` costs more). */
function copyBytes(to: Buffer, at: number, bytes: Uint8Array): number {
  const length = bytes.length;
  if (length >= 8) to.set(bytes, at);
  else for (let j = 0; j < length; j++) to[at + j] = bytes[j]!;
  return at + length;
}

/** Writes `text` as UTF-8; the offset after it. */
function writeUtf8(to: Buffer, at: number, text: string): number {
  return at + (to as unknown as Writers).utf8Write(text, at);
}

/**
 * Writes a short text as UTF-8 (a local coordinate, a printed designation's JCS text `"(1)"`): characters below U+0800
 * byte by byte, the rest (rare) by utf8Write, as a long text is (a call to Node's writer costs more than the loop over a
 * few characters).
 */
function writeShort(to: Buffer, at: number, text: string): number {
  const length = text.length;
  if (length > SHORT_TEXT) return writeUtf8(to, at, text);
  let a = at;
  for (let j = 0; j < length; j++) {
    const c = charCodeAt.call(text, j);
    if (c < 0x80) to[a++] = c;
    else if (c < 0x800) {
      to[a++] = 0xc0 | (c >> 6);
      to[a++] = 0x80 | (c & 0x3f);
    } else return writeUtf8(to, a, text.slice(j));
  }
  return a;
}

const HEX_DIGITS = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/**
 * The core's escape table and word test, bound here once: in the command line's CommonJS bundle, a function or table of
 * another chunk is reached through a getter of that chunk's exports at each use, which in these loops over every byte
 * of the markdown cost generate's main thread 0.4 s of CPU on the statute book (bench/RESULTS.md).
 */
const escapes = JSON_ESCAPES;
const plainWord = plainJsonWord;

/**
 * The JSON text of the bytes `bytes[from, to)` without its quotes, as JSON.stringify writes it for them read as Latin-1
 * (JSON_ESCAPES), written to `out` at `at`; the offset after it. One pass, no string made: JSON.stringify of each heading's
 * text, then its copy into the line, were a tenth of generate's workers (bench/RESULTS.md). Four bytes at a time where
 * none of them is escaped (most of a text: `plainJsonWord`), the others one at a time.
 */
export function writeJsonBytes(out: Buffer, at: number, bytes: Uint8Array, from: number, to: number): number {
  const source = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const target = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let a = at;
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const word = source.getUint32(i, true);
    if (plainWord(word)) {
      target.setUint32(a, word, true);
      a += 4;
    } else a = writeEscaped(out, a, bytes, i, i + 4);
  }
  return writeEscaped(out, a, bytes, i, to);
}

/** writeJsonBytes of `bytes[from, to)`, a byte at a time. */
function writeEscaped(out: Buffer, at: number, bytes: Uint8Array, from: number, to: number): number {
  let a = at;
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    const letter = escapes[b]!;
    if (letter === 0) {
      out[a++] = b;
      continue;
    }
    out[a++] = 0x5c;
    out[a++] = letter;
    if (letter === 0x75) {
      out[a++] = 0x30;
      out[a++] = 0x30;
      out[a++] = HEX_DIGITS[b >> 4]!;
      out[a++] = HEX_DIGITS[b & 15]!;
    }
  }
  return a;
}

/**
 * Room enough for writeJsonBytes of `bytes[from, to)`: six bytes a byte (`\u001f`) for a text of up to 64 KiB, else
 * counted (a long text's worst case would leave most of a buffer empty).
 */
export function jsonBytesRoom(bytes: Uint8Array, from: number, to: number): number {
  if (to - from <= 65536) return 6 * (to - from);
  let room = to - from;
  for (let i = from; i < to; i++) {
    const letter = escapes[bytes[i]!]!;
    if (letter !== 0) room += letter === 0x75 ? 5 : 1;
  }
  return room;
}

/** Texts up to this long are written by writeShort's loop. */
const SHORT_TEXT = 24;

/** Writes a string of one-byte characters (hex digits, Latin-1 for bytes) byte for byte; the offset after it. */
function writeOneByte(to: Buffer, at: number, text: string): number {
  const length = text.length;
  if (length >= 128) return at + (to as unknown as Writers).latin1Write(text, at);
  for (let j = 0; j < length; j++) to[at + j] = text.charCodeAt(j);
  return at + length;
}

/** Writes a non-negative integer's digits; the offset after them. */
function writeDigits(to: Buffer, at: number, value: number): number {
  if (value < 10) {
    to[at] = 0x30 + value;
    return at + 1;
  }
  return writeOneByte(to, at, `${value}`);
}

/**
 * Writes the local coordinate whose UTF-8 is `to[from, end)` (before `at`) again at `at`, each `/` as `","` (the
 * segments of a structuralPath); the offset after it.
 */
function splitLocal(to: Buffer, at: number, from: number, end: number): number {
  let a = at;
  for (let i = from; i < end; i++) {
    const c = to[i]!;
    if (c === 0x2f) {
      to[a++] = 0x22; // "
      to[a++] = 0x2c; // ,
      to[a++] = 0x22;
    } else to[a++] = c;
  }
  return a;
}

/** Gives an artifact's lines (writeArtifactByteLines) to `line` as each is made; returns its first heading and trails. */
type LineMaker = (line: (values: TargetLine) => void) => {
  firstHeading: string | undefined;
  trails: TrailSpent;
};

/** The texts of a TargetLineTemplate as UTF-8. */
function encodeTemplate(template: TargetLineTemplate): Uint8Array[] {
  // Built by push from a literal: of one elements kind for every artifact (the compiled `add` deoptimised on another).
  const texts: Uint8Array[] = [];
  for (const text of template) texts.push(Buffer.from(text, "utf8"));
  return texts;
}

/** A run of an artifact's lines in one buffer: in `buffer` once another took its place, else in the current one. */
interface Run {
  buffer: ArrayBuffer | undefined;
  from: number;
  to: number;
  /** The index of its first line in the artifact's lines. */
  firstLine: number;
}

/**
 * Encodes the lines of a batch's artifacts one after another into buffers of BATCH_START bytes (`add`: each line as
 * soon as it is made, none of them kept until the artifact's last), which `done` hands over: each answer's `bytes` (and
 * `more`) views of them, empty until then. A line that does not fit in the buffer goes to the next one, and so do the
 * lines after it: an artifact's lines are one run of bytes or more, never copied, and buffers are of one size (but for a
 * line longer than one), so that every buffer the main thread sends back once it has written it (acceptSpares) fits
 * the lines of any batch. One batch at a time in a thread. Each line is its artifact's TargetLineTemplate, encoded once
 * for the artifact, with the target's values written into it: the texts as UTF-8, the digests and the markdown (its JSON
 * text on the source bytes) as Latin-1, the block indices as digits.
 */
export function batchEncoder(): {
  add(template: TargetLineTemplate, make: LineMaker): EncodedArtifactLines;
  done(): void;
} {
  let at = 0;
  /** Where the artifact being encoded starts in `target` (its run there). */
  let from = 0;
  target = takeBuffer(BATCH_START, true);
  /** The artifacts' lines made, each in its runs. */
  const made: { encoded: EncodedArtifactLines; runs: Run[] }[] = [];
  /** The runs in `target`: given their buffer when another takes its place. */
  let open: Run[] = [];
  /** The runs of the artifact being encoded, and its line count so far. */
  let runs: Run[] = [];
  let lines = 0;
  /** The index of the first line of the artifact's run in `target`. */
  let runStart = 0;
  /**
   * Room for `more` bytes at `at`. When `target` is full, the artifact's lines so far stay where they are (a run), and
   * the next line starts another buffer.
   */
  const room = (more: number) => {
    if (target.length - at >= more) return;
    if (at > from) {
      const run: Run = { buffer: undefined, from, to: at, firstLine: runStart };
      runs.push(run);
      open.push(run);
      runStart = lines;
    }
    const full = target.buffer as ArrayBuffer;
    if (open.length > 0) for (const run of open) run.buffer = full;
    else if (full.byteLength > 0) keepSpare(full);
    open = [];
    target = takeBuffer(Math.max(BATCH_START, more));
    at = 0;
    from = 0;
  };
  return {
    add(template, make) {
      from = at;
      runs = [];
      lines = 0;
      runStart = 0;
      let k = 0;
      const texts = encodeTemplate(template);
      let fixed = 0;
      for (const text of texts) fixed += text.length;
      /**
       * Where the markdown of the last line written with its own text starts, and in which buffer: a unit's heading's
       * (in the buffer before this one when its units went on in another).
       */
      let headingBuffer = target;
      let headingMarkdown = 0;
      const threeFour = Buffer.concat([texts[3]!, texts[4]!]);
      const fourLength = texts[4]!.length;
      const fiveSix = Buffer.concat([texts[5]!, texts[6]!]);
      const sixLength = texts[6]!.length;
      /**
       * The last trail written (a JCS text) and where its bytes are: the units of one parent have one trail, the same
       * text, copied from the line before rather than encoded again.
       */
      let trailJson: string | undefined;
      let trailBuffer = target;
      let trailFrom = 0;
      let trailTo = 0;
      const { firstHeading, trails } = make((values) => {
        if (k + 4 > endsScratch.length) {
          const grown = new Uint32Array(2 * endsScratch.length);
          grown.set(endsScratch);
          endsScratch = grown;
        }
        // Room for the whole line: a UTF-16 code unit is at most three bytes of UTF-8 (a local coordinate's `/` five in
        // the structuralPath), an index at most 16 digits.
        room(
          fixed +
            (values.localBytes !== undefined ? 5 * (values.localTo - values.localFrom) : 11 * values.local.length) +
            3 * (values.headingTextJson.length + values.ownTrailJson.length) +
            values.citationTargetId.length +
            values.textDigest.length +
            (values.markdownBytes !== undefined
              ? jsonBytesRoom(values.markdownBytes, values.byteStart, values.byteEnd)
              : values.jsonTo - values.jsonFrom) +
            32,
        );
        // The buffer and offset in locals while the line is written (not the closure's, read and written at each byte).
        // Ends are counted from the start of the line's run (`from`).
        const t = target;
        let a = at;
        a = copyBytes(t, a, texts[0]!);
        // The local's bytes once, then copied (canonicalPath and citationAddress hold it as it is).
        const localAt = a;
        a =
          values.localBytes !== undefined
            ? copyRange(t, a, values.localBytes, values.localFrom, values.localTo)
            : writeShort(t, a, values.local);
        const localEnd = a;
        a = copyBytes(t, a, texts[1]!);
        a = copyRange(t, a, t, localAt, localEnd);
        a = copyBytes(t, a, texts[2]!);
        a = writeOneByte(t, a, values.citationTargetId);
        // Texts 3 and 4, 5 and 6 are one run of bytes each: a piece ends between them.
        a = copyBytes(t, a, threeFour);
        endsScratch[k++] = a - from - fourLength;
        a = writeShort(t, a, values.headingTextJson);
        a = copyBytes(t, a, fiveSix);
        endsScratch[k++] = a - from - sixLength;
        if (values.markdownBytes !== undefined) {
          headingBuffer = t;
          headingMarkdown = a;
          a = writeJsonBytes(t, a, values.markdownBytes, values.byteStart, values.byteEnd);
        } else {
          // A unit's markdown: a run of its heading's, in the heading's line (the JSON text's opening quote is before it).
          const start = headingMarkdown - 1 + values.jsonFrom;
          const end = headingMarkdown - 1 + values.jsonTo;
          if (headingBuffer === t) t.copyWithin(a, start, end);
          else t.set(headingBuffer.subarray(start, end), a);
          a += end - start;
        }
        a = copyBytes(t, a, texts[7]!);
        a = writeDigits(t, a, values.blockEnd);
        a = copyBytes(t, a, texts[8]!);
        a = writeDigits(t, a, values.blockStart);
        a = copyBytes(t, a, texts[9]!);
        // The structuralPath's form of the local from its bytes written above (a `/` is never part of another
        // character's UTF-8).
        a = splitLocal(t, a, localAt, localEnd);
        a = copyBytes(t, a, texts[10]!);
        a = writeOneByte(t, a, values.textDigest);
        a = copyBytes(t, a, texts[11]!);
        endsScratch[k++] = a - from;
        const trail = values.ownTrailJson;
        if (trail === trailJson && trailBuffer === t) {
          t.copyWithin(a, trailFrom, trailTo);
          a += trailTo - trailFrom;
        } else {
          trailFrom = a;
          a = writeUtf8(t, a, trail);
          trailJson = trail;
          trailBuffer = t;
          trailTo = a;
        }
        endsScratch[k++] = a - from;
        at = a;
        lines++;
      });
      if (at > from || runs.length === 0) {
        const run: Run = { buffer: undefined, from, to: at, firstLine: runStart };
        runs.push(run);
        open.push(run);
      }
      const encoded: EncodedArtifactLines = {
        firstHeading,
        bytes: EMPTY,
        more: undefined,
        ends: endsScratch.slice(0, k),
        trails,
      };
      made.push({ encoded, runs });
      return encoded;
    },
    done() {
      const last = target.buffer as ArrayBuffer;
      let used = false;
      for (const { encoded, runs } of made) {
        const views = runs.map(({ buffer, from, to }) => {
          used ||= buffer === undefined && to > from;
          // No lines: an empty view of its own (the buffers of a batch's answers are moved to the other thread, each
          // once).
          return to === from ? new Uint8Array(0) : new Uint8Array(buffer ?? last, from, to - from);
        });
        encoded.bytes = views[0]!;
        if (runs.length > 1)
          encoded.more = runs.slice(1).map((run, i) => ({ bytes: views[i + 1]!, firstLine: run.firstLine }));
      }
      if (!used) keepSpare(last);
      made.length = 0;
      open = [];
      target = Buffer.alloc(0);
    },
  };
}

const EMPTY = new Uint8Array(0);

const FLUSH_AT = 1 << 20;

/**
 * Told of each line as it is encoded: its bytes are `out` from `from` to `to` (`out` may be another buffer at the next
 * line). A promise returned is awaited before the next line.
 */
export type OnLineBytes = (out: Buffer, from: number, to: number) => undefined | Promise<void>;

/**
 * Writes the dataset's lines, step by step, to `write` as bytes (in pieces of about 1 MiB); resolves to the line
 * count. `onLine`: told of each line before its bytes are written (update compares them with the file's). `join`: the
 * lines are joined into this buffer instead (grown as needed: a larger one made), and written once, at the end, as one
 * view of it (update's small datasets, compared in memory: update-dataset.ts).
 */
export async function writeSteps(
  steps: AsyncIterable<LineStep>,
  write: (bytes: Uint8Array) => Promise<void>,
  onLine?: OnLineBytes,
  join?: Buffer,
): Promise<number> {
  let out = join ?? Buffer.allocUnsafeSlow(2 * FLUSH_AT);
  const flushAt = join === undefined ? FLUSH_AT : Number.POSITIVE_INFINITY;
  /**
   * Two buffers in turn: the lines are encoded into one while the other's bytes are written (`writing`), so that this
   * thread does not wait for each write (a GB of JSONL is a thousand of them: 0.9 s of its time idle with units). The
   * other is made at the first write.
   */
  let other: Buffer | undefined;
  /** The write under way, of the other buffer's bytes: one at a time, in order. */
  let writing: Promise<void> | undefined;
  let at = 0;
  let count = 0;
  /** Where the line being encoded starts. */
  let start = 0;
  /** Writes `bytes` once the write before is done (whose buffer is then free for the next lines). */
  const flush = async (bytes: Uint8Array) => {
    if (writing !== undefined) await writing;
    writing = write(bytes);
    writing.catch(() => undefined); // its failure is thrown where it is awaited: by the next flush, or at the end
  };
  /**
   * A line ends at `at`: counted, told, and written out with the lines before it once they come to FLUSH_AT (what is
   * returned is awaited before the next line is encoded; none when there is nothing to wait for, as mostly).
   */
  const ended = (): Promise<void> | undefined => {
    count++;
    const told = onLine?.(out, start, at);
    if (at < flushAt) {
      start = at;
      return told;
    }
    const bytes = out.subarray(0, at);
    // The next lines go into the other buffer: free once the write before this one is done, which `flush` awaits.
    const written = out;
    out = other ?? Buffer.allocUnsafeSlow(2 * FLUSH_AT);
    other = written;
    at = 0;
    start = 0;
    return told === undefined ? flush(bytes) : told.then(() => flush(bytes));
  };
  const ensure = (more: number) => {
    if (out.length - at >= more) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(2 * out.length, at + more));
    out.copy(grown, 0, 0, at);
    out = grown;
  };
  const text = (value: string) => {
    ensure(3 * value.length);
    at += (out as unknown as Writers).utf8Write(value, at);
  };
  for await (const step of steps) {
    start = at;
    if ("line" in step) {
      text(step.line);
      const told = ended();
      if (told !== undefined) await told;
    } else if ("targets" in step.lines) {
      // Lines made in this thread (a one-thread run): encoded here.
      let order = step.firstOrder;
      for (const { parts, ownTrail } of step.lines.targets) {
        text(parts[0]!);
        text(`${order++}`);
        text(parts[1]!);
        text(joinTrails(step.folderTrail, ownTrail));
        text(parts[2]!);
        const told = ended();
        if (told !== undefined) await told;
      }
    } else {
      const { ends, more } = step.lines;
      let bytes = step.lines.bytes;
      /** The next run of the artifact's lines in another buffer, by index in `more`. */
      let next = 0;
      const folder = Buffer.from(step.folderTrail, "utf8");
      /** The folders' trail without its `]`, for a line whose own trail goes on after it. */
      const folderHead = folder.subarray(0, folder.length - 1);
      let order = step.firstOrder;
      let from = 0;
      for (let k = 0; k < ends.length; k += 4) {
        if (more !== undefined && next < more.length && more[next]!.firstLine === k / 4) {
          // The lines went on in another buffer: ends count from its start.
          bytes = more[next++]!.bytes;
          from = 0;
        }
        // Room for this line only (its pieces, the folders' trail, a documentOrder of up to 16 digits and a comma): the
        // buffer holds about FLUSH_AT and the longest line, not a whole artifact's lines. A buffer grown to an
        // artifact's tens of MB and let go raised glibc's mmap threshold, and every buffer below it stayed in the
        // process when freed (bench/RESULTS.md, peak RSS).
        ensure(ends[k + 3]! - from + folder.length + 24);
        const partOneEnd = ends[k + 1]!;
        const partTwoEnd = ends[k + 2]!;
        const ownEnd = ends[k + 3]!;
        let a = copyRange(out, at, bytes, from, ends[k]!);
        a = writeOrder(out, a, order++);
        a = copyRange(out, a, bytes, ends[k]!, partOneEnd);
        // joinTrails, on bytes: `[` `]` are one byte each.
        if (folder.length === 2) a = copyRange(out, a, bytes, partTwoEnd, ownEnd);
        else if (ownEnd - partTwoEnd === 2) a = copyRange(out, a, folder, 0, folder.length);
        else {
          a = copyRange(out, a, folderHead, 0, folderHead.length);
          out[a++] = 0x2c; // ,
          a = copyRange(out, a, bytes, partTwoEnd + 1, ownEnd);
        }
        at = copyRange(out, a, bytes, partOneEnd, partTwoEnd);
        from = ownEnd;
        const told = ended();
        if (told !== undefined) await told;
      }
    }
  }
  if (writing !== undefined) await writing;
  if (at > 0) await write(out.subarray(0, at));
  return count;
}

/** Copies `bytes[from..end)` to `out` at `at`; the offset after them (short runs byte by byte: no view made for them). */
function copyRange(out: Buffer, at: number, bytes: Uint8Array, from: number, end: number): number {
  if (end - from >= 32) {
    out.set(bytes.subarray(from, end), at);
    return at + end - from;
  }
  let a = at;
  for (let i = from; i < end; i++) out[a++] = bytes[i]!;
  return a;
}

/** Writes a documentOrder's digits; the offset after them. */
function writeOrder(out: Buffer, at: number, order: number): number {
  if (order < 10) {
    out[at] = 0x30 + order;
    return at + 1;
  }
  const digits = `${order}`;
  for (let i = 0; i < digits.length; i++) out[at + i] = digits.charCodeAt(i);
  return at + digits.length;
}

/** Writes the dataset's lines to `output` atomically, as bytes: all of it, or (on any error) nothing. */
export async function writeStepsAtomic(steps: AsyncIterable<LineStep>, output: string): Promise<number> {
  const file: AtomicFile = await openAtomic(output);
  try {
    const count = await writeSteps(steps, (bytes) => file.write(bytes));
    await file.commit();
    return count;
  } catch (error) {
    await file.abort();
    throw error;
  }
}
