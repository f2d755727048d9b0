/**
 * Markdown documents for the parser's tests: generated ones built from the hard cases, and the
 * view of a document the tests compare (front matter, body start, top-level blocks with heading
 * depths and texts and raw HTML values).
 */

import fc from "fast-check";
import { readArtifact } from "../../src/core/markdown/targets.js";

export interface BlockView {
  start: number;
  heading?: { depth: number; text: string };
  html?: string;
}

export type View = { error: string } | { frontMatter: string | undefined; bodyStart: number; blocks: BlockView[] };

/**
 * A raw HTML block's value as the tests compare it: the line endings and white space at its end do not count (they
 * never change a `<div>` count).
 */
export const htmlValue = (html: string) => html.replace(/\0/g, "\uFFFD").replace(/\s+$/u, "");

/** The heading text as a target carries it. */
export const collapsed = (text: string) => text.replace(/\s+/gu, " ").trim();

/** Our reading of `text` (`definitions: false` leaves link reference definitions out). */
export function ourView(text: string, definitions = true): View {
  const read = readArtifact(text);
  const blocks = read.blocks
    .filter((block) => definitions || !block.definition)
    .map((block) => {
      const view: BlockView = { start: block.start };
      if (block.heading) view.heading = { depth: block.heading.depth, text: collapsed(block.heading.text) };
      if (block.html !== undefined) view.html = htmlValue(block.html);
      return view;
    });
  return { frontMatter: read.frontMatter?.value.replace(/\0/g, "\uFFFD"), bodyStart: read.bodyStart, blocks };
}

export const escapeText = (text: string) =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

// Documents built from the hard cases: containers and lazy lines, code, HTML of all 7 kinds,
// setext headings (`-----` under a paragraph), definitions (used in headings), tabs, line
// endings, BOM and front matter, empty headings and headings of emphasis markers only.
const LINES = [
  ...[
    "# Heading",
    "## § 1 Titel",
    "#",
    "# #",
    "###### x ######",
    "####### no",
    "#\tTab",
    "Setext",
    "===",
    "---",
    "-----",
    "-",
    "- ",
    "***",
    "* * *",
    "___",
    "_ _ _",
  ],
  ...[
    "para text",
    "more *emph* and **strong**",
    "*",
    "**",
    "***",
    "_a_",
    "__",
    "***a",
    "*a**",
    "a*",
    "_",
    "# *",
    "# **",
    "## _ _",
    "# ***",
  ],
  ...[
    "[foo]",
    "[foo][]",
    "[foo][bar]",
    "[Foo Bar]",
    "[x]: /url",
    "[foo]: /u 'title'",
    "[foo]:",
    "/url",
    "'title'",
    '"t"',
    "(t)",
    "[bar]: <x y>",
    "[ba\\]r]: /u",
    "[\u00a0]: /u",
    "[a\tb]: /u",
    "# [foo] and [bar][]",
  ],
  ...[
    "- item",
    "* item",
    "+ item",
    "1. one",
    "2) two",
    "10. ten",
    "1.",
    "100. x",
    "  - nested",
    "    - deep",
    "   1. x",
    "     code?",
    "    indented",
    "\tindented",
    "  \tmixed",
    " \t x",
  ],
  ...["> quote", ">", "> > nested", ">\tq", "> - item", "> # h", "> ```", "    > not a quote", "lazy line"],
  ...["```", "```js", "~~~", "````", "``` ```", "code", "    ```"],
  ...[
    "<div>",
    "</div>",
    '<div class="x">',
    "<DIV>",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<style>",
    "<textarea>",
    "<!-- c",
    "-->",
    "<!-- x -->",
    "<?php",
    "?>",
    "<!DOCTYPE html>",
    "<![CDATA[",
    "]]>",
    "]]]>",
  ],
  ...[
    '<a href="x">',
    "<a>",
    "</a>",
    "<x-y>",
    "<a href=foo/>",
    "<a href=foo/bar>",
    "<x\u00a0y>",
    "<table><tr><td>x</td></tr></table>",
    "<div/>",
    "<custom-el attr=1>",
  ],
  ...[
    "`code`",
    "``",
    "` a `",
    "<http://x.y>",
    "<a!b@c.d>",
    "<foo@bar.com>",
    "![img](u)",
    '![*a*](u "t")',
    "[link](http://a (b(c)))",
    "&amp; &copy; &#35; &#x26; &bogus;",
    "\\*not\\*",
    "a  ",
    "b\\",
  ],
  ...[
    "&nbsp;x",
    "\u00a0",
    "😀 § ü",
    "nul\u0000x",
    "|a|b|",
    "|---|---|",
    "Begriff",
    ": Definition",
    "",
    "",
    "",
    "   ",
    "\t",
  ],
];
const lineEnding = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r");
const PREFIXES = ["", "", "", " ", "  ", "   ", "    ", "> ", "- ", "1. ", "\t"];
const frontMatter = fc.constantFrom(
  "",
  "",
  "---\ntitle: x\n---\n",
  "---\n---\n",
  "---\na: [\n---\n",
  "--- \r\nb: 1\r\n---\t\r\n",
  "---\nno close\n",
  "---\na: \u0000\n---\n",
);

