/**
 * The approvals file `diff --write-approvals` writes (README, "Approvals"; docs/spec.md, section
 * 12.4): an entry per change that fails the gate for want of an approval, with a placeholder
 * reason, after the entries the file already holds. Pure: the Node side reads and writes the file.
 */
import {
  type Approval,
  approves,
  type DiffChange,
  type DiffPair,
  type DiffReport,
  PLACEHOLDER_REASON,
  datedBack,
  sameVersion,
  versionOf,
} from "./diff.js";

/**
 * The changes that need an approval: every breaking change not approved (whatever `--fail-on` says,
 * so that `--fail-on none` can still write them), and with `--fail-on any` every other change not approved.
 */
function needsApproval(change: DiffChange, report: DiffReport): boolean {
  return !change.approved && (change.class === "breaking" || report.summary.failOn === "any");
}

/**
 * The entry for one change, as narrow as the change allows: its address and kind (a record change:
 * the kind too, so that a later change of another kind at the address is not approved with it), its
 * pointer and kind (a schema change), or only its kind (a change with neither, such as the framing).
 */
export function approvalFor(change: DiffChange, reason: string = PLACEHOLDER_REASON): Approval {
  if (change.address !== undefined) return { address: change.address, kind: change.kind, reason };
  if (change.pointer !== undefined) return { pointer: change.pointer, kind: change.kind, reason };
  return { kind: change.kind, reason };
}

/** Record kinds approved by law and version: one entry per amended dataset version and kind (README, "Approvals"). */
const BY_VERSION = new Set<string>(["record-changed", "record-added"]);

/**
 * The entry for a change in its pair, scoped to the law's version it was reviewed for (the new side's versionDate; the
 * old side's for a dataset removed), so that a later version's change of the same kind at the same address needs a
 * review of its own: a dataset removed is one entry `{dataset, versionDate, kind: "record-removed"}`; a text change
 * (record-changed, record-added) of a new version is one entry per dataset version and kind `{dataset, versionDate,
 * kind}`; any other record change (a record removed from a dataset that remains, a text changed without a new version)
 * is named `{dataset, versionDate, address, kind}`, which approves it while the law has that version. A law dated back
 * has no version an entry could name (its changes are named by address), a dataset without a versionDate neither (its
 * text changes are named by dataset and kind), and a schema, field or framing change is one of the format, not of a law
 * (by pointer and kind: approvalFor).
 */
export function approvalIn(pair: DiffPair, change: DiffChange, reason: string = PLACEHOLDER_REASON): Approval {
  const dataset = pair.type === "records" ? pair.dataset?.slug : undefined;
  if (dataset === undefined || change.address === undefined) return approvalFor(change, reason);
  const versionDate = versionOf(pair);
  if (pair.newMissing && change.kind === "record-removed")
    return { dataset, ...(versionDate !== undefined ? { versionDate } : {}), kind: change.kind, reason };
  // A law dated back: no entry with a versionDate approves it (diff.ts, datedBack), so its changes are named by address
  // (a date corrected is reviewed change by change).
  if (datedBack(pair)) return approvalFor(change, reason);
  if (versionDate === undefined)
    return BY_VERSION.has(change.kind) ? { dataset, kind: change.kind, reason } : approvalFor(change, reason);
  if (BY_VERSION.has(change.kind) && !sameVersion(pair)) return { dataset, versionDate, kind: change.kind, reason };
  // By address while the law has the version: a removal is reviewed by name, and a change with no new version (both
  // sides have one date) matches no entry of the version's changes; the next version makes the entry stale.
  return { dataset, versionDate, address: change.address, kind: change.kind, reason };
}

/** An entry to add, with the changes it covers (their count and addresses, for the report). */
export interface ApprovalToAdd {
  approval: Approval;
  changes: number;
  addresses: string[];
}

/**
 * The entries to add for a report, in the report's order (pairs by name, changes by kind then line):
 * one per change, or per dataset version and kind (approvalIn), that needs an approval and that no
 * entry of `existing` names already (a placeholder entry too: it is there to be edited, not repeated),
 * none twice.
 */
export function approvalsToAdd(report: DiffReport, existing: readonly Approval[]): ApprovalToAdd[] {
  const added = new Map<string, ApprovalToAdd>();
  const keyOf = (approval: Approval) =>
    JSON.stringify([approval.dataset, approval.versionDate, approval.address, approval.pointer, approval.kind]);
  // An entry already there is never written again, whether or not it approves the change (a placeholder does not).
  const there = new Set(existing.map(keyOf));
  for (const pair of report.pairs) {
    for (const change of pair.changes) {
      if (!needsApproval(change, report) || existing.some((approval) => approves(approval, change, pair))) continue;
      const approval = approvalIn(pair, change);
      const key = keyOf(approval);
      if (there.has(key)) continue;
      let entry = added.get(key);
      if (entry === undefined) {
        entry = { approval, changes: 0, addresses: [] };
        added.set(key, entry);
      }
      entry.changes++;
      if (change.address !== undefined) entry.addresses.push(change.address);
    }
  }
  return [...added.values()];
}

/**
 * One entry on one line, its members in a fixed order: dataset, versionDate, address or addressPrefix, pointer, kind,
 * reason.
 */
function formatEntry(approval: Approval): string {
  const ordered: Record<string, string> = {};
  if (approval.dataset !== undefined) ordered.dataset = approval.dataset;
  if (approval.versionDate !== undefined) ordered.versionDate = approval.versionDate;
  if (approval.address !== undefined) ordered.address = approval.address;
  if (approval.addressPrefix !== undefined) ordered.addressPrefix = approval.addressPrefix;
  if (approval.pointer !== undefined) ordered.pointer = approval.pointer;
  if (approval.kind !== undefined) ordered.kind = approval.kind;
  ordered.reason = approval.reason;
  return `{ ${Object.entries(ordered)
    .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(", ")} }`;
}

/**
 * The file's text: `{ "$schema"?, "approvals": [...] }`, an entry a line (so that a review sees one
 * line per approval, and a diff of the file one line per entry added or edited), final newline.
 */
export function formatApprovalsFile(approvals: readonly Approval[], schema?: string): string {
  const head = schema !== undefined ? `  "$schema": ${JSON.stringify(schema)},\n` : "";
  if (approvals.length === 0) return `{\n${head}  "approvals": []\n}\n`;
  return `{\n${head}  "approvals": [\n${approvals.map((a) => `    ${formatEntry(a)}`).join(",\n")}\n  ]\n}\n`;
}
