/**
 * Whether a line is the RFC 8785 (JCS) canonical form of its record (docs/spec.md, section 2), and
 * if not, where it first differs: the analysis the duplicate-key and non-canonical rules share.
 */
import canonicalize from "canonicalize";
import { scanJson, type DuplicateKey, type NonCanonical } from "./json-scan.js";

export type CanonicalVerdict =
  | { kind: "canonical" }
  | { kind: "unrepresentable"; reason: string }
  | { kind: "duplicates"; duplicates: DuplicateKey[] }
  | { kind: "different"; found: NonCanonical | undefined; column: number };

/** Compares a line's text with the canonical serialisation of the value it parsed to. */
export function analyseCanonical(text: string, value: unknown): CanonicalVerdict {
  if (isCanonicalFast(text, value)) return { kind: "canonical" };
  let canonical: string;
  try {
    canonical = canonicalize(value) ?? "";
  } catch (error) {
    return { kind: "unrepresentable", reason: error instanceof RangeError ? "it is nested too deeply" : error instanceof Error ? error.message.toLowerCase() : String(error) };
  }
  if (canonical === text) return { kind: "canonical" };
  const scan = scanJson(text);
  if (scan.duplicates.length > 0) return { kind: "duplicates", duplicates: scan.duplicates };
  const found = scan.nonCanonical;
  return { kind: "different", found, column: found ? found.index + 1 : firstDifference(text, canonical) + 1 };
}

/**
 * The fast path of the canonical-form check, exact without building the canonical text: when
 * `JSON.stringify` (native, ECMAScript number and string forms, members in parse order) gives the
 * line back, the line has no white space, canonical escapes and canonical numbers; it is then
 * canonical exactly when every object's member names are in UTF-16 order and no `\ud…` escape
 * (a lone surrogate, which I-JSON forbids) occurs. Integer-like names, which V8 reorders, and
 * deep nesting take the slow path.
 */
export function isCanonicalFast(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(value) === text && !text.includes("\\ud") && membersSorted(value);
  } catch {
    return false;
  }
}

function membersSorted(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(membersSorted);
  let previous: string | undefined;
  for (const key in value as Record<string, unknown>) {
    if (previous !== undefined && !(previous < key)) return false;
    const first = key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) return false; // a name V8 may treat as an array index: take the slow path
    if (!membersSorted((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}
