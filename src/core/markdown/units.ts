/**
 * The units below a heading (docs/spec.md, section 5, "Units below the heading"): the Absätze, Nummern, Buchstaben …
 * of a heading's body, read from its leaf blocks (leaves.ts) by the labels of unit-labels.ts, nested, and with the
 * text that no numbered unit holds made into positional units, so that on every level the units partition their
 * parent's body. Pure: the records are made in src/core/records/generate.ts.
 */

import { compareLabels, UNIT_KINDS, type UnitKind } from "../address/unit-labels.js";
import type { Leaf } from "./leaves.js";

/** One unit: a numbered one (with its kind and label) or a positional one (text that no numbered unit holds). */
export interface UnitCut {
  /** Its step of the address, appended to its parent's local with `/`: `abs-3a`, `nr-1~r2`, `_1`. */
  step: string;
  /** The printed designation (`(1)`, `1a.`, `a)`), or "" for a positional unit. */
  headingText: string;
  /** Leaf indices: [first, end). */
  first: number;
  end: number;
  /** Its depth below the heading: 1 for the heading's own units. */
  depth: number;
  /**
   * Its citationTargetId and textDigest, when made where it was cut (the worker of src/node/generate/staged-parse.ts);
   * else made with its record.
   */
  citationTargetId?: string;
  textDigest?: string;
}

/** A unit as it is read: its own leaves and its children, in order. */
interface Node {
  kind: UnitKind | undefined;
  label: string;
  printed: string;
  first: number;
  end: number;
  /** Own leaves and child units, in order: a number is a leaf index. */
  items: (number | Node)[];
  /** How the unit ends: with its list item (`item`: the item's container number), or at the next label of its rank. */
  item: number | undefined;
  /** For a unit that ends with its label: the containers it was printed in. */
  chain: readonly number[];
  /** Its depth in the chain of the item (for `item`). */
  itemDepth: number;
  hasChildren: boolean;
  /**
   * It holds only itself and the units below it: text after it is its parent's (its kind's `closesAtText`, or a list
   * item's unit taken up again by a paragraph label below it: cutUnits).
   */
  closesAtText: boolean;
}

function startsWith(chain: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > chain.length) return false;
  for (let i = 0; i < prefix.length; i++) if (chain[i] !== prefix[i]) return false;
  return true;
}

/** Whether `leaf` stands inside the open unit `node`. */
function holds(node: Node, leaf: Leaf): boolean {
  return node.item !== undefined ? leaf.chain[node.itemDepth] === node.item : startsWith(leaf.chain, node.chain);
}

/** The unit kind and label a leaf opens, given the innermost open unit. */
function labelOf(leaf: Leaf, parent: Node | undefined): { kind: UnitKind; printed: string; label: string } | undefined {
  const first = leaf.text.charCodeAt(0);
  const item = leaf.item;
  for (const kind of UNIT_KINDS) {
    if (kind.under !== undefined && parent?.kind?.prefix !== kind.under) continue;
    let read: ReturnType<UnitKind["read"]>;
    if (kind.place === "ordered-item") {
      if (item === undefined || !item.ordered) continue;
      read = kind.read(item.marker);
    } else if (kind.place === "bullet-item") {
      if (item === undefined || item.ordered) continue;
      read = kind.read(leaf.text);
    } else {
      if (item !== undefined || Number.isNaN(first)) continue;
      read = kind.read(leaf.text);
    }
    if (read !== undefined) return { kind, printed: read.printed, label: read.label };
  }
  return undefined;
}

/**
 * The units of a heading's body: the leaves `[first, end)` of the artifact's `leaves` (after the heading's own block).
 * Empty when the body holds no numbered unit. In pre-order: each unit before its children.
 */
