/**
 * Our markdown reading (src/core/markdown/targets.ts: markdown-it's rules, unchanged) against an
 * independent one, micromark (mdast-util-from-markdown with the YAML front matter extension, and
 * mdast-util-to-string for heading text), kept here, and only here, as the oracle (docs/spec.md,
 * "Blocks and targets"): for every example of the CommonMark 0.31.2 spec and for generated
 * documents, both must give the same front matter, body start, top-level block starts, headings
 * (depth and plain text) and raw HTML values, and the same `parseArtifact` result for both index
 * kinds. Where markdown-it reads CommonMark otherwise than micromark, the case is named in
 * ALLOWED below (and in docs/spec.md, section 5) and pinned: it must still disagree, and our
 * reading is the one given. The generated documents compared here leave out the pieces that
 * make such a case (test/helpers/markdown-documents.ts, DIVERGENT_PIECES); all of them are
 * compared with markdown-it's own full parse in test/markdown-it-oracle.test.ts.
 */

import { createRequire } from "node:module";
import { characterEntities } from "character-entities";
import fc from "fast-check";
import type { Heading, Html, Nodes, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { toString as mdastToString } from "mdast-util-to-string";
import { frontmatter } from "micromark-extension-frontmatter";
import { parseDocument } from "yaml";
import { describe, expect, test } from "vitest";
import type { IndexKind } from "../src/core/model.js";
import { parseArtifact, readArtifact, type ParsedArtifact, type TargetCut } from "../src/core/markdown/targets.js";
import { ArtifactError } from "../src/core/markdown/limits.js";
import { withoutFootnoteMarkup } from "../src/core/markdown/heading-markup.js";
import { MAX_NESTING } from "../src/core/markdown/parser.js";
import {
  type BlockView,
  commonHeadings,
  commonStructure,
  DIVERGENT_PIECES,
  escapeText,
  htmlValue,
  ourView,
  type View,
} from "./helpers/markdown-documents.js";

const require = createRequire(import.meta.url);
const spec = require("commonmark-spec") as { tests: { markdown: string; number: number; section: string }[] };

// ---------------------------------------------------------------------------------------------
// The reference: micromark, as src/core/markdown/targets.ts used it before (parseArtifact verbatim).

const PARSE_OPTIONS = { extensions: [frontmatter(["yaml"])], mdastExtensions: [frontmatterFromMarkdown(["yaml"])] };

function referenceTree(text: string): { tree: Root; shift: number } {
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // micromark drops one leading BOM and counts offsets without it; given the text as it is (slicing
  // the BOM off first would let it drop a second one, which is text).
  return { tree: fromMarkdown(text, PARSE_OPTIONS), shift };
}

function referenceHeadingText(heading: Heading): string {
  return mdastToString(heading).replace(/\s+/gu, " ").trim();
}

/**
 * A target's heading text (docs/spec.md, section 4): the plain text without footnote markup (`withoutFootnoteMarkup`,
 * one function for both readings), a link whose text is a footnote label (`^7`) read as the reference `[^7]`.
 */
function referenceTargetHeadingText(heading: Heading): string {
  const text = (node: Nodes): string => {
    if (node.type === "link" || node.type === "linkReference") {
      const inner = mdastToString(node);
      if (/^\^[^\s[\]]+$/u.test(inner)) return `[${inner}]`;
    }
    return "children" in node ? node.children.map(text).join("") : mdastToString(node);
  };
  return withoutFootnoteMarkup(text(heading)).replace(/\s+/gu, " ").trim();
}

function referenceParseArtifact(text: string, indexKind: IndexKind, parsed = referenceTree(text)): ParsedArtifact {
  const { tree, shift } = parsed;
  const offset = (node: { position?: { start: { offset?: number }; end: { offset?: number } } }, at: "start" | "end") =>
    node.position![at].offset! + shift;
  let bodyStart = 0;
  let nodes = tree.children;
  const first = nodes[0];
  if (first?.type === "yaml") {
    const yaml = parseDocument(first.value);
    if (yaml.errors.length > 0) {
      const error = yaml.errors[0]!;
      const line = (error.linePos?.[0]?.line ?? 0) + 1;
      throw new ArtifactError(`front matter is not valid YAML (line ${line}): ${error.message.split("\n")[0]}`);
    }
    bodyStart = offset(first, "end");
    if (text.startsWith("\r\n", bodyStart)) bodyStart += 2;
    else if (text[bodyStart] === "\n" || text[bodyStart] === "\r") bodyStart += 1;
    nodes = nodes.slice(1);
  }
  const blocks =
    indexKind === "body-div"
      ? referenceDivBlocks(nodes, shift)
      : nodes.map((node) => ({ start: offset(node, "start"), heading: node.type === "heading" ? node : undefined }));
  const targets: TargetCut[] = [];
  blocks.forEach((block, index) => {
    if (block.heading === undefined && targets.length > 0) return;
    const cut: TargetCut = {
      start: targets.length === 0 ? bodyStart : block.start,
      end: text.length,
      blockStart: index,
      blockEnd: blocks.length,
    };
    if (block.heading) cut.heading = { text: referenceTargetHeadingText(block.heading), depth: block.heading.depth };
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

function referenceDivBlocks(nodes: RootContent[], shift: number): { start: number; heading: Heading | undefined }[] {
  const blocks: { start: number; heading: Heading | undefined }[] = [];
  let open: { start: number; heading: Heading | undefined } | undefined;
  let depth = 0;
  const balance = (node: Html) =>
    (node.value.match(/<div(?=[\s>/])/gi)?.length ?? 0) - (node.value.match(/<\/div\s*>/gi)?.length ?? 0);
  for (const node of nodes) {
    const start = node.position!.start.offset! + shift;
    if (open === undefined) {
      const b = node.type === "html" ? balance(node) : 0;
      if (b > 0) {
        open = { start, heading: undefined };
        depth = b;
        blocks.push(open);
      } else blocks.push({ start, heading: node.type === "heading" ? node : undefined });
      continue;
    }
    if (node.type === "heading" && open.heading === undefined) open.heading = node;
    if (node.type === "html") depth += balance(node);
    if (depth <= 0) {
      open = undefined;
      depth = 0;
    }
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// The comparison

function referenceView(text: string, parsed = referenceTree(text)): View {
  const { tree, shift } = parsed;
  let nodes = tree.children;
  let frontMatter: string | undefined;
  let bodyStart = 0;
  const first = nodes[0];
  if (first?.type === "yaml") {
    frontMatter = first.value;
    const end = first.position!.end.offset! + shift;
    bodyStart = end + (text.startsWith("\r\n", end) ? 2 : text[end] === "\n" || text[end] === "\r" ? 1 : 0);
    nodes = nodes.slice(1);
  }
  const blocks = nodes.map((node) => {
    const view: BlockView = { start: node.position!.start.offset! + shift };
    if (node.type === "heading") view.heading = { depth: node.depth, text: referenceHeadingText(node) };
    if (node.type === "html") view.html = htmlValue(node.value);
    return view;
  });
  return { frontMatter, bodyStart, blocks };
}

function attempt<T>(fn: () => T): T | { error: string } {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ArtifactError) return { error: error.message };
    throw error;
  }
}

/** The first difference between the two readers of `text`, or undefined when they agree. */
function disagreement(text: string): string | undefined {
  const tree = referenceTree(text);
  const expected = attempt(() => referenceView(text, tree));
  const actual = attempt(() => ourView(text));
  if ("error" in expected || "error" in actual) {
    // an invalid front matter: both must refuse it the same way
    const expectedError = attempt(() => referenceParseArtifact(text, "body-block", tree));
    const actualError = attempt(() => parseArtifact(text, "body-block"));
    if (JSON.stringify(expectedError) !== JSON.stringify(actualError))
      return `parseArtifact: micromark ${JSON.stringify(expectedError)}, ours ${JSON.stringify(actualError)}`;
    return undefined;
  }
  if (JSON.stringify(expected) !== JSON.stringify(actual))
    return `blocks: micromark ${JSON.stringify(expected)}, ours ${JSON.stringify(actual)}`;
  for (const indexKind of ["body-block", "body-div"] as const) {
    const a = JSON.stringify(attempt(() => referenceParseArtifact(text, indexKind, tree)));
    const b = JSON.stringify(attempt(() => parseArtifact(text, indexKind)));
    if (a !== b) return `parseArtifact ${indexKind}: micromark ${a}, ours ${b}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Disagreements allowed, each named with the reason; docs/spec.md section 5 lists them. `ours` pins
// our reading: the block starts, with each heading's text.

type Reading = (number | [number, string])[];

const ALLOWED: { name: string; text: string; ours: Reading; reason: string }[] = [
  {
    name: "a setext heading after link reference definitions starts after them (CommonMark example 215)",
    text: "[x]: /u\n[y]: /v\nfoo\n===\n",
    ours: [0, 8, [16, "foo"]],
    reason:
      "micromark starts the heading where the definitions start (one construct, its content); markdown-it's heading starts on its first line",
  },
  {
    name: "lines after a link reference definition start blocks of their own",
    text: "[a]: /u\n    code\n\n[b]: /u\n2. x\n\n> [c]: /u\nbar\n",
    ours: [0, 8, 18, 26, 32, 42],
    reason:
      "micromark reads the lines after definitions as the rest of one paragraph (indented code, a list item numbered 2 and a lazy line cannot interrupt it); markdown-it reads them afresh",
  },
  {
    name: "an empty list item after a link reference definition",
    text: "[foo]: /u\n*\n===\n",
    ours: [0, 10, 12],
    reason:
      "for micromark the definition's paragraph goes on (an empty item cannot interrupt it) and `===` underlines it; for markdown-it `*` starts a list",
  },
  {
    name: "indented code that starts on a lazy line",
    text: "> # h\n    b\n    c\n",
    ours: [0, 6],
    reason: "micromark ends such a code block after its first line; markdown-it does not",
  },
  {
    name: "a complete HTML tag on a lazy paragraph line",
    text: "> a\n<x-y>\nb\n",
    ours: [0],
    reason:
      "micromark lets an HTML block of kind 7 interrupt the lazy line; markdown-it keeps the line in the paragraph, as CommonMark says kind 7 cannot interrupt a paragraph",
  },
  {
    name: "a list item opened in a container on the line after a paragraph",
    text: "$\n> - \ncode\n",
    ours: [0, 2, 7],
    reason:
      "micromark reads the empty item as interrupting the paragraph (which it may not) and the block quote holds the paragraph `-`, with `code` lazy; markdown-it opens the block quote with an empty list",
  },
  {
    name: "a lazy line indented 4 columns",
    text: "100. a\n    # b\n",
    ours: [0, 7],
    reason:
      "micromark measures the line from the container it continues (4 columns: paragraph text); markdown-it from the list item's content (a heading after the list)",
  },
  {
    name: "`    >` after a block quote",
    text: "> # h\n    > b\n",
    ours: [0],
    reason: "markdown-it lets the indented `>` continue the block quote; micromark reads indented code",
  },
  {
    name: "an ordered list not numbered 1 after indented code and a blank line",
    text: "     - nested\n\n2) two\n\n   # Heading\n\n",
    ours: [0, 15],
    reason:
      "micromark reads `2) two` as a paragraph and the heading as a block of its own; markdown-it opens a list numbered 2 (it interrupts no paragraph, so it may start at 2), with the heading in its item (found by the generated block structures, seed -1824002790)",
  },
  {
    name: "a list over blank lines after an empty item",
    text: "1. \n\n   \n1. # Heading\n",
    ours: [0, 9],
    reason: "micromark goes on with the list; markdown-it ends it at the blank lines after the empty item",
  },
  {
    name: "a line indented 4 columns after an empty list item and a blank line",
    text: "*\n\n    # Heading\n\n    indented\n",
    ours: [0, 3],
    reason: "micromark ends the list and reads indented code; markdown-it keeps the lines in the list item",
  },
  {
    name: "indented code after an empty list item and two blank lines, over a hard line break",
    text: "\n\n-\n\n\n    **  \n    **\\\n    **\n===\n",
    ours: [2, 6, 30],
    reason:
      "micromark ends the indented code at the line after the one ending in two spaces and opens a second; markdown-it, like the reference commonmark.js 0.31, reads one code block of three lines (found by the generated headings, seed 539264849)",
  },
  {
    name: "emphasis: the rule of three",
    text: "__**_\n**__**\n===\n",
    ours: [[0, "** **_**"]],
    reason: "the two count what is left of a delimiter run differently",
  },
  {
    name: "emphasis: escaped asterisks between delimiter runs over hard line breaks",
    text: "**\\**  \n**\\**\\\n**\\**\n===\n",
    ours: [[0, "********"]],
    reason:
      "the two pair the runs around the escaped `*` differently (markdown-it: `*<em>*</em>`, twice, and `****` as text; micromark nests an emphasis in another), so the text keeps another number of `*` (found by the generated headings, seed 977739992)",
  },
  {
    name: "emphasis: runs of `_` and `*` repeated over hard line breaks",
    text: "__**_  \n__**_\\\n__**_\n===\n",
    ours: [[0, "_**____"]],
    reason:
      "micromark pairs the runs otherwise over the line breaks; markdown-it, like the reference commonmark.js 0.31 (`_<em>**</em>` …), keeps `_**____` as text (found by the generated headings, seed -760867233)",
  },
  {
    name: "emphasis: a run of `_` before punctuation, repeated over hard line breaks",
    text: "__[Foo]_  \n__[Foo]_\\\n__[Foo]_\n===\n",
    ours: [[0, "_[Foo]__[Foo]__[Foo]"]],
    reason:
      "micromark opens an emphasis at the `__` after the first line break and closes it on the next line; markdown-it, like commonmark.js 0.31, pairs each line's `_…_` (found by the generated headings, seed -760867233)",
  },
  {
    name: "emphasis: an opener before a NUL",
    text: "# ***\u0000*\n",
    ours: [[0, "**\uFFFD"]],
    reason: "micromark keeps every marker of a partly used opener as text before a NUL; markdown-it pairs one",
  },
  {
    name: "emphasis next to a character outside the Basic Multilingual Plane",
    text: "# a*😀*\n",
    ours: [[0, "a*😀*"]],
    reason:
      "micromark classifies one UTF-16 code unit at a time (a surrogate is neither white space nor punctuation); markdown-it classifies the code point (😀 is a symbol, punctuation for CommonMark 0.31.2)",
  },
  {
    name: "`]]]>` and a CDATA block",
    text: "<![CDATA[\nx]]]>\ny\n\n# h\n",
    ours: [0, 16, [19, "h"]],
    reason: "markdown-it ends the block at `]]>` inside `]]]>`; micromark does not and the block runs to the end",
  },
  {
    name: "`(` in a `(…)` link title",
    text: "# [a](b (c(d)))\n",
    ours: [[0, "[a](b (c(d)))"]],
    reason: "micromark allows the `(`; markdown-it does not, and reads no link",
  },
  {
    name: "an unclosed full reference",
    text: "[foo]: /u\n\n# [foo][bar\n",
    ours: [0, [11, "foo[bar"]],
    reason: "markdown-it reads `[foo]` as a shortcut reference; micromark reads no link",
  },
  {
    name: "a shortcut reference followed by `[`",
    text: "[foo]: /u\n\n# ![foo][\n",
    ours: [0, [11, "foo["]],
    reason: "markdown-it reads an image; micromark reads text",
  },
  {
    name: "a shortcut reference followed by `(` at the end",
    text: "[ss]: /s\n\n# [ss](\n",
    ours: [0, [10, "[ss]("]],
    reason: "micromark reads the reference; markdown-it, having failed at an inline link, reads text",
  },
  {
    name: "a link destination that ends in `\\)` with lines after it",
    text: "[a](b\\)\n\\[FOO]\n===\n[foo]: /u\n\n",
    ours: [[0, "a"], 19],
    reason: "markdown-it reads a link over the lines; micromark reads text",
  },
  {
    name: "`!` in an e-mail autolink",
    text: "# <a!b@c.d>\n",
    ours: [[0, "a!b@c.d"]],
    reason: "markdown-it's e-mail autolink allows `!`; micromark's does not",
  },
  {
    name: "U+007F in a URI autolink",
    text: "# <ab:x\u007f>\n",
    ours: [[0, "ab:x\u007f"]],
    reason: "markdown-it reads an autolink; for micromark U+007F (an ASCII control character) ends it",
  },
  {
    name: "`/` in an unquoted attribute value",
    text: "<a href=foo/bar>\n# h\n",
    ours: [0],
    reason:
      "markdown-it reads a complete tag and an HTML block that takes the next line; micromark ends the value at `/` and reads a paragraph and a heading",
  },
  {
    name: "Unicode white space in or after a tag",
    text: "<x\u00a0y>\n\n</a>\u00a0\n",
    ours: [0, 7],
    reason:
      "markdown-it reads HTML blocks (its white space is JavaScript's); micromark reads paragraphs (ASCII white space only)",
  },
  {
    name: "a link label with U+00A0",
    text: "[a b]: /w\n\n# [a\u00a0b]\n",
    ours: [0, [11, "a b"]],
    reason: "markdown-it collapses all Unicode white space when it matches labels; micromark only ASCII white space",
  },
  {
    name: `list items nested more than ${MAX_NESTING.block / 2} deep`,
    text: `${"- ".repeat(MAX_NESTING.block / 2 + 5)}a\n\nb\n`,
    ours: [0],
    reason:
      "markdown-it stops at its nesting limit (the innermost item takes the rest of the document); micromark has no limit",
  },
  {
    name: `links and images nested more than ${MAX_NESTING.inline} deep in a heading`,
    text: `# ${"![".repeat(MAX_NESTING.inline + 5)}a${"](u)".repeat(MAX_NESTING.inline + 5)}\n`,
    ours: [[0, `${"![".repeat(MAX_NESTING.inline + 1)}a${"](u)".repeat(MAX_NESTING.inline + 1)}`]],
    reason:
      "markdown-it stops parsing brackets at its inline nesting limit (the innermost ones are text); micromark has no limit",
  },
];

function reading(text: string): Reading {
  return readArtifact(text).blocks.map((block) =>
    block.heading ? [block.start, block.heading.text.replace(/\s+/gu, " ").trim()] : block.start,
  );
}

// ---------------------------------------------------------------------------------------------

describe("markdown-it reads as micromark reads, but where named", () => {
  test("every example of the CommonMark 0.31.2 spec, as is, with CRLF, with CR, after a BOM and front matter, after an unclosed front matter fence", () => {
    const failures: string[] = [];
    const disagreeing = new Set<number>();
    let count = 0;
    for (const example of spec.tests) {
      const markdown = example.markdown.replace(/\u2192/g, "\t"); // the spec writes tabs as →
      const variants = [
        markdown,
        markdown.replace(/\n/g, "\r\n"),
        markdown.replace(/\n/g, "\r"),
        `\uFEFF---\ntitle: x\n---\n${markdown}`,
        `---\n${markdown}`,
      ];
      for (const text of variants) {
        count++;
        const difference = disagreement(text);
        if (difference) {
          disagreeing.add(example.number);
          if (example.number !== 215)
            failures.push(`example ${example.number} (${example.section}) ${escapeText(text)}: ${difference}`);
        }
      }
    }
    expect(spec.tests.length).toBe(652);
    expect(count).toBe(652 * 5);
    expect(failures.slice(0, 10)).toEqual([]);
    // the one example named in ALLOWED
    expect([...disagreeing]).toEqual([215]);
  });

  test.each([
    ["block structure", commonStructure],
    ["headings and their text", commonHeadings],
  ])("generated documents without the pieces of a named disagreement: %s (2,500 runs)", (_, documents) => {
    fc.assert(
      fc.property(documents, (text) => {
        const difference = disagreement(text);
        if (difference) throw new Error(`${escapeText(text)}: ${difference}`);
      }),
      { numRuns: 2500 },
    );
  });

  test("the pieces left out are few", () => {
    expect(DIVERGENT_PIECES.size).toBeLessThanOrEqual(40);
  });

  test.each([
    [
      "an unclosed front matter fence: no block quotes or lists in the whole document",
      "---\n> q\n- x\n\n1. y\n",
      [0, 4, 13],
    ],
    ["after indented code a list item must be able to interrupt a paragraph", "    !\n\n- \n  b\n\n2. c\n", [0, 7, 15]],
    ["a heading may use a definition that comes after it", "# [a]\n\n[a]: /u\n", [0, 7]],
  ])("agreed: %s", (_, text, starts) => {
    expect(disagreement(text)).toBeUndefined();
    expect((referenceView(text) as { blocks: BlockView[] }).blocks.map((block) => block.start)).toEqual(starts);
  });

  test("every named character reference decodes as in micromark", () => {
    const names = Object.keys(characterEntities);
    expect(names.length).toBeGreaterThan(2000);
    const text = names.map((name) => `# &${name}; x&${name}x\n`).join("");
    expect(disagreement(text)).toBeUndefined();
  });

  test("no stack overflow at any depth: the nesting limits hold", () => {
    for (const text of [
      `${"- ".repeat(5000)}a\n`,
      `${"> ".repeat(5000)}a\n`,
      `${"> - 1. ".repeat(2000)}a\n`,
      `# ${"[".repeat(5000)}a${"](u)".repeat(5000)}\n`,
      `# ${"![".repeat(5000)}a${"](u)".repeat(5000)}\n`,
    ]) {
      expect(parseArtifact(text).blockCount).toBeGreaterThan(0);
    }
  });

  test.each(ALLOWED)("allowed disagreement: $name", ({ text, ours }) => {
    expect(disagreement(text)).toBeDefined();
    expect(reading(text)).toEqual(ours);
  });
});
