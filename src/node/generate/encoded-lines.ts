/**
 * A dataset's lines as bytes (docs/spec.md, "Generation"; bench/RESULTS.md, "generate"): the worker threads encode each
 * artifact's cut lines as UTF-8 once (EncodedArtifactLines), and the thread that writes the file joins bytes, the
 * documentOrder and the trails of the folders, without encoding or joining text. The bytes are those of the text lines
 * (generateLineBatchesFrom) encoded, byte for byte.
 */
import {
  type ArtifactByteLines,
  type ArtifactLines,
  type EncodedArtifactLines,
  joinTrails,
  type LineStep,
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

/** Where this thread encodes: grown as needed, copied out exactly (what crosses to the other thread is the copy). */
let scratch = Buffer.allocUnsafeSlow(1 << 20);

function room(at: number, more: number): void {
  if (scratch.length - at >= more) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(2 * scratch.length, at + more));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

/** Writes `text` as UTF-8 at `at` of the scratch buffer, grown first as needed; the offset after it. */
function put(text: string, at: number): number {
  room(at, 3 * text.length); // a UTF-16 code unit is at most three bytes of UTF-8
  return at + (scratch as unknown as Writers).utf8Write(text, at);
}

/**
 * An artifact's lines cut for a writer of bytes (artifactByteLines) as UTF-8 bytes, a worker thread's answer: the
 * markdown's JSON text, Latin-1 for its bytes, is written byte for byte, the rest encoded.
 */
export function encodeArtifactByteLines(lines: ArtifactByteLines): EncodedArtifactLines {
  const ends = new Uint32Array(4 * lines.targets.length);
  let at = 0;
  let k = 0;
  for (const { parts, markdown, ownTrail } of lines.targets) {
    ends[k++] = at = put(parts[0]!, at);
    ends[k++] = at = put(parts[1]!, at);
    at = put(parts[2]!, at);
    room(at, markdown.length + 2);
    scratch[at++] = 0x22; // "
    at += (scratch as unknown as Writers).latin1Write(markdown, at);
    scratch[at++] = 0x22;
    ends[k++] = at = put(parts[3]!, at);
    ends[k++] = at = put(ownTrail, at);
  }
  return { firstHeading: lines.firstHeading, bytes: copyOut(at), ends };
}

/** Where this thread writes an artifact's line ends while it encodes them (encodeLinesOf): grown as needed. */
let endsScratch = new Uint32Array(4096);

/**
 * An artifact's lines as UTF-8 bytes, each line encoded as soon as `make` gives it (writeArtifactByteLines): the same
 * bytes as encodeArtifactByteLines of its ArtifactByteLines, with none of the lines' texts kept until the last is made.
 * `make` returns the artifact's first heading.
 */
export function encodeLinesOf(
  make: (line: (parts: string[], markdown: string, ownTrail: string) => void) => string | undefined,
): EncodedArtifactLines {
  let at = 0;
  let k = 0;
  const firstHeading = make((parts, markdown, ownTrail) => {
    if (k + 4 > endsScratch.length) {
      const grown = new Uint32Array(2 * endsScratch.length);
      grown.set(endsScratch);
      endsScratch = grown;
    }
    endsScratch[k++] = at = put(parts[0]!, at);
    endsScratch[k++] = at = put(parts[1]!, at);
    at = put(parts[2]!, at);
    room(at, markdown.length + 2);
    scratch[at++] = 0x22; // "
    at += (scratch as unknown as Writers).latin1Write(markdown, at);
    scratch[at++] = 0x22;
    endsScratch[k++] = at = put(parts[3]!, at);
    endsScratch[k++] = at = put(ownTrail, at);
  });
  return { firstHeading, bytes: copyOut(at), ends: endsScratch.slice(0, k) };
}

/**
 * The first `at` bytes of the scratch buffer, copied into a buffer of their own. Allocated and `set`, not
 * `new Uint8Array(scratch.subarray(…))`, which V8 copies element by element: five times the time (2.6 against 0.5 ms a
 * MB; 270 ms of a 4.1 s worker generating a statute book with units, bench/RESULTS.md).
 */
function copyOut(at: number): Uint8Array {
  const bytes = new Uint8Array(at);
  bytes.set(scratch.subarray(0, at));
  return bytes;
}

/** An artifact's cut lines as UTF-8 bytes. */
export function encodeArtifactLines(lines: ArtifactLines): EncodedArtifactLines {
  const ends = new Uint32Array(4 * lines.targets.length);
  let at = 0;
  let k = 0;
  for (const { parts, ownTrail } of lines.targets) {
    ends[k++] = at = put(parts[0]!, at);
    ends[k++] = at = put(parts[1]!, at);
    ends[k++] = at = put(parts[2]!, at);
    ends[k++] = at = put(ownTrail, at);
  }
  return { firstHeading: lines.firstHeading, bytes: copyOut(at), ends };
}

const FLUSH_AT = 1 << 20;

/**
 * Writes the dataset's lines, step by step, to `write` as bytes (in pieces of about 1 MiB); resolves to the line
 * count.
 */
export async function writeSteps(
  steps: AsyncIterable<LineStep>,
  write: (bytes: Uint8Array) => Promise<void>,
): Promise<number> {
  let out = Buffer.allocUnsafeSlow(2 * FLUSH_AT);
  let at = 0;
  let count = 0;
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
    if ("line" in step) {
      text(step.line);
      count++;
    } else if ("targets" in step.lines) {
      // Lines made in this thread (a one-thread run): encoded here.
      let order = step.firstOrder;
      for (const { parts, ownTrail } of step.lines.targets) {
        text(parts[0]!);
        text(`${order++}`);
        text(parts[1]!);
        text(joinTrails(step.folderTrail, ownTrail));
        text(parts[2]!);
        count++;
      }
    } else {
      const { bytes, ends } = step.lines;
      const folder = Buffer.from(step.folderTrail, "utf8");
      ensure(bytes.length + (ends.length / 4) * (folder.length + 24));
      let order = step.firstOrder;
      let from = 0;
      const copy = (end: number) => {
        out.set(bytes.subarray(from, end), at);
        at += end - from;
        from = end;
      };
      for (let k = 0; k < ends.length; k += 4) {
        copy(ends[k]!);
        at += out.write(`${order++}`, at, "latin1");
        copy(ends[k + 1]!);
        const partTwoEnd = ends[k + 2]!;
        const own = bytes.subarray(partTwoEnd, ends[k + 3]!);
        // joinTrails, on bytes: `[` `]` are one byte each.
        if (folder.length === 2) {
          out.set(own, at);
          at += own.length;
        } else if (own.length === 2) {
          out.set(folder, at);
          at += folder.length;
        } else {
          out.set(folder.subarray(0, folder.length - 1), at);
          at += folder.length - 1;
          out[at++] = 0x2c; // ,
          out.set(own.subarray(1), at);
          at += own.length - 1;
        }
        copy(partTwoEnd);
        from = ends[k + 3]!;
        count++;
      }
    }
    if (at >= FLUSH_AT) {
      await write(out.subarray(0, at));
      at = 0;
    }
  }
  if (at > 0) await write(out.subarray(0, at));
  return count;
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
