/**
 * The leaf blocks of a top-level block (docs/spec.md, "Units below the heading"): in a dataset with units, block
 * indices count leaf blocks (paragraphs, headings, code blocks, HTML blocks, thematic breaks, link reference
 * definitions) in document order, with lists, list items and block quotes opened. A list item or block quote with no
 * leaf block in it counts as one. Each leaf carries what the units need: where its first line starts (and its number),
 * that line's text, the containers it stands in, and, for the first leaf of a list item on the item's marker line, the marker.
 */

import type { Token } from "markdown-it";

/** One leaf block. */
export interface Leaf {
  /** Offset into the artifact's text of the start of the leaf's first line (its marker line for a list item's first). */
  lineStart: number;
  /** That line's number in the text the body was read from (its line endings as CommonMark's: LF, CR LF, CR). */
  line: number;
  /** The first line of its text, leading white space removed: a paragraph's or an indented code block's; else "". */
  text: string;
  /** The list items and block quotes it stands in, outermost first, each by a number unique in the artifact. */
  chain: readonly number[];
  /** Set when the leaf is its list item's first, on the item's marker line (or stands for an empty item). */
  item: { id: number; ordered: boolean; marker: string } | undefined;
  /** Set for an indented code block: text printed indented below a label (units.ts, `closesAtText`). */
  indented: true | undefined;
}

/** Numbers the containers of one artifact. */
export interface ContainerCounter {
  next: number;
}

/** Whether a block token of this type is a leaf block (a switch: read for every token of a dataset with units). */
function isLeafType(type: string): boolean {
  switch (type) {
    case "paragraph_open":
    case "heading_open":
    case "code_block":
    case "fence":
    case "html_block":
    case "hr":
    case "reference_definition":
      return true;
    default:
      return false;
  }
}

/** An open list item or block quote: its id, first line, the leaf count at its opening, and for an item its marker. */
interface OpenContainer {
  id: number;
  line: number;
  leaves: number;
  item: { ordered: boolean; marker: string } | undefined;
}

/**
 * The leaf blocks of one top-level block's tokens, in order; `lineStart(line)` gives the artifact offset of a line of
 * the piece the tokens were read from.
 */
export function leavesOf(
  tokens: Token[],
  lineStart: (line: number) => number,
  counter: ContainerCounter,
  lineBase = 0,
): Leaf[] {
  const leaves: Leaf[] = [];
  const chain: number[] = [];
  /** `chain` as the leaves hold it: one array for the leaves of one chain, made again only when the chain changes. */
  let held: readonly number[] = [];
  let heldValid = true;
  const heldChain = () => {
    if (!heldValid) {
      held = chain.slice();
      heldValid = true;
    }
    return held;
  };
  /** Open containers: their id, first line, the leaf count at their opening, and for an item its marker. */
  const open: OpenContainer[] = [];
  /** Whether each open list is ordered, innermost last. */
  const ordered: boolean[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.type;
    if (type === "bullet_list_open" || type === "ordered_list_open") {
      ordered.push(type === "ordered_list_open");
    } else if (type === "bullet_list_close" || type === "ordered_list_close") {
      ordered.pop();
    } else if (type === "list_item_open" || type === "blockquote_open") {
      const id = counter.next++;
      const isItem = type === "list_item_open";
      const isOrdered = isItem && ordered[ordered.length - 1] === true;
      open.push({
        id,
        line: token.map![0],
        leaves: leaves.length,
        item: isItem ? { ordered: isOrdered, marker: isOrdered ? token.info + token.markup : token.markup } : undefined,
      });
      chain.push(id);
      heldValid = false;
    } else if (type === "list_item_close" || type === "blockquote_close") {
      const container = open.pop()!;
      chain.pop();
      heldValid = false;
      // An empty item or quote counts as one leaf, so that every block has at least one.
      if (leaves.length === container.leaves)
        leaves.push({
          lineStart: lineStart(container.line),
          line: lineBase + container.line,
          text: "",
          chain: [...chain, container.id],
          item: itemOf(container),
          indented: undefined,
        });
    } else if (isLeafType(type)) {
      const line = token.map![0];
      const text =
        type === "paragraph_open"
          ? firstLine(tokens[i + 1]!.content)
          : type === "code_block"
            ? firstLine(token.content).trimStart()
            : "";
      const container = open.length > 0 ? open[open.length - 1] : undefined;
      // Every leaf of one shape (all members set), for the unit cut's reads of them.
      leaves.push({
        lineStart: lineStart(line),
        line: lineBase + line,
        text,
        chain: heldChain(),
        item:
          container !== undefined && container.leaves === leaves.length && container.line === line
            ? itemOf(container)
            : undefined,
        indented: type === "code_block" ? true : undefined,
      });
    }
  }
  return leaves;
}

/** A leaf's `item` for the first leaf of a container: set when the container is a list item. */
function itemOf(container: OpenContainer): Leaf["item"] {
  const item = container.item;
  return item === undefined ? undefined : { id: container.id, ordered: item.ordered, marker: item.marker };
}

function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return end === -1 ? text : text.slice(0, end);
}
