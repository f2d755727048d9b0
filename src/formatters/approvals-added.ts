/** How `diff --write-approvals` names each entry it added: what it approves, how many changes, which addresses. */
import type { ApprovalToAdd } from "../core/diff/approvals-file.js";
import { describeApproval } from "../core/diff/diff.js";
import { plural } from "../core/text.js";

/** Addresses listed per entry; the rest are counted. */
const SHOWN_ADDRESSES = 5;

/** `{"dataset":"gg","versionDate":"2024-07-19","kind":"record-changed"}: 3 changes (gg/index.md#art-1, …)`. */
export function describeAddedApproval(entry: ApprovalToAdd): string {
  const { addresses } = entry;
  const shown = addresses.slice(0, SHOWN_ADDRESSES).join(", ");
  const more = addresses.length > SHOWN_ADDRESSES ? `, and ${addresses.length - SHOWN_ADDRESSES} more` : "";
  return `${describeApproval(entry.approval)}: ${plural(entry.changes, "change")}${shown !== "" ? ` (${shown}${more})` : ""}`;
}
