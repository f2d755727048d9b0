/**
 * The message of a front matter that is not YAML (docs/spec.md, "Front matter"): generation asks the YAML parser for
 * its errors without making them pretty (making each pretty costs time linear in its line: 128 KB of `]` on one line
 * took 99 s and 355 MB in a main thread), and makes the first one's message itself (firstErrorMessage). It must be the
 * parser's own, word for word: fast-check on generated YAML, against the parser with its errors made pretty.
 */
import fc from "fast-check";
import { LineCounter, parseDocument } from "yaml";
import { describe, expect, test } from "vitest";
import { firstErrorMessage, parseArtifact } from "../src/core/markdown/targets.js";

/** The first error's line and message as the parser makes them pretty, and as firstErrorMessage makes them. */
function both(source: string) {
  const pretty = parseDocument(source, { uniqueKeys: false }).errors[0];
  const lines = new LineCounter();
  const plain = parseDocument(source, { uniqueKeys: false, prettyErrors: false, lineCounter: lines }).errors[0];
  if (pretty === undefined || plain === undefined) return { parser: pretty === plain, ours: true };
  return {
    parser: { line: pretty.linePos?.[0]?.line ?? 0, message: pretty.message.split("\n")[0] },
    ours: firstErrorMessage(plain, source, lines),
  };
}

// Pieces that make YAML errors of every kind: flow brackets, indentation, keys, quotes, tabs, long runs, line ends.
const piece = fc.constantFrom(
  "]",
  "[",
  "}",
  "{",
  ",",
  ":",
  ": ",
  "- ",
  "-",
  "k",
  "k: ",
  "a",
  "'",
  '"',
  "#",
  "&a",
  "*a",
  "!t ",
  "|",
  ">",
  "?",
  " ",
  "  ",
  "    ",
  "\t",
  "\n",
  "\r\n",
  "\n  ",
  "\n\n",
  "x".repeat(70),
  " ".repeat(70),
  "]".repeat(90),
  "@",
  "%",
  "`",
);

describe("a front matter's first error, said as the YAML parser says it (firstErrorMessage)", () => {
  test("the same line and message as the parser's pretty error, on generated YAML", () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), (pieces) => {
        const { parser, ours } = both(pieces.join(""));
        expect(ours).toEqual(parser);
      }),
      { numRuns: 20_000 },
    );
  });

  test("real mistakes: an unclosed list, a stray bracket, a bad indent, a tab, a long line, an error at a line's start", () => {
    for (const source of [
      "title: Gesetz\nkeys: [a, b\n",
      "k: []]]\n",
      "a: 1\n  b: 2\n",
      "a:\n\t- b\n",
      `k: [${"x, ".repeat(40)}]]\n`,
      "a: 1\n]\n",
      "a: 1\n   ]\n",
      "]\n",
    ]) {
      const { parser, ours } = both(source);
      expect(ours, source).toEqual(parser);
    }
  });

  test("128 KB of stray brackets is refused with the first error (with the parser's pretty errors it took 99 s, past the test's time)", () => {
    const text = `---\nk: [${"]".repeat(130_000)}\n---\n# d\n`;
    expect(() => parseArtifact(text)).toThrow(
      'front matter is not valid YAML (line 2): Unexpected flow-seq-end token in YAML stream: "]" at line 1, column 6:',
    );
  });
});