export function cutUnits(leaves: readonly Leaf[], first: number, end: number): UnitCut[] {
  const root: Node = {
    kind: undefined,
    label: "",
    printed: "",
    first,
    end,
    items: [],
    item: undefined,
    chain: [],
    itemDepth: 0,
    hasChildren: false,
    closesAtText: false,
  };
  const open: Node[] = [];
  for (let i = first; i < end; i++) {
    const leaf = leaves[i]!;
    /** The outermost unit of a list item that ends at this leaf. */
    let closed: Node | undefined;
    while (open.length > 0 && !holds(open[open.length - 1]!, leaf)) {
      closed = open.pop()!;
      closed.end = i;
    }
    // Not `open[open.length - 1]` on an empty list: index -1 is a property name, looked up on the array and its
    // prototypes, and it makes the compiled load generic (bench/RESULTS.md, "Units").
    let top = open.length > 0 ? open[open.length - 1] : undefined;
    const found = leaf.text === "" && leaf.item === undefined ? undefined : labelOf(leaf, top);
    if (
      found !== undefined &&
      closed?.item !== undefined &&
      found.kind.place === "paragraph" &&
      found.kind.system === closed.kind!.system &&
      found.kind.rank > closed.kind!.rank
    ) {
      // A label printed as a paragraph right after a list item's unit, of a smaller unit than the item's (`a)` at the
      // start of the line after `1. Verträge über`): the item's unit goes on, as it would with the label indented inside
      // the item, holding the paragraph's units and ending at text (which is its parent's) or at a label of its rank.
      closed.item = undefined;
      closed.chain = leaf.chain;
      closed.end = end;
      closed.closesAtText = true;
      open.push(closed);
      top = closed;
    }
    if (found !== undefined) {
      // Units that end at a label of their rank or a smaller one end here.
      while (top !== undefined && top.item === undefined && top.kind!.rank >= found.kind.rank) {
        open.pop()!.end = i;
        top = open.length > 0 ? open[open.length - 1] : undefined;
      }
      // A label inside an item of its rank or a greater one is text of that item.
      if (top === undefined || top.kind!.rank < found.kind.rank) {
        const parent = top ?? root;
        const node: Node = {
          kind: found.kind,
          label: found.label,
          printed: found.printed,
          first: i,
          end,
          items: [i],
          item: leaf.item?.id,
          chain: leaf.chain,
          itemDepth: leaf.item === undefined ? 0 : leaf.chain.length - 1,
          hasChildren: false,
          closesAtText: found.kind.closesAtText === true,
        };
        parent.items.push(node);
        parent.hasChildren = true;
        open.push(node);
        continue;
      }
    }
    // Text after a unit that ends at text (a Buchstabe printed as a paragraph) is its parent's.
    // (Text printed indented below it, an indented code block, is its own: § 308 Nr. 1a BGB.)
    while (top !== undefined && top.item === undefined && top.closesAtText && leaf.indented !== true) {
      open.pop()!.end = i;
      top = open.length > 0 ? open[open.length - 1] : undefined;
    }
    (top ?? root).items.push(i);
  }
  while (open.length > 0) open.pop()!.end = end;
  const units: UnitCut[] = [];
  if (root.hasChildren) emit(root, 1, units);
  return units;
}

/** The children of `node` as units, each followed by its own: numbered ones by label, runs of text by position. */
function emit(node: Node, depth: number, units: UnitCut[]): void {
  /** Per kind prefix: the last label seen and the run it opened (a list that restarts opens a run). */
  const runs = new Map<string, { label: string; run: number }>();
  let positional = 0;
  let text: { first: number; end: number } | undefined;
  const flush = () => {
    if (text === undefined) return;
    units.push({ step: `_${++positional}`, headingText: "", first: text.first, end: text.end, depth });
    text = undefined;
  };
  for (const item of node.items) {
    if (typeof item === "number") {
      if (text === undefined) text = { first: item, end: item + 1 };
      else text.end = item + 1;
      continue;
    }
    flush();
    const kind = item.kind!;
    const last = runs.get(kind.prefix);
    const run = last === undefined ? 1 : compareLabels(kind, last.label, item.label) < 0 ? last.run : last.run + 1;
    runs.set(kind.prefix, { label: item.label, run });
    const step = `${kind.prefix}-${item.label}${run > 1 ? `~r${run}` : ""}`;
    units.push({ step, headingText: item.printed, first: item.first, end: item.end, depth });
    if (item.hasChildren) emit(item, depth + 1, units);
  }
  flush();
}
