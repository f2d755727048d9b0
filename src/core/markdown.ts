/**
 * Parsing an artifact and cutting its body into targets (docs/spec.md, "Blocks and targets").
 * CommonMark via mdast-util-from-markdown (micromark) with YAML front matter; the front matter is
 * parsed with `yaml` so that a broken one is reported, not silently cut into the body.
 */

import type { Heading, Html, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { toString } from "mdast-util-to-string";
import { frontmatter } from "micromark-extension-frontmatter";
import { parseDocument } from "yaml";
import type { IndexKind } from "./manifest.js";

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

/** The plain text of a heading: markup removed, whitespace collapsed, trimmed. */
export function headingPlainText(heading: Heading): string {
  return toString(heading).replace(/\s+/gu, " ").trim();
}

const PARSE_OPTIONS = { extensions: [frontmatter(["yaml"])], mdastExtensions: [frontmatterFromMarkdown(["yaml"])] };

interface Block {
  start: number;
  heading: Heading | undefined;
}

/** Parses `text` as CommonMark with YAML front matter and cuts its body into targets. */
export function parseArtifact(text: string, indexKind: IndexKind = "body-block"): ParsedArtifact {
  // micromark drops a leading byte order mark and counts offsets without it: parse without it, shift back.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const tree: Root = fromMarkdown(shift ? text.slice(1) : text, PARSE_OPTIONS);
  const offset = (node: { position?: { start: { offset?: number }; end: { offset?: number } } }, at: "start" | "end") => node.position![at].offset! + shift;
  let bodyStart = 0;
  let nodes = tree.children;
  const first = nodes[0];
  if (first?.type === "yaml") {
    const yaml = parseDocument(first.value);
    if (yaml.errors.length > 0) {
      const error = yaml.errors[0]!;
      const line = (error.linePos?.[0]?.line ?? 0) + 1; // +1 for the opening "---"
      throw new ArtifactError(`front matter is not valid YAML (line ${line}): ${error.message.split("\n")[0]}`);
    }
    bodyStart = offset(first, "end");
    if (text.startsWith("\r\n", bodyStart)) bodyStart += 2;
    else if (text[bodyStart] === "\n" || text[bodyStart] === "\r") bodyStart += 1;
    nodes = nodes.slice(1);
  }
  const blocks = indexKind === "body-div" ? divBlocks(nodes, shift) : nodes.map((node) => ({ start: offset(node, "start"), heading: node.type === "heading" ? node : undefined }));
  const targets: TargetCut[] = [];
  blocks.forEach((block, index) => {
    if (block.heading === undefined && targets.length > 0) return;
    const cut: TargetCut = { start: targets.length === 0 ? bodyStart : block.start, end: text.length, blockStart: index, blockEnd: blocks.length };
    if (block.heading) cut.heading = { text: headingPlainText(block.heading), depth: block.heading.depth };
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
function divBlocks(nodes: RootContent[], shift: number): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  let depth = 0;
  for (const node of nodes) {
    const start = node.position!.start.offset! + shift;
    if (open === undefined) {
      const balance = node.type === "html" ? divBalance(node) : 0;
      if (balance > 0) {
        open = { start, heading: undefined };
        depth = balance;
        blocks.push(open);
      } else {
        blocks.push({ start, heading: node.type === "heading" ? node : undefined });
      }
      continue;
    }
    if (node.type === "heading" && open.heading === undefined) open.heading = node;
    if (node.type === "html") depth += divBalance(node);
    if (depth <= 0) {
      open = undefined;
      depth = 0;
    }
  }
  return blocks;
}

function divBalance(node: Html): number {
  return (node.value.match(DIV_OPEN)?.length ?? 0) - (node.value.match(DIV_CLOSE)?.length ?? 0);
}
