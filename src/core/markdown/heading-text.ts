/**
 * The plain text of a heading (docs/spec.md, "Blocks and targets"): what mdast's "to string"
 * gives for it, computed over markdown-it's inline tokens of the heading's content. Text, code
 * spans, raw HTML and image descriptions count; a soft line break is a line ending, a hard one
 * adds nothing; emphasis and link markup add nothing.
 */

import type { Token } from "markdown-it";
import { inlineParser, type References } from "./parser.js";

/** The text of a heading whose inline content is `content`, with the body's link reference definitions. */
export function headingText(content: string, references: References): string {
  if (content.length === 0) return "";
  // Without any character an inline rule of the commonmark preset starts at (autolink and raw HTML `<`, code spans,
  // emphasis, entities, escapes, images, links, line breaks), the content is one text token: its text is the content
  // (most headings of real law: `§ 12 Anwendungsbereich`; test/markdown-it-oracle.test.ts holds the two to the same text).
  if (!INLINE_MARKUP.test(content)) return content;
  const tokens: Token[] = [];
  inlineParser.inline.parse(content, inlineParser, { references }, tokens);
  return textOf(tokens);
}

/** The characters at which markdown-it's commonmark inline rules may make something other than text. */
const INLINE_MARKUP = /[\n<`*_&\\![\]]/;

/** The text of a list of inline tokens. */
export function textOf(tokens: Token[]): string {
  let text = "";
  for (const token of tokens) {
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
        text += textOf(token.children ?? []);
        break;
    }
  }
  return text;
}

/** A heading's text as the target carries it: white space collapsed, trimmed. */
export function collapseWhiteSpace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}
