/**
 * With colour off the command line styles its reports without chalk (src/formatters/plain-color.ts, start-up): each
 * style, chained or not, gives what chalk at level 0 gives, for any arguments; with colour on it is chalk's.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createColor } from "../src/formatters/color.js";
import { colorAt } from "../src/formatters/plain-color.js";

type Style = (...texts: unknown[]) => string;
const styleOf = (color: unknown, chain: readonly string[]): Style =>
  chain.reduce((style, name) => (style as unknown as Record<string, unknown>)[name], color) as Style;

/** The styles the formatters use, and others of chalk's. */
const NAMES = ["dim", "yellow", "red", "green", "underline", "cyan", "bold", "italic", "gray", "bgRed", "inverse"];

describe("the plain colour (colour off)", () => {
  test("every style and chain of styles leaves its arguments as chalk at level 0 does", async () => {
    const plain = await colorAt(0);
    const chalk = createColor(0);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(""), fc.constant(undefined)), { maxLength: 3 }),
        (chain, texts) => {
          expect(styleOf(plain, chain)(...texts)).toBe(styleOf(chalk, chain)(...texts));
        },
      ),
    );
    expect(plain.level).toBe(chalk.level);
    expect(plain.visible("shown only in colour")).toBe(chalk.visible("shown only in colour"));
  });

  test("colour on is chalk's", async () => {
    expect((await colorAt(1)).red("a")).toBe(createColor(1).red("a"));
    expect((await colorAt(1)).red("a")).not.toBe("a");
  });
});
