/** Small helpers for phrasing values in messages, and for strings. */

/** How many characters of a value a message shows. */
export const MAX_SHOWN = 60;

/** `1 file`, `2 files`: the count and the word, in the plural (`many`, by default the word and "s") unless it is 1. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** The text with every character that has a meaning in a regular expression escaped, to be matched literally. */
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
