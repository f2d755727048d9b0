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
