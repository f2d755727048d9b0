/**
 * The markdown parser's set-up (docs/spec.md, "Blocks and targets"): markdown-it, `commonmark`
 * preset, its rules unchanged. One rule of ours is added in front of its block rules; it changes
 * nothing in the parse, it only hands each finished top-level block to a visitor and lets its
 * tokens go (see `blockHandOff`).
 */

import MarkdownIt from "markdown-it";
import type { Env, MarkdownIt as Parser, StateBlock, Token } from "markdown-it";
import { ArtifactError, MAX_BLOCK_TOKENS, MAX_NESTED_QUOTE_LINES } from "./limits.js";
import { guardNestedQuotes } from "./quote-guard.js";

/**
 * Deepest nesting that is parsed, in markdown-it's token levels: block containers (a block quote
 * is one level, a list item two) and, in headings, links and images (one each). Deeper structure
 * is not parsed further (markdown-it's `maxNesting`): the innermost container takes the rest of
 * its lines as they are, the innermost brackets are text.
 */
export const MAX_NESTING = { block: 1000, inline: 100 };

/** What the hand-off rule reports to: set on the environment of one parse. */
export interface BlockVisitor {
  /** A top-level block starts on `startLine`; `tokens` are all of its block tokens. */
  block(state: StateBlock, startLine: number, tokens: Token[]): void;
}

/** The link reference definitions of a body, as markdown-it keeps them. */
export type References = NonNullable<Env["references"]>;

export interface VisitedEnv extends Env {
  visitor: BlockVisitor;
  /** The top-level block whose tokens are being collected: its first line. */
  pending?: number;
  /** The most tokens held at once (a count of work the tests read). */
  peakTokens: number;
  /** The body's line number of the first line parsed (for messages). */
  firstLine: number;
  /** Block quotes being parsed, one in another. */
  quoteDepth?: number;
  /** The lines they may span, added up (the outermost's not counted): see MAX_NESTED_QUOTE_LINES. */
  quoteLines?: number;
}

/**
 * The hand-off rule. markdown-it tries its block rules, in order, at every line where a block may
 * start; this rule comes first and always declines. At the top level (token level 0), every
 * earlier top-level block is finished by then: it hands the tokens of the last one to the visitor
 * and empties the token list, so that tokens never pile up over a document. Inside containers it
 * only counts the tokens held, against MAX_BLOCK_TOKENS.
 */
function blockHandOff(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const env = state.env as unknown as VisitedEnv;
  if (silent || env.visitor === undefined) return false;
  const held = state.tokens.length;
  if (held > env.peakTokens) env.peakTokens = held;
  if (held > MAX_BLOCK_TOKENS) {
    throw new ArtifactError(
      `a top-level block from line ${env.firstLine + (env.pending ?? 0) + 1} of the body has more than ${MAX_BLOCK_TOKENS} block tokens, the cap`,
    );
  }
  if (state.level !== 0) return false;
  flushPending(state);
  env.pending = startLine;
  return false;
}

/** Hands the pending top-level block (if any) and its tokens to the visitor. */
export function flushPending(state: StateBlock): void {
  const env = state.env as unknown as VisitedEnv;
  if (env.pending !== undefined) env.visitor.block(state, env.pending, state.tokens);
  env.pending = undefined;
  state.tokens.length = 0;
}

function createParser(maxNesting: number): Parser {
  const parser = new MarkdownIt("commonmark", { maxNesting });
  // In front of every rule, the `table` rule (off in this preset) included.
  parser.block.ruler.before("table", "citation_targets_hand_off", blockHandOff);
  // The cap on nested quotes' lines (quote-guard.ts), on the parses that hand blocks to a visitor.
  guardNestedQuotes(
    parser,
    ({ depth, lines, startLine }, state) => {
      const env = state.env as unknown as VisitedEnv;
      throw new ArtifactError(
        `block quotes nested ${depth} deep or more over ${lines} lines, in a top-level block from line ${env.firstLine + (env.pending ?? startLine) + 1} of the body: their depth times lines is more than ${MAX_NESTED_QUOTE_LINES}, the cap`,
      );
    },
    (state, silent) => !silent && (state.env as unknown as VisitedEnv).visitor !== undefined,
  );
  return parser;
}

/** The block parser. */
export const blockParser = createParser(MAX_NESTING.block);

let flat: Parser | undefined;
/**
 * The block parser without block quotes and lists, for a body after a front matter fence that is
 * never closed (docs/spec.md, "Front matter"): made on first use, as few bodies need it (a parser
 * is some 1 ms of every start-up that makes one: bench/RESULTS.md, start-up).
 */
export function flatBlockParser(): Parser {
  if (flat === undefined) {
    flat = createParser(MAX_NESTING.block);
    flat.block.ruler.disable(["blockquote", "list"]);
  }
  return flat;
}

/** The inline parser of heading content. */
export const inlineParser = new MarkdownIt("commonmark", { maxNesting: MAX_NESTING.inline });
