/**
 * The plain text of a heading (docs/spec.md, "Blocks and targets"): what mdast's "to string"
 * gives for it, computed over markdown-it's inline tokens of the heading's content. Text, code
 * spans, raw HTML and image descriptions count; a soft line break is a line ending, a hard one
 * adds nothing; emphasis and link markup add nothing.
 */

import type { Token } from "markdown-it";
import { withoutFootnoteMarkup } from "./heading-markup.js";
import { inlineParser, type References } from "./parser.js";
import { isCollapsed } from "../text.js";

/** The text of a heading whose inline content is `content`, with the body's link reference definitions. */
export function headingText(content: string, references: References, footnotes = false): string {
  if (content.length === 0) return "";
  // Without any character an inline rule of the commonmark preset starts at (autolink and raw HTML `<`, code spans,
  // emphasis, entities, escapes, images, links, line breaks), the content is one text token: its text is the content
  // (most headings of real law: `§ 12 Anwendungsbereich`; test/markdown-it-oracle.test.ts holds the two to the same text).
  if (!INLINE_MARKUP.test(content)) return content;
  const tokens: Token[] = [];
  inlineParser.inline.parse(content, inlineParser, { references }, tokens);
  return textOf(tokens, footnotes);
}

/**
 * A heading's `headingText` (docs/spec.md, section 4): its plain text without footnote markup (`withoutFootnoteMarkup`:
 * footnote references, superscripts with their content, other inline HTML tags), white space collapsed, trimmed. A
 * footnote reference that a definition of the body made a link (`[^7]` with `[^7]: Aufgehoben`) is one too.
 */
export function targetHeadingText(content: string, references: References): string {
  return collapseWhiteSpace(withoutFootnoteMarkup(headingText(content, references, true)));
}

/** The characters at which markdown-it's commonmark inline rules may make something other than text. */
const INLINE_MARKUP = /[\n<`*_&\\![\]]/;

/** A link's text that is a footnote label: `^` and no white space or bracket (`[^7]`, `[^a1]`). */
const FOOTNOTE_LABEL = /^\^[^\s[\]]+$/u;

/**
 * The text of a list of inline tokens. With `footnotes`, a link whose text is a footnote label (`^7`) gives its source
 * form `[^7]`, for `withoutFootnoteMarkup` to remove.
 */
export function textOf(tokens: Token[], footnotes = false): string {
  let text = "";
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (footnotes && token.type === "link_open") {
      // Links do not nest: the link's tokens run to the next link_close.
      let close = i + 1;
      while (close < tokens.length && tokens[close]!.type !== "link_close") close++;
      const inner = textOf(tokens.slice(i + 1, close));
      if (FOOTNOTE_LABEL.test(inner)) {
        text += `[${inner}]`;
        i = close;
        continue;
      }
    }
    switch (token.type) {
      case "text":
      case "text_special":
      case "code_inline":
      case "html_inline":
        text += token.content;
        break;
      case "softbreak":
        text += "\n";
        break;
      case "image":
        // An image's description is its children's text (markdown-it parses it as inline content).
        text += textOf(token.children ?? [], footnotes);
        break;
    }
  }
  return text;
}

/** A heading's text as the target carries it: white space collapsed, trimmed. */
export function collapseWhiteSpace(text: string): string {
  return isCollapsed(text) ? text : text.replace(/\s+/gu, " ").trim();
}
