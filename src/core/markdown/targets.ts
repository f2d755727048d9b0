/**
 * Parsing an artifact and cutting its body into targets (docs/spec.md, "Blocks and targets").
 * CommonMark 0.31.2 as markdown-it reads it (src/core/markdown/parser.ts), with YAML front matter
 * found by src/core/markdown/front-matter.ts and parsed with `yaml`, so that a broken one is reported, not
 * silently cut into the body. The top-level blocks come one at a time from
 * src/core/markdown/blocks.ts; heading texts from src/core/markdown/heading-text.ts.
 * test/markdown-differential.test.ts compares the result with micromark and with markdown-it's
 * full parse.
 */

import { type Document, isScalar, LineCounter, parseDocument, visit, type YAMLError } from "yaml";
import { isSimpleYamlMap } from "./simple-yaml.js";
import { findFrontMatter, type FrontMatter } from "./front-matter.js";
import type { IndexKind } from "../model.js";
import { type BlockScan, scanTopLevelBlocks, type TopLevelBlock } from "./blocks.js";
import type { ContainerCounter, Leaf } from "./leaves.js";
import type { UnitCut } from "./units.js";
import { collapseWhiteSpace, headingText, targetHeadingText } from "./heading-text.js";
import {
  ArtifactError,
  type ArtifactLimits,
  DEFAULT_MAX_HEADING_LENGTH,
  DEFAULT_MAX_FRONT_MATTER_BYTES,
  DEFAULT_MAX_HEADINGS,
  DEFAULT_MAX_YAML_ALIASES,
} from "./limits.js";
import { utf8ByteLength } from "../bytes.js";

export interface TargetCut {
  /** Offsets into the artifact text: markdown = text.slice(start, end). */
  start: number;
  end: number;
  blockStart: number;
  blockEnd: number;
  /** The heading that opens the target, its text as `headingText` reads it; undefined for the text before the first heading. */
  heading?: { text: string; depth: number };
}

export interface ParsedArtifact {
  /** Offset where the body starts (after the front matter and its line ending). */
  bodyStart: number;
  body: string;
  /** Number of top-level blocks of the body under the index kind. */
  blockCount: number;
  targets: TargetCut[];
  /** The text of the first heading of the body (as `headingText` reads it), if any. */
  firstHeading: string | undefined;
  /**
   * The artifact's text's length, when `body` is not held (an artifact parsed in another thread, its targets made here:
   * src/node/generate/staged-parse.ts); else `bodyStart` plus the body's length is.
   */
  characters?: number;
  /**
   * The targets' local coordinates, when made where the artifact was parsed (assignLocalCoordinates, in the worker of
   * src/node/generate/staged-parse.ts); else made from the targets' headings when the targets are.
   */
  locals?: string[];
  /**
   * The units below each target (cutUnits; undefined for a target that has none to cut), when cut where the artifact
   * was parsed (the worker of src/node/generate/staged-parse.ts); else cut from `leaves` when the targets are made.
   */
  unitCuts?: (UnitCut[] | undefined)[];
  /**
   * Set when parsed for a dataset with units: the body's leaf blocks in order; block indices (`blockStart`,
   * `blockEnd`, `blockCount`) then count them.
   */
  leaves?: Leaf[];
}

/** The plain text of a heading as a target carries it: white space collapsed, trimmed. */
export const headingPlainText = collapseWhiteSpace;

/**
 * Whether `text` opens front matter at `from` (a line `---`, spaces or tabs, a line ending). When
 * such a fence is never closed, the body is read without block quotes and lists (docs/spec.md,
 * "Front matter").
 */
function opensFrontMatter(text: string, from: number): boolean {
  if (!text.startsWith("---", from)) return false;
  let pos = from + 3;
  while (text.charCodeAt(pos) === 0x20 || text.charCodeAt(pos) === 0x09) pos++;
  return text[pos] === "\n" || text[pos] === "\r";
}

/** A top-level block with its heading's text (not yet collapsed). */
export interface ReadBlock {
  start: number;
  heading?: { depth: number; text: string };
  html?: string;
  definition?: true;
}

/** An artifact read into its front matter and the top-level blocks of its body. */
export interface ArtifactBlocks {
  frontMatter: FrontMatter | undefined;
  /** Offset where the body starts (after the front matter and its line ending). */
  bodyStart: number;
  /** The top-level blocks of the body, offsets into the whole text. */
  blocks: ReadBlock[];
}

