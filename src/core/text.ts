/** Small helpers for phrasing values in messages, and for strings. */

/** How many characters of a value a message shows. */
export const MAX_SHOWN = 60;

/** `1 file`, `2 files`: the count and the word, in the plural (`many`, by default the word and "s") unless it is 1. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** The text with every character that has a meaning in a regular expression escaped, to be matched literally. */
/**
 * The first `most` items joined by `, `, and how many more there are (`a.md, b.md, c.md, d.md, e.md and 12 more`): a
 * list in a message stays one readable line for a dataset of thousands of files.
 */
export function namedList(items: readonly string[], most = 5): string {
  if (items.length <= most) return items.join(", ");
  return `${items.slice(0, most).join(", ")} and ${items.length - most} more`;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** String.prototype.isWellFormed (ES2024, in Node 20): false when the text holds a lone surrogate. */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A short, quoted rendering of a value for a message: strings quoted and cut, others by JSON form. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** The string JSON-quoted, cut in the middle of long values. */
export function quote(text: string): string {
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
  return JSON.stringify(shown);
}

/** Replaces `{{name}}` placeholders with the values of `data`. */
export function interpolate(template: string, data: Record<string, unknown>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? String(data[key]) : whole));
}

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The candidate closest to `word` when it is close enough to be a likely misspelling (as git's "did you mean"). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `unknown rule "x"` with a "did you mean" when one rule is close. */
export function unknownRuleMessage(id: string, ruleIds: readonly string[]): string {
  const suggestion = closest(id, ruleIds);
  return `unknown rule "${id}"${suggestion ? `: did you mean "${suggestion}"?` : ` (rules: ${ruleIds.join(", ")})`}`;
}

/** How many characters of a line an excerpt keeps. */
const EXCERPT_WIDTH = 72;

/**
 * A readable piece of `text` for a code frame: around `column` (1-based) when given, else its
 * start, at most EXCERPT_WIDTH characters, with "…" where it was cut; control characters shown
 * as U+FFFD. Kept small, because a problem is stored with it (a line can be megabytes long).
 */
export function excerptOf(text: string, column?: number): { text: string; column?: number } {
  const at = column === undefined ? 0 : Math.max(0, Math.min(column - 1, text.length));
  const start = Math.max(0, Math.min(at - Math.floor(EXCERPT_WIDTH / 3), text.length - EXCERPT_WIDTH));
  const end = Math.min(text.length, start + EXCERPT_WIDTH);
  const head = start > 0 ? "…" : "";
  const piece = `${head}${text.slice(start, end)}${end < text.length ? "…" : ""}`.replace(
    /[\u0000-\u001f\u007f]/g,
    "\ufffd",
  );
  return column === undefined ? { text: piece } : { text: piece, column: at - start + head.length + 1 };
}

/** The value at an RFC 6901 pointer, or undefined when there is none. */
export function valueAtPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Quotes an argument for a POSIX shell when it needs it, so that printed commands can be pasted. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * The characters that must never reach a terminal (or a report read on one) raw: C0 controls (ESC starts a terminal's
 * escape sequences; CR and LF redraw or forge lines) but TAB, DEL, C1 controls (CSI), and the directional formatting
 * characters (embeddings, overrides, isolates, marks), which reorder what is shown around them.
 */
const UNSAFE_FOR_DISPLAY = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text shown as it is, but with each such character written as `\uXXXX` (ESC as `\u001b`). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE_FOR_DISPLAY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Each line of `text` with its controls escaped (the line breaks kept). */
export function escapeControlsByLine(text: string): string {
  return text.split("\n").map(escapeControls).join("\n");
}

/** Directional formatting characters that open an embedding or override (closed by PDF) or an isolate (by PDI). */
const EMBEDDINGS = new Set([0x202a, 0x202b, 0x202d, 0x202e]);
const ISOLATES = new Set([0x2066, 0x2067, 0x2068]);
const PDF = 0x202c;
const PDI = 0x2069;
/** Any directional formatting character: an opener or a closer. */
const DIRECTIONAL_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
/** Paragraph separators, which end every embedding and isolate (Unicode's bidi class B). */
const PARAGRAPH_ENDS = new Set([0x0a, 0x0d, 0x1c, 0x1d, 0x1e, 0x85, 0x2029]);

/** A directional control that is not closed (or not opened) on its line: where, and which. */
export interface UnpairedControl {
  /** UTF-16 offset in the text. */
  index: number;
  /** The character, as `U+202E`. */
  code: string;
  /** Opened and never closed on its line, or a closer with nothing to close. */
  unclosed: boolean;
}

/**
 * The first directional control of `text` that is unpaired on its line (Unicode's bidi algorithm ends every
 * embedding, override and isolate at a paragraph's end): an opener (LRE, RLE, LRO, RLO; LRI, RLI, FSI) never closed,
 * or a closer (PDF, PDI) with nothing open to close. Undefined when every one is paired.
 */
export function unpairedDirectionalControl(text: string): UnpairedControl | undefined {
  // Most strings hold none: the regular expression's scan is several times faster than the loop below (bench/RESULTS.md).
  if (!DIRECTIONAL_CONTROL.test(text)) return undefined;
  let open: { index: number; isolate: boolean }[] = [];
  const unpaired = (index: number, unclosed: boolean): UnpairedControl => ({
    index,
    code: `U+${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, "0")}`,
    unclosed,
  });
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0a || (c > 0x1e && c < 0x85) || (c > 0x85 && c < 0x202a)) continue;
    if (EMBEDDINGS.has(c)) open.push({ index: i, isolate: false });
    else if (ISOLATES.has(c)) open.push({ index: i, isolate: true });
    else if (c === PDF) {
      if (open.length === 0 || open[open.length - 1]!.isolate) return unpaired(i, false);
      open.pop();
    } else if (c === PDI) {
      let at = open.length - 1;
      while (at >= 0 && !open[at]!.isolate) at--;
      if (at === -1) return unpaired(i, false);
      open = open.slice(0, at); // a PDI closes the embeddings opened inside its isolate too
    } else if (PARAGRAPH_ENDS.has(c)) {
      if (open.length > 0) return unpaired(open[0]!.index, true);
    }
  }
  return open.length > 0 ? unpaired(open[0]!.index, true) : undefined;
}

