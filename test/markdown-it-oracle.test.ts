/**
 * Our use of markdown-it's tokens against markdown-it's own full parse (docs/spec.md, "Blocks and
 * targets"): for every example of the CommonMark 0.31.2 spec and for generated documents,
 * `readArtifact` (block tokens handed on one top-level block at a time, heading texts read after
 * the whole body) must give the top-level blocks, heading texts and raw HTML values that
 * `MarkdownIt.parse` gives when it holds every token, with no exception. Link reference
 * definitions, whose tokens its full parse strips, must start on a line no other token covers.
 */

import { createRequire } from "node:module";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import { describe, expect, test } from "vitest";
import { readArtifact } from "../src/core/markdown/targets.js";
import { ArtifactError } from "../src/core/markdown/limits.js";
import { headingText, textOf } from "../src/core/markdown/heading-text.js";
import { MAX_NESTING } from "../src/core/markdown/parser.js";
import {
  type BlockView,
  collapsed,
  escapeText,
  headings,
  htmlValue,
  ourView,
  structure,
  type View,
} from "./helpers/markdown-documents.js";

const require = createRequire(import.meta.url);
const spec = require("commonmark-spec") as { tests: { markdown: string; number: number }[] };

const full = new MarkdownIt("commonmark", { maxNesting: MAX_NESTING.block });
const fullWithoutContainers = new MarkdownIt("commonmark", { maxNesting: MAX_NESTING.block }).disable([
  "blockquote",
  "list",
]);

/**
 * markdown-it's full parse of the body of `text` (the front matter as readArtifact finds it), and the lines no
 * top-level token covers.
 */
function fullView(text: string): { view: View; uncovered: Set<number>; lineStarts: number[] } {
  const read = readArtifact(text);
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const from = read.frontMatter ? read.bodyStart : bom;
  const unclosedFence = read.frontMatter === undefined && /^---[ \t]*[\r\n]/.test(text.slice(bom));
  const body = text.slice(from);
  const tokens: Token[] = (unclosedFence ? fullWithoutContainers : full).parse(body, {});
  // Line starts in the body as written (CR LF, CR and LF end a line).
  const lineStarts = [0];
  for (const match of body.matchAll(/\r\n|\r|\n/g)) lineStarts.push(match.index + match[0].length);
  const lineText = (line: number) =>
    body.slice(lineStarts[line], (lineStarts[line + 1] ?? body.length + 1) - 1).replace(/\r$/, "");
  const covered = new Set<number>();
  const blocks: BlockView[] = [];
  tokens.forEach((token, i) => {
    if (token.level !== 0 || token.nesting === -1) return;
    const [first, end] = token.map!;
    for (let line = first; line < end; line++) covered.add(line);
    const indent = /^[ \t]*/.exec(lineText(first))![0].length;
    const column = token.type === "code_block" || token.type === "html_block" ? 0 : indent;
    const view: BlockView = { start: from + lineStarts[first]! + column };
    if (token.type === "heading_open")
      view.heading = { depth: Number(token.tag.slice(1)), text: collapsed(textOf(tokens[i + 1]!.children!)) };
    if (token.type === "html_block")
      view.html = htmlValue(body.slice(lineStarts[first], lineStarts[end - 1]! + lineText(end - 1).length));
    blocks.push(view);
  });
  const uncovered = new Set<number>();
  for (let line = 0; line < lineStarts.length; line++)
    if (!covered.has(line) && lineText(line).trim() !== "") uncovered.add(from + lineStarts[line]!);
  return {
    view: { frontMatter: read.frontMatter?.value.replace(/\0/g, "\uFFFD"), bodyStart: read.bodyStart, blocks },
    uncovered,
    lineStarts,
  };
}

/** The first difference between our reading of `text` and markdown-it's full parse, or undefined. */
function difference(text: string): string | undefined {
  try {
    readArtifact(text);
  } catch (error) {
    if (error instanceof ArtifactError) return undefined; // an invalid front matter: no body is read (test/markdown-differential.test.ts)
    throw error;
  }
  const expected = fullView(text);
  const actual = ourView(text, false);
  if (JSON.stringify(expected.view) !== JSON.stringify(actual))
    return `full parse ${JSON.stringify(expected.view)}, ours ${JSON.stringify(actual)}`;
  for (const block of readArtifact(text).blocks) {
    if (
      block.definition &&
      ![...expected.uncovered].some((start) => block.start >= start && /^[ \t]*$/.test(text.slice(start, block.start)))
    ) {
      return `a definition at ${block.start} is not on a line markdown-it leaves without a token`;
    }
  }
  return undefined;
}