/**
 * Refuses a front matter over the cap (ArtifactError), before it is parsed: the YAML parser holds a few hundred bytes
 * per byte of it.
 */
export function checkFrontMatterSize(value: string, cap = DEFAULT_MAX_FRONT_MATTER_BYTES): void {
  if (value.length <= cap / 3) return; // at most three bytes per UTF-16 code unit: below the cap without counting
  const bytes = utf8ByteLength(value);
  if (bytes > cap)
    throw new ArtifactError(
      `front matter of ${bytes} bytes, more than ${cap}, the cap (raise it with --max-front-matter-bytes)`,
    );
}

/**
 * The first key of a YAML map that repeats an earlier key of the same map (YAML 1.2: keys are unique; scalars compared
 * by value, as the parser's own check does), with its line (1-based in `source`) and the parser's words; found with one
 * set per map, in linear time.
 */
export function duplicateKey(document: Document, source: string): { line: number; message: string } | undefined {
  let found: { line: number; message: string } | undefined;
  visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue; // a collection as a key is a key of its own
        if (seen.has(pair.key.value)) {
          const offset = pair.key.range?.[0] ?? 0;
          let line = 1;
          let lineStart = 0;
          for (let i = source.indexOf("\n"); i !== -1 && i < offset; i = source.indexOf("\n", i + 1)) {
            line++;
            lineStart = i + 1;
          }
          found = { line, message: `Map keys must be unique at line ${line}, column ${offset - lineStart + 1}:` };
          return visit.BREAK;
        }
        seen.add(pair.key.value);
      }
      return undefined;
    },
  });
  return found;
}

/**
 * The first line of the message the YAML parser gives an error when it makes errors pretty: its message, then where it
 * is (` at line L, column C`), then a colon when the parser would show the line under it. It shows the line (its end
 * of line left out) cut to about 80 characters, with the line before when only spaces come before the column on a line
 * after the first; it shows it when what it shows holds a character other than a space: a line longer than 80 (cut,
 * it holds an ellipsis), one with any other character, or one after the first with only spaces before the column (the
 * line before ends with its line break). Made for the first error only; `test/front-matter-errors.test.ts` holds it to
 * the parser's own, on generated YAML.
 */
export function firstErrorMessage(
  error: YAMLError,
  source: string,
  lines: LineCounter,
): { line: number; message: string } {
  if (error.pos[0] === -1) return { line: 0, message: error.message.split("\n")[0]! };
  const { line, col } = lines.linePos(error.pos[0]);
  const start = lines.lineStarts[line - 1] ?? 0;
  let end = lines.lineStarts[line] ?? source.length;
  while (end > start && (source[end - 1] === "\n" || source[end - 1] === "\r")) end--;
  const text = source.slice(start, end);
  const shown = text.length > 80 || /[^ ]/.test(text) || (line > 1 && /^ *$/.test(text.slice(0, col - 1)));
  return { line, message: `${error.message.split("\n")[0]!} at line ${line}, column ${col}${shown ? ":" : ""}` };
}

/**
 * Runs `parse` (the YAML parser) with no stack trace recorded for an Error made meanwhile: the parser makes an Error of
 * each error it finds, and each would record a stack trace, for a front matter of thousands of errors.
 */
