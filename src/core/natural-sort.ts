/** Natural ordering of dataset paths (docs/spec.md, "Lock manifest"): deterministic, locale-free. */

import { INDEX_FILE_NAMES } from "./model.js";

const INDEX_NAMES: readonly string[] = INDEX_FILE_NAMES;
const CHUNK = /(\d+)|(\D+)/g;

/** Compares two names so that digit runs compare by value: "s-2.md" < "s-10.md". Code-unit order otherwise, case folded first. */
export function compareNatural(a: string, b: string): number {
  const ca = a.match(CHUNK) ?? [];
  const cb = b.match(CHUNK) ?? [];
  let caseOrder = 0;
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i]!;
    const y = cb[i]!;
    if (x === y) continue;
    const xd = /^\d/.test(x);
    const yd = /^\d/.test(y);
    if (xd && yd) {
      const diff = Number(BigInt(x) - BigInt(y));
      if (diff !== 0) return diff < 0 ? -1 : 1;
      if (x.length !== y.length) return x.length - y.length;
      continue;
    }
    const xl = x.toLowerCase();
    const yl = y.toLowerCase();
    if (xl !== yl) return xl < yl ? -1 : 1;
    if (caseOrder === 0) caseOrder = x < y ? -1 : 1;
  }
  if (ca.length !== cb.length) return ca.length - cb.length;
  return caseOrder !== 0 ? caseOrder : a < b ? -1 : a > b ? 1 : 0;
}

/** Orders artifact paths: folder by folder, `index.md` then `README.md` first in their folder, then names naturally. */
export function comparePaths(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i]!;
    const y = sb[i]!;
    if (x === y) continue;
    const xi = i === sa.length - 1 ? INDEX_NAMES.indexOf(x) : -1;
    const yi = i === sb.length - 1 ? INDEX_NAMES.indexOf(y) : -1;
    if (xi !== -1 || yi !== -1) {
      if (xi === -1) return 1;
      if (yi === -1) return -1;
      return xi - yi;
    }
    const stem = (name: string, last: boolean) => (last && name.endsWith(".md") ? name.slice(0, -3) : name);
    return compareNatural(stem(x, i === sa.length - 1), stem(y, i === sb.length - 1)) || compareNatural(x, y);
  }
  return sa.length - sb.length;
}
