/**
 * The one UTF-8 decoder (through UTF-16, for speed) gives exactly the string V8's UTF-8 decoder gives, alone and as the
 * line reader uses it.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LineReader } from "../src/core/lines.js";
import { decodeUtf8, decodeUtf8Lenient } from "../src/core/bytes.js";
import { firstInvalidUtf8, notUtf8Message } from "../src/core/utf8.js";

test("decodeUtf8 of any valid UTF-8 is the string Buffer#toString gives", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
      const bytes = Buffer.from(text, "utf8");
      expect(decodeUtf8(bytes)).toBe(bytes.toString("utf8"));
    }),
    { numRuns: 2000 },
  );
});

test("decodeUtf8Lenient of any bytes is the string a TextDecoder gives (a leading BOM dropped, bad bytes as U+FFFD)", () => {
  const decoder = new TextDecoder();
  const bom = [0xef, 0xbb, 0xbf];
  // Bytes near UTF-8's edges as often as random ones: lead bytes, continuations, surrogates, overlongs, a BOM.
  const edgy = fc.constantFrom(
    0x41,
    0x0a,
    0x80,
    0xbf,
    0xc0,
    0xc3,
    0xa9,
    0xe2,
    0x82,
    0xac,
    0xed,
    0xa0,
    0xf0,
    0x9f,
    0xf4,
    0x90,
    0xff,
    ...bom,
  );
  fc.assert(
    fc.property(fc.boolean(), fc.array(fc.oneof(fc.nat(255), edgy), { maxLength: 40 }), (withBom, body) => {
      const bytes = Uint8Array.from(withBom ? [...bom, ...body] : body);
      expect(decodeUtf8Lenient(bytes)).toBe(decoder.decode(bytes));
    }),
    { numRuns: 3000 },
  );
  expect(decodeUtf8Lenient(Uint8Array.from([...bom, ...bom, 0x41]))).toBe("\uFEFFA");
  expect(decodeUtf8Lenient(Uint8Array.from([0x41, 0xc0, 0x42]))).toBe("A\uFFFDB");
});

test("any valid UTF-8 line reaches the reader's caller as the string Buffer#toString gives, in pieces or whole, in any chunks", () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 8 }),
      fc.nat(40_000),
      fc.integer({ min: 1, max: 1 << 17 }),
      (lines, padding, chunk) => {
        // A long line now and then, so that a run of lines is decoded in more than one piece (64 KiB).
        const clean = lines.map((line, i) => (i === 1 ? "é".repeat(padding) : "") + line.replaceAll("\n", " "));
        const bytes = Buffer.from(clean.map((line) => `${line}\n`).join(""), "utf8");
        const seen: string[] = [];
        const reader = new LineReader(
          ({ text }) => seen.push(text),
          () => seen.push("<bytes>"),
        );
        for (let at = 0; at < bytes.length; at += chunk) reader.push(bytes.subarray(at, at + chunk));
        reader.end();
        expect(seen).toEqual(bytes.toString("utf8").split("\n").slice(0, -1));
      },
    ),
    { numRuns: 300 },
  );
});

describe("notUtf8Message: where a markdown file stops being UTF-8", () => {
  test("a law saved in Latin-1: the line of its first umlaut, the byte and its place in the line", () => {
    const latin1 = Buffer.from("# Gesetz\n\n## § 1 Zweck\n\nDie Länder regeln das.\n", "latin1");
    // "§" (0xA7) on line 3 is the first byte that breaks UTF-8: the fourth byte of "## § 1 Zweck".
    expect(notUtf8Message("anlage.md", latin1)).toBe(
      "anlage.md: not valid UTF-8: line 3, byte 0xA7 at byte 4 of the line (saved as Latin-1 or Windows-1252? save it as UTF-8)",
    );
    expect(firstInvalidUtf8(latin1)).toBe(latin1.indexOf(0xa7));
  });

  test("a bad byte on the first line, after valid multi-byte text", () => {
    const bytes = new Uint8Array([...Buffer.from("§ ä "), 0xc3, 0x28]);
    expect(notUtf8Message("x.md", bytes)).toBe(
      "x.md: not valid UTF-8: line 1, byte 0xC3 at byte 7 of the line (saved as Latin-1 or Windows-1252? save it as UTF-8)",
    );
  });
});