/**
 * A value shown on a page, isolated from what surrounds it when it holds directional controls: between FSI and PDI
 * (which ends every embedding and override opened inside), a PDI of its own that would close that isolate early taken
 * out. A value without them is returned as it is.
 */
export function isolateBidi(text: string): string {
  if (!/[\u202a-\u202e\u2066-\u2069]/.test(text)) return text;
  let depth = 0;
  let kept = "";
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (ISOLATES.has(code)) depth++;
    else if (code === PDI) {
      if (depth === 0) continue;
      depth--;
    } else if (PARAGRAPH_ENDS.has(code)) depth = 0;
    kept += c;
  }
  return `\u2068${kept}\u2069`;
}

/**
 * True when `text.replace(/\s+/gu, " ").trim()` is `text` itself: no white space but single spaces between other
 * characters. With `nfc`, also true only when every character is below U+0300, where no character changes under NFC
 * (the first that compose or decompose are the combining marks from U+0300): `text.normalize("NFC")` is `text` too.
 * One pass over the characters, where the pattern's replace and trim took a fifth of a heading's designation
 * (bench/RESULTS.md, "generate against markdown-it"); test/text.test.ts holds it to the pattern for every character.
 */
export function isCollapsed(text: string, nfc = false): boolean {
  let space = true; // a space first is a leading one
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (space) return false;
      space = true;
      continue;
    }
    if (c < 0x300) {
      if ((c >= 0x09 && c <= 0x0d) || c === 0xa0) return false;
    } else if (nfc || isWideSpace(c)) return false;
    space = false;
  }
  return !space || text.length === 0;
}

/** The characters from U+0300 up that `\s` matches: Unicode's spaces (Zs), the line and paragraph separators, the BOM. */
function isWideSpace(c: number): boolean {
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
