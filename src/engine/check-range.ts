/**
 * One file checked in line-aligned byte ranges, on several threads, with exactly the problems, line
 * numbers and order of a one-thread check (docs/spec.md, "Checking one file on several threads").
 *
 * Each range's thread runs the rules that look at one line or one record at a time (the line and
 * record rules, most of the work) and summarises each record for the rules that keep state across
 * the file (dataset and manifest rules): the few fields those rules read (`meta.reads`), with a
 * field equal to the previous record's sent as a bit. One merge, on the coordinating thread, runs
 * those rules over the summaries in file order, then puts every problem back in the order a
 * one-thread check reports it (see ProblemSink) and applies the cap on problems kept.
 */
import { sortProblems, type Problem } from "../core/problem.js";
import type { RecordVisit } from "../rules/define.js";
import { RANKS_PER_LINE, RepeatFolds, readLines, startRules, type FileCheckOptions, type FileResult, type RangePlan } from "./check-file.js";

export type { RangePlan } from "./check-file.js";

/**
 * The summaries of one range's lines, in line order, flat: for each line its number within the range
 * and its flags (RECORD, SCHEMA_VALID, one bit per field equal to the previous record's), then, for a
 * record, the value of each field whose bit is not set (undefined for an absent field).
 */
export interface VisitBatch {
  rows: unknown[];
}

/** What a range's thread found, besides the summaries. Lines are numbered from 1 within the range. */
export interface RangeSummary {
  lines: number;
  records: number;
  problems: Problem[];
  /** Each problem's place in the one-thread order (ProblemSink), within the range. */
  keys: number[];
  unstored: { errors: number; warnings: number };
  /** The summaries of the rules that sum up a range themselves (`createRange`), by rule id. */
  rules: Record<string, unknown>;
}

export interface RangeCheck {
  push(chunk: Uint8Array): void;
  end(): RangeSummary;
}

/**
 * What the ranges of this file carry for its cross-record rules: the fields they read (`meta.reads`),
 * except those of the rules that sum up a range themselves (`createRange`), which are named instead.
 */
export function rangePlan(options: FileCheckOptions): RangePlan {
  const fields = new Set<string>();
  const rangeRules: string[] = [];
  for (const rule of startRules(options, "merge").crossRecordRules) {
    if (rule.createRange) {
      rangeRules.push(rule.id);
      continue;
    }
    if (rule.meta.reads === undefined) throw new Error(`rule ${rule.id} keeps state across records but does not declare the fields it reads (meta.reads)`);
    for (const field of rule.meta.reads) fields.add(field);
  }
  return { fields: [...fields].sort(), rangeRules };
}

const BATCH_ROWS = 4_096;
/** Row flags: the line was a record; it passed the schema; then one bit per field, set when the field equals the previous record's. */
const RECORD = 1;
const SCHEMA_VALID = 2;
const FIRST_FIELD_BIT = 4;
const MAX_FIELDS = 28;

/**
 * Checks one range of a file: the line and record rules, with problems numbered within the range;
 * each record's summary for `fields` goes to `onVisits` in batches, in line order.
 */
export function createRangeCheck(options: FileCheckOptions, plan: RangePlan, onVisits: (batch: VisitBatch) => void): RangeCheck {
  const { fields } = plan;
  if (fields.length > MAX_FIELDS) throw new Error(`cross-record rules read ${fields.length} fields; at most ${MAX_FIELDS} are supported`);
  // The line and record rules need no lock manifest, only its name for their messages.
  const { lock, ...rest } = options;
  const manifestPath = options.manifestPath ?? lock?.manifestPath;
  const rules = startRules(manifestPath === undefined ? rest : { ...rest, manifestPath }, "range", plan.rangeRules);
  const previous: unknown[] = new Array(fields.length).fill(undefined);
  let rows: unknown[] = [];
  let rowCount = 0;
  let records = 0;
  let lines = 0;
  const flush = () => {
    if (rowCount === 0) return;
    onVisits({ rows });
    rows = [];
    rowCount = 0;
  };
  const reader = readLines(rules, (state) => {
    lines = state.number;
    if (rules.runLine(state)) {
      records++;
      const record = state.value as Record<string, unknown>;
      rules.visit({ record, line: state.number, schemaValid: state.schemaValid ?? true });
      let flags = RECORD | (state.schemaValid === false ? 0 : SCHEMA_VALID);
      const at = rows.length;
      rows.push(state.number, 0);
      for (let i = 0; i < fields.length; i++) {
        const value = Object.hasOwn(record, fields[i]!) ? record[fields[i]!] : undefined;
        if (value === previous[i] && (value === undefined || typeof value !== "object")) flags |= FIRST_FIELD_BIT << i;
        else rows.push(value);
        previous[i] = value;
      }
      rows[at + 1] = flags;
    } else {
      rows.push(state.number, 0);
    }
    if (++rowCount >= BATCH_ROWS) flush();
  });
  return {
    push: (chunk) => reader.push(chunk),
    end() {
      reader.end();
      flush();
      const { problems, keys, unstored } = rules.sink;
      return { lines, records, problems, keys, unstored, rules: rules.rangeSummaries() };
    },
  };
}

