/**
 * YAML front matter as micromark-extension-frontmatter recognises it (docs/spec.md, "Blocks and
 * targets"): the text starts (after a byte order mark) with `---`, optional spaces or tabs and a
 * line ending; it ends at the first later line that is `---` with optional spaces or tabs, then a
 * line ending or the end of the text. Without such a closing line there is no front matter.
 * No markdown parse is needed to find where the body starts.
 */
import { decodeLatin1 } from "../bytes.js";

export interface FrontMatter {
  /** The YAML between the fences: from after the opening line's ending up to the closing fence's line ending. */
  value: string;
  /** Offset where the body starts: after the closing fence and its line ending (CRLF, LF or CR). */
  bodyStart: number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09;

/**
 * The end of a fence line `---[ \t]*` starting at `at`: the offset of its line ending (or of the end of the text), or
 * -1 when it is not one.
 */
function fenceEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x2d || text.charCodeAt(at + 1) !== 0x2d || text.charCodeAt(at + 2) !== 0x2d) return -1;
  let i = at + 3;
  while (isSpace(text.charCodeAt(i))) i++;
  if (i === text.length) return i;
  const c = text.charCodeAt(i);
  return c === 0x0a || c === 0x0d ? i : -1;
}

/** Length of the line ending at `at`: 2 for CRLF, 1 for LF or CR, 0 at the end of the text. */
function lineEndingLength(text: string, at: number): number {
  if (text.charCodeAt(at) === 0x0d) return text.charCodeAt(at + 1) === 0x0a ? 2 : 1;
  return at < text.length ? 1 : 0;
}

/**
 * The front matter of an artifact's text, or undefined when it has none. `start` skips a byte order mark (default: a
 * U+FEFF first character).
 */
export function findFrontMatter(text: string, start = text.charCodeAt(0) === 0xfeff ? 1 : 0): FrontMatter | undefined {
  const open = fenceEnd(text, start);
  if (open === -1 || open === text.length) return undefined;
  const valueStart = open + lineEndingLength(text, open);
  let lineStart = valueStart;
  while (lineStart <= text.length) {
    const close = fenceEnd(text, lineStart);
    if (close !== -1) {
      // The value excludes the line ending just before the closing fence (none when the value is empty).
      const valueEnd =
        lineStart === valueStart
          ? valueStart
          : lineStart - (text.charCodeAt(lineStart - 1) === 0x0a && text.charCodeAt(lineStart - 2) === 0x0d ? 2 : 1);
      return { value: text.slice(valueStart, valueEnd), bodyStart: close + lineEndingLength(text, close) };
    }
    let next = lineStart;
    while (next < text.length && text.charCodeAt(next) !== 0x0a && text.charCodeAt(next) !== 0x0d) next++;
    if (next === text.length) return undefined;
    lineStart = next + lineEndingLength(text, next);
  }
  return undefined;
}

/** Where the body of an artifact starts: after its front matter, else 0. */
export function bodyStartOf(text: string): number {
  return findFrontMatter(text)?.bodyStart ?? 0;
}

/**
 * Where the body starts in the artifact's bytes (UTF-8), without decoding them: every character the
 * front matter's syntax looks at is ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII, so
 * a Latin-1 reading of the bytes finds the same fences at byte offsets.
 */
export function bodyStartOfBytes(bytes: Uint8Array): number {
  if (bytes[0] !== 0x2d && bytes[0] !== 0xef) return 0; // neither "-" nor the first byte of a BOM: no front matter
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  // The head first: a front matter that ends (its closing line's ending included) before the head's last byte is
  // found there exactly as in the whole (every character looked at is in the head), without reading the rest.
  if (bytes.length > HEAD_BYTES) {
    const inHead = findFrontMatter(decodeLatin1(bytes.subarray(0, HEAD_BYTES)), bom);
    if (inHead !== undefined && inHead.bodyStart < HEAD_BYTES) return inHead.bodyStart;
  }
  return findFrontMatter(decodeLatin1(bytes), bom)?.bodyStart ?? 0;
}

/** The bytes bodyStartOfBytes looks at first (a front matter is a few hundred bytes; an artifact up to megabytes). */
export const HEAD_BYTES = 16 * 1024;
