/** What the diff formats share: their context, how loud a change is, and how fields, moves and the summary read. */
import { type UnitChangeKind, unitKinds, unitsBelow } from "../core/diff/unit-changes.js";
import type { ChalkInstance } from "chalk";
import type { DiffChange, DiffPair, DiffReport, FieldChange } from "../core/diff/diff.js";
import { failsGate } from "../core/diff/diff.js";
import { MAX_SHOWN, plural } from "../core/text.js";

export interface DiffFormatContext {
  color: ChalkInstance;
  /** The tool's version, for formats that name the tool (SARIF). */
  toolVersion?: string;
  /**
   * Where the working directory is in the repository (see FormatContext): SARIF and GitHub annotations give paths from
   * the repository root.
   */
  cwdInRepository?: string;
}

export type DiffFormatter = (report: DiffReport, context: DiffFormatContext) => string;

/**
 * How loud a change is: it fails the gate (error), it is breaking but does not (warning: approved or --fail-on none),
 * or it is additive (note).
 */
export function changeLevel(change: DiffChange, report: DiffReport): "error" | "warning" | "note" {
  if (failsGate(change, report.summary.failOn)) return "error";
  return change.class === "breaking" ? "warning" : "note";
}

/** A value for a one-line message: strings quoted and cut, arrays and others as JSON, absent as "(absent)". */
export function showValue(value: unknown): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > MAX_SHOWN + 2 ? `${text.slice(0, MAX_SHOWN)}…${text.endsWith('"') ? '"' : ""}` : text;
}

/**
 * One changed field in words: `headingText: "6 Interpretation" → "6 Definitions and interpretation"`, `markdown: 52 →
 * 80 characters`.
 */
export function describeField(field: FieldChange): string {
  if (field.beforeLength !== undefined || field.afterLength !== undefined) {
    const side = (length: number | undefined, value: unknown) =>
      length !== undefined ? String(length) : value === undefined ? "(absent)" : showValue(value);
    return `${field.field}: ${side(field.beforeLength, field.before)} → ${side(field.afterLength, field.after)} characters`;
  }
  if (field.field === "textDigest" && typeof field.before === "string" && typeof field.after === "string")
    return `textDigest: ${field.before.slice(0, 12)}… → ${field.after.slice(0, 12)}…`;
  if (Array.isArray(field.before) && Array.isArray(field.after)) {
    // A trail or path: the common start is left out, so the part that changed shows.
    const before = field.before;
    const after = field.after;
    let common = 0;
    while (
      common < before.length &&
      common < after.length &&
      JSON.stringify(before[common]) === JSON.stringify(after[common])
    )
      common++;
    const show = (items: unknown[]) =>
      `[${[...(common > 0 ? ["…"] : []), ...items.slice(common).map(showValue)].join(", ")}]`;
    return `${field.field}: ${show(before)} → ${show(after)}`;
  }
  if (typeof field.before === "string" && typeof field.after === "string") {
    const [before, after] = showDifference(field.before, field.after);
    return `${field.field}: ${before} → ${after}`;
  }
  return `${field.field}: ${showValue(field.before)} → ${showValue(field.after)}`;
}

/** Characters shown before the first difference of two long strings. */
const CONTEXT = 12;

/**
 * Two strings for a one-line message, cut so that the part that differs shows: when the first
 * difference lies past what showValue would show, both start a little before it ("…").
 */
export function showDifference(before: string, after: string): [string, string] {
  const a = Array.from(before); // code points, so that a cut never splits a surrogate pair
  const b = Array.from(after);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  if (common + CONTEXT < MAX_SHOWN) return [showValue(before), showValue(after)];
  const from = common - CONTEXT;
  const cut = (chars: string[]) => {
    const rest = chars.slice(from);
    const shown = JSON.stringify(rest.slice(0, MAX_SHOWN).join("")).slice(1, -1);
    return `"…${shown}${rest.length > MAX_SHOWN ? "…" : ""}"`;
  };
  return [cut(a), cut(b)];
}

/**
 * The new side's file as a path (a side read at a revision, `diff REV1 REV2`, without its `<rev>:`), for the formats
 * that place a change in a file.
 */
export function newSidePath(pair: DiffPair, report: DiffReport): string {
  const shown = pair.new.replace(/ \(bundled schema\)$/, "");
  const prefix = report.to ? `${report.to.revision}:` : undefined;
  return prefix !== undefined && shown.startsWith(prefix) ? shown.slice(prefix.length) : shown;
}

