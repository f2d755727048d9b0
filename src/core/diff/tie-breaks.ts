/**
 * Positional tie-breaks that may have shifted between two versions of a dataset (docs/spec.md, "Ties"), from their
 * addresses alone. Pure.
 */

/** A positional tie-break at the end of an address: `…#art-2~3`. */
const POSITIONAL = /~[1-9][0-9]*$/;

/**
 * The addresses whose positional tie-break (`~N`, docs/spec.md, "Ties") may now name another of its truly identical
 * siblings: every address of a tie group (an address and its `~2`, `~3`, … forms) that is in both versions, when the
 * number of the group's addresses changed, and every address below one of them (`…#art-92/fussnoten`). A sibling
 * inserted or deleted among identical ones shifts the `~N` of the ones after it; `diff` reports them as breaking so
 * that such a shift is never silent.
 */
export function tieBreakShifts(before: Iterable<string>, after: Iterable<string>): string[] {
  const old = new Set(before);
  const now = new Set(after);
  const bases = new Set<string>();
  for (const address of old) if (POSITIONAL.test(address)) bases.add(address.replace(POSITIONAL, ""));
  for (const address of now) if (POSITIONAL.test(address)) bases.add(address.replace(POSITIONAL, ""));
  if (bases.size === 0) return [];
  const count = (set: Set<string>) => {
    const counts = new Map<string, number>();
    for (const address of set) {
      const base = POSITIONAL.test(address) ? address.replace(POSITIONAL, "") : address;
      if (bases.has(base)) counts.set(base, (counts.get(base) ?? 0) + 1);
    }
    return counts;
  };
  const was = count(old);
  const is = count(now);
  const changed = new Set([...bases].filter((base) => was.get(base) !== is.get(base)));
  if (changed.size === 0) return [];
  const shifted: string[] = [];
  for (const address of old) {
    if (!now.has(address)) continue;
    const base = POSITIONAL.test(address) ? address.replace(POSITIONAL, "") : address;
    if (changed.has(base)) {
      shifted.push(address);
      continue;
    }
    // The addresses below a shifted one (`…#art-92/fussnoten` below `…#art-92`) moved with it.
    const hash = address.indexOf("#");
    for (
      let slash = address.indexOf("/", hash + 1);
      hash !== -1 && slash !== -1;
      slash = address.indexOf("/", slash + 1)
    ) {
      if (changed.has(address.slice(0, slash))) {
        shifted.push(address);
        break;
      }
    }
  }
  return shifted.sort();
}
