/**
 * The top-level blocks of a markdown body, as micromark (mdast-util-from-markdown) sees them,
 * found with markdown-it's block parser (docs/spec.md, "Blocks and targets").
 *
 * markdown-it ('commonmark' preset) runs its own block rules, except where it reads CommonMark
 * differently from micromark; there its rules are replaced or wrapped to read as micromark does,
 * with ports of micromark's constructs from src/core/markdown-syntax.ts:
 *
 * - `content` replaces `paragraph`, `lheading` and `reference`: like micromark, it takes the lines
 *   a paragraph would take (micromark's "content"), reads link reference definitions off their
 *   start, and makes the rest a paragraph, or a setext heading under an underline.
 * - `html_block` uses micromark's start and end conditions; `blockquote` and `list` are
 *   markdown-it's, with micromark's indentation, interruption and blank-line rules; lazy lines
 *   and the lines after indented code are read with micromark's document tokenizer's flags.
 * - Inline (top-level heading text only): emphasis (micromark's runs, character classes and rule
 *   of three), links and images (label, destination, title and reference rules), autolinks, raw
 *   HTML.
 *
 * The text of a heading is what mdast-util-to-string gives for it (text, code, raw HTML, image
 * descriptions; a hard break gives nothing). test/markdown-differential.test.ts holds the two
 * parsers side by side.
 */

import MarkdownIt from "markdown-it";
import type { Env, MarkdownIt as Parser, StateBlock, StateInline, Token } from "markdown-it";
import {
  classifyCharacter,
  htmlFlowCloses,
  htmlFlowStart,
  normalizeIdentifier,
  scanAutolink,
  scanDefinition,
  scanHtmlText,
  scanLabel,
  type HtmlTextMemo,
  scanResource,
  type TabWidth,
} from "./markdown-syntax.js";

/** One top-level block: its start offset, and what the cut needs to know about it. */
export interface TopLevelBlock {
  /** UTF-16 offset into the text, where mdast's `position.start.offset` puts the block. */
  start: number;
  /** Set for a heading: its depth and its plain text (not yet collapsed). */
  heading?: { depth: number; text: string };
  /** Set for a raw HTML block: its value, the source it spans. */
  html?: string;
}

interface ParseEnv extends Env {
  /** Normalized identifiers of every link reference definition of the document. */
  defined: Set<string>;
  /** Tab widths for the content being parsed inline. */
  tabWidth: TabWidth;
  /** Whether the content being parsed inline had a NUL (now U+FFFD) at this position. */
  nulAt?: (pos: number) => boolean;
  /** `isDefined` answers, by label position. */
  labels?: Map<string, boolean>;
}

/**
 * Deepest nesting that is parsed, in markdown-it's token levels: block containers (a block quote
 * is one level, a list item two) and, in headings, links and images (one each). markdown-it
 * recurses once per level (the block limit keeps the stack safe; the inline one keeps bracket
 * soup linear); micromark has no limit. Deeper structure is not parsed further: the innermost
 * container takes the rest of its lines as they are, the innermost brackets are text.
 */
export const MAX_NESTING = { block: 1000, inline: 100 };

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

function createParser(maxNesting = MAX_NESTING.block): Parser {
  const parser = new MarkdownIt("commonmark", { maxNesting });
  const ruler = parser.block.ruler;
  ruler.at("paragraph", content);
  ruler.disable(["reference", "lheading"]);
  ruler.at("html_block", htmlBlock, { alt: ["paragraph", "reference", "blockquote"] });
  // Wrapping needs the rules' functions: markdown-it 15 keeps them in `__rules__` (marked internal).
  for (const rule of ruler.__rules__) {
    if (rule.name === "blockquote") rule.fn = blockquote;
    if (rule.name === "list") rule.fn = list;
    if (rule.name === "code") rule.fn = codeRule(rule.fn);
    if (["fence", "blockquote", "hr", "list", "html_block", "heading"].includes(rule.name)) rule.fn = lazyAware(rule.fn, rule.name === "list");
  }
  ruler.__cache__ = null;
  const tokenize = parser.block.tokenize.bind(parser.block);
  parser.block.tokenize = (state, startLine, endLine) => {
    const framed = state as Framed;
    const outer = framed.frame;
    if (outer === undefined || state.parentType === "blockquote") framed.frame = { indents: [0], parent: outer };
    else if (state.parentType === "list") framed.frame = { indents: [...outer.indents, state.blkIndent], parent: outer };
    try {
      tokenize(state, startLine, endLine);
    } finally {
      framed.frame = outer;
    }
  };
  parser.inline.ruler.at("emphasis", attention);
  parser.inline.ruler2.disable(["balance_pairs", "emphasis"]);
  parser.inline.ruler2.before("fragments_join", "attention", resolveAttention);
  parser.inline.ruler.at("link", link);
  parser.inline.ruler.at("image", image);
  parser.inline.ruler.at("autolink", autolink);
  parser.inline.ruler.at("html_inline", htmlInline);
  return parser;
}

const md = createParser();
/** Without block quotes and lists: see `topLevelBlocks`. */
const mdWithoutContainers = createParser();
mdWithoutContainers.block.ruler.disable(["blockquote", "list"]);