describe("our use of markdown-it's tokens agrees with its full parse", () => {
  test("every example of the CommonMark 0.31.2 spec, as is, with CRLF, with CR, after a BOM and front matter, after an unclosed front matter fence", () => {
    const failures: string[] = [];
    for (const example of spec.tests) {
      const markdown = example.markdown.replace(/\u2192/g, "\t");
      for (const text of [
        markdown,
        markdown.replace(/\n/g, "\r\n"),
        markdown.replace(/\n/g, "\r"),
        `\uFEFF---\ntitle: x\n---\n${markdown}`,
        `---\n${markdown}`,
      ]) {
        const found = difference(text);
        if (found) failures.push(`example ${example.number} ${escapeText(text)}: ${found}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  test.each([
    ["block structure", structure],
    ["headings and their text", headings],
  ])("generated documents: %s (2,500 runs)", (_, documents) => {
    fc.assert(
      fc.property(documents, (text) => {
        const found = difference(text);
        if (found) throw new Error(`${escapeText(text)}: ${found}`);
      }),
      { numRuns: 2500 },
    );
  });

  // headingText reads content without inline markup as its own text, unparsed (src/core/markdown/heading-text.ts):
  // held to markdown-it's parseInline over an alphabet with every ASCII punctuation character, so that a character
  // the shortcut wrongly passes as plain shows up.
  test("heading texts, with and without the shortcut for content without inline markup, are parseInline's (5,000 runs)", () => {
    const references = { FOO: { href: "/url", title: "" } };
    const oracle = new MarkdownIt("commonmark", { maxNesting: MAX_NESTING.inline });
    const alphabet = [
      ..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
      "\n",
      " ",
      "\t",
      "a",
      "1",
      "§",
      "ä",
      "„",
      "foo",
      "&amp;",
      "&copy;",
    ];
    let plain = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }), (pieces) => {
        const content = pieces.join("");
        if (!/[\n<`*_&\\![\]]/.test(content)) plain++;
        const tokens = oracle.parseInline(content, { references })[0]?.children ?? [];
        expect(headingText(content, references)).toBe(textOf(tokens));
      }),
      { numRuns: 5000 },
    );
    expect(plain).toBeGreaterThan(100); // the shortcut was taken, not only the parse
  });

  // The body is parsed in pieces that end where a top-level block starts (src/core/markdown/blocks.ts): any piece
  // length reads the same.
  test.each([
    ["block structure", structure],
    ["headings and their text", headings],
  ])("generated documents read in pieces of 1, 7 and 64 code units read as in one: %s (1,000 runs)", (_, documents) => {
    fc.assert(
      fc.property(documents, fc.constantFrom(1, 7, 64), (text, pieceLength) => {
        let whole: unknown;
        try {
          whole = readArtifact(text);
        } catch (error) {
          if (error instanceof ArtifactError) return;
          throw error;
        }
        expect(readArtifact(text, {}, pieceLength)).toEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });

  // A definition whose title is on the lines after it, cut off where a piece ends: the piece reads it without its
  // title and its title's first line as the next block (a counterexample fast-check found, seed -784387623).
  test("a link reference definition whose title goes on past a piece's end reads as in one", () => {
    for (const text of [
      "[foo]: /u\n'\n===\r\n'  \n'\\\n'\n===\n",
      '[foo]: /url\n"title"\n# [foo]\n',
      "[foo]: /url\n'a\nb'\n\n[bar]: /v\n(t)\nText\n===\n",
      // the title over setext underlines: read short, its lines are headings
      "[foo]: /u\n'\n===\nbar\n===\nbaz'\n",
      // the title opened on the definition's line: read short, the line is a paragraph
      "[foo]: /u 'a\n===\n# b\nc'\n\n# d\n",
    ]) {
      const whole = readArtifact(text);
      for (let pieceLength = 1; pieceLength <= text.length; pieceLength++)
        expect(readArtifact(text, {}, pieceLength), `${escapeText(text)} in pieces of ${pieceLength}`).toEqual(whole);
    }
  });

  test("every CommonMark example, one after another in one document, read in pieces reads as in one", () => {
    for (const separator of ["\n\n", "\n", "\r\n"]) {
      const text = spec.tests.map((example) => example.markdown.replace(/\u2192/g, "\t")).join(separator);
      const whole = readArtifact(text);
      expect(whole.blocks.length).toBeGreaterThan(500);
      for (const pieceLength of [1, 100, 4096]) expect(readArtifact(text, {}, pieceLength)).toEqual(whole);
    }
  });

  test("a heading may use a definition that comes after it", () => {
    const read = readArtifact("# [a] and [b][]\n\npara\n\n[a]: /u\n[b]: /v\n");
    expect(read.blocks.map((block) => block.heading?.text)).toEqual(["a and b", undefined, undefined, undefined]);
  });
});
