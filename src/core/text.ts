/** Small helpers for phrasing values in messages. */

const MAX_SHOWN = 60;

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
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
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