/**
 * Block tokens as plain objects: markdown-it's Token class defines each of its fields with
 * `Object.defineProperty` (its build's class fields), which was a fifth of the parse. The block
 * rules only set fields on tokens, never call their methods.
 */
class LightStateBlock extends md.block.State {
  override push(type: string, tag: string, nesting: -1 | 0 | 1): Token {
    if (nesting < 0) this.level--;
    const token = { type, tag, attrs: null, map: null, nesting, level: this.level, children: null, content: "", markup: "", info: "", meta: null, block: true, hidden: false };
    if (nesting > 0) this.level++;
    this.tokens.push(token as unknown as Token);
    return token as unknown as Token;
  }
}
md.block.State = LightStateBlock;
mdWithoutContainers.block.State = LightStateBlock;

/** micromark's emphasis flanking: each side classified one UTF-16 code unit at a time, the text beyond a link's brackets included. */
class MicromarkStateInline extends md.inline.State {
  override scanDelims(start: number, canSplitWord: boolean) {
    const src = this.src;
    const marker = src.charCodeAt(start);
    let pos = start;
    while (pos < this.posMax && src.charCodeAt(pos) === marker) pos++;
    const before = classifyCharacter(start > 0 ? src.charCodeAt(start - 1) : Number.NaN);
    const after = classifyCharacter(pos < src.length ? src.charCodeAt(pos) : Number.NaN);
    const open = after === 0 || (after === 2 && before !== 0);
    const close = before === 0 || (before === 2 && after !== 0);
    return {
      can_open: canSplitWord ? open : open && (before !== 0 || !close),
      can_close: canSplitWord ? close : close && (after !== 0 || !open),
      length: pos - start,
    };
  }
}
/** The inline parser of heading text (only its inline rules are used). */
const mdInline = createParser(MAX_NESTING.inline);
mdInline.inline.State = MicromarkStateInline;

/**
 * One call of the block tokenizer: the content indents of the list items it is in, since the
 * innermost block quote (whose content starts a new column count): `indents[0]` is 0, then one
 * per list item.
 */
interface Frame {
  indents: number[];
  parent: Frame | undefined;
}

/**
 * A block state that also knows its frame, which line micromark reads as interrupting (and in
 * which frame), and for lazy lines of block quotes (whose `sCount` markdown-it sets to -1) their
 * indent measured from the innermost container they continue.
 */
type Framed = StateBlock & { frame?: Frame; interrupt?: { line: number; frame: Frame | undefined }; lazyIndent?: number[] };

/** The content indent of the innermost container that a line indented `indent` columns continues (list items end where a line is indented less than their content). */
function continuedIndent(state: StateBlock, indent: number): number {
  const indents = (state as Framed).frame?.indents ?? [0];
  let index = indents.length - 1;
  while (index > 0 && indents[index]! > indent) index--;
  return indents[index]!;
}

/** A lazy line's indent, measured from the innermost container it continues. */
function lazyIndent(state: StateBlock, line: number): number {
  const indent = state.sCount[line]!;
  return indent >= 0 ? indent - continuedIndent(state, indent) : ((state as Framed).lazyIndent?.[line] ?? 0);
}

/**
 * A lazy line (one indented less than the list item it would continue) is measured, for whether it
 * starts a block, from the innermost container it does continue, as micromark measures it (its
 * line prefix after the container prefixes that matched); markdown-it measures it from the list
 * item's content (so that `100. a` then `    # b` makes a heading of `# b`, where micromark keeps
 * it in the paragraph). The list rule keeps markdown-it's column (it tells lazy lines apart by it)
 * and only gets the 4-column test.
 */
function lazyAware(rule: BlockRule, list: boolean): BlockRule {
  return (state, startLine, endLine, silent) => {
    const indent = state.sCount[startLine]!;
    if (!silent || indent >= state.blkIndent) return rule(state, startLine, endLine, silent);
    if (lazyIndent(state, startLine) >= 4) return false;
    if (list || indent < 0) return rule(state, startLine, endLine, silent);
    const continued = continuedIndent(state, indent);
    const blkIndent = state.blkIndent;
    state.blkIndent = continued;
    try {
      return rule(state, startLine, endLine, silent);
    } finally {
      state.blkIndent = blkIndent;
    }
  };
}

/**
 * Lines that micromark's document tokenizer reads "interrupting": every open container continues
 * on them and the flow inside is still in a construct, a paragraph (or link reference
 * definitions) that the line ends, or an indented code block waiting for more indented lines
 * (over blank lines). A list item started there must be able to interrupt a paragraph (an ordered
 * one numbered 1, not empty), and so must every list item started on the same line inside the
 * containers opened there (micromark keeps the flag for the whole line): `a` then `> - ` is a block
 * quote holding the paragraph `-`. The frame is the one of the flow that was interrupted.
 */
function markInterrupt(state: StateBlock, line: number): void {
  (state as Framed).interrupt = { line, frame: (state as Framed).frame };
}

/** Whether a list item starting on `line` is read as interrupting (see `markInterrupt`). */
function interrupting(state: StateBlock, line: number): boolean {
  const interrupt = (state as Framed).interrupt;
  if (interrupt?.line !== line) return false;
  // Only in the frame that was interrupted, or in the containers opened inside it on this line.
  for (let frame = (state as Framed).frame; frame !== undefined; frame = frame.parent) if (frame === interrupt.frame) return true;
  return false;
}

