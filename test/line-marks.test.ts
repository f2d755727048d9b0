/**
 * blockState (src/core/markdown/line-marks.ts) against markdown-it's own StateBlock constructor: for every example of
 * the CommonMark spec, every file of the systems' fixtures and generated texts of spaces, tabs, line feeds and other
 * characters, the line marks must be the constructor's, line for line.
 */

import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, test } from "vitest";
import { blockState } from "../src/core/markdown/line-marks.js";
import type { VisitedEnv } from "../src/core/markdown/parser.js";

const require = createRequire(import.meta.url);
const spec = require("commonmark-spec") as { tests: { markdown: string }[] };

const parser = new MarkdownIt("commonmark");

function marks(state: {
  bMarks: number[];
  eMarks: number[];
  tShift: number[];
  sCount: number[];
  bsCount: number[];
  lineMax: number;
  src: string;
}) {
  const { bMarks, eMarks, tShift, sCount, bsCount, lineMax, src } = state;
  return { bMarks, eMarks, tShift, sCount, bsCount, lineMax, src };
}

function expectSame(src: string): void {
  const env = { visitor: undefined, peakTokens: 0, firstLine: 0 } as unknown as VisitedEnv;
  const theirs = new parser.block.State(src, parser, {}, []);
  const ours = blockState(parser, src, env);
  expect(marks(ours)).toEqual(marks(theirs));
  expect(ours.env).toBe(env);
  expect(ours.tokens).toEqual([]);
  expect(ours.line).toBe(0);
  expect(ours.level).toBe(0);
  expect(ours.blkIndent).toBe(0);
}

describe("blockState's line marks are markdown-it's", () => {
  test("on the edges: empty, blank last lines with and without a line feed, tabs after spaces", () => {
    for (const src of [
      "",
      "\n",
      "a",
      "a\n",
      "  ",
      "\t",
      "a\n  ",
      "a\n  \n",
      "a\n \t b",
      "  \t\tx\n\t  y\n",
      "\n\n\n",
      "x \n",
      " x ",
      "   \t",
      "a\n\n  \t\n",
    ])
      expectSame(src);
  });

  test("on every example of the CommonMark spec", () => {
    for (const { markdown } of spec.tests) expectSame(markdown.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD"));
  });

  test("on the markdown fixtures of the legal systems", () => {
    const folder = join(import.meta.dirname, "fixtures-systems");
    const files = readdirSync(folder).filter((name) => name.endsWith(".md"));
    expect(files.length).toBeGreaterThan(3);
    for (const name of files) expectSame(readFileSync(join(folder, name), "utf8").replace(/\r\n?/g, "\n"));
  });

  test("on generated texts of blanks, line feeds and other characters", () => {
    const piece = fc.constantFrom(" ", "\t", "\n", "a", "ä", "#", "  ", "\n\n", "\t ", "§ 1", "😀");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        expectSame(pieces.join(""));
      }),
      { numRuns: 3000 },
    );
  });
});
