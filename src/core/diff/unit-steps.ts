/**
 * Which steps of a local coordinate are units' (docs/spec.md, section 7), and a target's designation for likely moves
 * (section 12.4): for the unit changes and the record diff, apart from diff.ts, which the command line loads at start.
 */
import { isPositionalSegment } from "../address/address.js";
import { UNIT_KINDS } from "../address/unit-labels.js";

const PREFIXES = new Set(UNIT_KINDS.map((kind) => kind.prefix));

/** Whether the last step of a local is a unit's: positional (`_1`), or a unit kind's prefix and label (`abs-2a`). */
export function isUnitStep(step: string): boolean {
  if (isPositionalSegment(step)) return true;
  const dash = step.indexOf("-");
  return dash > 0 && PREFIXES.has(step.slice(0, dash));
}

/**
 * The designation of an address: the last segment of its local coordinate without a `~N` tie-break; for a container,
 * its folder's name. Undefined for `_top`.
 */
export function designationOf(parts: { targetKind: string; path: string; local?: string }): string | undefined {
  const source = parts.targetKind === "structural-container" || parts.local === undefined ? parts.path : parts.local;
  // Without its qualifiers and tie-break (docs/spec.md, section 7, "Ties"): `art-1~titre-ii` and `art-1~2` are
  // designated `art-1`.
  const steps = source.split("/");
  const last = steps[steps.length - 1]!.replace(/~.*$/, "");
  // A positional unit below the heading (`_1`) has no designation: its number says only where it stands.
  if (last === "" || last.charCodeAt(0) === 0x5f) return undefined;
  // A unit's designation is its provision's with its own steps (`§-7/abs-1`): `abs-1` alone names one Absatz of nearly
  // every section, so that a repealed § 7 Abs. 1 would be said to have moved to a new § 5a Abs. 1.
  let first = steps.length - 1;
  while (first > 0 && isUnitStep(steps[first]!.replace(/~.*$/, ""))) first--;
  return first === steps.length - 1
    ? last
    : steps
        .slice(first)
        .map((step) => step.replace(/~.*$/, ""))
        .join("/");
}
