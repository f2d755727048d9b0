/**
 * The top-level blocks of a markdown body, from markdown-it's block tokens (docs/spec.md, "Blocks
 * and targets"), handed on one at a time as the parse finds them: a document's tokens are never
 * held together, only those of its current top-level block.
 */

import type { StateBlock, Token } from "markdown-it";
import { ArtifactError, MAX_BLOCK_LINES } from "./limits.js";
import { type ContainerCounter, type Leaf, leavesOf } from "./leaves.js";
import { blockState } from "./line-marks.js";
import {
  type BlockVisitor,
  blockParser,
  flatBlockParser,
  flushPending,
  type References,
  type VisitedEnv,
} from "./parser.js";

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
  /** Its leaf blocks, when the scan was asked for them (a dataset with units). */
  leaves?: Leaf[];
}

/** What a scan leaves for the heading texts, and counts of its work. */
export interface BlockScan {
  /** The link reference definitions of the body (markdown-it's `env.references`). */
  references: References;
  /** The most block tokens held at once. */
  peakTokens: number;
  /** The most lines of the body held at once (markdown-it keeps five numbers per line of what it parses). */
  peakLines: number;
  /** How many parses of a piece of the body it took. */
  pieces: number;
}

/**
 * The body is parsed a piece at a time, of about this many UTF-16 code units (whole lines). A
 * piece ends where a top-level block starts: markdown-it reads what follows a top-level block
 * start without looking back, so a piece parsed apart reads as it would in the whole body.
 */
export const PIECE_LENGTH = 1 << 20;

/**
 * Reads `body` (which starts at `offset` in the artifact's text) and calls `visit` with each
 * top-level block, in document order. `containers: false` reads it without block quotes and lists.
 *
 * Memory: markdown-it's block state holds five numbers per line of the text it parses, so the body
 * is parsed in pieces: from a start, about PIECE_LENGTH code units to a line end. Every top-level
 * block of the piece but the last is whole and goes to `visit`; the last may go on past the
 * piece, so the next piece starts where it starts. A piece with a single block start is parsed
 * again twice as long; such a grown piece may hold at most MAX_BLOCK_LINES lines. `plain`: the body is known to hold
 * no CR and no NUL (its bytes were searched, natively, for them), so its pieces are not searched again as text (two
 * passes over every character: 45 against 7 ms over the 150 MB corpus, bench/RESULTS.md).
 */
export function scanTopLevelBlocks(
  body: string,
  offset: number,
  containers: boolean,
  visit: (block: TopLevelBlock) => void,
  pieceLength = PIECE_LENGTH,
  leaves?: ContainerCounter,
  plain = false,
): BlockScan {
  const parser = containers ? blockParser : flatBlockParser();
  const scan: BlockScan = { references: {}, peakTokens: 0, peakLines: 0, pieces: 0 };
  let from = 0;
  let length = pieceLength;
  let firstLine = 0;
  while (from < body.length) {
    const end = pieceEnd(body, from + length);
    const piece = readPiece(from === 0 && end === body.length ? body : body.slice(from, end), plain);
    const last = end === body.length;
    const blocks: TopLevelBlock[] = [];
    const lines: number[] = [];
    const definitions: [string, References[string]][][] = [];
    const pieceFrom = from;
    const pieceLine = firstLine;
    const visitor: BlockVisitor = {
      block(state, line, tokens) {
        const found: [string, References[string]][] = [];
        blocks.push(blockOf(state, line, tokens, piece, body, offset, pieceFrom, found, leaves, pieceLine));
        lines.push(line);
        definitions.push(found);
      },
    };
    const env: VisitedEnv = { visitor, peakTokens: 0, firstLine };
    const state = blockState(parser, piece.src, env);
    // A piece grown for one block: that block's lines are held at once.
    if (length > pieceLength && state.lineMax > MAX_BLOCK_LINES) {
      throw new ArtifactError(
        `a top-level block from line ${firstLine + 1} of the body has more than ${MAX_BLOCK_LINES} lines, the cap`,
      );
    }
    scan.pieces++;
    if (state.lineMax > scan.peakLines) scan.peakLines = state.lineMax;
    parser.block.tokenize(state, state.line, state.lineMax);
    if (env.peakTokens > scan.peakTokens) scan.peakTokens = env.peakTokens;
    let pending = env.pending;
    if (last || pending === undefined) {
      flushPending(state);
    } else {
      // A link reference definition reads on until a blank line (its title may span lines: `[foo]: /url` then
      // `"title"`, or `[foo]: /url 'a` … `b'`). One that starts after the piece's last blank line may have been read
      // short at the piece's end (without its title, or not as a definition at all), and the lines after it as
      // blocks of their own: it and what follows are read again with the next piece.
      let blank = state.lineMax - 1;
      while (blank >= 0 && !state.isEmpty(blank)) blank--;
      const first = lines.findIndex(
        (line) =>
          line > blank &&
          state.sCount[line]! < 4 &&
          mayStartDefinition(piece.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line])),
      );
      if (first !== -1) {
        pending = lines[first]!;
        blocks.length = first;
        definitions.length = first;
        lines.length = first;
      }
      if (blocks.length === 0) {
        // One block start only: the block may go on past the piece.
        length *= 2;
        continue;
      }
    }
    for (const found of definitions)
      for (const [label, reference] of found)
        if (scan.references[label] === undefined) scan.references[label] = reference;
    for (const block of blocks) visit(block);
    if (last) break;
    if (pending === undefined) {
      from = end;
      firstLine += state.lineMax;
    } else {
      from += piece.lineStarts ? piece.lineStarts[pending]! : state.bMarks[pending]!;
      firstLine += pending;
    }
    length = pieceLength;
  }
  return scan;
}

