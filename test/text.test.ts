import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isCollapsed } from "../src/core/text.js";

/** What isCollapsed stands for: the text unchanged by collapsing and trimming (and, with `nfc`, by NFC). */
const collapsed = (text: string) => text.replace(/\s+/gu, " ").trim() === text;

describe("isCollapsed", () => {
  test("agrees with the pattern for every UTF-16 code unit, alone, between letters, doubled and beside a space", () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [ch, `a${ch}b`, `a${ch}${ch}b`, `a ${ch}b`, `a${ch} b`, `${ch}a`, `a${ch}`]) {
        if (isCollapsed(text) !== collapsed(text)) expect.fail(`U+${c.toString(16)} in ${JSON.stringify(text)}`);
        // With nfc: true only when NFC leaves it as it is too (never true where the pattern changes it).
        if (isCollapsed(text, true) && !(collapsed(text) && text.normalize("NFC") === text))
          expect.fail(`nfc: U+${c.toString(16)} in ${JSON.stringify(text)}`);
      }
    }
  });

  test("every text of characters below U+0300 is in NFC: any two of them, one after the other", () => {
    const chars = Array.from({ length: 0x300 }, (_, c) => String.fromCharCode(c));
    for (const a of chars) for (const b of chars) if ((a + b).normalize("NFC") !== a + b) expect.fail(`${a}${b}`);
  });

  test("with nfc, false for a combining mark, and for any character from U+0300", () => {
    expect(isCollapsed("A\u030a", true)).toBe(false); // Å decomposed: NFC composes it
    expect(isCollapsed("Ω", true)).toBe(false);
    expect(isCollapsed("§ 7a Überschrift", true)).toBe(true);
    expect(isCollapsed("§ 7a  Überschrift", true)).toBe(false);
    expect(isCollapsed("", true)).toBe(true);
  });

  test("on any text, true exactly when collapsing and trimming leave it as it is", () => {
    const char = fc.oneof(
      fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\ufeff", "a", "§", "ü", "\u030a", "„"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 12 }), (chars) => {
        const text = chars.join("");
        expect(isCollapsed(text)).toBe(collapsed(text));
        if (isCollapsed(text, true)) expect(text.normalize("NFC").replace(/\s+/gu, " ").trim()).toBe(text);
      }),
      { numRuns: 5000 },
    );
  });
});