/** markdown-it's code rule, noting the line after the block as interrupting (see `markInterrupt`) unless the block started on a lazy line. */
function codeRule(rule: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    if (!rule(state, startLine, endLine, silent)) return false;
    const code = state.tokens[state.tokens.length - 1]!;
    if (!(startsLazily(state, state.tokens.length - 1, startLine) && !hasSecondLine(state, code))) markInterrupt(state, state.skipEmptyLines(state.line));
    return true;
  };
}

/**
 * Whether the block at `state.tokens[index]` (starting at `line`) starts on a lazy line: right
 * after a block quote (which a blank line ends), or after a list and any blank lines (which list
 * items continue over).
 */
function startsLazily(state: StateBlock, index: number, line: number): boolean {
  const tokens = state.tokens;
  const level = tokens[index]!.level;
  for (let i = index - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.level < level) return false;
    if (token.level === level && token.nesting !== -1) {
      if (token.type === "blockquote_open") return line > 0 && !state.isEmpty(line - 1);
      return token.type === "bullet_list_open" || token.type === "ordered_list_open";
    }
  }
  return false;
}

/** Whether an indented code block has a non-blank line after its first. */
function hasSecondLine(state: StateBlock, code: Token): boolean {
  for (let line = code.map![0] + 1; line < code.map![1]; line++) if (!state.isEmpty(line)) return true;
  return false;
}

/**
 * The top-level blocks of `body` (which starts at `offset` in the artifact's text), in document
 * order: micromark's children of the root, front matter excluded.
 *
 * `containers: false` reads the body without block quotes and lists, as micromark does after a
 * front matter fence that is never closed: the document tokenizer takes every line for the
 * still-open front matter (a "concrete" construct, inside which no container may start), and
 * when the front matter fails at the end of the file only the flow is tokenized again.
 */
export function topLevelBlocks(body: string, offset: number, containers = true): TopLevelBlock[] {
  const parser = containers ? md : mdWithoutContainers;
  if (body.length === 0) return [];
  const hasCr = body.includes("\r");
  let src = hasCr ? body.replace(/\r\n?/g, "\n") : body;
  const withNul = src.includes("\0") ? src : undefined;
  if (withNul !== undefined) src = src.replace(/\0/g, "\uFFFD");
  const env: ParseEnv = { defined: new Set(), tabWidth: () => 4 };
  const tokens: Token[] = [];
  const state = new parser.block.State(src, parser, env, tokens);
  parser.block.tokenize(state, state.line, state.lineMax);

  // Where each normalized line starts in the body (only differs when the body has CR line endings).
  let lineStarts: number[] | undefined;
  if (hasCr) {
    lineStarts = [0];
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && body.charCodeAt(i + 1) !== 0x0a)) lineStarts.push(i + 1);
    }
  }
  const position = (line: number, column: number) => offset + (lineStarts ? lineStarts[line]! : state.bMarks[line]!) + column;

  const blocks: TopLevelBlock[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.level !== 0 || token.nesting === -1) continue;
    const line = token.map![0];
    switch (token.type) {
      case "code_block": {
        blocks.push({ start: position(line, 0) });
        // micromark ends an indented code block after its first line when that line closed a block quote or list (a "lazy" line: its
        // code-indented construct asks whether the current line, not the next, is lazy); the lines after it make a block of their own.
        if (startsLazily(state, i, line)) {
          for (let next = line + 1; next < token.map![1]; next++) {
            if (!state.isEmpty(next)) {
              blocks.push({ start: position(next, 0) });
              break;
            }
          }
        }
        break;
      }
      case "html_block": {
        const meta = token.meta as { kind: number; closed: boolean };
        const last = token.map![1] - 1;
        const start = position(line, 0);
        const end = meta.kind <= 5 && !meta.closed ? offset + body.length : position(last, state.eMarks[last]! - state.bMarks[last]!);
        blocks.push({ start, html: body.slice(start - offset, end - offset) });
        break;
      }
      case "heading_open": {
        const inline = tokens[i + 1]!;
        const text = headingText(inline.content, state, token, withNul);
        blocks.push({ start: position(line, state.tShift[line]!), heading: { depth: Number(token.tag.slice(1)), text } });
        break;
      }
      default:
        blocks.push({ start: position(line, state.tShift[line]!) });
    }
  }
  return blocks;
}

/** The plain text of a top-level heading's inline content, as mdast-util-to-string gives it. */
function headingText(content: string, state: StateBlock, open: Token, withNul: string | undefined): string {
  if (content.length === 0) return "";
  // The visual column where the content starts, for the width of its tabs (micromark's label size).
  const line = (open.meta as { contentLine?: number } | null)?.contentLine ?? open.map![0];
  const src = state.src;
  let start = state.bMarks[line]! + state.tShift[line]!;
  if (open.markup.charCodeAt(0) === 0x23) {
    while (src.charCodeAt(start) === 0x23) start++;
    while (src.charCodeAt(start) === 0x20 || src.charCodeAt(start) === 0x09) start++;
  }
  const firstColumn = visualColumn(src, state.bMarks[line]!, start, 0);
  // The content is a slice of the source (a top-level heading has no container prefixes): content[i] is src[start + i].
  const env: ParseEnv = {
    nulAt: withNul === undefined ? undefined : (pos) => withNul.charCodeAt(start + pos) === 0,
    defined: (state.env as ParseEnv).defined,
    tabWidth: (pos) => {
      const lineStart = content.lastIndexOf("\n", pos - 1) + 1;
      return 4 - (visualColumn(content, lineStart, pos, lineStart === 0 ? firstColumn : 0) % 4);
    },
  };
  const children: Token[] = [];
  mdInline.inline.parse(content, mdInline, env, children);
  return plainText(children);
}

