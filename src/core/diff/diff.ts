/**
 * What `diff` reports between two versions: the change kinds of docs/spec.md, section 12
 * ("Versioning and compatibility"), their classes, the report every diff formatter renders, the
 * approvals of breaking changes, and the gate (`--fail-on`). Pure: no I/O.
 */

/** Additive changes: a consumer of the old version keeps working. */
export const ADDITIVE_KINDS = ["enum-value-added", "field-added", "record-added"] as const;
/** Breaking changes: a consumer of the old version may break. */
export const BREAKING_KINDS = [
  "contract-digest-changed",
  "digest-framing-changed",
  "enum-value-removed",
  "field-removed",
  "path-pattern-changed",
  "record-changed",
  "record-removed",
  "schema-digest-changed",
] as const;
/** Every change kind, in the order reports list them: breaking first, then additive. */
export const CHANGE_KINDS = [...BREAKING_KINDS, ...ADDITIVE_KINDS] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];
export type ChangeClass = "additive" | "breaking";

/** What `--fail-on` fails on: breaking changes (default), any change, or nothing. */
export const FAIL_ON_LEVELS = ["breaking", "any", "none"] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

const ADDITIVE = new Set<string>(ADDITIVE_KINDS);

export function classOf(kind: ChangeKind): ChangeClass {
  return ADDITIVE.has(kind) ? "additive" : "breaking";
}

/** One line per kind, for help texts and SARIF rule descriptors. */
export const CHANGE_KIND_DESCRIPTIONS: Record<ChangeKind, string> = {
  "contract-digest-changed":
    "the contract digest changed for a reason no finer kind names (the address grammar version the schema declares)",
  "digest-framing-changed": "the framing of citationTargetId (citation-target-id/v1) changed",
  "enum-value-removed": "a value was removed from an enum (or const) of the schema",
  "field-removed": "a field was removed from a record variant",
  "path-pattern-changed":
    "a path pattern changed: the dataset file's path pattern, or a pattern of a path field (the shared path rule)",
  "record-changed":
    "a record kept its citationAddress but a compared field changed (text, heading, trail, paths, kinds…)",
  "record-removed": "a citationAddress is gone",
  "schema-digest-changed": "the schema's canonical bytes changed in a way no finer kind names",
  "enum-value-added": "a value was added to an enum (or const) of the schema",
  "field-added": "a field was added to a record variant",
  "record-added": "a new citationAddress",
};

/**
 * One field of a changed record: its value before and after (strings longer than VALUE_LIMIT and `markdown`: their
 * lengths only).
 */
export interface FieldChange {
  field: string;
  /** Absent when the field was absent, or when only the length is given. */
  before?: unknown;
  after?: unknown;
  /** Lengths in UTF-16 code units, for `markdown` and long strings. */
  beforeLength?: number;
  afterLength?: number;
}

/** Strings longer than this are reported by length only (markdown always). */
export const VALUE_LIMIT = 200;

/** Why a removed address is likely the same target as an added one. */
/**
 * What a likely move rests on: the same textDigest, the same designation, or (for a positional unit below the heading)
 * the same text with its white space collapsed (`text`).
 */
export type MoveEvidence = "textDigest" | "designation" | "text";

export interface LikelyMove {
  /** The added address the removed target likely went to. */
  address: string;
  /** What they share: the same textDigest, the same designation (last segment of the local coordinate), or both. */
  by: MoveEvidence[];
}

export interface DiffChange {
  kind: ChangeKind;
  class: ChangeClass;
  /** The citation address, for record kinds. */
  address?: string;
  /** JSON Pointer: into the schema for schema kinds, into a record for the field and framing kinds of a JSONL pair. */
  pointer?: string;
  /** The record variant a field kind of a JSONL pair is about. */
  targetKind?: string;
  /** One line, self-contained. */
  message: string;
  /** record-changed: every compared field that changed. */
  fields?: FieldChange[];
  /** schema-digest-changed: the schema pointers no finer kind explains (at most MAX_POINTERS). */
  pointers?: string[];
  /** Enum kinds: the value; pattern and digest kinds: before and after. */
  value?: unknown;
  before?: unknown;
  after?: unknown;
  /**
   * record-removed: the added addresses it likely moved to (at most MAX_MOVES, strongest first); record-changed of a
   * positional unit below the heading: the address its old text stands under now.
   */
  likelyMoves?: LikelyMove[];
  /** record-removed: further candidates not listed. */
  otherMoveCandidates?: number;
  /**
   * record-changed of a heading or unit, in a dataset with units: the addresses of the units below it that were added,
   * removed or changed (docs/spec.md, "Units below the heading").
   */
  units?: string[];
  /** The file and 1-based line the record is on: the new file, or the old one for record-removed. */
  file?: string;
  line?: number;
  /** headingText of the record (the old one for record-removed), to recognise it. */
  headingText?: string;
  /**
   * record-changed whose text (markdown, heading, trail) changed: "footnotes" or "whitespace" when that is all that
   * changed (an editorial change, src/core/diff/text-change.ts), else "words".
   */
  textChange?: TextChange;
  /** Set when an approval matched. */
  approved?: { reason: string };
}

