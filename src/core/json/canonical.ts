/**
 * Whether a line is the RFC 8785 (JCS) canonical form of its record (docs/spec.md, section 2), and
 * if not, where it first differs: the analysis the duplicate-key and non-canonical rules share.
 */
import canonicalize from "canonicalize";
import { isWellFormed } from "../text.js";
import { scanJson, type DuplicateKey, type NonCanonical } from "./json-scan.js";

export type CanonicalVerdict =
  | { kind: "canonical" }
  | { kind: "unrepresentable"; reason: string }
  | { kind: "duplicates"; duplicates: DuplicateKey[] }
  | { kind: "different"; found: NonCanonical | undefined; column: number };

/**
 * Compares a line's text with the canonical serialisation of the value it parsed to. `wellFormed`:
 * the caller knows the text holds no lone surrogate (it was decoded from UTF-8), so that check,
 * a pass over the whole line, is skipped.
 */
export function analyseCanonical(text: string, value: unknown, wellFormed = false): CanonicalVerdict {
  return isCanonicalText(text, wellFormed) ? { kind: "canonical" } : analyseCanonicalFully(text, value);
}

/** The full path: the canonical serialisation built and compared, and, when they differ, a scan for where and why. */
export function analyseCanonicalFully(text: string, value: unknown): CanonicalVerdict {
  let canonical: string;
  try {
    canonical = canonicalize(value) ?? "";
  } catch (error) {
    return {
      kind: "unrepresentable",
      reason:
        error instanceof RangeError
          ? "it is nested too deeply"
          : error instanceof Error
            ? error.message.toLowerCase()
            : String(error),
    };
  }
  if (canonical === text) return { kind: "canonical" };
  const scan = scanJson(text);
  if (scan.duplicates.length > 0) return { kind: "duplicates", duplicates: scan.duplicates };
  const found = scan.nonCanonical;
  return { kind: "different", found, column: found ? found.index + 1 : firstDifference(text, canonical) + 1 };
}

/**
 * Deeper lines take the full path, whose canonicaliser recurses (and may run out of stack, which is its verdict to
 * give).
 */
const MAX_FAST_DEPTH = 100;
/**
 * Scratch of isCanonicalText, per open container: where the last member name's body starts and ends (-1: none yet; -2:
 * an array).
 */
const nameStart = new Int32Array(MAX_FAST_DEPTH + 1);
const nameEnd = new Int32Array(MAX_FAST_DEPTH + 1);
/** Any JSON number, for the rare one that is not a short integer. */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** The index of the next `char` at or after `from`, or the text's length when there is none. */
function next(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

/**
 * The fast path of the canonical-form check: one pass over a line's text, exact without building
 * the canonical text (JSON.stringify of the record cost more than parsing it). The text must be
 * JSON (it parsed to the record). It is then canonical exactly when it has no white space outside
 * strings, every escape in a string is the one JSON.stringify writes (`\"`, `\\`, `\b`, `\f`, `\n`,
 * `\r`, `\t`, lowercase `\u00xx` for the other controls) and no lone surrogate occurs, every
 * number is in ECMAScript's shortest form, and each object's member names increase strictly by
 * UTF-16 code units (which also rules out duplicates). String bodies are skipped with indexOf, so
 * a long markdown field costs a native search, not a loop over its characters. False means "not
 * shown canonical": a member name with an escape, a lone surrogate or deep nesting take the full path.
 * `wellFormed`: the caller knows the text holds no lone surrogate (see analyseCanonical).
 */
export function isCanonicalText(text: string, wellFormed = false): boolean {
  return canonicalDepth(text, wellFormed) >= 0;
}

/**
 * The fast path of isCanonicalText, which also says how deep the text nests: the depth of its deepest array or object
 * (1 for a flat object, 0 for a scalar) when the text is shown canonical, else -1. A canonical text has no duplicate
 * member, so its depth is that of the value it parses to (the reader's nesting-depth step takes it from here rather
 * than walk the value again).
 */
export function canonicalDepth(text: string, wellFormed = false): number {
  if (!wellFormed && !isWellFormed(text)) return -1; // a lone surrogate: the canonicaliser refuses it
  const length = text.length;
  let deepest = 0;
  let quote = -1; // the next `"` at or after where it was last searched for
  let backslash = -1; // the next `\`, likewise
  let depth = 0;
  let i = 0;
  let inName = false;
  for (;;) {
    if (inName) {
      // A member name: its body, without escapes, is its value, compared with the previous name in place.
      if (text.charCodeAt(i) !== 0x22) return -1;
      const start = i + 1;
      if (quote < start) quote = next(text, '"', start);
      if (backslash < start) backslash = next(text, "\\", start);
      if (backslash < quote || quote === length) return -1;
      if (nameStart[depth]! >= 0 && !precedes(text, nameStart[depth]!, nameEnd[depth]!, start, quote)) return -1;
      nameStart[depth] = start;
      nameEnd[depth] = quote;
      i = quote + 1;
      if (text.charCodeAt(i) !== 0x3a) return -1;
      i++;
      inName = false;
    }
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (depth === MAX_FAST_DEPTH) return -1;
      depth++;
      if (depth > deepest) deepest = depth;
      i++;
      const isObject = c === 0x7b;
      nameStart[depth] = isObject ? -1 : -2;
      if (text.charCodeAt(i) !== (isObject ? 0x7d : 0x5d)) {
        inName = isObject;
        continue;
      }
      i++;
      depth--;
    } else if (c === 0x22) {
      // A string: skip from escape to escape to the closing quote, checking each escape.
      let from = i + 1;
      for (;;) {
        if (quote < from) quote = next(text, '"', from);
        if (backslash < from) backslash = next(text, "\\", from);
        if (quote < backslash) break;
        const escaped = text.charCodeAt(backslash + 1);
        if (!isCanonicalEscape(text, backslash, escaped)) return -1;
        from = backslash + (escaped === 0x75 ? 6 : 2);
      }
      i = quote + 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = numberEnd(text, i);
      if (i < 0) return -1;
    } else if (c === 0x74 && text.startsWith("true", i)) i += 4;
    else if (c === 0x66 && text.startsWith("false", i)) i += 5;
    else if (c === 0x6e && text.startsWith("null", i)) i += 4;
    else return -1;
    // After a value: a comma, the container's close (perhaps several), or the end of the line.
    for (;;) {
      if (depth === 0) return i === length ? deepest : -1;
      const after = text.charCodeAt(i);
      const inArray = nameStart[depth] === -2;
      if (after === 0x2c) {
        i++;
        inName = !inArray;
        break;
      }
      if (after !== (inArray ? 0x5d : 0x7d)) return -1;
      i++;
      depth--;
    }
  }
}

