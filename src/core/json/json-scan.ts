/**
 * A JSON scanner for lines that failed the fast path (JSON.parse + canonical comparison).
 *
 * It exists because neither JSON.parse nor a streaming tokenizer tells us *where* a line goes
 * wrong: the column of a syntax error, the pointer of a duplicate key, the first token that is
 * not in RFC 8785 form. It is iterative (an explicit stack), so deeply nested input cannot
 * overflow the call stack, and it only runs on lines that already have a problem.
 */

export interface ScanFinding {
  /** 0-based index into the line's text. */
  index: number;
  pointer: string;
}

export interface DuplicateKey extends ScanFinding {
  key: string;
  firstIndex: number;
}

export interface NonCanonical extends ScanFinding {
  reason: string;
  expected?: string;
}

export interface ScanResult {
  syntaxError?: { index: number; message: string };
  duplicates: DuplicateKey[];
  nonCanonical?: NonCanonical;
}

interface Frame {
  kind: "object" | "array";
  pointer: string;
  keys: Map<string, number>;
  lastKey: string | undefined;
  count: number;
  /** Pointer of the value being read inside this container. */
  childPointer: string;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Scans one JSON text and reports the first syntax error, every duplicate key, and the first non-canonical token;
 * `onKey` is told of each member's pointer and the index of its key.
 */
export function scanJson(text: string, onKey?: (pointer: string, index: number) => void): ScanResult {
  const result: ScanResult = { duplicates: [] };
  const stack: Frame[] = [];
  let i = 0;
  let pointer = "";

  const nonCanonical = (index: number, at: string, reason: string, expected?: string) => {
    if (!result.nonCanonical)
      result.nonCanonical =
        expected === undefined ? { index, pointer: at, reason } : { index, pointer: at, reason, expected };
  };
  const fail = (message: string, index = i): ScanResult => {
    result.syntaxError = { index, message };
    return result;
  };
  const skipWhitespace = () => {
    const start = i;
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
    if (i > start) nonCanonical(start, pointer, "whitespace outside strings", "no whitespace between tokens");
  };
  const describeAt = (index: number) => (index >= text.length ? "end of line" : `${JSON.stringify(text[index])}`);

  /** Reads a string token at i; returns its decoded value or undefined on a syntax error. */
  const readString = (): string | undefined => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            fail("invalid \\u escape: expected four hexadecimal digits", i);
            return undefined;
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          fail(`invalid escape "\\${e ?? ""}" in a string`, i);
          return undefined;
        }
      } else if (c < 0x20) {
        fail("unescaped control character in a string: expected it written as an escape", i);
        return undefined;
      } else {
        i++;
      }
    }
    if (i >= text.length) {
      fail("unterminated string: expected a closing quote", start);
      return undefined;
    }
    i++;
    const token = text.slice(start, i);
    const value = JSON.parse(token) as string;
    const canonical = JSON.stringify(value);
    if (canonical !== token) nonCanonical(start, pointer, "string escapes not in canonical form", canonical);
    return value;
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

  /** Reads one scalar at i, or opens a container; returns false after a syntax error. */
  const readValue = (): boolean => {
    const c = text[i];
    if (c === "{" || c === "[") {
      stack.push({
        kind: c === "{" ? "object" : "array",
        pointer,
        keys: new Map(),
        lastKey: undefined,
        count: 0,
        childPointer: pointer,
      });
      i++;
      return true;
    }
    if (c === '"') return readString() !== undefined;
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) {
        fail(`invalid number at ${describeAt(i)}`);
        return false;
      }
      const token = match[0];
      const canonical = JSON.stringify(Number(token));
      if (canonical !== token) nonCanonical(i, pointer, "number not in canonical form", canonical);
      i += token.length;
      return true;
    }
    for (const literal of ["true", "false", "null"]) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return true;
      }
    }
    fail(`unexpected ${describeAt(i)}: expected a JSON value`);
    return false;
  };

  skipWhitespace();
  if (!readValue()) return result;
  // Each turn: we are just after a value, or just after an opening bracket.
  let justOpened = stack.length > 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    pointer = frame.pointer;
    skipWhitespace();
    const c = text[i];
    const closer = frame.kind === "object" ? "}" : "]";
    if (c === closer && (justOpened || frame.count > 0)) {
      i++;
      stack.pop();
      justOpened = false;
      continue;
    }
    if (!justOpened) {
      if (c !== ",") return fail(`unexpected ${describeAt(i)}: expected "," or "${closer}"`);
      i++;
      skipWhitespace();
    }
    justOpened = false;
    if (frame.kind === "object") {
      if (text[i] !== '"') return fail(`unexpected ${describeAt(i)}: expected a quoted key`);
      const keyIndex = i;
      const key = readString();
      if (key === undefined) return result;
      const childPointer = `${frame.pointer}/${escapePointer(key)}`;
      onKey?.(childPointer, keyIndex);
      const first = frame.keys.get(key);
      if (first !== undefined) {
        result.duplicates.push({ index: keyIndex, pointer: childPointer, key, firstIndex: first });
      } else {
        frame.keys.set(key, keyIndex);
      }
      if (frame.lastKey !== undefined && key < frame.lastKey && first === undefined) {
        nonCanonical(
          keyIndex,
          childPointer,
          `keys not in sorted order ("${key}" comes after "${frame.lastKey}")`,
          "keys sorted by UTF-16 code units",
        );
      }
      frame.lastKey = key;
      pointer = childPointer;
      skipWhitespace();
      if (text[i] !== ":") return fail(`unexpected ${describeAt(i)}: expected ":" after a key`);
      i++;
    } else {
      pointer = `${frame.pointer}/${frame.count}`;
    }
    frame.count++;
    skipWhitespace();
    const depth = stack.length;
    if (!readValue()) return result;
    justOpened = stack.length > depth;
  }
  pointer = "";
  skipWhitespace();
  if (i < text.length)
    return fail(`unexpected ${describeAt(i)} after the end of the value: expected one JSON value per line`);
  return result;
}

/** Line and column (1-based) of the key of the member at `pointer` in a JSON text; undefined when it has none. */
export function keyPosition(text: string, pointer: string): { line: number; column: number } | undefined {
  let found: number | undefined;
  scanJson(text, (at, index) => {
    if (at === pointer) found ??= index;
  });
  if (found === undefined) return undefined;
  const before = text.slice(0, found);
  return { line: before.split("\n").length, column: found - before.lastIndexOf("\n") };
}
