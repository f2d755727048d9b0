/**
 * The top-level blocks of a markdown body, from markdown-it's block tokens (docs/spec.md, "Blocks
 * and targets"), handed on one at a time as the parse finds them: a document's tokens are never
 * held together, only those of its current top-level block.
 */

import type { StateBlock, Token } from "markdown-it";
import { type BlockVisitor, blockParser, flatBlockParser, flushPending, type References, type VisitedEnv } from "./parser.js";

/** One top-level block: its start offset, and what the cut needs to know about it. */
export interface TopLevelBlock {
  /** UTF-16 offset into the text: the block's first character, or its line's start for indented code and raw HTML. */
  start: number;
  /** Set for a heading: its depth and its inline content, as markdown-it gives it (see heading-text.ts). */
  heading?: { depth: number; content: string };
  /** Set for a raw HTML block: the source it spans, up to its last line's end. */
  html?: string;
  /** Set for a link reference definition. */
  definition?: true;
}

/** What a scan leaves for the heading texts, and a count of its work. */
export interface BlockScan {
  /** The link reference definitions of the body (markdown-it's `env.references`). */
  references: References;
  /** The most block tokens held at once. */
  peakTokens: number;
}

/**
 * Reads `body` (which starts at `offset` in the artifact's text) and calls `visit` with each
 * top-level block, in document order. `containers: false` reads it without block quotes and lists.
 */
export function scanTopLevelBlocks(body: string, offset: number, containers: boolean, visit: (block: TopLevelBlock) => void): BlockScan {
  const parser = containers ? blockParser : flatBlockParser;
  if (body.length === 0) return { references: {}, peakTokens: 0 };
  // CommonMark's line endings (CR LF, CR) read as LF, and NUL as U+FFFD, as markdown-it's core does before its block rules.
  const hasCr = body.includes("\r");
  let src = hasCr ? body.replace(/\r\n?/g, "\n") : body;
  if (src.includes("\0")) src = src.replace(/\0/g, "\uFFFD");

  // Where each line of `src` starts in `body`, when the two differ (CR line endings).
  let lineStarts: number[] | undefined;
  if (hasCr) {
    lineStarts = [0];
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && body.charCodeAt(i + 1) !== 0x0a)) lineStarts.push(i + 1);
    }
  }
  const position = (state: StateBlock, line: number, column: number) => offset + (lineStarts ? lineStarts[line]! : state.bMarks[line]!) + column;
  const lineEnd = (state: StateBlock, line: number) => position(state, line, state.eMarks[line]! - state.bMarks[line]!);

  const visitor: BlockVisitor = {
    block(state, line, tokens) {
      visit(blockOf(state, line, tokens, position, lineEnd, body, offset));
    },
  };
  const env: VisitedEnv = { visitor, peakTokens: 0 };
  const state = new parser.block.State(src, parser, env, []);
  parser.block.tokenize(state, state.line, state.lineMax);
  flushPending(state);
  return { references: env.references ?? {}, peakTokens: env.peakTokens };
}

function blockOf(
  state: StateBlock,
  line: number,
  tokens: Token[],
  position: (state: StateBlock, line: number, column: number) => number,
  lineEnd: (state: StateBlock, line: number) => number,
  body: string,
  offset: number,
): TopLevelBlock {
  const first = tokens[0]!;
  switch (first.type) {
    case "reference_definition":
      return { start: position(state, line, state.tShift[line]!), definition: true };
    case "code_block":
      return { start: position(state, line, 0) };
    case "html_block": {
      const start = position(state, line, 0);
      return { start, html: body.slice(start - offset, lineEnd(state, first.map![1] - 1) - offset) };
    }
    case "heading_open":
      return { start: position(state, line, state.tShift[line]!), heading: { depth: Number(first.tag.slice(1)), content: tokens[1]!.content } };
    default:
      return { start: position(state, line, state.tShift[line]!) };
  }
}