/**
 * Whether a line (from its first non-blank character) may start a link reference definition: `[`, then a label whose
 * first unescaped `]` is followed by `:`, or that goes on past the line (a label may span lines). `[1] Text` may not.
 */
function mayStartDefinition(line: string): boolean {
  if (line.charCodeAt(0) !== 0x5b) return false;
  for (let i = 1; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x5d) return line.charCodeAt(i + 1) === 0x3a;
  }
  return true;
}

/** The end of the line that goes on at `at` (after its line ending), or the end of `body`. */
function pieceEnd(body: string, at: number): number {
  if (at >= body.length) return body.length;
  for (let i = at; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x0a) return i + 1;
    if (c === 0x0d) return body.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
  }
  return body.length;
}

/** A piece of the body as markdown-it reads it, and where its lines start in the piece as written. */
interface Piece {
  src: string;
  /** Set when the two differ (CR line endings). */
  lineStarts: number[] | undefined;
}

/** `plain`: the text is known to hold no CR and no NUL (its bytes were searched for them: parseArtifactBytes). */
function readPiece(text: string, plain: boolean): Piece {
  if (plain) return { src: text, lineStarts: undefined };
  // CommonMark's line endings (CR LF, CR) read as LF, and NUL as U+FFFD, as markdown-it's core does before its block
  // rules.
  const hasCr = text.includes("\r");
  let src = hasCr ? text.replace(/\r\n?/g, "\n") : text;
  if (src.includes("\0")) src = src.replace(/\0/g, "\uFFFD");
  let lineStarts: number[] | undefined;
  if (hasCr) {
    lineStarts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) lineStarts.push(i + 1);
    }
  }
  return { src, lineStarts };
}

/**
 * What the cut needs of one top-level block; the references its definitions make go to `found` (the caller keeps
 * those of the blocks it takes; the first of a label wins, as in markdown-it).
 */
function blockOf(
  state: StateBlock,
  line: number,
  tokens: Token[],
  piece: Piece,
  body: string,
  offset: number,
  pieceFrom: number,
  found: [string, References[string]][],
  leaves: ContainerCounter | undefined,
  pieceLine: number,
): TopLevelBlock {
  // An offset into the body, then into the artifact's text.
  const at = (line: number, column: number) =>
    pieceFrom + (piece.lineStarts ? piece.lineStarts[line]! : state.bMarks[line]!) + column;
  const position = (line: number, column: number) => offset + at(line, column);
  // Definitions in block quotes and list items count too.
  for (const token of tokens) {
    if (token.type !== "reference_definition") continue;
    const label = (token.meta as { label: string }).label;
    const reference = state.env.references?.[label];
    if (reference !== undefined) found.push([label, reference]);
  }
  const block = topLevelBlock(state, line, tokens, body, at, position);
  if (leaves !== undefined) block.leaves = leavesOf(tokens, (line) => position(line, 0), leaves, pieceLine);
  return block;
}

function topLevelBlock(
  state: StateBlock,
  line: number,
  tokens: Token[],
  body: string,
  at: (line: number, column: number) => number,
  position: (line: number, column: number) => number,
): TopLevelBlock {
  const first = tokens[0]!;
  switch (first.type) {
    case "reference_definition":
      return { start: position(line, state.tShift[line]!), definition: true };
    case "code_block":
      return { start: position(line, 0) };
    case "html_block": {
      const last = first.map![1] - 1;
      return {
        start: position(line, 0),
        html: body.slice(at(line, 0), at(last, state.eMarks[last]! - state.bMarks[last]!)),
      };
    }
    case "heading_open":
      return {
        start: position(line, state.tShift[line]!),
        heading: { depth: Number(first.tag.slice(1)), content: tokens[1]!.content },
      };
    default:
      return { start: position(line, state.tShift[line]!) };
  }
}