function visualColumn(src: string, from: number, to: number, column: number): number {
  for (let i = from; i < to; i++) column = src.charCodeAt(i) === 0x09 ? column + 4 - (column % 4) : column + 1;
  return column;
}

/** mdast-util-to-string over markdown-it's inline tokens. */
function plainText(tokens: Token[]): string {
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
        text += plainText(token.children ?? []);
        break;
    }
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Block rules

/**
 * micromark's "content": the lines of a paragraph (up to a blank line, a line that interrupts a
 * paragraph, or a setext underline; indented and lazy lines continue it), read as link reference
 * definitions for as long as they parse, the rest a paragraph, or a setext heading when an
 * underline closes the lines. A setext heading starts where the content starts (its definitions
 * included), as in micromark.
 */
function content(state: StateBlock, startLine: number, endLine: number): boolean {
  const terminators = state.md.block.ruler.getRules("paragraph");
  const oldParentType = state.parentType;
  state.parentType = "paragraph";
  let nextLine = startLine + 1;
  let level = 0;
  let lazyHtml = false;
  for (; nextLine < endLine && !state.isEmpty(nextLine); nextLine++) {
    const indent = state.sCount[nextLine]!;
    if (indent - state.blkIndent > 3) continue;
    if (indent < state.blkIndent) {
      // A lazy line: measured from the innermost container it continues.
      if (lazyIndent(state, nextLine) >= 4) continue;
      if (startsLazyHtml(state, nextLine)) {
        lazyHtml = true;
        break;
      }
    } else {
      let pos = state.bMarks[nextLine]! + state.tShift[nextLine]!;
      const max = state.eMarks[nextLine]!;
      const marker = state.src.charCodeAt(pos);
      if (marker === 0x2d || marker === 0x3d) {
        pos = state.skipSpaces(state.skipChars(pos, marker));
        if (pos >= max) {
          level = marker === 0x3d ? 1 : 2;
          break;
        }
      }
    }
    if (state.sCount[nextLine]! < 0) continue;
    let terminate = false;
    for (const rule of terminators) {
      if (rule(state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    }
    if (terminate) {
      if (indent >= state.blkIndent) markInterrupt(state, nextLine);
      break;
    }
  }
  state.parentType = oldParentType;

  const first = state.src.charCodeAt(state.bMarks[startLine]! + state.tShift[startLine]!) === 0x5b ? definitions(state, startLine, nextLine) : startLine;
  if (first >= nextLine) {
    // Only definitions: an underline after them is not one, and is read afresh (as interrupting them).
    state.line = nextLine;
    if (level > 0) markInterrupt(state, nextLine);
  } else if (level > 0) {
    state.line = nextLine + 1;
    const open = state.push("heading_open", `h${level}`, 1);
    open.markup = level === 1 ? "=" : "-";
    open.map = [startLine, state.line];
    if (first !== startLine) open.meta = { contentLine: first };
    const inline = state.push("inline", "", 0);
    inline.map = [first, nextLine];
    inline.children = [];
    // Only top-level headings are read inline.
    if (state.level === 1) inline.content = asciiTrim(state.getLines(first, nextLine, state.blkIndent, false));
    state.push("heading_close", `h${level}`, -1).markup = open.markup;
  } else {
    state.line = nextLine;
    state.push("paragraph_open", "p", 1).map = [first, nextLine];
    const inline = state.push("inline", "", 0);
    inline.map = [first, nextLine];
    inline.children = [];
    state.push("paragraph_close", "p", -1);
  }
  if (lazyHtml && state.eMarks[nextLine]! < state.src.length) {
    // The HTML block stays in the containers whose paragraph it ended, up to a blank or lazy line.
    let end = nextLine + 1;
    while (end < endLine && !state.isEmpty(end) && state.sCount[end]! >= state.blkIndent) end++;
    const token = state.push("html_block", "", 0);
    token.map = [nextLine, end];
    token.meta = { kind: 7, closed: false };
    state.line = end;
  }
  return true;
}

/**
 * Whether the lazy line `line` (one that does not continue every open container) starts an HTML
 * block of kind 7. micromark lets such a block interrupt the paragraph the line would otherwise
 * continue (its htmlFlow allows kind 7 to interrupt exactly on lazy lines), and keeps the block in
 * the paragraph's containers, unless the line is the last one and has no line ending.
 */
function startsLazyHtml(state: StateBlock, line: number): boolean {
  const pos = state.bMarks[line]! + state.tShift[line]!;
  return state.src.charCodeAt(pos) === 0x3c && htmlFlowStart(state.src, pos, state.eMarks[line]!)?.kind === 7;
}

/** Reads link reference definitions off the start of the content lines [startLine, endLine); returns the first line after them. */
function definitions(state: StateBlock, startLine: number, endLine: number): number {
  // The content as micromark sees it: container prefixes and the block's indent removed, except on lazy lines.
  const lines: string[] = [];
  const starts: number[] = [];
  let length = 0;
  for (let line = startLine; line < endLine; line++) {
    let text: string;
    if (line === startLine) text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
    else if (state.sCount[line]! < state.blkIndent) text = state.src.slice(state.bMarks[line], state.eMarks[line]);
    else text = state.getLines(line, line + 1, state.blkIndent, false);
    starts.push(length);
    lines.push(text);
    length += text.length + 1;
  }
  const chunk = lines.join("\n");
  const rawLineStart = (index: number) => state.src.lastIndexOf("\n", state.bMarks[startLine + index]! - 1) + 1;
  const tabWidth: TabWidth = (pos) => {
    let index = starts.length - 1;
    while (starts[index]! > pos) index--;
    // The tab's visual column in its source line.
    const line = startLine + index;
    const lineEnd = state.eMarks[line]!;
    const srcPos = lineEnd - (lines[index]!.length - (pos - starts[index]!));
    const column = visualColumn(state.src, rawLineStart(index), srcPos, 0);
    return 4 - (column % 4);
  };
  const env = state.env as ParseEnv;
  let index = 0;
  let pos = 0;
  while (index < lines.length && chunk.charCodeAt(pos) === 0x5b) {
    const definition = scanDefinition(chunk, pos, chunk.length, tabWidth);
    if (definition === undefined) break;
    let last = index;
    while (last + 1 < starts.length && starts[last + 1]! <= definition.end) last++;
    const token = state.push("definition", "", 0);
    token.map = [startLine + index, startLine + last + 1];
    env.defined.add(definition.identifier);
    index = last + 1;
    if (index >= lines.length) break;
    pos = starts[index]!;
    while (chunk.charCodeAt(pos) === 0x20 || chunk.charCodeAt(pos) === 0x09) pos++;
  }
  return startLine + index;
}

function asciiTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiTrimmable(text.charCodeAt(start))) start++;
  while (end > start && isAsciiTrimmable(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isAsciiTrimmable(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** markdown-it's html_block with micromark's start and end conditions (its token's meta holds the kind and whether it was closed). */
function htmlBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const pos = state.bMarks[startLine]! + state.tShift[startLine]!;
  const max = state.eMarks[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (state.src.charCodeAt(pos) !== 0x3c) return false;
  const start = htmlFlowStart(state.src, pos, max);
  if (start === undefined) return false;
  const kind = start.kind;
  if (silent) return kind !== 7;
  let nextLine = startLine + 1;
  let closed = false;
  if (kind <= 5) {
    closed = htmlFlowCloses(kind, state.src, start.after, max, true);
    for (; !closed && nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine]! < state.blkIndent && !state.isEmpty(nextLine)) break;
      closed = htmlFlowCloses(kind, state.src, state.bMarks[nextLine]! + state.tShift[nextLine]!, state.eMarks[nextLine]!, false);
    }
  } else {
    for (; nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine]! < state.blkIndent || state.isEmpty(nextLine)) break;
    }
  }
  state.line = nextLine;
  const token = state.push("html_block", "", 0);
  token.map = [startLine, nextLine];
  token.meta = { kind, closed };
  return true;
}

// ---------------------------------------------------------------------------------------------
// Inline rules (heading text)

/** micromark `attention`: a run of `*` or `_` is one text token and one delimiter (markdown-it makes one per character). */
function attention(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const marker = state.src.charCodeAt(start);
  if (silent || (marker !== 0x5f && marker !== 0x2a)) return false;
  const scanned = state.scanDelims(start, marker === 0x2a);
  state.push("text", "", 0).content = state.src.slice(start, start + scanned.length);
  const delimiter: Run = { marker, length: scanned.length, token: state.tokens.length - 1, end: -1, open: scanned.can_open, close: scanned.can_close };
  if ((state.env as ParseEnv).nulAt?.(start + scanned.length)) delimiter.nulAfter = true;
  state.delimiters.push(delimiter);
  state.pos += scanned.length;
  return true;
}

interface Run {
  marker: number;
  length: number;
  token: number;
  end: number;
  open: boolean;
  close: boolean;
  nulAfter?: boolean;
}

/**
 * micromark's attention resolver, for the text only: which marker characters make emphasis (and
 * are not text). Closers left to right, each matched with the nearest opener before it, runs in
 * between dropped; micromark applies the rule of three to what is left of the two runs (CommonMark
 * says the runs' lengths). A run followed by a NUL that was used as an opener, and not all used,
 * keeps as text all the characters it had before (micromark's slice of that text runs up to the
 * replaced NUL).
 */
function resolveAttention(state: StateInline): void {
  resolveRuns(state, state.delimiters as Run[]);
  for (const meta of state.tokens_meta) if (meta?.delimiters) resolveRuns(state, meta.delimiters as Run[]);
}

function resolveRuns(state: StateInline, runs: Run[]): void {
  if (runs.length === 0) return;
  const size = runs.map((run) => run.length);
  const dropped = new Uint8Array(runs.length);
  const asOpener = new Uint8Array(runs.length);
  const asCloser = new Uint8Array(runs.length);
  for (let index = 0; index < runs.length; index++) {
    const closer = runs[index]!;
    if (!closer.close) continue;
    while (size[index]! > 0) {
      let open = index - 1;
      for (; open >= 0; open--) {
        const opener = runs[open]!;
        if (dropped[open] || size[open] === 0 || !opener.open || opener.marker !== closer.marker) continue;
        if ((opener.close || closer.open) && size[index]! % 3 && !((size[open]! + size[index]!) % 3)) continue;
        break;
      }
      if (open < 0) break;
      const use = size[open]! > 1 && size[index]! > 1 ? 2 : 1;
      size[open]! -= use;
      size[index]! -= use;
      asOpener[open] = 1;
      asCloser[index]! += use;
      for (let between = open + 1; between < index; between++) dropped[between] = 1;
    }
  }
  for (let index = 0; index < runs.length; index++) {
    const run = runs[index]!;
    const left = run.nulAfter && asOpener[index] && size[index]! > 0 ? run.length - asCloser[index]! : size[index]!;
    state.tokens[run.token]!.content = String.fromCharCode(run.marker).repeat(left);
  }
}

/** micromark label-end: what follows `]` makes a link (or image) or not; returns the end of the link, or -1. */
function labelEnd(state: StateInline, labelStart: number, end: number): number {
  const src = state.src;
  const max = state.posMax;
  const env = state.env as ParseEnv;
  const defined = isDefined(env, src, labelStart, end);
  const after = end + 1;
  const c = after < max ? src.charCodeAt(after) : -1;
  if (c === 0x28) {
    const resource = scanResource(src, after, max);
    return resource >= 0 ? resource : defined ? after : -1;
  }
  if (c === 0x5b) {
    const reference = scanLabel(src, after, max, env.tabWidth);
    if (reference >= 0 && isDefined(env, src, after + 1, reference - 1)) return reference;
    if (!defined) return -1;
    return after + 1 < max && src.charCodeAt(after + 1) === 0x5d ? after + 2 : -1;
  }
  return defined ? after : -1;
}

/** Whether the label `src[start, end)` matches a definition (remembered per heading: nested brackets ask again and again). */
function isDefined(env: ParseEnv, src: string, start: number, end: number): boolean {
  if (env.defined.size === 0) return false;
  const key = `${start}:${end}`;
  const cache = (env.labels ??= new Map<string, boolean>());
  let defined = cache.get(key);
  if (defined === undefined) cache.set(key, (defined = env.defined.has(normalizeIdentifier(src.slice(start, end)))));
  return defined;
}

function link(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x5b) return false;
  const max = state.posMax;
  const end = state.md.helpers.parseLinkLabel(state, start, true);
  if (end < 0) return false;
  const after = labelEnd(state, start + 1, end);
  if (after < 0) return false;
  if (!silent) {
    state.pos = start + 1;
    state.posMax = end;
    state.push("link_open", "a", 1);
    state.linkLevel++;
    state.md.inline.tokenize(state);
    state.linkLevel--;
    state.push("link_close", "a", -1);
  }
  state.pos = after;
  state.posMax = max;
  return true;
}

