/**
 * The comparison of one pair of `diff` (docs/spec.md, section 12): two versions of a dataset file streamed through the
 * core's RecordDiff, or two record schemas through diffSchemas; and the kind of task of diff's pool (worker.ts) that
 * compares a batch of pairs given as plain data.
 */
import { conflictMessage } from "../../core/lines.js";
import type { DiffPair } from "../../core/diff/diff.js";
import { RecordDiff } from "../../core/diff/diff-records.js";
import { diffSchemas } from "../../core/diff/diff-schema.js";
import { UNCOMPARED_FIELDS } from "../../core/records/record-fingerprint.js";
import { looksLike } from "../../core/report/file-kind.js";
import { buildRecordSchema } from "../../core/schema/schema.js";
import { OperationalError } from "../errors.js";
import { describeJsonError } from "../files/json-file.js";
import { encodeFailure, type TaskFailure } from "../pool/task-failure.js";
import { DatasetNotes, markTextChanges } from "./diff-datasets.js";
import { type DiffSide, readRecords, type SideData, sideOf } from "./diff-sides.js";

/** A pair of dataset files that a worker compares. */
export interface PairTask {
  old: SideData;
  new: SideData;
}

/** Compares a pair given as plain data: what `diffRecordSides` gives for the same sides. */
export async function comparePairTask(task: PairTask): Promise<DiffPair> {
  return diffRecordSides(await sideOf(task.old), await sideOf(task.new));
}

/**
 * A task of the pool (worker.ts): compares a batch of dataset file pairs (diff), in order; the first that fails ends
 * the batch with its error.
 */
export async function diffPairs(task: { pairs: PairTask[] }): Promise<(DiffPair | TaskFailure)[]> {
  const results: (DiffPair | TaskFailure)[] = [];
  for (const pair of task.pairs) {
    try {
      results.push(await comparePairTask(pair));
    } catch (error) {
      results.push(encodeFailure(error));
      break;
    }
  }
  return results;
}

/** The kind of task of diff's pool. */
export const DIFF_TASKS = { diffPairs };
export type DiffTasks = typeof DIFF_TASKS;

/** Compares two versions of one dataset file: three streaming passes at most (src/core/diff/diff-records.ts). */
export async function diffRecordSides(old: DiffSide, now: DiffSide): Promise<DiffPair> {
  const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: old.label, newFile: now.label });
  const warnings: string[] = [];
  const unreadable = (side: DiffSide, count: number) => {
    if (count > 0)
      warnings.push(
        `${side.label}: ${count} ${count === 1 ? "line is" : "lines are"} not a record with a citationAddress and ${count === 1 ? "was" : "were"} not compared (run citation-targets validate)`,
      );
  };
  /**
   * Reads one side; a side with lines but not one record is not a dataset file at all, and comparing it would say "no
   * changes".
   */
  const read = async (side: DiffSide, add: (record: Record<string, unknown>, line: number, text: string) => void) => {
    let records = 0;
    const { unreadable: count, conflictMarkers } = await readRecords(side, (record, line, text) => {
      records++;
      add(record, line, text);
    });
    // A file git left in conflict holds both sides' records: compared, it would pass the gate on half of them.
    if (conflictMarkers > 0)
      throw new OperationalError(conflictMessage(side.label, `${conflictMarkers} marker lines`, true));
    if (records === 0 && count > 0) {
      const kind = looksLike(side.label);
      throw new OperationalError(
        `${side.label} is not a citation-targets JSONL file: none of its ${count} ${count === 1 ? "line is a record" : "lines is a record"}${kind !== undefined && !kind.startsWith("JSON Lines") ? ` (it looks like ${kind})` : ""}; diff compares JSONL files of records, or two record JSON Schemas with --schema`,
      );
    }
    unreadable(side, count);
  };
  const notes = new DatasetNotes();
  if (!old.missing)
    await read(old, (record, line, text) => {
      notes.old(record, line);
      diff.addOld(record, line, text.length);
    });
  if (!now.missing)
    await read(now, (record, line) => {
      notes.now(record);
      diff.addNew(record, line);
    });
  // Pass 3 parses only the old lines it looks at: those of the records that went (or changed, in a large file).
  if (diff.endNew() && !old.missing) await readRecords(old, (record) => diff.addOldDetail(record), diff.detailLines());
  const result = diff.finish();
  await markTextChanges(
    result.changes,
    notes.oldLines,
    (onRecord, only) => readRecords(old, onRecord, only),
    (onRecord, only) => readRecords(now, onRecord, only),
  );
  return {
    type: "records",
    old: old.label,
    new: now.label,
    ...(old.missing ? { oldMissing: true } : {}),
    ...(now.missing ? { newMissing: true } : {}),
    dataset: notes.dataset(now.missing ? old.label : now.label),
    records: { before: result.before, after: result.after },
    changes: result.changes,
    warnings: [...warnings, ...result.warnings],
  };
}

async function readSchema(side: DiffSide): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of side.open()) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OperationalError(`schema ${side.label} is not valid JSON: ${describeJsonError(text, error)}`);
  }
}

/**
 * Compares two record schemas. A side that is missing stands for the bundled schema (what validate uses when a
 * repository has none).
 */
export async function diffSchemaSides(old: DiffSide, now: DiffSide): Promise<DiffPair> {
  const bundled = "(bundled schema)";
  const before = old.missing ? buildRecordSchema() : await readSchema(old);
  const after = now.missing ? buildRecordSchema() : await readSchema(now);
  const result = diffSchemas(before, after);
  return {
    type: "schema",
    old: old.missing ? `${old.label} ${bundled}` : old.label,
    new: now.missing ? `${now.label} ${bundled}` : now.label,
    ...(old.missing ? { oldMissing: true } : {}),
    ...(now.missing ? { newMissing: true } : {}),
    digests: result.digests,
    changes: result.changes,
    warnings: [],
  };
}
