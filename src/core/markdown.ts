/**
 * Parsing an artifact and cutting its body into targets (docs/spec.md, "Blocks and targets").
 * CommonMark 0.31.2 with YAML front matter, with micromark (mdast-util-from-markdown) as the
 * reference semantics: the top-level blocks come from markdown-it's block parser made to agree
 * with micromark (src/core/markdown-blocks.ts; test/markdown-differential.test.ts compares the
 * two), the front matter is found as micromark-extension-frontmatter finds it (src/core/front-matter.ts)
 * and parsed with `yaml`, so that a broken one is reported, not silently cut into the body.
 */

import { parseDocument, visit } from "yaml";

/** Caps on reading an artifact (docs/spec.md, section 13). */
export interface ArtifactLimits {
  /** The most YAML aliases a front matter may hold (default 1000). */
  maxYamlAliases?: number;
}

export const DEFAULT_MAX_YAML_ALIASES = 1000;
import { findFrontMatter, type FrontMatter } from "./front-matter.js";
import type { IndexKind } from "./manifest.js";
import { topLevelBlocks, type TopLevelBlock } from "./markdown-blocks.js";

export interface TargetCut {
  /** Offsets into the artifact text: markdown = text.slice(start, end). */
  start: number;
  end: number;
  blockStart: number;
  blockEnd: number;
  /** The heading that opens the target; undefined for the text before the first heading. */
  heading?: { text: string; depth: number };
}

export interface ParsedArtifact {
  /** Offset where the body starts (after the front matter and its line ending). */
  bodyStart: number;
  body: string;
  /** Number of top-level blocks of the body under the index kind. */
  blockCount: number;
  targets: TargetCut[];
  /** Plain text of the first heading of the body, if any. */
  firstHeading: string | undefined;
}

/** Thrown for an artifact that cannot be cut: its front matter is not valid YAML. */
export class ArtifactError extends Error {
  override name = "ArtifactError";
}

/** The plain text of a heading (its inline content's text, as mdast-util-to-string gives it): white space collapsed, trimmed. */
export function headingPlainText(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/**
 * Whether `text` opens front matter at `from` (a line `---`, spaces or tabs, a line ending). When
 * such a fence is never closed, micromark's document tokenizer has taken every line for the still
 * open front matter (a "concrete" construct, inside which no container may start) by the time it
 * fails at the end of the file, and only the flow is tokenized again: the document has no block
 * quotes and no lists.
 */
function opensFrontMatter(text: string, from: number): boolean {
  if (!text.startsWith("---", from)) return false;
  let pos = from + 3;
  while (text.charCodeAt(pos) === 0x20 || text.charCodeAt(pos) === 0x09) pos++;
  return text[pos] === "\n" || text[pos] === "\r";
}

interface Block {
  start: number;
  heading: { depth: number; text: string } | undefined;
}

/** An artifact read into its front matter and the top-level blocks of its body. */
export interface ArtifactBlocks {
  frontMatter: FrontMatter | undefined;
  /** Offset where the body starts (after the front matter and its line ending). */
  bodyStart: number;
  /** The top-level blocks of the body, offsets into the whole text. */
  blocks: TopLevelBlock[];
}

/**
 * Reads `text` as CommonMark with YAML front matter: the front matter (which must be valid YAML,
 * else `ArtifactError`) and the top-level blocks of the body, as micromark reads them.
 */
export function readArtifact(text: string, options: ArtifactLimits = {}): ArtifactBlocks {
  // A leading byte order mark is not markdown (micromark drops it): it stays in the text, before the front matter or the first target.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const frontMatter = findFrontMatter(text, shift);
  if (frontMatter) {
    // micromark reads NUL as U+FFFD
    const yaml = parseDocument(frontMatter.value.replace(/\0/g, "\uFFFD"));
    if (yaml.errors.length > 0) {
      const error = yaml.errors[0]!;
      const line = (error.linePos?.[0]?.line ?? 0) + 1; // +1 for the opening "---"
      throw new ArtifactError(`front matter is not valid YAML (line ${line}): ${error.message.split("\n")[0]}`);
    }
    // Aliases are never expanded (the front matter is only checked), so an alias bomb cannot blow up memory; their number is capped all the same, since each costs parse time.
    const maxAliases = options.maxYamlAliases ?? DEFAULT_MAX_YAML_ALIASES;
    let aliases = 0;
    visit(yaml, {
      Alias() {
        aliases++;
        return aliases > maxAliases ? visit.BREAK : undefined;
      },
    });
    if (aliases > maxAliases) throw new ArtifactError(`front matter has more than ${maxAliases} YAML aliases, the cap (raise it with --max-yaml-aliases)`);
  }
  const bodyStart = frontMatter?.bodyStart ?? 0;
  const parseFrom = frontMatter ? bodyStart : shift;
  const containers = frontMatter !== undefined || !opensFrontMatter(text, shift);
  return { frontMatter, bodyStart, blocks: topLevelBlocks(text.slice(parseFrom), parseFrom, containers) };
}

/** Parses `text` as CommonMark with YAML front matter and cuts its body into targets. */
export function parseArtifact(text: string, indexKind: IndexKind = "body-block", options: ArtifactLimits = {}): ParsedArtifact {
  const { bodyStart, blocks: nodes } = readArtifact(text, options);
  const blocks = indexKind === "body-div" ? divBlocks(nodes) : nodes.map((node) => ({ start: node.start, heading: node.heading }));
  const targets: TargetCut[] = [];
  blocks.forEach((block, index) => {
    if (block.heading === undefined && targets.length > 0) return;
    const cut: TargetCut = { start: targets.length === 0 ? bodyStart : block.start, end: text.length, blockStart: index, blockEnd: blocks.length };
    if (block.heading) cut.heading = { text: headingPlainText(block.heading.text), depth: block.heading.depth };
    const previous = targets[targets.length - 1];
    if (previous) {
      previous.end = cut.start;
      previous.blockEnd = index;
    }
    targets.push(cut);
  });
  if (targets.length === 0) targets.push({ start: bodyStart, end: text.length, blockStart: 0, blockEnd: 0 });
  const firstHeading = targets.find((t) => t.heading)?.heading?.text;
  return { bodyStart, body: text.slice(bodyStart), blockCount: blocks.length, targets, firstHeading };
}

const DIV_OPEN = /<div(?=[\s>/])/gi;
const DIV_CLOSE = /<\/div\s*>/gi;

/**
 * body-div blocks: a top-level HTML block that opens a `<div>` starts a block that runs to the
 * top-level HTML block closing it (nested divs counted), with every block between; any other
 * top-level block outside a div is a block of its own. A div block is a heading block when one of
 * its top-level blocks is a heading; the first such heading is the target's heading.
 */
function divBlocks(nodes: TopLevelBlock[]): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  let depth = 0;
  for (const node of nodes) {
    if (open === undefined) {
      const balance = node.html === undefined ? 0 : divBalance(node.html);
      if (balance > 0) {
        open = { start: node.start, heading: undefined };
        depth = balance;
        blocks.push(open);
      } else {
        blocks.push({ start: node.start, heading: node.heading });
      }
      continue;
    }
    if (node.heading && open.heading === undefined) open.heading = node.heading;
    if (node.html !== undefined) depth += divBalance(node.html);
    if (depth <= 0) {
      open = undefined;
      depth = 0;
    }
  }
  return blocks;
}

function divBalance(html: string): number {
  return (html.match(DIV_OPEN)?.length ?? 0) - (html.match(DIV_CLOSE)?.length ?? 0);
}