/** How a changed record's text changed (docs/spec.md, section 12.4). */
export type TextChange = "footnotes" | "whitespace" | "words";

export const MAX_MOVES = 3;
export const MAX_POINTERS = 10;

export interface DigestPair {
  before: string;
  after: string;
}

/** One compared pair: two versions of one dataset file, or of the record schema. */
export interface DiffPair {
  type: "records" | "schema";
  /** How the old and new side are shown: a path, or `<rev>:<path>` for a git revision. */
  old: string;
  new: string;
  /** A side that does not exist (a dataset added or deleted): all its records are added or removed. */
  oldMissing?: boolean;
  newMissing?: boolean;
  /**
   * records: the dataset compared, its slug (the records' `slug`, else the file's name), the old side's when it is
   * another (`oldSlug`: another dataset, or the slug changed) and the versionDate of each side that has records.
   */
  dataset?: { slug: string; oldSlug?: string; versionDate: { before?: string; after?: string } };
  /** records: how many records each side holds (lines with a citationAddress). */
  records?: { before: number; after: number };
  /** schema: the digests of docs/spec.md, section 12.3; shown whether or not they changed. */
  digests?: { schema: DigestPair; contract: DigestPair };
  changes: DiffChange[];
  /** Lines that are not records, duplicate addresses, files of different titles… */
  warnings: string[];
}

export interface DiffSummary {
  pairs: number;
  changes: number;
  breaking: number;
  additive: number;
  approved: number;
  /** Changes that fail the gate: not approved and of a class --fail-on names. */
  failing: number;
  byKind: Partial<Record<ChangeKind, number>>;
  failOn: FailOn;
  passed: boolean;
}

export interface DiffReport {
  /** The git revision compared against, when there was one (as given, with its commit). */
  against?: { revision: string; commit: string };
  /** `diff REV1 REV2`: the revision the new side was read at (as given, with its commit). */
  to?: { revision: string; commit: string };
  pairs: DiffPair[];
  summary: DiffSummary;
  /** Approvals that matched nothing, and other notes for the reader. */
  warnings: string[];
}

/** One reviewed approval: which change(s) it covers and why they are right. */
export interface Approval {
  reason: string;
  kind?: ChangeKind;
  address?: string;
  pointer?: string;
  /** A dataset's slug: only changes of that dataset. */
  dataset?: string;
  /** With `dataset`: only while the new side's versionDate is this one (a later version makes the entry stale). */
  versionDate?: string;
  /** Addresses that start with it, in whole segments (it ends at `/`, `#` or the end of the address). */
  addressPrefix?: string;
}

const APPROVAL_MEMBERS = new Set(["reason", "kind", "address", "pointer", "dataset", "versionDate", "addressPrefix"]);

/**
 * Reads an approvals document: `{ "approvals": [ { "address"?, "pointer"?, "kind"?, "reason" } ] }`
 * (README, "diff", approvals). Returns the approvals, or the problems, one line each.
 */
