/**
 * The markdown reader of src/core/markdown.ts (markdown-it, made to read as micromark reads)
 * against the parser it replaced, micromark (mdast-util-from-markdown with the YAML front matter
 * extension), which stays here, and only here, as the reference (docs/spec.md, "Blocks and
 * targets"): for every example of the CommonMark 0.31.2 spec and for generated documents built from
 * the hard cases, both must give the same front matter, body start, top-level block starts,
 * headings (depth and plain text) and raw HTML values, and the same `parseArtifact` result for
 * both index kinds. The only disagreements allowed are named in ALLOWED below.
 */

import { createRequire } from "node:module";
import { characterEntities } from "character-entities";
import fc from "fast-check";
import type { Heading, Html, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { toString as mdastToString } from "mdast-util-to-string";
import { frontmatter } from "micromark-extension-frontmatter";
import { parseDocument } from "yaml";
import { describe, expect, test } from "vitest";
import type { IndexKind } from "../src/core/manifest.js";
import { MAX_NESTING } from "../src/core/markdown/parser.js";
import { ArtifactError, parseArtifact, readArtifact, type ParsedArtifact, type TargetCut } from "../src/core/markdown.js";

const require = createRequire(import.meta.url);
const spec = require("commonmark-spec") as { tests: { markdown: string; number: number; section: string }[] };

// ---------------------------------------------------------------------------------------------
// The reference: micromark, as src/core/markdown.ts used it before (parseArtifact verbatim).

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

function referenceParseArtifact(text: string, indexKind: IndexKind, parsed = referenceTree(text)): ParsedArtifact {
  const { tree, shift } = parsed;
  const offset = (node: { position?: { start: { offset?: number }; end: { offset?: number } } }, at: "start" | "end") => node.position![at].offset! + shift;
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
  const blocks = indexKind === "body-div" ? referenceDivBlocks(nodes, shift) : nodes.map((node) => ({ start: offset(node, "start"), heading: node.type === "heading" ? node : undefined }));
  const targets: TargetCut[] = [];
  blocks.forEach((block, index) => {
    if (block.heading === undefined && targets.length > 0) return;
    const cut: TargetCut = { start: targets.length === 0 ? bodyStart : block.start, end: text.length, blockStart: index, blockEnd: blocks.length };
    if (block.heading) cut.heading = { text: referenceHeadingText(block.heading), depth: block.heading.depth };
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
  const balance = (node: Html) => (node.value.match(/<div(?=[\s>/])/gi)?.length ?? 0) - (node.value.match(/<\/div\s*>/gi)?.length ?? 0);
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

interface BlockView {
  start: number;
  heading?: { depth: number; text: string };
  html?: string;
}

type View = { error: string } | { frontMatter: string | undefined; bodyStart: number; blocks: BlockView[] };

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
    if (node.type === "html") view.html = node.value;
    return view;
  });
  return { frontMatter, bodyStart, blocks };
}

function view(text: string): View {
  const read = readArtifact(text);
  const blocks = read.blocks.map((block) => {
    const view: BlockView = { start: block.start };
    if (block.heading) view.heading = { depth: block.heading.depth, text: block.heading.text.replace(/\s+/gu, " ").trim() };
    // micromark reads NUL as U+FFFD in values
    if (block.html !== undefined) view.html = block.html.replace(/\0/g, "\uFFFD");
    return view;
  });
  return { frontMatter: read.frontMatter?.value.replace(/\0/g, "\uFFFD"), bodyStart: read.bodyStart, blocks };
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
  const actual = attempt(() => view(text));
  if ("error" in expected || "error" in actual) {
    // an invalid front matter: both must refuse it the same way
    const expectedError = attempt(() => referenceParseArtifact(text, "body-block", tree));
    const actualError = attempt(() => parseArtifact(text, "body-block"));
    if (JSON.stringify(expectedError) !== JSON.stringify(actualError)) return `parseArtifact: micromark ${JSON.stringify(expectedError)}, ours ${JSON.stringify(actualError)}`;
    return undefined;
  }
  if (JSON.stringify(expected) !== JSON.stringify(actual)) return `blocks: micromark ${JSON.stringify(expected)}, ours ${JSON.stringify(actual)}`;
  for (const indexKind of ["body-block", "body-div"] as const) {
    const a = JSON.stringify(attempt(() => referenceParseArtifact(text, indexKind, tree)));
    const b = JSON.stringify(attempt(() => parseArtifact(text, indexKind)));
    if (a !== b) return `parseArtifact ${indexKind}: micromark ${a}, ours ${b}`;
  }
  return undefined;
}

const escapeText = (text: string) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

// ---------------------------------------------------------------------------------------------
// Disagreements allowed, each with the reason; docs/spec.md section 5 says which reading wins.

const ALLOWED: { name: string; text: string; reason: string }[] = [
  {
    name: `list items nested more than ${MAX_NESTING.block / 2} deep`,
    text: `${"- ".repeat(MAX_NESTING.block / 2 + 5)}a\n\nb\n`,
    reason: "markdown-it recurses once per container and stops at its nesting limit (the innermost item takes the rest of the document); micromark has no limit",
  },
  {
    name: `links and images nested more than ${MAX_NESTING.inline} deep in a heading`,
    text: `# ${"![".repeat(MAX_NESTING.inline + 5)}a${"](u)".repeat(MAX_NESTING.inline + 5)}\n`,
    reason: "markdown-it stops parsing brackets at its inline nesting limit, which keeps headings of bracket soup linear; micromark has no limit",
  },
];

// ---------------------------------------------------------------------------------------------

describe("markdown-it reads as micromark reads", () => {
  test("every example of the CommonMark 0.31.2 spec, as is, with CRLF, with CR, after a BOM and front matter, after an unclosed front matter fence", () => {
    const failures: string[] = [];
    let count = 0;
    for (const example of spec.tests) {
      const markdown = example.markdown.replace(/\u2192/g, "\t"); // the spec writes tabs as →
      const variants = [markdown, markdown.replace(/\n/g, "\r\n"), markdown.replace(/\n/g, "\r"), `\uFEFF---\ntitle: x\n---\n${markdown}`, `---\n${markdown}`];
      for (const text of variants) {
        count++;
        const difference = disagreement(text);
        if (difference) failures.push(`example ${example.number} (${example.section}) ${escapeText(text)}: ${difference}`);
      }
    }
    expect(spec.tests.length).toBe(652);
    expect(count).toBe(652 * 5);
    expect(failures.slice(0, 10)).toEqual([]);
  });

  // Documents built from the hard cases: containers and lazy lines, code, HTML of all 7 kinds,
  // setext headings (`-----` under a paragraph), definitions (used in headings), tabs, line
  // endings, BOM and front matter, empty headings and headings of emphasis markers only.
  const line = fc.constantFrom(
    ...["# Heading", "## § 1 Titel", "#", "# #", "###### x ######", "####### no", "#\tTab", "Setext", "===", "---", "-----", "-", "- ", "***", "* * *", "___", "_ _ _"],
    ...["para text", "more *emph* and **strong**", "*", "**", "***", "_a_", "__", "***a", "*a**", "a*", "_", "# *", "# **", "## _ _", "# ***"],
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
    ...["- item", "* item", "+ item", "1. one", "2) two", "10. ten", "1.", "100. x", "  - nested", "    - deep", "   1. x", "     code?", "    indented", "\tindented", "  \tmixed", " \t x"],
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
    ...['<a href="x">', "<a>", "</a>", "<x-y>", "<a href=foo/>", "<a href=foo/bar>", "<x\u00a0y>", "<table><tr><td>x</td></tr></table>", "<div/>", "<custom-el attr=1>"],
    ...["`code`", "``", "` a `", "<http://x.y>", "<a!b@c.d>", "<foo@bar.com>", "![img](u)", '![*a*](u "t")', "[link](http://a (b(c)))", "&amp; &copy; &#35; &#x26; &bogus;", "\\*not\\*", "a  ", "b\\"],
    ...["&nbsp;x", "\u00a0", "😀 § ü", "nul\u0000x", "|a|b|", "|---|---|", "Begriff", ": Definition", "", "", "", "   ", "\t"],
  );
  const lineEnding = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r");
  const prefix = fc.constantFrom("", "", "", " ", "  ", "   ", "    ", "> ", "- ", "1. ", "\t");
  const frontMatter = fc.constantFrom("", "", "---\ntitle: x\n---\n", "---\n---\n", "---\na: [\n---\n", "--- \r\nb: 1\r\n---\t\r\n", "---\nno close\n", "---\na: \u0000\n---\n");
  const structure = fc
    .tuple(fc.boolean(), frontMatter, fc.array(fc.tuple(prefix, fc.oneof({ weight: 5, arbitrary: line }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), lineEnding), { maxLength: 14 }))
    .map(([bom, front, lines]) => `${bom ? "\uFEFF" : ""}${front}${lines.map(([p, l, e]) => p + l + e).join("")}`);

  const inlinePiece = fc.constantFrom(
    ...["*", "**", "_", "__", "***", "a", "b c", " ", "  ", "\t", "[", "]", "[foo]", "[Foo]", "[bar]", "[foo][]", "[foo][bar]", "[x][foo]", "[foo][ba[r]]", "[foo][bar", "![", "![foo]", "![a *b*](u)"],
    ...["](u)", "(u)", '(u "t")', "(<u v>)", "(u (t(x)))", "( u )", "[a](b\\)", "`", "``", "` ` ", "`a`", "<", ">", "<a>", "</a>", '<a href="x">', "<a b=c/d>", "<a\u00a0b>"],
    ...["<!-- c -->", "<!-->", "<?x?>", "<!X y>", "<![CDATA[ ]]]>", "<http://a.b>", "<a!b@c.d>", "<a@b.c>", "<ab:x\u007f>", "&amp;", "&nbsp;", "&#x41;", "&#0;", "&bogus;", "&ampx;"],
    ...["\\*", "\\[", "\\", "\\a", "§", "ü", "😀", "\u00a0", "\u2028", "\u3000", "!", ".", ",", '"', "'", "(", ")", "-", "\u0000", "\u00ad", "\u200b"],
    ...["[\u00a0]", "[a\u00a0b]", "[a b]", "[ foo ]", "[FOO]", "[ẞ]", "[ß]", "[ss]"],
  );
  const inline = fc.array(inlinePiece, { maxLength: 8 }).map((pieces) => pieces.join(""));
  const definition = fc.constantFrom("[foo]: /u", "[bar]: /v 'T'", "[a b]: /w", "[\u00a0]: /x", "[a\u00a0b]: /y", "[ẞ]: /z", "[ss]: /s", "[FOO]: /f", "[x]:\n/u", "[ba[r]]: /q");
  const headingBlock = fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 6 }), inline, fc.constantFrom("", " #", " ##")).map(([depth, text, close]) => `${"#".repeat(depth)} ${text}${close}`),
    fc.tuple(inline, inline, fc.constantFrom("===", "---", "-", "=", "-----")).map(([a, b, underline]) => `${a}\n${b}\n${underline}`),
    fc.tuple(inline, fc.constantFrom("===", "---")).map(([a, underline]) => `${a}  \n${a}\\\n${a}\n${underline}`),
    inline,
    definition,
    fc.tuple(definition, inline, fc.constantFrom("===", "---", "")).map(([d, text, underline]) => `${d}\n${text}\n${underline}`),
  );
  const headings = fc.array(fc.tuple(headingBlock, fc.constantFrom("\n", "\n\n", "\r\n", "\n\n\n")), { maxLength: 8 }).map((blocks) => blocks.map(([b, e]) => b + e).join(""));

  test.each([
    ["block structure", structure],
    ["headings and their text", headings],
  ])("generated documents: %s (2,500 runs)", (_, documents) => {
    fc.assert(
      fc.property(documents, (text) => {
        const difference = disagreement(text);
        if (difference) throw new Error(`${escapeText(text)}: ${difference}`);
      }),
      { numRuns: 2500 },
    );
  });

  // micromark behaviours that plain markdown-it does not have; each is reproduced (src/core/markdown-blocks.ts) and pinned here.
  test.each([
    ["definitions followed by `    code`, `2. x` or a lazy line stay one paragraph", "[a]: /u\n    code\n\n[b]: /u\n2. x\n\n> [c]: /u\nbar\n", [0, 12, 18, 26, 32]],
    ["a setext heading after definitions starts where they start", "[x]: /u\n[y]: /v\nfoo\n===\n", [0, 8, 0]],
    ["an underline after definitions only is read afresh, as interrupting them", "[a]: /u\n- \n- # H\n", [0, 8, 11]],
    ["an unclosed front matter fence: no block quotes or lists in the whole document", "---\n> q\n- x\n\n1. y\n", [0, 4, 13]],
    ["indented code that starts on a lazy line ends after that line", "> # h\n    b\n    c\n", [0, 6, 12]],
    ["an HTML block of kind 7 interrupts a lazy paragraph line", "> a\n<x-y>\nb\n", [0, 10]],
    ["… and stays outside the container when it is the last line, without line ending", "> a\n<x-y>", [0, 4]],
    ["after indented code a list item must be able to interrupt a paragraph", "    !\n\n- \n  b\n\n2. c\n", [0, 7, 15]],
    ["… as after a paragraph, in every container opened on that line", "$\n> - \ncode\n", [0, 2]],
    ["a lazy line is measured from the container it continues", "100. a\n    # b\n", [0]],
    ["`    >` does not continue a block quote", "> # h\n    > b\n", [0, 6]],
    ["a list goes on over blank lines after an empty item", "1. \n\n   \n1. # Heading\n", [0]],
    ["the rule of three counts what is left of the runs", "# ****\\[***<![CDATA[ ]]]>\n", [0]],
    ["an emphasis opener before a NUL keeps its markers as text", "# ***\u0000*\n", [0]],
    ["`]]]>` does not close a CDATA block", "<![CDATA[\nx]]]>\ny\n\n# h\n", [0]],
    ["`(` is allowed in a `(…)` title", "# [a](b (c(d)))\n", [0]],
    ["an unclosed full reference is not a link", "[foo]: /u\n\n# [foo][bar\n", [0, 11]],
    ["`<a!b@c.d>` is not an autolink (no `!` in micromark's atext)", "# <a!b@c.d>\n", [0]],
    ["a raw HTML tag ends an unquoted value at `/`", "<a href=foo/bar>\n# h\n", [0, 17]],
  ])("%s", (_, text, starts) => {
    expect(disagreement(text)).toBeUndefined();
    const blocks = (referenceView(text) as { blocks: BlockView[] }).blocks;
    expect(blocks.map((block) => block.start)).toEqual(starts);
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

  test.each(ALLOWED)("allowed disagreement: $name", ({ text }) => {
    expect(disagreement(text)).toBeDefined();
  });
});
