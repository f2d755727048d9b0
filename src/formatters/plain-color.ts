/**
 * The colour of a report as the command line picks it: chalk (color.ts) only when colour is on. Off (no TTY, NO_COLOR,
 * `--no-color`: most runs), every style leaves its text as chalk at level 0 does (`color.red.bold("a")` is `"a"`), and
 * chalk is never loaded, some 3 ms of start-up (bench/RESULTS.md, "Start-up"; test/plain-color.test.ts holds the two
 * alike).
 */
import type { ChalkInstance } from "chalk";

export { colorLevel } from "./color-level.js";

/** Its text as chalk at level 0 gives it: one argument as a string, several joined by spaces. */
const plainText = (...texts: unknown[]): string => (texts.length === 1 ? `${texts[0]}` : texts.join(" "));

/**
 * Every style of it, chained or not, is itself; `visible` (text shown only with colour) is empty, as chalk's. Not a
 * thenable (`then` is no style), so that a promise can resolve to it.
 */
const PLAIN: ChalkInstance = new Proxy(plainText, {
  get: (target, key) =>
    key === "level"
      ? 0
      : key === "visible"
        ? () => ""
        : typeof key === "string" && key !== "then" && !(key in Function.prototype)
          ? PLAIN
          : Reflect.get(target, key),
}) as unknown as ChalkInstance;

/** The colour at `level`: chalk's for 1 to 3, loaded then; the plain one for 0. */
export async function colorAt(level: 0 | 1 | 2 | 3): Promise<ChalkInstance> {
  return level === 0 ? PLAIN : (await import("./color.js")).createColor(level);
}