/** Puts the ranges of one file back together: feed each range's batches, then its summary, range after range in file order. */
export interface RangeMerge {
  addVisits(batch: VisitBatch): void;
  /** Closes the current range: its problems join the file's, and the next range's lines follow its last. */
  endRange(summary: RangeSummary): void;
  end(): FileResult;
}

export function createRangeMerge(options: FileCheckOptions, plan: RangePlan): RangeMerge {
  const { fields } = plan;
  const rules = startRules(options, "merge");
  const { sink } = rules;
  const previous: unknown[] = new Array(fields.length).fill(undefined);
  // The problems so far in one-thread order, cut to the cap as a one-thread check cuts them. Each
  // source (a range, the cross-record rules) kept at least the first `limit` of its own, so the
  // first `limit` of all are among them; the cross-record rules' problems up to the end of a range
  // are all in when the range closes, since their keys follow the lines they were reported at.
  const merged: Problem[] = [];
  const unstored = { errors: 0, warnings: 0 };
  const limit = rules.limits.maxStoredProblems;
  let taken = 0; // cross-record problems merged so far
  // Problems said once per file were folded in each range apart: fold the ranges' together, as one thread would have.
  const folds = new RepeatFolds(options.rules);
  const keep = (reported: Problem) => {
    const problem = folds.take(reported);
    if (problem === undefined) return;
    if (merged.length < limit) merged.push(problem);
    else problem.severity === "error" ? unstored.errors++ : unstored.warnings++;
  };
  let offset = 0;
  let records = 0;
  return {
    addVisits({ rows }) {
      let at = 0;
      while (at < rows.length) {
        const line = offset + (rows[at++] as number);
        const flags = rows[at++] as number;
        if ((flags & RECORD) === 0) {
          rules.skip(line);
          continue;
        }
        // Every field is set, absent ones to undefined, so that all records share one shape (the rules read fields by value, never by presence).
        const record: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) {
          const value = flags & (FIRST_FIELD_BIT << i) ? previous[i] : rows[at++];
          previous[i] = value;
          record[fields[i]!] = value;
        }
        const visit: RecordVisit = { record, line, schemaValid: (flags & SCHEMA_VALID) !== 0 };
        rules.visit(visit);
      }
    },
    endRange(summary) {
      rules.mergeRange(summary.rules, offset);
      const shift = offset * RANKS_PER_LINE;
      summary.problems.forEach((problem, i) => {
        const key = summary.keys[i]! + shift;
        while (taken < sink.problems.length && sink.keys[taken]! < key) keep(sink.problems[taken++]!);
        const shifted = offset === 0 || problem.line === 0 ? problem : { ...problem, line: problem.line + offset };
        if (shifted.repeated && offset > 0) shifted.repeated = { ...shifted.repeated, firstLine: shifted.repeated.firstLine + offset, lastLine: shifted.repeated.lastLine + offset };
        keep(shifted);
      });
      while (taken < sink.problems.length) keep(sink.problems[taken++]!);
      unstored.errors += summary.unstored.errors;
      unstored.warnings += summary.unstored.warnings;
      offset += summary.lines;
      records += summary.records;
      previous.fill(undefined); // each range's summaries start afresh
    },
    end() {
      while (taken < sink.problems.length) keep(sink.problems[taken++]!);
      rules.end();
      unstored.errors += sink.unstored.errors;
      unstored.warnings += sink.unstored.warnings;
      const problems = merged.concat(sink.problems.slice(taken));
      return { path: options.file, records, problems: sortProblems(problems), unstored };
    },
  };
}
