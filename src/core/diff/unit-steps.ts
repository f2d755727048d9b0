/** Which steps of a local coordinate are units' (docs/spec.md, section 7): for the unit changes and the designations. */
import { isPositionalSegment } from "../address/address.js";
import { UNIT_KINDS } from "../address/unit-labels.js";

const PREFIXES = new Set(UNIT_KINDS.map((kind) => kind.prefix));

/** Whether the last step of a local is a unit's: positional (`_1`), or a unit kind's prefix and label (`abs-2a`). */
export function isUnitStep(step: string): boolean {
  if (isPositionalSegment(step)) return true;
  const dash = step.indexOf("-");
  return dash > 0 && PREFIXES.has(step.slice(0, dash));
}