function image(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x21 || state.src.charCodeAt(start + 1) !== 0x5b) return false;
  const end = state.md.helpers.parseLinkLabel(state, start + 1, false);
  if (end < 0) return false;
  const after = labelEnd(state, start + 2, end);
  if (after < 0) return false;
  if (!silent) {
    // The description is parsed in place (not as a string of its own), so that emphasis sees the brackets around it, as in micromark.
    const children: Token[] = [];
    const inner = new state.md.inline.State(state.src, state.md, state.env, children);
    inner.pos = start + 2;
    inner.posMax = end;
    inner.level = state.level + 1;
    state.md.inline.tokenize(inner);
    for (const rule of state.md.inline.ruler2.getRules("")) rule(inner);
    state.push("image", "img", 0).children = children;
  }
  state.pos = after;
  return true;
}

function autolink(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x3c) return false;
  const end = scanAutolink(state.src, start, state.posMax);
  if (end < 0) return false;
  if (!silent) {
    state.push("link_open", "a", 1);
    state.push("text", "", 0).content = state.src.slice(start + 1, end - 1);
    state.push("link_close", "a", -1);
  }
  state.pos = end;
  return true;
}

function htmlInline(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x3c) return false;
  const memoized = state as StateInline & { htmlMemo?: HtmlTextMemo };
  const end = scanHtmlText(state.src, start, state.posMax, (memoized.htmlMemo ??= {}));
  if (end < 0) return false;
  if (!silent) state.push("html_inline", "", 0).content = state.src.slice(start, end);
  state.pos = end;
  return true;
}

