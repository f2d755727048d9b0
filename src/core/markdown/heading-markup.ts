/**
 * Footnote markup in a heading's plain text (docs/spec.md, sections 4 and 7, "Local coordinate: designations"): what
 * neither a heading's `headingText` nor its designation keeps. One reading for both, so that a renumbered footnote
 * changes neither.
 */

/**
 * A footnote reference (`[^7]`), a superscript with its content (`<sup>45</sup>`), or another inline HTML tag (`<i>`,
 * `</span>`, `<br/>`), whose text stays. No part may run over a character that starts another try (`[`, `<`): each
 * try stops at the next one, so that a heading of 64 KiB of `[^[^…` or `<sup><sup>…` is read in linear time.
 */
const FOOTNOTE_MARKUP = /\[\^[^\]\s[]*\]|<sup\b[^<>]*>(?:(?!<\/?sup\b)[\s\S])*<\/sup\s*>|<\/?[A-Za-z][^<>]*>/giu;
/** A character that a removal between two of them leaves a space for: a letter or a digit. */
const WORD = /[\p{L}\p{N}]/u;

/**
 * `text` without footnote references, superscripts (with their content) and other inline HTML tags (their text
 * kept). Each run of removed markup leaves one space when a letter or digit stands on both sides of it
 * (`foo<br>bar` → `foo bar`), else nothing (`<i>Begründung</i>:` → `Begründung:`); white space is not collapsed here.
 */
export function withoutFootnoteMarkup(text: string): string {
  if (!text.includes("[^") && !text.includes("<")) return text;
  let out = "";
  let from = 0;
  /** Where the current run of adjacent removals started in `text`, or -1. */
  let runStart = -1;
  const closeRun = (end: number) => {
    if (runStart === -1) return;
    const before = text[runStart - 1];
    const after = text[end];
    if (before !== undefined && after !== undefined && WORD.test(before) && WORD.test(after)) out += " ";
    runStart = -1;
  };
  for (const match of text.matchAll(FOOTNOTE_MARKUP)) {
    const at = match.index;
    if (at !== from) {
      closeRun(from);
      out += text.slice(from, at);
    }
    if (runStart === -1) runStart = at;
    from = at + match[0].length;
  }
  closeRun(from);
  return out + text.slice(from);
}
