/**
 * What `diff` reports of the records of a dataset file (src/core/diff/diff-records.ts): a record added, removed (with
 * its likely moves) or changed (with the old and new values of its changed fields), and their changes. Pure.
 */
import { parseAddress } from "../address/address.js";
import {
  type DiffChange,
  type FieldChange,
  type LikelyMove,
  MAX_MOVES,
  type MoveEvidence,
  VALUE_LIMIT,
} from "./diff.js";
import { listUnitChanges } from "./unit-changes.js";
import { designationOf } from "./unit-steps.js";

export type Row = number;

/** A matched record whose compared fields changed. */
export interface Candidate {
  address: string;
  row: Row;
  line: number;
  targetKind: string;
  headingText?: string;
  fields: string[];
  /** New values of the changed fields, as reported. */
  after: Map<string, Reported>;
  /** Old values of the changed fields: at once when the old record is kept, else from pass 3. */
  before?: Map<string, Reported>;
  /** A positional unit below the heading whose old text now stands under another address: where (unit-changes.ts). */
  likelyMoves?: LikelyMove[];
}

export interface Added {
  address: string;
  line: number;
  digest0: number;
  digest1: number;
  headingText?: string;
  /** A positional unit's text with its white space collapsed (looseTextKey). */
  loose?: number;
}

export interface Removed {
  address: string;
  row: Row;
  line: number;
  headingText?: string;
  likelyMoves?: LikelyMove[];
  otherMoveCandidates?: number;
}

/** A value as reported: itself, or only its length (markdown, long strings); nothing when absent. */
export interface Reported {
  value?: unknown;
  length?: number;
}

export function reported(field: string, value: unknown): Reported {
  if (value === undefined) return {};
  if (typeof value === "string" && (field === "markdown" || value.length > VALUE_LIMIT))
    return { length: value.length };
  return { value };
}

/** A changed record of the new side, with its new values of the fields that changed (the old ones come later). */
export function candidateOf(
  address: string,
  row: number,
  line: number,
  record: Record<string, unknown>,
  fields: string[],
): Candidate {
  return {
    address,
    row,
    line,
    targetKind: String(record.targetKind),
    ...(typeof record.headingText === "string" ? { headingText: record.headingText } : {}),
    fields,
    after: new Map(fields.map((field) => [field, reported(field, record[field])])),
  };
}

/** A changed field as reported: its old and new values, or their lengths. */
function fieldChange(field: string, before: Reported, after: Reported): FieldChange {
  return {
    field,
    ...("value" in before ? { before: before.value } : {}),
    ...("value" in after ? { after: after.value } : {}),
    ...(before.length !== undefined ? { beforeLength: before.length } : {}),
    ...(after.length !== undefined ? { afterLength: after.length } : {}),
  };
}

/**
 * For each removed address: added addresses with the same textDigest (`textDigestOf` its old row: two 32-bit words,
 * both 0 when it has none) or the same designation, strongest first (as `likelyMoves`, at most MAX_MOVES).
 */
export function findMoves(
  removedRecords: Removed[],
  addedRecords: Added[],
  textDigestOf: (row: Row) => [number, number],
  looseOf: (row: Row) => number | undefined = () => undefined,
): void {
  if (removedRecords.length === 0 || addedRecords.length === 0) return;
  const byDigest = new Map<string, number[]>();
  const byDesignation = new Map<string, number[]>();
  const push = <K>(map: Map<K, number[]>, key: K, index: number) => {
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  };
  const byLoose = new Map<number, number[]>();
  addedRecords.forEach((added, index) => {
    if (added.digest0 !== 0 || added.digest1 !== 0) push(byDigest, `${added.digest0}:${added.digest1}`, index);
    if (added.loose !== undefined) push(byLoose, added.loose, index);
    const parts = parseAddress(added.address);
    const designation = parts && designationOf(parts);
    if (designation !== undefined) push(byDesignation, designation, index);
  });
  for (const removed of removedRecords) {
    const [d0, d1] = textDigestOf(removed.row);
    const evidence = new Map<number, MoveEvidence[]>();
    if (d0 !== 0 || d1 !== 0)
      for (const index of byDigest.get(`${d0}:${d1}`) ?? []) evidence.set(index, ["textDigest"]);
    // A positional unit moved and re-indented (a wrap-up taken out of a list item): the same text, white space aside.
    const loose = evidence.size === 0 ? looseOf(removed.row) : undefined;
    if (loose !== undefined) for (const index of byLoose.get(loose) ?? []) evidence.set(index, ["text"]);
    const parts = parseAddress(removed.address);
    const designation = parts && designationOf(parts);
    if (designation !== undefined) {
      for (const index of byDesignation.get(designation) ?? []) {
        const by = evidence.get(index);
        if (by) by.push("designation");
        else evidence.set(index, ["designation"]);
      }
    }
    if (evidence.size === 0) continue;
    const ranked = [...evidence].sort(
      ([a, byA], [b, byB]) =>
        byB.length - byA.length || (byA[0] === "designation" ? 1 : 0) - (byB[0] === "designation" ? 1 : 0) || a - b,
    );
    removed.likelyMoves = ranked
      .slice(0, MAX_MOVES)
      .map(([index, by]) => ({ address: addedRecords[index]!.address, by }));
    if (ranked.length > MAX_MOVES) removed.otherMoveCandidates = ranked.length - MAX_MOVES;
  }
}

/** The changes of the records removed, changed and added, in that order (sortChanges orders them). */
export function recordChanges(
  removedRecords: readonly Removed[],
  candidates: readonly Candidate[],
  addedRecords: readonly Added[],
  oldFile: string,
  newFile: string,
): DiffChange[] {
  const changes: DiffChange[] = [];
  for (const removed of removedRecords) {
    const moves = removed.likelyMoves;
    const moveText = moves
      ? `; likely moved to ${moves.map((m) => `${m.address} (same ${m.by.join(" and ")})`).join(", ")}`
      : "";
    changes.push({
      kind: "record-removed",
      class: "breaking",
      address: removed.address,
      message: `${removed.address} removed${moveText}`,
      file: oldFile,
      line: removed.line,
      ...(removed.headingText !== undefined ? { headingText: removed.headingText } : {}),
      ...(moves ? { likelyMoves: moves } : {}),
      ...(removed.otherMoveCandidates ? { otherMoveCandidates: removed.otherMoveCandidates } : {}),
    });
  }
  for (const candidate of candidates) {
    const fields = candidate.fields.map((field) =>
      fieldChange(field, candidate.before?.get(field) ?? {}, candidate.after.get(field) ?? {}),
    );
    const moves = candidate.likelyMoves;
    const moveText = moves
      ? `; its text likely moved to ${moves.map((m) => `${m.address} (same ${m.by.join(" and ")})`).join(", ")}`
      : "";
    changes.push({
      kind: "record-changed",
      class: "breaking",
      address: candidate.address,
      message: `${candidate.address}: ${candidate.fields.join(", ")} changed${moveText}`,
      fields,
      file: newFile,
      line: candidate.line,
      ...(candidate.headingText !== undefined ? { headingText: candidate.headingText } : {}),
      ...(moves ? { likelyMoves: moves } : {}),
    });
  }
  for (const added of addedRecords) {
    changes.push({
      kind: "record-added",
      class: "additive",
      address: added.address,
      message: `${added.address} added`,
      file: newFile,
      line: added.line,
      ...(added.headingText !== undefined ? { headingText: added.headingText } : {}),
    });
  }
  listUnitChanges(changes);
  return changes;
}