const INLINE_PIECES = [
  ...[
    "*",
    "**",
    "_",
    "__",
    "***",
    "a",
    "b c",
    " ",
    "  ",
    "\t",
    "[",
    "]",
    "[foo]",
    "[Foo]",
    "[bar]",
    "[foo][]",
    "[foo][bar]",
    "[x][foo]",
    "[foo][ba[r]]",
    "[foo][bar",
    "![",
    "![foo]",
    "![a *b*](u)",
  ],
  ...[
    "](u)",
    "(u)",
    '(u "t")',
    "(<u v>)",
    "(u (t(x)))",
    "( u )",
    "[a](b\\)",
    "`",
    "``",
    "` ` ",
    "`a`",
    "<",
    ">",
    "<a>",
    "</a>",
    '<a href="x">',
    "<a b=c/d>",
    "<a\u00a0b>",
  ],
  ...[
    "<!-- c -->",
    "<!-->",
    "<?x?>",
    "<!X y>",
    "<![CDATA[ ]]]>",
    "<http://a.b>",
    "<a!b@c.d>",
    "<a@b.c>",
    "<ab:x\u007f>",
    "&amp;",
    "&nbsp;",
    "&#x41;",
    "&#0;",
    "&bogus;",
    "&ampx;",
  ],
  ...[
    "\\*",
    "\\[",
    "\\",
    "\\a",
    "§",
    "ü",
    "😀",
    "\u00a0",
    "\u2028",
    "\u3000",
    "!",
    ".",
    ",",
    '"',
    "'",
    "(",
    ")",
    "-",
    "\u0000",
    "\u00ad",
    "\u200b",
  ],
  ...["[\u00a0]", "[a\u00a0b]", "[a b]", "[ foo ]", "[FOO]", "[ẞ]", "[ß]", "[ss]"],
];
const DEFINITIONS = [
  "[foo]: /u",
  "[bar]: /v 'T'",
  "[a b]: /w",
  "[\u00a0]: /x",
  "[a\u00a0b]: /y",
  "[ẞ]: /z",
  "[ss]: /s",
  "[FOO]: /f",
  "[x]:\n/u",
  "[ba[r]]: /q",
];

/**
 * How the documents are built: which pieces they may hold, and whether containers and definitions may run into what
 * follows them.
 */
interface Build {
  keep: (piece: string) => boolean;
  /** A line in a block quote or list item, and a link reference definition, is followed by a blank line. */
  apart: boolean;
}

function documents({ keep, apart }: Build) {
  const line = fc.constantFrom(...LINES.filter(keep));
  const prefix = fc.constantFrom(...PREFIXES.filter(keep));
  const inline = fc
    .array(fc.constantFrom(...INLINE_PIECES.filter(keep)), { maxLength: 8 })
    .map((pieces) => pieces.join(""));
  const definition = fc.constantFrom(...DEFINITIONS.filter(keep)).map((d) => (apart ? `${d}\n` : d));
  const container = /^(?: {0,3}(?:>|[-+*]|\d+[.)])(?:[ \t]|$)| {4}|\t)/;
  const structure = fc
    .tuple(
      fc.boolean(),
      frontMatter,
      fc.array(
        fc.tuple(
          prefix,
          fc.oneof(
            { weight: 5, arbitrary: line },
            {
              weight: 1,
              arbitrary: fc.string({ maxLength: 6 }).filter((text) => !apart || !/[<>*+\-_0-9]/.test(text)),
            },
          ),
          lineEnding,
        ),
        {
          maxLength: 14,
        },
      ),
    )
    .map(
      ([bom, front, lines]) =>
        `${bom ? "\uFEFF" : ""}${front}${lines.map(([p, l, e]) => p + l + e + (apart && (container.test(p + l) || /^ /.test(p + l) || /\]:/.test(l)) ? e : "")).join("")}`,
    )
    // An ordered list not numbered 1 after a line indented 4 columns (a named divergence).
    .filter((text) => !apart || !AFTER_INDENTED_CODE.test(text));
  const headingBlock = fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 6 }), inline, fc.constantFrom("", " #", " ##"))
      .map(([depth, text, close]) => `${"#".repeat(depth)} ${text}${close}`),
    fc
      .tuple(inline, inline, fc.constantFrom("===", "---", "-", "=", "-----"))
      .map(([a, b, underline]) => `${a}\n${b}\n${underline}`),
    fc
      .tuple(inline, fc.constantFrom("===", "---"))
      // Delimiter runs (and escapes between them) repeated over hard line breaks (named divergences) only where
      // micromark is not asked.
      .filter(([a]) => !apart || !/[\\_*]/.test(a))
      .map(([a, underline]) => `${a}  \n${a}\\\n${a}\n${underline}`),
    inline,
    definition,
    fc
      .tuple(definition, inline, fc.constantFrom("===", "---", ""))
      .map(([d, text, underline]) => `${d}\n${text}\n${underline}`),
  );
  const headings = fc
    .array(fc.tuple(headingBlock, fc.constantFrom("\n", "\n\n", "\r\n", "\n\n\n")), { maxLength: 8 })
    .map((blocks) => blocks.map(([b, e]) => b + e).join(""))
    // Indented code after an empty list item and blank lines (a named divergence) only where micromark is not asked.
    .filter((text) => !apart || !EMPTY_ITEM_THEN_INDENTED.test(text));
  return { structure, headings };
}

