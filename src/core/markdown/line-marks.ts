/**
 * markdown-it's block state for a piece of the body, its line marks found by `indexOf` (docs/spec.md, "Blocks and
 * targets"). markdown-it's `StateBlock` constructor reads its source one character at a time to find where each line
 * begins and ends and how it is indented; that loop was a twelfth of the workers' time in `generate` of the statute book
 * (bench/RESULTS.md, "generate against markdown-it"). Here a line's end is found by `indexOf("\n")`, which V8 runs as a
 * memory search, and only its indentation is read a character at a time. The state is markdown-it's own, made by its
 * constructor on an empty source; its rules read it unchanged. test/line-marks.test.ts holds the marks to those of
 * markdown-it's constructor.
 */
import type { MarkdownIt as Parser, StateBlock } from "markdown-it";
import type { VisitedEnv } from "./parser.js";

/**
 * markdown-it's block state of `src`, its marks the constructor's: for each line, where it begins (`bMarks`), where it
 * ends (`eMarks`, at its LF or the end of the source), the spaces and tabs it starts with (`tShift`) and their width with
 * tabs to the next multiple of 4 (`sCount`), then one empty line at the end of the source. A last line that is only
 * spaces and tabs, with no LF after it, has no marks (markdown-it's loop reaches the end of the source before it finds
 * the line's first other character). `src` has LF line endings and no NUL (readPiece).
 */
export function blockState(parser: Parser, src: string, env: VisitedEnv): StateBlock {
  const state = new parser.block.State("", parser, env as never, []);
  state.src = src;
  const bMarks = state.bMarks;
  const eMarks = state.eMarks;
  const tShift = state.tShift;
  const sCount = state.sCount;
  const bsCount = state.bsCount;
  // The empty source's one line, the end: made again below, after the lines.
  bMarks.length = 0;
  eMarks.length = 0;
  tShift.length = 0;
  sCount.length = 0;
  bsCount.length = 0;
  markLines(src, bMarks, eMarks, tShift, sCount, bsCount);
  state.lineMax = bMarks.length - 1;
  return state;
}

/**
 * Pushes the marks of each line of `src`, then those of the empty line at its end. The end's marks are pushed by the
 * loop's own statements, and nothing follows the loop: the first call, on a long source, is compiled while it runs
 * (on-stack replacement) before any statement after its loop has run, and such a statement, which the compiled code
 * knows nothing of, threw that code away at every call (`--trace-deopt`).
 */
function markLines(
  src: string,
  bMarks: number[],
  eMarks: number[],
  tShift: number[],
  sCount: number[],
  bsCount: number[],
): void {
  const length = src.length;
  let start = 0;
  let last = false;
  while (!last) {
    // The end of the source: its empty line, the last.
    let begin = length;
    let end = length;
    let indent = 0;
    let width = 0;
    let at = start;
    for (; at < length; at++) {
      const c = src.charCodeAt(at);
      if (c === 0x20) width++;
      else if (c === 0x09) width += 4 - (width % 4);
      else break;
      indent++;
    }
    if (at < length) {
      const lf = src.indexOf("\n", at);
      begin = start;
      end = lf === -1 ? length : lf;
    } else {
      // No line left, or only blanks without a line feed (which have no marks): the end.
      indent = 0;
      width = 0;
      last = true;
    }
    bMarks.push(begin);
    eMarks.push(end);
    tShift.push(indent);
    sCount.push(width);
    bsCount.push(0);
    start = end + 1;
  }
}