/** An editorial text change in words (undefined for any other change): what the text formats show of textChange. */
export function describeTextChange(change: DiffChange): string | undefined {
  if (change.textChange === "footnotes") return "editorial: only footnote references and definitions changed";
  if (change.textChange === "whitespace") return "editorial: only white space changed";
  return undefined;
}

/** The likely moves of a removed record, in words. */
export function describeMoves(change: DiffChange): string | undefined {
  if (!change.likelyMoves) return undefined;
  const listed = change.likelyMoves.map((move) => `${move.address} (same ${move.by.join(" and ")})`).join(", ");
  return `likely moved to ${listed}${change.otherMoveCandidates ? ` and ${change.otherMoveCandidates} more candidates` : ""}`;
}

/**
 * For the formats that show a change's message (which names where it likely moved): only what the message leaves out,
 * the count of other candidates.
 */
export function moreMoveCandidates(change: DiffChange): string | undefined {
  return change.otherMoveCandidates
    ? `and ${change.otherMoveCandidates} more candidates for where it moved`
    : undefined;
}

/** The kinds of the units of each pair's changes, made once a pair (unitKinds). */
const pairKinds = new WeakMap<readonly DiffChange[], (address: string) => UnitChangeKind>();

/**
 * For the formats that show a change by its address, not its message: the units below a heading that changed with it
 * (its message's `; units below it changed: …`), each added or removed one said so by its own change among `changes`
 * (the pair's).
 */
export function describeUnits(change: DiffChange, changes: readonly DiffChange[]): string | undefined {
  if (change.units === undefined || change.address === undefined) return undefined;
  let kindOf = pairKinds.get(changes);
  if (kindOf === undefined) {
    kindOf = unitKinds(changes);
    pairKinds.set(changes, kindOf);
  }
  return unitsBelow(change.address, change.units, kindOf);
}

/** The compact summary: counts by class and kind, approvals, and the gate. */
export function summaryLine(report: DiffReport): string {
  const { summary } = report;
  let before = 0;
  let after = 0;
  let files = 0;
  let schemas = 0;
  for (const pair of report.pairs) {
    if (pair.type === "schema") {
      schemas++;
      continue;
    }
    files++;
    before += pair.records?.before ?? 0;
    after += pair.records?.after ?? 0;
  }
  const scope = [
    ...(files > 0 ? [`${plural(files, "file")}, ${before} → ${after} records`] : []),
    ...(schemas > 0 ? [plural(schemas, "schema")] : []),
  ].join("; ");
  if (summary.changes === 0) return `✔ no changes (${scope})`;
  const kinds = (cls: "breaking" | "additive") =>
    Object.entries(summary.byKind)
      .filter(([kind]) => report.pairs.some((p) => p.changes.some((c) => c.kind === kind && c.class === cls)))
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ");
  const breaking = summary.breaking > 0 ? `${summary.breaking} breaking (${kinds("breaking")})` : "0 breaking";
  const additive = summary.additive > 0 ? `${summary.additive} additive (${kinds("additive")})` : "0 additive";
  const approved = summary.approved > 0 ? `; ${summary.approved} approved` : "";
  const editorial = editorialCounts(report);
  const gate = summary.passed
    ? `the gate passes (--fail-on ${summary.failOn})`
    : `${summary.failing} ${summary.failing === 1 ? "fails" : "fail"} the gate (--fail-on ${summary.failOn})`;
  return `${summary.passed ? "✔" : "✖"} ${plural(summary.changes, "change")} (${scope}): ${breaking}, ${additive}${editorial}${approved}; ${gate}`;
}

/** `; 3 editorial (footnotes 2, whitespace 1)` when some record changes are editorial, else "". */
function editorialCounts(report: DiffReport): string {
  let footnotes = 0;
  let whitespace = 0;
  for (const pair of report.pairs)
    for (const change of pair.changes) {
      if (change.textChange === "footnotes") footnotes++;
      else if (change.textChange === "whitespace") whitespace++;
    }
  if (footnotes + whitespace === 0) return "";
  const parts = [
    ...(footnotes > 0 ? [`footnotes ${footnotes}`] : []),
    ...(whitespace > 0 ? [`whitespace ${whitespace}`] : []),
  ];
  return `; ${footnotes + whitespace} editorial (${parts.join(", ")})`;
}
