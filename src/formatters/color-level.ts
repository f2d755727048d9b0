/** The colour level of a report: chalk's (color.ts) when on, the plain colour (plain-color.ts) when off. */

/** Colour is on only for a TTY, unless NO_COLOR (off) or FORCE_COLOR (on, or off for "0"/"false") say otherwise. */
export function colorLevel(
  env: Record<string, string | undefined>,
  isTTY: boolean | undefined,
  flag?: boolean,
): 0 | 1 | 2 | 3 {
  if (flag === false) return 0;
  if (flag === true) return 1;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === "0" || force === "false") return 0;
    return force === "2" ? 2 : force === "3" ? 3 : 1;
  }
  return isTTY ? 1 : 0;
}
