/**
 * Bounds on globs (SECURITY.md, "Bounded resources"). Brace expansion is exponential: `{a,b}` twenty
 * times over is a million patterns, and fast-glob expands them all before it matches anything. A
 * pattern from the command line, a config's `patterns` or a lock manifest's `ignore` is refused when
 * its braces would expand to more than MAX_BRACE_EXPANSIONS patterns, counted without expanding them.
 */
import { OperationalError } from "../errors.js";

/** The most patterns one glob's braces may expand to. */
export const MAX_BRACE_EXPANSIONS = 1024;

/**
 * The number of patterns `pattern`'s braces expand to (an upper bound; Infinity once past any sane size), counted in
 * one pass.
 */
export function braceExpansions(pattern: string): number {
  // Each open brace group holds: the product of the groups closed inside the current alternative, the sum over its
  // alternatives so far, and its text.
  const stack: { product: number; sum: number; start: number; commas: number }[] = [];
  let product = 1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") {
      stack.push({ product, sum: 0, start: i + 1, commas: 0 });
      product = 1;
    } else if (c === "," && stack.length > 0) {
      const group = stack[stack.length - 1]!;
      group.sum += product;
      group.commas++;
      product = 1;
    } else if (c === "}" && stack.length > 0) {
      const group = stack.pop()!;
      let alternatives = group.sum + product;
      if (group.commas === 0) alternatives = rangeSize(pattern.slice(group.start, i)) ?? 1;
      product = Math.min(group.product * alternatives, Number.MAX_SAFE_INTEGER);
    }
  }
  // An unclosed group is literal text: count what was closed inside it.
  for (const group of stack.reverse())
    product = Math.min(group.product * (group.sum + product), Number.MAX_SAFE_INTEGER);
  return product;
}

/** The size of a sequence `{1..100}`, `{a..z}`, `{1..100..2}`; undefined when the text is not one. */
function rangeSize(text: string): number | undefined {
  const match = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(text);
  if (!match) return undefined;
  const value = (s: string) => (/^-?\d+$/.test(s) ? Number(s) : s.charCodeAt(0));
  const step = Math.max(1, Math.abs(Number(match[3] ?? 1)));
  return Math.floor(Math.abs(value(match[2]!) - value(match[1]!)) / step) + 1;
}

/** Refuses a glob whose braces expand to more than MAX_BRACE_EXPANSIONS patterns, naming it and where it came from. */
export function checkBraces(pattern: string, from = "pattern"): void {
  const count = braceExpansions(pattern);
  if (count > MAX_BRACE_EXPANSIONS)
    throw new OperationalError(
      `${from} "${pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern}": its braces expand to ${count >= Number.MAX_SAFE_INTEGER ? "too many" : count} patterns, more than the cap of ${MAX_BRACE_EXPANSIONS}: write fewer alternatives`,
    );
}