// ---------------------------------------------------------------------------------------------
// markdown-it's blockquote rule (markdown-it 15, MIT), with one change: a line continues the block
// quote only when its `>` is indented less than 4 columns (markdown-it takes a `>` after any
// indentation; for micromark, as for CommonMark, `    > b` is not a block quote marker).

function blockquote(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  let pos = state.bMarks[startLine]! + state.tShift[startLine]!;
  let max = state.eMarks[startLine]!;
  const oldLineMax = state.lineMax;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (state.src.charCodeAt(pos) !== 0x3e) return false;
  if (silent) return true;
  const oldBMarks: number[] = [];
  const oldBSCount: number[] = [];
  const oldSCount: number[] = [];
  const oldTShift: number[] = [];
  const terminatorRules = state.md.block.ruler.getRules("blockquote");
  const oldParentType = state.parentType;
  state.parentType = "blockquote";
  let lastLineEmpty = false;
  let nextLine: number;
  for (nextLine = startLine; nextLine < endLine; nextLine++) {
    const isOutdented = state.sCount[nextLine]! < state.blkIndent;
    pos = state.bMarks[nextLine]! + state.tShift[nextLine]!;
    max = state.eMarks[nextLine]!;
    if (pos >= max) break;
    if (state.src.charCodeAt(pos++) === 0x3e && !isOutdented && state.sCount[nextLine]! - state.blkIndent < 4) {
      let initial = state.sCount[nextLine]! + 1;
      let spaceAfterMarker: boolean;
      let adjustTab = false;
      if (state.src.charCodeAt(pos) === 0x20) {
        pos++;
        initial++;
        spaceAfterMarker = true;
      } else if (state.src.charCodeAt(pos) === 0x09) {
        spaceAfterMarker = true;
        if ((state.bsCount[nextLine]! + initial) % 4 === 3) {
          pos++;
          initial++;
        } else adjustTab = true;
      } else spaceAfterMarker = false;
      let offset = initial;
      oldBMarks.push(state.bMarks[nextLine]!);
      state.bMarks[nextLine] = pos;
      while (pos < max) {
        const ch = state.src.charCodeAt(pos);
        if (ch === 0x20 || ch === 0x09) {
          if (ch === 0x09) offset += 4 - ((offset + state.bsCount[nextLine]! + (adjustTab ? 1 : 0)) % 4);
          else offset++;
        } else break;
        pos++;
      }
      lastLineEmpty = pos >= max;
      oldBSCount.push(state.bsCount[nextLine]!);
      state.bsCount[nextLine] = state.sCount[nextLine]! + 1 + (spaceAfterMarker ? 1 : 0);
      oldSCount.push(state.sCount[nextLine]!);
      state.sCount[nextLine] = offset - initial;
      oldTShift.push(state.tShift[nextLine]!);
      state.tShift[nextLine] = pos - state.bMarks[nextLine]!;
      continue;
    }
    if (lastLineEmpty) break;
    let terminate = false;
    for (const rule of terminatorRules) {
      if (rule(state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    }
    if (terminate) {
      state.lineMax = nextLine;
      if (state.blkIndent !== 0) {
        oldBMarks.push(state.bMarks[nextLine]!);
        oldBSCount.push(state.bsCount[nextLine]!);
        oldTShift.push(state.tShift[nextLine]!);
        oldSCount.push(state.sCount[nextLine]!);
        state.sCount[nextLine] = state.sCount[nextLine]! - state.blkIndent;
      }
      break;
    }
    oldBMarks.push(state.bMarks[nextLine]!);
    oldBSCount.push(state.bsCount[nextLine]!);
    oldTShift.push(state.tShift[nextLine]!);
    oldSCount.push(state.sCount[nextLine]!);
    ((state as Framed).lazyIndent ??= [])[nextLine] = lazyIndent(state, nextLine);
    state.sCount[nextLine] = -1;
  }
  const oldIndent = state.blkIndent;
  state.blkIndent = 0;
  const open = state.push("blockquote_open", "blockquote", 1);
  open.markup = ">";
  const lines: [number, number] = [startLine, 0];
  open.map = lines;
  state.md.block.tokenize(state, startLine, nextLine);
  state.push("blockquote_close", "blockquote", -1).markup = ">";
  state.lineMax = oldLineMax;
  state.parentType = oldParentType;
  lines[1] = state.line;
  for (let i = 0; i < oldTShift.length; i++) {
    state.bMarks[i + startLine] = oldBMarks[i]!;
    state.tShift[i + startLine] = oldTShift[i]!;
    state.sCount[i + startLine] = oldSCount[i]!;
    state.bsCount[i + startLine] = oldBSCount[i]!;
  }
  state.blkIndent = oldIndent;
  return true;
}

// ---------------------------------------------------------------------------------------------
// markdown-it's list rule (markdown-it 15, MIT), with two changes: an item started on a line
// micromark reads as interrupting must be able to interrupt a paragraph (see `markInterrupt`),
// and after an empty item the list goes on over any number of blank lines (markdown-it stops at
// the second one), as list items do in micromark.

function skipBulletListMarker(state: StateBlock, line: number): number {
  const max = state.eMarks[line]!;
  let pos = state.bMarks[line]! + state.tShift[line]!;
  const marker = state.src.charCodeAt(pos++);
  if (marker !== 0x2a && marker !== 0x2d && marker !== 0x2b) return -1;
  if (pos < max && !isSpaceOrTab(state.src.charCodeAt(pos))) return -1;
  return pos;
}

function skipOrderedListMarker(state: StateBlock, line: number): number {
  const start = state.bMarks[line]! + state.tShift[line]!;
  const max = state.eMarks[line]!;
  let pos = start;
  if (pos + 1 >= max) return -1;
  let ch = state.src.charCodeAt(pos++);
  if (ch < 0x30 || ch > 0x39) return -1;
  for (;;) {
    if (pos >= max) return -1;
    ch = state.src.charCodeAt(pos++);
    if (ch >= 0x30 && ch <= 0x39) {
      if (pos - start >= 10) return -1;
      continue;
    }
    if (ch === 0x29 || ch === 0x2e) break;
    return -1;
  }
  if (pos < max && !isSpaceOrTab(state.src.charCodeAt(pos))) return -1;
  return pos;
}

function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

function list(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  let nextLine = startLine;
  if (state.sCount[nextLine]! - state.blkIndent >= 4) return false;
  if (state.listIndent >= 0 && state.sCount[nextLine]! - state.listIndent >= 4 && state.sCount[nextLine]! < state.blkIndent) return false;
  const isTerminatingParagraph = (silent && state.parentType === "paragraph" && state.sCount[nextLine]! >= state.blkIndent) || (!silent && interrupting(state, nextLine));
  let isOrdered: boolean;
  let markerValue = 0;
  let posAfterMarker: number;
  let start = 0;
  if ((posAfterMarker = skipOrderedListMarker(state, nextLine)) >= 0) {
    isOrdered = true;
    start = state.bMarks[nextLine]! + state.tShift[nextLine]!;
    markerValue = Number(state.src.slice(start, posAfterMarker - 1));
    if (isTerminatingParagraph && markerValue !== 1) return false;
  } else if ((posAfterMarker = skipBulletListMarker(state, nextLine)) >= 0) isOrdered = false;
  else return false;
  if (isTerminatingParagraph && state.skipSpaces(posAfterMarker) >= state.eMarks[nextLine]!) return false;
  if (silent) return true;
  const markerCharCode = state.src.charCodeAt(posAfterMarker - 1);
  const open = state.push(isOrdered ? "ordered_list_open" : "bullet_list_open", isOrdered ? "ol" : "ul", 1);
  const listLines: [number, number] = [nextLine, 0];
  open.map = listLines;
  open.markup = String.fromCharCode(markerCharCode);
  const terminatorRules = state.md.block.ruler.getRules("list");
  const oldParentType = state.parentType;
  state.parentType = "list";
  while (nextLine < endLine) {
    let pos = posAfterMarker;
    const max = state.eMarks[nextLine]!;
    const initial = state.sCount[nextLine]! + posAfterMarker - (state.bMarks[nextLine]! + state.tShift[nextLine]!);
    let offset = initial;
    while (pos < max) {
      const ch = state.src.charCodeAt(pos);
      if (ch === 0x09) offset += 4 - ((offset + state.bsCount[nextLine]!) % 4);
      else if (ch === 0x20) offset++;
      else break;
      pos++;
    }
    const contentStart = pos;
    let indentAfterMarker = contentStart >= max ? 1 : offset - initial;
    if (indentAfterMarker > 4) indentAfterMarker = 1;
    const indent = initial + indentAfterMarker;
    const item = state.push("list_item_open", "li", 1);
    item.markup = String.fromCharCode(markerCharCode);
    const itemLines: [number, number] = [nextLine, 0];
    item.map = itemLines;
    const oldTight = state.tight;
    const oldTShift = state.tShift[nextLine]!;
    const oldSCount = state.sCount[nextLine]!;
    const oldListIndent = state.listIndent;
    state.listIndent = state.blkIndent;
    state.blkIndent = indent;
    state.tight = true;
    state.tShift[nextLine] = contentStart - state.bMarks[nextLine]!;
    state.sCount[nextLine] = offset;
    if (contentStart >= max && state.isEmpty(nextLine + 1)) state.line = Math.min(state.skipEmptyLines(state.line + 2), endLine);
    else state.md.block.tokenize(state, nextLine, endLine);
    state.blkIndent = state.listIndent;
    state.listIndent = oldListIndent;
    state.tShift[nextLine] = oldTShift;
    state.sCount[nextLine] = oldSCount;
    state.tight = oldTight;
    state.push("list_item_close", "li", -1).markup = String.fromCharCode(markerCharCode);
    nextLine = state.line;
    itemLines[1] = nextLine;
    if (nextLine >= endLine) break;
    if (state.sCount[nextLine]! < state.blkIndent) break;
    if (state.sCount[nextLine]! - state.blkIndent >= 4) break;
    let terminate = false;
    for (const rule of terminatorRules) {
      if (rule(state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    }
    if (terminate) break;
    if (isOrdered) {
      posAfterMarker = skipOrderedListMarker(state, nextLine);
      if (posAfterMarker < 0) break;
      start = state.bMarks[nextLine]! + state.tShift[nextLine]!;
    } else {
      posAfterMarker = skipBulletListMarker(state, nextLine);
      if (posAfterMarker < 0) break;
    }
    if (markerCharCode !== state.src.charCodeAt(posAfterMarker - 1)) break;
  }
  state.push(isOrdered ? "ordered_list_close" : "bullet_list_close", isOrdered ? "ol" : "ul", -1).markup = String.fromCharCode(markerCharCode);
  listLines[1] = nextLine;
  state.line = nextLine;
  state.parentType = oldParentType;
  return true;
}
