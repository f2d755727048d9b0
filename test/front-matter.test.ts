/**
 * The front matter scan (used where no markdown parse is needed: the lock checks of validate)
 * against the reference, micromark with micromark-extension-frontmatter, which the spec names.
 */
import fc from "fast-check";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { frontmatter } from "micromark-extension-frontmatter";
import { describe, expect, test } from "vitest";
import { bodyStartOf, bodyStartOfBytes, findFrontMatter, HEAD_BYTES } from "../src/core/markdown/front-matter.js";

const OPTIONS = { extensions: [frontmatter(["yaml"])], mdastExtensions: [frontmatterFromMarkdown(["yaml"])] };

/**
 * Body start and YAML value by the reference parser, given the text as it is: micromark drops one
 * leading BOM and counts offsets without it, so they are shifted back over it. (Slicing the BOM off
 * first would let micromark drop a second one, which is text.)
 */
function reference(text: string): { bodyStart: number; value?: string } {
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const first = fromMarkdown(text, OPTIONS).children[0];
  if (first?.type !== "yaml") return { bodyStart: 0 };
  let end = first.position!.end.offset! + shift;
  if (text.startsWith("\r\n", end)) end += 2;
  else if (text[end] === "\n" || text[end] === "\r") end += 1;
  return { bodyStart: end, value: first.value };
}

const PIECES = [
  "---",
  "--- ",
  "---\t",
  "----",
  "-- -",
  "\n",
  "\r\n",
  "\r",
  "title: Gesetz",
  "jurabk: BGB",
  "# § 1",
  "\t",
  " ",
  "\ufeff",
  "- a",
  "",
  "x",
  "ä",
  "…",
  "  ---",
];

describe("front matter scan", () => {
  test("finds the body where the reference parser does, over generated documents", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }), (parts) => {
        const text = parts.join("");
        const expected = reference(text);
        expect(bodyStartOf(text)).toBe(expected.bodyStart);
        expect(findFrontMatter(text)?.value).toBe(expected.value);
        // The byte scan agrees, at the UTF-8 offset of the same place.
        expect(bodyStartOfBytes(Buffer.from(text))).toBe(Buffer.byteLength(text.slice(0, expected.bodyStart)));
      }),
      { numRuns: 5000 },
    );
  });

  test.each([
    ["no front matter", "# Title\n", 0],
    ["closed", "---\ntitle: x\n---\n# Title\n", 17],
    ["closed with CRLF and trailing blanks", "---  \r\na: 1\r\n--- \t\r\nBody", 20],
    ["empty value", "---\n---\nBody", 8],
    ["never closed: not front matter", "---\ntitle: x\n", 0],
    ["four dashes do not open it", "----\na: 1\n---\n", 0],
    ["closed at the end of the text", "---\na: 1\n---", 12],
    ["after a byte order mark", "\ufeff---\na: 1\n---\nB", 14],
    ["a second byte order mark is text: no front matter", "\ufeff\ufeff---\r\n---", 0],
  ])("%s", (_, text, bodyStart) => {
    expect(bodyStartOf(text)).toBe(bodyStart);
    expect(reference(text).bodyStart).toBe(bodyStart);
  });

  test("the byte scan looks at the head first and finds what the whole text gives, wherever the closing fence falls around its end", () => {
    // Front matter whose closing line (LF, CRLF, CR, trailing blanks, or the end of the text) ends a few bytes before,
    // at or after the head's last byte, then a body long enough that the head is not all of it (or not).
    const endings = ["\n", "\r\n", "\r", " \t\n", ""];
    for (const bom of ["", "\ufeff"])
      for (const ending of endings)
        for (let shift = -6; shift <= 6; shift++) {
          const close = `---${ending}`;
          const filler = HEAD_BYTES + shift - Buffer.byteLength(`${bom}---\nk: `) - Buffer.byteLength(`\n${close}`);
          for (const body of ["", "# Titel\n", `# T\n${"x".repeat(2 * HEAD_BYTES)}\n`]) {
            const text = `${bom}---\nk: ${"v".repeat(filler)}\n${close}${ending === "" ? "" : body}`;
            const bytes = Buffer.from(text);
            expect(bodyStartOfBytes(bytes)).toBe(Buffer.byteLength(text.slice(0, bodyStartOf(text))));
          }
        }
    // Never closed within the head, closed far after it: found there too.
    const long = `---\nk: ${"v".repeat(3 * HEAD_BYTES)}\n---\nBody\n`;
    expect(bodyStartOfBytes(Buffer.from(long))).toBe(long.length - "Body\n".length);
  });
});