/**
 * Whether the escape at `at` (its letter `escaped`) is the one JSON.stringify writes: a short escape, or `\u00xx` in
 * lowercase for a control without one.
 */
function isCanonicalEscape(text: string, at: number, escaped: number): boolean {
  switch (escaped) {
    case 0x22: // "
    case 0x5c: // \
    case 0x62: // b
    case 0x66: // f
    case 0x6e: // n
    case 0x72: // r
    case 0x74: // t
      return true;
    case 0x75: {
      if (text.charCodeAt(at + 2) !== 0x30 || text.charCodeAt(at + 3) !== 0x30) return false;
      const high = text.charCodeAt(at + 4);
      const low = text.charCodeAt(at + 5);
      // 00–07, 0b, 0e, 0f; 10–1f (08, 09, 0a, 0c and 0d have short escapes)
      if (high === 0x30) return (low >= 0x30 && low <= 0x37) || low === 0x62 || low === 0x65 || low === 0x66;
      return high === 0x31 && ((low >= 0x30 && low <= 0x39) || (low >= 0x61 && low <= 0x66));
    }
    default:
      return false;
  }
}

/**
 * The end of the number at `at` when it is in ECMAScript's shortest form, else -1. An integer of up to 15 digits is
 * (but -0 is not); any other is converted and written back.
 */
function numberEnd(text: string, at: number): number {
  const first = text.charCodeAt(at) === 0x2d ? at + 1 : at;
  let end = first;
  let c = text.charCodeAt(end);
  while (c >= 0x30 && c <= 0x39) c = text.charCodeAt(++end);
  const digits = end - first;
  const leadingZero = text.charCodeAt(first) === 0x30;
  if (
    digits > 0 &&
    digits <= 15 &&
    !(leadingZero && (digits > 1 || first > at)) &&
    c !== 0x2e &&
    c !== 0x65 &&
    c !== 0x45
  )
    return end;
  NUMBER.lastIndex = at;
  if (!NUMBER.test(text)) return -1;
  const token = text.slice(at, NUMBER.lastIndex);
  return JSON.stringify(Number(token)) === token ? NUMBER.lastIndex : -1;
}

/** Whether text[a, aEnd) comes strictly before text[b, bEnd) in UTF-16 code unit order. */
function precedes(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  for (; a < aEnd && b < bEnd; a++, b++) {
    const x = text.charCodeAt(a);
    const y = text.charCodeAt(b);
    if (x !== y) return x < y;
  }
  return a === aEnd && b < bEnd;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}