/** Documents of every piece: compared with markdown-it's full parse (test/markdown-it-oracle.test.ts). */
export const { structure, headings } = documents({ keep: () => true, apart: false });

/**
 * Pieces of the documents above that make markdown-it read otherwise than micromark, each for a
 * divergence named in test/markdown-differential.test.ts (ALLOWED) and docs/spec.md, section 5.
 */
export const DIVERGENT_PIECES = new Set<string>([
  // raw HTML: an unquoted attribute value may hold `/`; white space in a tag is ASCII only
  "<a href=foo/bar>",
  "<a b=c/d>",
  "<x\u00a0y>",
  "<a\u00a0b>",
  // `]]]>` closes CDATA
  "]]]>",
  "<![CDATA[ ]]]>",
  // autolinks: `!` in an e-mail address, U+007F in a URI
  "<a!b@c.d>",
  "<ab:x\u007f>",
  // link titles in `(…)` may not hold `(`; an unclosed full reference
  "[link](http://a (b(c)))",
  "(u (t(x)))",
  "[foo][bar",
  "[",
  "![",
  // a link label's white space is ASCII only (`[a\u00a0b]` does not match `[a b]`)
  "[\u00a0]",
  "[a\u00a0b]",
  "[\u00a0]: /u",
  "[\u00a0]: /x",
  "[a\u00a0b]: /y",
  // the end of an HTML block's start line: ASCII white space only
  "\u2028",
  "\u3000",
  "\u00a0",
  // a destination ending in `\)` followed by more lines
  "[a](b\\)",
  // a block quote's lazy lines
  ">",
  // emphasis next to a character outside the Basic Multilingual Plane, and runs of three
  "😀",
  "😀 § ü",
  "***",
  "# ***",
  "***a",
  "__",
  // a shortcut reference followed by `(` that opens no link
  "(",
  // empty list items followed by blank lines
  "-",
  "- ",
  "1.",
  "*",
  "1. ",
  "- ",
]);

/** An empty list item, blank lines, then a line indented 4 columns. */
const EMPTY_ITEM_THEN_INDENTED =
  /(?:^|[\n\r]) {0,3}(?:[-+*]|\d+[.)])[ \t]*(?:\r\n?|\n)(?:[ \t]*(?:\r\n?|\n))+(?: {4}|\t| {1,3}\t)/;

/** A line indented 4 columns (indented code), blank lines, then an ordered list item not numbered 1. */
const AFTER_INDENTED_CODE =
  /(?:^|[\n\r])(?: {4}|\t| {1,3}\t)[^\n\r]*(?:\r\n?|\n)(?:[ \t]*(?:\r\n?|\n))* {0,3}(?!0*1[.)])\d+[.)]/;

/**
 * A line indented 4 columns or more after a list item and a blank line (a named divergence): not in the documents
 * compared with micromark.
 */
const indented = (piece: string) => /^(?: {4}|\t| {1,3}\t)/.test(piece);

/**
 * Documents without those pieces, with every line of a block quote or list, and every definition,
 * followed by a blank line (lazy lines and content after definitions are named divergences):
 * compared with micromark.
 */
export const { structure: commonStructure, headings: commonHeadings } = documents({
  keep: (piece) => !DIVERGENT_PIECES.has(piece) && !indented(piece),
  apart: true,
});
