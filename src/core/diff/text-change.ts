/**
 * Editorial changes told apart (docs/spec.md, section 12.4): a `record-changed` whose text differs only in
 * white space, or only in footnote references and footnote definitions (their numbering or their text), is
 * marked `textChange: "whitespace"` or `"footnotes"`; any other change of the text is `"words"`. With
 * `--pass-editorial` the first two pass the gate. Pure: no I/O.
 */
import type { DiffChange, DiffPair, TextChange } from "./diff.js";

/** The fields a record's text is made of; a change of any other compared field is more than editorial. */
export const TEXT_FIELDS: readonly string[] = ["markdown", "headingText", "headingTrail"];
/** Derived from the markdown: changes with it, says nothing of its own. */
const DERIVED_FIELDS = new Set(["textDigest"]);

/** The text parts of a record compared for the kind of change. */
export interface RecordText {
  markdown?: unknown;
  headingText?: unknown;
  headingTrail?: unknown;
}

/** A footnote definition's first line: `[^label]:` at the start of a line (up to three spaces in). */
const DEFINITION = /^ {0,3}\[\^[^\]\s]+\]:/u;
/** A footnote reference `[^label]`, and a superscript not at the start of a line (one there numbers a paragraph). */
const REFERENCE = /\[\^[^\]\s]+\]/gu;
const SUPERSCRIPT = /(?<!^[ \t>]*)<sup\b[^>]*>[\s\S]*?<\/sup>/gimu;

/** The text with every run of white space one space, trimmed. */
function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/**
 * The text without its footnote definitions (a `[^label]:` line, its continuation lines and the indented
 * paragraphs that follow it) and its footnote references (`[^label]`, and `<sup>…</sup>` inside a line).
 */
export function withoutFootnotes(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!DEFINITION.test(lines[i]!)) {
      kept.push(lines[i]!);
      continue;
    }
    // The definition goes on over its non-blank lines, and over blank lines followed by an indented one.
    while (i + 1 < lines.length) {
      const next = lines[i + 1]!;
      if (next.trim() !== "" && !DEFINITION.test(next)) i++;
      else if (next.trim() === "") {
        let j = i + 1;
        while (j < lines.length && lines[j]!.trim() === "") j++;
        if (j < lines.length && /^( {4}|\t)/u.test(lines[j]!)) i = j;
        else break;
      } else break;
    }
  }
  return kept.join("\n").replace(REFERENCE, "").replace(SUPERSCRIPT, "");
}

function textOf(record: RecordText, form: (text: string) => string): string {
  const trail = Array.isArray(record.headingTrail) ? record.headingTrail : [];
  return JSON.stringify([
    typeof record.markdown === "string" ? form(record.markdown) : record.markdown,
    typeof record.headingText === "string" ? form(record.headingText) : record.headingText,
    trail.map((item) => (typeof item === "string" ? form(item) : item)),
  ]);
}

/**
 * How a record's text changed between two versions: "whitespace" when the texts are the same with white space
 * collapsed, "footnotes" when they are the same once footnote references and definitions are left out too, else
 * "words".
 */
export function classifyTextChange(before: RecordText, after: RecordText): TextChange {
  if (textOf(before, collapse) === textOf(after, collapse)) return "whitespace";
  const bare = (text: string) => collapse(withoutFootnotes(text));
  return textOf(before, bare) === textOf(after, bare) ? "footnotes" : "words";
}

/** The changed fields of a record change that are its text (undefined: no text field changed). */
export function textChangeScope(change: DiffChange): "text-only" | "more" | undefined {
  if (change.kind !== "record-changed" || change.fields === undefined) return undefined;
  const fields = change.fields.map((field) => field.field).filter((field) => !DERIVED_FIELDS.has(field));
  if (!fields.some((field) => TEXT_FIELDS.includes(field))) return undefined;
  return fields.every((field) => TEXT_FIELDS.includes(field)) ? "text-only" : "more";
}

/** True for a change --pass-editorial lets through: its text changed only in footnotes or white space. */
export function isEditorial(change: DiffChange): boolean {
  return change.textChange === "footnotes" || change.textChange === "whitespace";
}

/** The reason an editorial change passes with --pass-editorial. */
export function editorialReason(change: DiffChange): string {
  return `editorial: ${change.textChange === "footnotes" ? "only footnote references and definitions changed" : "only white space changed"} (--pass-editorial)`;
}

/**
 * --pass-editorial: every editorial change that no approval approved yet passes the gate, marked approved with the
 * reason it passed. Returns how many.
 */
export function passEditorialChanges(pairs: readonly DiffPair[]): number {
  let passed = 0;
  for (const pair of pairs)
    for (const change of pair.changes)
      if (!change.approved && isEditorial(change)) {
        change.approved = { reason: editorialReason(change) };
        passed++;
      }
  return passed;
}