export function parseApprovals(document: unknown): { approvals: Approval[]; problems: string[] } {
  const problems: string[] = [];
  const approvals: Approval[] = [];
  if (document === null || typeof document !== "object" || Array.isArray(document))
    return { approvals, problems: ['expected an object {"approvals": [...]}'] };
  for (const key of Object.keys(document))
    if (key !== "approvals" && key !== "$schema") problems.push(`unknown member "${key}" (expected "approvals")`);
  const list = (document as { approvals?: unknown }).approvals;
  if (!Array.isArray(list)) return { approvals, problems: [...problems, '"approvals" must be an array'] };
  list.forEach((entry, index) => {
    const at = `approvals[${index}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      problems.push(`${at}: expected an object with "reason" and "address", "pointer" or "kind"`);
      return;
    }
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e))
      if (!APPROVAL_MEMBERS.has(key))
        problems.push(
          `${at}: unknown member "${key}" (expected reason, address, addressPrefix, pointer, dataset, versionDate, kind)`,
        );
    if (typeof e.reason !== "string" || e.reason.trim() === "")
      problems.push(`${at}: "reason" must be a non-empty string: say why the change is right`);
    for (const key of ["address", "pointer", "dataset", "addressPrefix"] as const)
      if (e[key] !== undefined && (typeof e[key] !== "string" || e[key] === ""))
        problems.push(`${at}: "${key}" must be a non-empty string`);
    if (
      e.versionDate !== undefined &&
      (typeof e.versionDate !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(e.versionDate))
    )
      problems.push(`${at}: "versionDate" must be a date YYYY-MM-DD (the new version's)`);
    if (e.versionDate !== undefined && e.dataset === undefined)
      problems.push(`${at}: "versionDate" needs "dataset": the slug of the dataset of that version`);
    if (e.address !== undefined && e.addressPrefix !== undefined)
      problems.push(`${at}: "address" and "addressPrefix" exclude each other`);
    if (e.kind !== undefined && !(CHANGE_KINDS as readonly unknown[]).includes(e.kind))
      problems.push(`${at}: "kind" must be one of ${CHANGE_KINDS.join(", ")}`);
    if (
      e.address === undefined &&
      e.pointer === undefined &&
      e.kind === undefined &&
      e.dataset === undefined &&
      e.addressPrefix === undefined
    )
      problems.push(`${at}: name what it approves: "dataset", "address", "addressPrefix", "pointer" or "kind"`);
    if (e.address !== undefined && e.pointer !== undefined)
      problems.push(`${at}: "address" and "pointer" exclude each other`);
    approvals.push({
      reason: typeof e.reason === "string" ? e.reason : "",
      ...(typeof e.kind === "string" ? { kind: e.kind as ChangeKind } : {}),
      ...(typeof e.address === "string" ? { address: e.address } : {}),
      ...(typeof e.pointer === "string" ? { pointer: e.pointer } : {}),
      ...(typeof e.dataset === "string" ? { dataset: e.dataset } : {}),
      ...(typeof e.versionDate === "string" ? { versionDate: e.versionDate } : {}),
      ...(typeof e.addressPrefix === "string" ? { addressPrefix: e.addressPrefix } : {}),
    });
  });
  return { approvals: problems.length > 0 ? [] : approvals, problems };
}

/**
 * The reason `diff --write-approvals` gives each entry it writes: a placeholder for a reviewer to
 * replace. A reason that starts with "TODO" approves nothing (see applyApprovals).
 */
export const PLACEHOLDER_REASON = "TODO: say why this change is right (e.g. the amending Act), then remove TODO";

/** True for a reason still to be written: one that starts with "TODO" (any case), as --write-approvals leaves it. */
export function isPlaceholderReason(reason: string): boolean {
  return /^\s*todo\b/i.test(reason);
}

/**
 * True when the approval names the change (its kind, address, address prefix and pointer, and the pair's dataset and
 * new version, as far as it gives them). Without the pair, an approval that names a dataset approves nothing.
 */
export function approves(approval: Approval, change: DiffChange, pair?: DiffPair): boolean {
  if (approval.kind !== undefined && approval.kind !== change.kind) return false;
  if (approval.address !== undefined && approval.address !== change.address) return false;
  if (approval.pointer !== undefined && approval.pointer !== change.pointer) return false;
  if (
    approval.addressPrefix !== undefined &&
    (change.address === undefined || !hasAddressPrefix(change.address, approval.addressPrefix))
  )
    return false;
  if (approval.dataset !== undefined && pair?.dataset?.slug !== approval.dataset) return false;
  if (approval.versionDate !== undefined) {
    if (pair === undefined) return false;
    // An entry by address (or prefix) approves its changes while the new side has the version; one of the version's
    // changes as a whole, only those that bring it.
    // An entry by exact address (a change of one target, --write-approvals' for a text changed without a new version)
    // approves it while the new side has the version; any other, only changes that bring the version (an
    // addressPrefix may name a whole dataset).
    const named = approval.address !== undefined;
    if (named ? versionOf(pair) !== approval.versionDate : !bringsVersion(pair, approval.versionDate)) return false;
    // A version dated back (an older date than the old side's) is no version an entry was written for.
    if (datedBack(pair)) return false;
  }
  return true;
}

/** True when the new side's versionDate is older than the old side's. */
export function datedBack(pair: DiffPair): boolean {
  const dates = pair.dataset?.versionDate;
  return dates?.before !== undefined && dates.after !== undefined && dates.after < dates.before;
}

/**
 * True when the pair brings the version of that date: its new side has it and its old side another (or none). A change
 * made while both sides have the date (the law's text changed, its versionDate not) is not the version that was
 * reviewed, and no entry for that date approves it.
 */
function bringsVersion(pair: DiffPair, versionDate: string): boolean {
  return versionOf(pair) === versionDate && !sameVersion(pair);
}

/** True when both sides of a dataset pair have one versionDate (its text changed without a new version). */
export function sameVersion(pair: DiffPair): boolean {
  const dates = pair.dataset?.versionDate;
  return dates !== undefined && dates.before !== undefined && dates.before === dates.after;
}

/**
 * True when the address starts with the prefix in whole segments: the prefix ends at `/` or `#`, or the address goes
 * on with `/` or `#` after it, or they are equal (`…#§-82` is a prefix of `…#§-82/abs-1`, never of `…#§-823`).
 */
export function hasAddressPrefix(address: string, prefix: string): boolean {
  if (!address.startsWith(prefix)) return false;
  if (address.length === prefix.length || prefix.endsWith("/") || prefix.endsWith("#")) return true;
  const next = address[prefix.length];
  return next === "/" || next === "#";
}

/** The version an approval's `versionDate` is compared with: the new side's (the old one's for a dataset removed). */
export function versionOf(pair: DiffPair): string | undefined {
  return pair.dataset?.versionDate.after ?? (pair.newMissing ? pair.dataset?.versionDate.before : undefined);
}

/** Describes an approval for a warning: `{"address":"…","kind":"record-removed"}`. */
export function describeApproval(approval: Approval): string {
  const { reason: _reason, ...what } = approval;
  return JSON.stringify(what);
}

/**
 * Marks every change an approval matches (the first matching approval's reason); returns the approvals
 * that matched nothing. An approval whose reason is a placeholder (isPlaceholderReason) matches but
 * approves nothing: the change still fails the gate until a reviewer writes why it is right.
 */
export function applyApprovals(pairs: DiffPair[], approvals: readonly Approval[]): Approval[] {
  const used = new Set<number>();
  for (const pair of pairs) {
    for (const change of pair.changes) {
      approvals.forEach((approval, index) => {
        if (!approves(approval, change, pair)) return;
        used.add(index);
        if (!change.approved && !isPlaceholderReason(approval.reason)) change.approved = { reason: approval.reason };
      });
    }
  }
  return approvals.filter((_, index) => !used.has(index));
}

/**
 * The warnings about an approvals file: each approval that matched nothing, and each that matched but still has a
 * placeholder reason.
 */
export function approvalWarnings(
  approvals: readonly Approval[],
  unmatched: readonly Approval[],
  pairs: readonly DiffPair[] = [],
): string[] {
  const stale = new Set(unmatched);
  return approvals.flatMap((approval) => {
    if (stale.has(approval)) {
      // A version that is no longer the new side's: the law moved on since the entry was reviewed.
      const other =
        approval.versionDate !== undefined
          ? pairs.find((pair) => pair.dataset?.slug === approval.dataset && versionOf(pair) !== undefined)
          : undefined;
      const named = approval.address !== undefined;
      if (other !== undefined && versionOf(other) === approval.versionDate && datedBack(other))
        return [
          `approval ${describeApproval(approval)} is for ${approval.dataset} ${approval.versionDate}, to which the law is dated back (from ${other.dataset!.versionDate.before}): no entry with a versionDate approves a version dated back; date the new version after ${other.dataset!.versionDate.before} (update --version-date), or, if the date was corrected, approve its changes by address without a versionDate`,
        ];
      if (other !== undefined && !named && versionOf(other) === approval.versionDate && sameVersion(other))
        return [
          `approval ${describeApproval(approval)} is for ${approval.dataset} ${approval.versionDate}, which both sides have: the law's text changed without a new versionDate, so the entry approves nothing; give the new version its date (update --version-date) and review its changes`,
        ];
      if (other !== undefined && versionOf(other) !== approval.versionDate)
        return [
          `approval ${describeApproval(approval)} is for ${approval.dataset} ${approval.versionDate}, not ${versionOf(other)}: stale (it approves nothing; review the new version's changes)`,
        ];
      // A dataset no pair compared (a slug mistyped, or a law not in this diff): said so, with the ones compared.
      if (
        approval.dataset !== undefined &&
        pairs.some((pair) => pair.dataset !== undefined) &&
        !pairs.some((pair) => pair.dataset?.slug === approval.dataset || pair.dataset?.oldSlug === approval.dataset)
      ) {
        const slugs = [...new Set(pairs.flatMap((pair) => (pair.dataset ? [pair.dataset.slug] : [])))];
        return [
          `approval ${describeApproval(approval)} names dataset ${approval.dataset}, which this diff does not compare (it compares ${slugs.slice(0, 5).join(", ")}${slugs.length > 5 ? `, and ${slugs.length - 5} more` : ""}): a slug mistyped? It matches no change`,
        ];
      }
      return [`approval ${describeApproval(approval)} matches no change (is it still needed?)`];
    }
    if (isPlaceholderReason(approval.reason))
      return [
        `approval ${describeApproval(approval)} has the placeholder reason ${JSON.stringify(approval.reason)}: it approves nothing until its reason says why the change is right`,
      ];
    if (isKindOnly(approval))
      return [
        `approval ${describeApproval(approval)} approves every ${approval.kind} change of every dataset, for as long as it is there: name a "dataset" and its "versionDate" to approve one law's version`,
      ];
    const version = unscopedVersion(approval, pairs);
    if (version !== undefined)
      return [
        `approval ${describeApproval(approval)} names no versionDate, so it approves such a change in every version of the law (here ${version}), not only the one it was reviewed for: name its "dataset" and that "versionDate" by hand (--write-approvals writes new entries so, and leaves this one as it is)`,
      ];
    return [];
  });
}

/**
 * An entry of a law's record changes without a versionDate (written by hand, or by --write-approvals before its
 * entries named the version) goes on approving them in every later version; the version of the first change it
 * approves (`mg 2026-01-01`), so that a warning says so. Not for a law dated back, which no entry with a versionDate
 * approves, nor for an entry by pointer (a change of the format, not of a law).
 */
function unscopedVersion(approval: Approval, pairs: readonly DiffPair[]): string | undefined {
  if (approval.versionDate !== undefined || approval.pointer !== undefined) return undefined;
  for (const pair of pairs) {
    const version = versionOf(pair);
    if (version === undefined || datedBack(pair)) continue;
    if (pair.changes.some((change) => change.address !== undefined && approves(approval, change, pair)))
      return `${pair.dataset!.slug} ${version}`;
  }
  return undefined;
}

/** An entry that names only a kind: it approves every change of that kind, in every dataset. */
export function isKindOnly(approval: Approval): boolean {
  return (
    approval.kind !== undefined &&
    approval.address === undefined &&
    approval.pointer === undefined &&
    approval.dataset === undefined &&
    approval.addressPrefix === undefined
  );
}

/** True when the change fails the gate. */
export function failsGate(change: DiffChange, failOn: FailOn): boolean {
  if (change.approved) return false;
  return failOn === "any" || (failOn === "breaking" && change.class === "breaking");
}

/** Counts by class and kind, approved and failing, and whether the gate passed. */
export function summarizeDiff(pairs: readonly DiffPair[], failOn: FailOn): DiffSummary {
  const byKind: Partial<Record<ChangeKind, number>> = {};
  let breaking = 0;
  let additive = 0;
  let approved = 0;
  let failing = 0;
  let changes = 0;
  for (const pair of pairs) {
    for (const change of pair.changes) {
      changes++;
      byKind[change.kind] = (byKind[change.kind] ?? 0) + 1;
      change.class === "breaking" ? breaking++ : additive++;
      if (change.approved) approved++;
      if (failsGate(change, failOn)) failing++;
    }
  }
  const ordered: Partial<Record<ChangeKind, number>> = {};
  for (const kind of CHANGE_KINDS) if (byKind[kind] !== undefined) ordered[kind] = byKind[kind];
  return {
    pairs: pairs.length,
    changes,
    breaking,
    additive,
    approved,
    failing,
    byKind: ordered,
    failOn,
    passed: failing === 0,
  };
}

/** 0 when the gate passed, 1 when it failed. (Usage and I/O errors, 2, never make a report.) */
export function diffExitCode(report: DiffReport): 0 | 1 {
  return report.summary.passed ? 0 : 1;
}

/** Orders a pair's changes: by kind (breaking first, as CHANGE_KINDS), then by line, then as found. */
export function sortChanges(changes: DiffChange[]): DiffChange[] {
  const rank = new Map<string, number>(CHANGE_KINDS.map((kind, index) => [kind, index]));
  return changes
    .map((change, index) => ({ change, index }))
    .sort(
      (a, b) =>
        rank.get(a.change.kind)! - rank.get(b.change.kind)! ||
        (a.change.line ?? 0) - (b.change.line ?? 0) ||
        a.index - b.index,
    )
    .map(({ change }) => change);
}