export function withoutStackTraces<T>(parse: () => T): T {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parse();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** The front matter of `text` (checked to be YAML, else `ArtifactError`), and where its body is parsed from. */
function readFrontMatter(
  text: string,
  options: ArtifactLimits,
): { frontMatter: FrontMatter | undefined; bodyStart: number; parseFrom: number; containers: boolean } {
  // A leading byte order mark is not markdown: it stays in the text, before the front matter or the first target.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const frontMatter = findFrontMatter(text, shift);
  if (frontMatter) checkFrontMatterSize(frontMatter.value, options.maxFrontMatterBytes);
  if (frontMatter && !isSimpleYamlMap(frontMatter.value)) {
    // NUL reads as U+FFFD, as in the body
    // Keys are checked unique here, in linear time (the parser's own check compares each key with every earlier one of
    // its map: 0.5 MB of front matter took five times as long as 0.25 MB).
    const source = frontMatter.value.replace(/\0/g, "\uFFFD");
    // The errors are not made pretty by the parser: it cuts the line of each error out of the text and trims it with a
    // regular expression, time linear in the line for every error, so that 128 KB of `]` on one line took 99 s and
    // 355 MB. Only the first is said, made here (firstErrorMessage).
    const lines = new LineCounter();
    const yaml = withoutStackTraces(() =>
      parseDocument(source, { uniqueKeys: false, prettyErrors: false, lineCounter: lines }),
    );
    const duplicate = yaml.errors.length === 0 ? duplicateKey(yaml, source) : undefined;
    if (yaml.errors.length > 0 || duplicate !== undefined) {
      const error = duplicate ?? firstErrorMessage(yaml.errors[0]!, source, lines);
      throw new ArtifactError(`front matter is not valid YAML (line ${error.line + 1}): ${error.message}`); // +1 for the opening "---"
    }
    // Aliases are never expanded (the front matter is only checked), so an alias bomb cannot blow up memory; their
    // number is capped all the same, since each costs parse time.
    const maxAliases = options.maxYamlAliases ?? DEFAULT_MAX_YAML_ALIASES;
    let aliases = 0;
    visit(yaml, {
      Alias() {
        aliases++;
        return aliases > maxAliases ? visit.BREAK : undefined;
      },
    });
    if (aliases > maxAliases)
      throw new ArtifactError(
        `front matter has more than ${maxAliases} YAML aliases, the cap (raise it with --max-yaml-aliases)`,
      );
  }
  const bodyStart = frontMatter?.bodyStart ?? 0;
  return {
    frontMatter,
    bodyStart,
    parseFrom: frontMatter ? bodyStart : shift,
    containers: frontMatter !== undefined || !opensFrontMatter(text, shift),
  };
}

/**
 * Scans the body of `text` for its top-level blocks, calling `visit` with each (a heading longer than the cap is
 * refused).
 */
function scanBody(
  text: string,
  read: { parseFrom: number; containers: boolean },
  options: ArtifactLimits,
  visit: (block: TopLevelBlock) => void,
  pieceLength?: number,
  leaves?: ContainerCounter,
  plain = false,
): BlockScan {
  const maxLength = options.maxHeadingLength ?? DEFAULT_MAX_HEADING_LENGTH;
  const checked = (block: TopLevelBlock) => {
    if (block.heading !== undefined && block.heading.content.length > maxLength) {
      throw new ArtifactError(
        `the heading at offset ${block.start} is longer than ${maxLength} characters, the cap on heading length (raise it with --max-heading-length)`,
      );
    }
    visit(block);
  };
  return scanTopLevelBlocks(
    text.slice(read.parseFrom),
    read.parseFrom,
    read.containers,
    checked,
    pieceLength,
    leaves,
    plain,
  );
}

/**
 * Reads `text` as CommonMark with YAML front matter: the front matter (which must be valid YAML,
 * else `ArtifactError`) and every top-level block of the body (held together: for tests and tools,
 * `parseArtifact` streams them). `pieceLength` is for tests: see src/core/markdown/blocks.ts.
 */
export function readArtifact(text: string, options: ArtifactLimits = {}, pieceLength?: number): ArtifactBlocks {
  const read = readFrontMatter(text, options);
  const blocks: TopLevelBlock[] = [];
  const { references } = scanBody(text, read, options, (block) => blocks.push(block), pieceLength);
  return {
    frontMatter: read.frontMatter,
    bodyStart: read.bodyStart,
    blocks: blocks.map(({ start, heading, html, definition }) => {
      const block: ReadBlock = { start };
      if (heading) block.heading = { depth: heading.depth, text: headingText(heading.content, references) };
      if (html !== undefined) block.html = html;
      if (definition) block.definition = definition;
      return block;
    }),
  };
}

/**
 * Parses `text` as CommonMark with YAML front matter and cuts its body into targets, block by block as the parser finds
 * them. `units`: the dataset has units below the heading, so block indices count leaf blocks and the leaves are kept
 * (docs/spec.md, "Units below the heading").
 */
export function parseArtifact(
  text: string,
  indexKind: IndexKind = "body-block",
  options: ArtifactLimits = {},
  units = false,
): ParsedArtifact {
  return parseArtifactKnown(text, indexKind, options, units, false);
}

/**
 * parseArtifact, for a caller that knows the text holds no CR and no NUL (`plain`: parseArtifactBytes searched its
 * bytes), whose pieces are then not searched for them again. Not in the library's API: `plain` said of a text that holds
 * one would cut it wrongly.
 */
export function parseArtifactKnown(
  text: string,
  indexKind: IndexKind,
  options: ArtifactLimits,
  units: boolean,
  plain: boolean,
): ParsedArtifact {
  const read = readFrontMatter(text, options);
  const maxHeadings = options.maxHeadings ?? DEFAULT_MAX_HEADINGS;
  const targets: TargetCut[] = [];
  /** The heading of each target that has one, until the body's link reference definitions are all known. */
  const headings: { target: TargetCut; depth: number; content: string }[] = [];
  let blockCount = 0;
  const leaves: Leaf[] | undefined = units ? [] : undefined;
  const cut = (start: number, heading: TopLevelBlock["heading"], size: number) => {
    const index = blockCount;
    blockCount += size;
    if (heading === undefined && targets.length > 0) return;
    if (heading !== undefined && headings.length === maxHeadings) {
      throw new ArtifactError(
        `the body has more than ${maxHeadings} headings, the cap on headings per artifact (raise it with --max-headings)`,
      );
    }
    const target: TargetCut = {
      start: targets.length === 0 ? read.bodyStart : start,
      end: text.length,
      blockStart: index,
      blockEnd: index + size,
    };
    const previous = targets.length > 0 ? targets[targets.length - 1] : undefined;
    if (previous) {
      previous.end = target.start;
      previous.blockEnd = index;
    }
    targets.push(target);
    if (heading !== undefined) headings.push({ target, depth: heading.depth, content: heading.content });
  };
  const sizeOf = (block: TopLevelBlock) => {
    if (leaves === undefined) return 1;
    for (const leaf of block.leaves!) leaves.push(leaf);
    return block.leaves!.length;
  };
  const visit =
    indexKind === "body-div"
      ? divBlocks(cut, sizeOf, leaves !== undefined)
      : (block: TopLevelBlock | undefined) => block && cut(block.start, block.heading, sizeOf(block));
  const { references } = scanBody(text, read, options, visit, undefined, units ? { next: 0 } : undefined, plain);
  visit(undefined);
  const last = targets[targets.length - 1];
  if (last) last.blockEnd = blockCount;
  else targets.push({ start: read.bodyStart, end: text.length, blockStart: 0, blockEnd: 0 });
  // A heading may use a definition that comes after it: the texts are read once the whole body is.
  for (const { target, depth, content } of headings)
    target.heading = { text: targetHeadingText(content, references), depth };
  return {
    bodyStart: read.bodyStart,
    body: text.slice(read.bodyStart),
    blockCount,
    targets,
    firstHeading: headings[0]?.target.heading?.text,
    ...(leaves !== undefined ? { leaves } : {}),
  };
}

const DIV_OPEN = /<div(?=[\s>/])/gi;
const DIV_CLOSE = /<\/div\s*>/gi;

/**
 * body-div blocks, from the top-level blocks one at a time: a top-level HTML block that opens a
 * `<div>` starts a block that runs to the top-level HTML block closing it (nested divs counted),
 * with every block between; any other top-level block outside a div is a block of its own. A div
 * block is a heading block when one of its top-level blocks is a heading; the first such heading
 * is the target's heading. Each block goes to `cut` once it is whole (a div block when it closes,
 * or at the end of the body, which the visitor is told by `undefined`).
 */
function divBlocks(
  cut: (start: number, heading: TopLevelBlock["heading"], size: number) => void,
  sizeOf: (block: TopLevelBlock) => number,
  counting: boolean,
): (block: TopLevelBlock | undefined) => void {
  let open: { start: number; heading: TopLevelBlock["heading"]; size: number } | undefined;
  let depth = 0;
  return (node) => {
    if (node === undefined) {
      if (open !== undefined) cut(open.start, open.heading, open.size);
      open = undefined;
      return;
    }
    if (open === undefined) {
      const balance = node.html === undefined ? 0 : divBalance(node.html);
      if (balance > 0) {
        open = { start: node.start, heading: undefined, size: sizeOf(node) };
        depth = balance;
      } else {
        cut(node.start, node.heading, sizeOf(node));
      }
      return;
    }
    // A div block is one block; in a dataset with units, as many as the leaf blocks of the blocks it spans.
    if (counting) open.size += sizeOf(node);
    if (node.heading && open.heading === undefined) open.heading = node.heading;
    if (node.html !== undefined) depth += divBalance(node.html);
    if (depth <= 0) {
      cut(open.start, open.heading, open.size);
      open = undefined;
      depth = 0;
    }
  };
}

function divBalance(html: string): number {
  return (html.match(DIV_OPEN)?.length ?? 0) - (html.match(DIV_CLOSE)?.length ?? 0);
}
