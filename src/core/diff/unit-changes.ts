/**
 * The units below a heading that changed, listed on the heading's own change (docs/spec.md, section 12.4): in a dataset
 * with units (section 5, "Units below the heading") a unit's text is also its heading's, so an amended Absatz is a
 * record-changed of its own and of its heading; the heading's change names the units below it that were added, removed
 * or changed. Pure.
 */
import { sha256Hex } from "../bytes.js";
import type { DiffChange } from "./diff.js";
import { isUnitStep } from "./unit-steps.js";

/** The most units a heading's message names; the member `units` lists them all. */
const NAMED = 10;

/** Whether an address is a positional unit's (`bgb/bgb.md#§-9/_2`). */
export function isPositionalAddress(address: string): boolean {
  const slash = address.lastIndexOf("/");
  return slash > address.lastIndexOf("#") && address.charCodeAt(slash + 1) === 0x5f;
}

/**
 * Adds to each record-changed the units below it that changed (`units`, their addresses in the order of `changes`),
 * and names them in its message. A record is a unit of another when its address is the other's and steps that are
 * all units' (so a heading below another, `§-3/begründung`, is not).
 */
export function listUnitChanges(changes: DiffChange[]): void {
  const changed = new Map<string, DiffChange>();
  for (const change of changes)
    if (change.kind === "record-changed" && change.address !== undefined) changed.set(change.address, change);
  if (changed.size === 0) return;
  const units = new Map<DiffChange, string[]>();
  for (const change of changes) {
    const address = change.address;
    if (address === undefined || !change.kind.startsWith("record-")) continue;
    const hash = address.indexOf("#");
    if (hash === -1) continue;
    let end = address.length;
    for (let slash = address.lastIndexOf("/"); slash > hash; slash = address.lastIndexOf("/", slash - 1)) {
      if (!isUnitStep(address.slice(slash + 1, end).replace(/~.*$/, ""))) break;
      const parent = changed.get(address.slice(0, slash));
      if (parent !== undefined) {
        const list = units.get(parent);
        if (list) list.push(address);
        else units.set(parent, [address]);
      }
      end = slash;
    }
  }
  if (units.size === 0) return;
  const kindOf = unitKinds(changes);
  for (const [parent, list] of units) {
    parent.units = list;
    parent.message += `; ${unitsBelow(parent.address!, list, kindOf)}`;
  }
}

/**
 * How each unit of a list of changes changed, by its address: `added` (record-added), `removed` (record-removed), else
 * `changed` (a record-changed, or an address both removed and added).
 */
export function unitKinds(changes: readonly DiffChange[]): (address: string) => UnitChangeKind {
  const kinds = new Map<string, UnitChangeKind>();
  for (const { kind, address } of changes) {
    if (address === undefined || !kind.startsWith("record-")) continue;
    const said: UnitChangeKind = kind === "record-added" ? "added" : kind === "record-removed" ? "removed" : "changed";
    const before = kinds.get(address);
    kinds.set(address, before === undefined || before === said ? said : "changed");
  }
  return (address) => kinds.get(address) ?? "changed";
}

export type UnitChangeKind = "changed" | "added" | "removed";

/**
 * `units below it changed: abs-2, abs-2/nr-1` (the first NAMED, then how many more), of a heading's change; a unit added
 * or removed is said so (`units below it changed: abs-2; added: abs-3; removed: abs-4`), by `kindOf`.
 */
export function unitsBelow(
  address: string,
  units: readonly string[],
  kindOf: (unit: string) => UnitChangeKind = () => "changed",
): string {
  const groups: Record<UnitChangeKind, string[]> = { changed: [], added: [], removed: [] };
  for (const unit of units.slice(0, NAMED)) groups[kindOf(unit)].push(unit.slice(address.length + 1));
  const said = (Object.entries(groups) as [UnitChangeKind, string[]][])
    .filter(([, shown]) => shown.length > 0)
    .map(([kind, shown]) => `${kind}: ${shown.join(", ")}`);
  // Of several kinds, the count of those not named is its own part: `… and 5 more` would read as more of the last kind.
  const more =
    units.length <= NAMED
      ? ""
      : said.length > 1
        ? `; and ${units.length - NAMED} more`
        : ` and ${units.length - NAMED} more`;
  return `units below it ${said.join("; ")}${more}`;
}

/**
 * The digest of a text with every run of white space one space, and none at either end (the test of a `whitespace` text
 * change): the key by which a positional unit moved and re-indented is found again. Undefined for a value that is no
 * string.
 */
export function looseTextKey(markdown: unknown): number | undefined {
  // 52 bits of its SHA-256, a number: a statute book has many positional units, and only their keys are kept (a Map of
  // numbers by row). A collision would name a wrong likely move, a hint, never a verdict.
  return typeof markdown === "string"
    ? Number.parseInt(sha256Hex(markdown.replace(/\s+/g, " ").trim()).slice(0, 13), 16)
    : undefined;
}
