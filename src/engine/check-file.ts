/**
 * The engine: checks one JSONL file with the rules it is given (as ESLint's linter is given its
 * rules). Each line goes through the line rules' hooks, in their `lineOrder`; a line no hook
 * stopped is a record, handed to every record and dataset rule. Holds one chunk of complete
 * lines (or one longer line) plus what the rules keep across the file.
 */
import { isUtf8, transcode } from "node:buffer";
import type { LockContext } from "../core/lock-context.js";
import { LineReader, type Line, type TextLine } from "../core/lines.js";
import { sortProblems, type Problem, type RuleSetting, type Severity } from "../core/problem.js";
import type { RecordSchemaCheck } from "../core/schema-issues.js";
import { interpolate } from "../core/text.js";
import { DEFAULT_LIMITS, type Limits, type LineState, type LineVerdict, type RecordVisit, type Rule, type RuleContext } from "../rules/define.js";

export interface FileCheckOptions {
  /** The rules to run (the registry's `rules`, or a selection). */
  rules: readonly Rule[];
  /** The file as shown in problems (relative, POSIX). */
  file: string;
  schemaCheck: RecordSchemaCheck;
  /** Severity per rule id; rules not named keep their default. */
  ruleSettings?: Partial<Record<string, RuleSetting>>;
  lock?: LockContext;
  /** The lock manifest as named in messages; default: `lock`'s. Set without `lock` where the manifest rules do not run (a range of a file). */
  manifestPath?: string;
  /** Caps on line length, nesting depth and problems kept (defaults: DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
  /** The file has no name of its own (standard input without --stdin-filename): the file-name rule is not run. */
  fileNameUnknown?: boolean;
}

export interface FileResult {
  path: string;
  records: number;
  problems: Problem[];
  /** Problems counted but not kept, once STORED_PROBLEMS_LIMIT were kept (a file of garbage must not fill memory). */
  unstored: { errors: number; warnings: number };
}

/** How many problems of one file are kept by default; the rest are counted. Problems found at the end of the file are always kept. */
export const STORED_PROBLEMS_LIMIT = DEFAULT_LIMITS.maxStoredProblems;

/** A streaming check of one JSONL file: push its bytes in chunks of any size, then call `end()`. */
export interface FileCheck {
  push(chunk: Uint8Array): void;
  end(): FileResult;
}

/**
 * Valid UTF-8 to a string. Through UTF-16 (ICU's transcoder, then a copy) it is about four times
 * faster than V8's UTF-8 decoder on legislation, whose text is mostly but not all ASCII (7.3 → 1.6 µs
 * per record, bench/stage-costs.js), and gives the same string (test/check-file-decode.test.ts).
 */
const decode = process.versions.icu
  ? (bytes: Uint8Array) => transcode(bytes, "utf8", "ucs2").toString("utf16le")
  : (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"); // a Node built without ICU has no transcoder

/** Resolves the severity of every rule from its default and the settings; rules set to "off" are left out. */
export function resolveSeverities(rules: readonly Rule[], settings: Partial<Record<string, RuleSetting>> = {}): Map<string, Severity> {
  const severities = new Map<string, Severity>();
  for (const rule of rules) {
    const setting = settings[rule.id] ?? rule.meta.defaultSeverity;
    if (setting !== "off") severities.set(rule.id, setting);
  }
  return severities;
}

/** Starts the check of one file. */
export function createFileCheck(options: FileCheckOptions): FileCheck {
  const rules = startRules(options, "all");
  let records = 0;
  const reader = readLines(rules, (state) => {
    if (!rules.runLine(state)) return;
    records++;
    rules.visit({ record: state.value as Record<string, unknown>, line: state.number, schemaValid: state.schemaValid ?? true });
  });
  return {
    push: (chunk) => reader.push(chunk),
    end() {
      reader.end();
      rules.end();
      return { path: options.file, records, problems: sortProblems(rules.sink.problems), unstored: rules.sink.unstored };
    },
  };
}

/**
 * Which rules one instance runs: all of them (one thread), those that look at one line or record
 * at a time (a range of a file checked apart), or those that keep state across the file (run over
 * the ranges' summaries, in file order).
 */
export type Part = "all" | "range" | "merge";

/**
 * Where a problem stands in the order a one-thread check reports it: by the line being read when it
 * was reported, then within that line, line hooks by `lineOrder`, then record handlers by the
 * rule's place in the list. A check of a file in ranges puts its problems back in this order.
 */
const RECORD_RANK = 1_000;
export const RANKS_PER_LINE = 2_048;

/** The most distinct problems a check remembers for folding (a file whose every record has its own wrong slug folds nothing, and must not fill memory). */
const MAX_FOLD_KEYS = 1_000;

/**
 * The problems rules say once per file (`meta.foldRepeats`): the first of each (rule, pointer,
 * message) passes as it is; the second becomes one problem with the rule's `repeated` message,
 * which every later one (or a range's own folded problem, when a file is checked in ranges) adds
 * its records and last line to.
 */
export class RepeatFolds {
  private readonly pointers = new Map<string, Set<string>>();
  private readonly templates = new Map<string, string>();
  private readonly seen = new Map<string, { firstLine: number; folded?: Problem }>();

  constructor(rules: readonly Rule[]) {
    for (const rule of rules) {
      const template = (rule.messages as Record<string, string>).repeated;
      if (rule.meta.foldRepeats === undefined) continue;
      if (template === undefined) throw new Error(`rule ${rule.id} folds repeated problems (meta.foldRepeats) but has no "repeated" message`);
      this.pointers.set(rule.id, new Set(rule.meta.foldRepeats));
      this.templates.set(rule.id, template);
    }
  }

  /** The problem to keep: the problem itself, the folded problem a first repeat makes, or undefined when an earlier fold took it. */
  take(problem: Problem): Problem | undefined {
    if (this.pointers.size === 0 || !this.pointers.get(problem.ruleId)?.has(problem.pointer)) return problem;
    const message = problem.repeated ? String(problem.data.of) : problem.message;
    const key = `${problem.ruleId}\u0000${problem.pointer}\u0000${message}`;
    const fold = this.seen.get(key);
    if (fold === undefined) {
      if (!problem.repeated && this.seen.size < MAX_FOLD_KEYS) this.seen.set(key, { firstLine: problem.line });
      return problem;
    }
    const records = problem.repeated?.records ?? 1;
    const lastLine = problem.repeated?.lastLine ?? problem.line;
    const created = fold.folded === undefined;
    if (fold.folded === undefined) {
      const { excerpt: _excerpt, column: _column, ...rest } = problem;
      fold.folded = { ...rest, messageId: "repeated", data: { of: message }, repeated: { records: 0, firstLine: fold.firstLine, lastLine } };
    }
    const folded = fold.folded;
    const repeated = folded.repeated!;
    repeated.records += records;
    repeated.lastLine = lastLine;
    const more = `${repeated.records} more ${repeated.records === 1 ? "record" : "records"}`;
    const lines = repeated.lastLine === folded.line ? `line ${folded.line}` : `lines ${folded.line} to ${repeated.lastLine}`;
    folded.data = { field: folded.pointer.slice(1), firstLine: repeated.firstLine, records: repeated.records, more, lines, of: message };
    folded.message = interpolate(this.templates.get(folded.ruleId)!, folded.data);
    return created ? folded : undefined;
  }
}

/**
 * The problems of a check, in the order they were reported, each with its key (see RECORD_RANK);
 * past the cap, problems are only counted, except those of the end of the file, which are always kept.
 * Problems a rule says once per file are folded first (RepeatFolds).
 */
export class ProblemSink {
  readonly problems: Problem[] = [];
  readonly keys: number[] = [];
  readonly unstored = { errors: 0, warnings: 0 };
  /** The line being read (0 before the first; set by the reader). */
  at = 0;
  /** Where the problems of the end of the file start, once it is reached. */
  endFrom: number | undefined;
  constructor(
    private readonly limit: number,
    private readonly folds?: RepeatFolds,
  ) {}

  add(reported: Problem, rank: number): void {
    const problem = this.folds ? this.folds.take(reported) : reported;
    if (problem === undefined) return;
    if (this.endFrom === undefined && this.problems.length >= this.limit) {
      problem.severity === "error" ? this.unstored.errors++ : this.unstored.warnings++;
      return;
    }
    this.problems.push(problem);
    this.keys.push(this.at * RANKS_PER_LINE + rank);
  }

  startEnd(): void {
    this.endFrom = this.problems.length;
  }
}

export interface StartedRules {
  sink: ProblemSink;
  limits: Limits;
  /** Runs the line hooks; false when one stopped the line (then the skip handlers have run). */
  runLine(state: LineState): boolean;
  visit(visit: RecordVisit): void;
  skip(line: number): void;
  end(): void;
  /** The dataset and manifest rules that run (for a range: the fields they read). */
  crossRecordRules: Rule[];
  /** In a range: the summaries of the rules that sum up a range themselves (`createRange`), by rule id. */
  rangeSummaries(): Record<string, unknown>;
  /** In the merge: hands each such rule its summary of a range. */
  mergeRange(summaries: Record<string, unknown>, lineOffset: number): void;
}

/** What a range's thread does for the cross-record rules: the fields to summarise each record by, and the rules that sum up a range themselves. */
export interface RangePlan {
  fields: string[];
  rangeRules: string[];
}

export function startRules(options: FileCheckOptions, part: Part, rangeRules: readonly string[] = []): StartedRules {
  const severities = resolveSeverities(options.rules, options.ruleSettings);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const sink = new ProblemSink(limits.maxStoredProblems, new RepeatFolds(options.rules));
  const fileName = options.file.slice(options.file.lastIndexOf("/") + 1);
  const lineHooks: { order: number; hook: (state: LineState) => LineVerdict }[] = [];
  const recordHandlers: ((visit: RecordVisit) => void)[] = [];
  const skipHandlers: ((line: number) => void)[] = [];
  const endHandlers: (() => void)[] = [];
  const crossRecordRules: Rule[] = [];
  const rangeEnds = new Map<string, () => unknown>();
  const rangeMerges = new Map<string, (summary: unknown, lineOffset: number) => void>();
  options.rules.forEach((rule, index) => {
    if (!rule.create) return;
    if (rule.scope === "manifest" && !options.lock && !(part === "range" && rangeRules.includes(rule.id))) return;
    if (rule.id === "file-name" && options.fileNameUnknown) return;
    const isLineRule = rule.scope === "line";
    // Line rules run even when off, since the reader needs them (a line that is not JSON is no record); their reports are dropped.
    if (!isLineRule && !severities.has(rule.id)) return;
    const crossRecord = rule.scope === "dataset" || rule.scope === "manifest";
    const summedUp = part !== "all" && crossRecord && rule.createRange !== undefined;
    if (part === "range" && summedUp && !rangeRules.includes(rule.id)) return; // not in force where the ranges are merged
    if (part === "merge" ? !crossRecord : part === "range" && crossRecord && !summedUp) {
      if (crossRecord) crossRecordRules.push(rule);
      return;
    }
    if (crossRecord) crossRecordRules.push(rule);
    const rank = isLineRule ? (rule.meta.lineOrder ?? RECORD_RANK - 1) : RECORD_RANK + index;
    const severity = severities.get(rule.id);
    const context: RuleContext = {
      fileName,
      file: options.file,
      lock: options.lock,
      manifestPath: options.manifestPath ?? options.lock?.manifestPath,
      schemaCheck: options.schemaCheck,
      limits,
      report({ messageId, data = {}, line, pointer, column, excerpt }) {
        if (severity === undefined) return;
        const template = rule.messages[messageId];
        if (template === undefined) throw new Error(`rule ${rule.id} reported an unknown messageId "${messageId}"`);
        const problem: Problem = { ruleId: rule.id, messageId, data, message: interpolate(template, data), severity, file: options.file, line, pointer };
        if (column !== undefined) problem.column = column;
        if (excerpt !== undefined) problem.excerpt = excerpt;
        sink.add(problem, rank);
      },
    };
    if (summedUp && part === "range") {
      // A rule that sums up a range itself: its range handlers, which report nothing (the rule reports at the end of the file).
      const range = rule.createRange!({ ...context, report: () => {} });
      recordHandlers.push(range.record.bind(range));
      if (range.skipped) skipHandlers.push(range.skipped.bind(range));
      rangeEnds.set(rule.id, range.end.bind(range));
      return;
    }
    const created = rule.create(context);
    // A range of a file is checked apart and never sees the end of the file: only the cross-record rules may act there.
    if (created.end && !crossRecord) throw new Error(`rule ${rule.id} has an end handler but scope "${rule.scope}": only dataset and manifest rules may keep state across lines`);
    if (created.line) lineHooks.push({ order: rule.meta.lineOrder ?? Number.MAX_SAFE_INTEGER, hook: created.line.bind(created) });
    if (summedUp) {
      if (!created.range) throw new Error(`rule ${rule.id} has createRange but its handlers have no range handler`);
      rangeMerges.set(rule.id, created.range.bind(created));
    } else {
      if (created.record) recordHandlers.push(created.record.bind(created));
      if (created.skipped) skipHandlers.push(created.skipped.bind(created));
    }
    if (created.end) endHandlers.push(created.end.bind(created));
  });
  const hooks = lineHooks.sort((a, b) => a.order - b.order).map((h) => h.hook);
  const skip = (line: number) => {
    sink.at = line;
    for (const handle of skipHandlers) handle(line);
  };
  return {
    sink,
    limits,
    crossRecordRules,
    runLine(state) {
      sink.at = state.number;
      for (const hook of hooks) {
        if (hook(state) === "stop") {
          skip(state.number);
          return false;
        }
      }
      return true;
    },
    visit(visit) {
      sink.at = visit.line;
      for (const handle of recordHandlers) handle(visit);
    },
    skip,
    end() {
      sink.startEnd();
      for (const handle of endHandlers) handle();
    },
    rangeSummaries: () => Object.fromEntries([...rangeEnds].map(([id, end]) => [id, end()])),
    mergeRange(summaries, lineOffset) {
      for (const [id, merge] of rangeMerges) merge(summaries[id], lineOffset);
    },
  };
}

/** A line reader that hands each line, as a LineState, to `onLine`. */
export function readLines(rules: StartedRules, onLine: (state: LineState) => void): LineReader {
  const onText = ({ text, number, terminated }: TextLine) => onLine({ text, number, terminated, memo: {} });
  const onBytes = ({ bytes, number, terminated, overlong }: Line) => onLine(overlong === undefined ? { bytes, number, terminated, memo: {} } : { number, terminated, overlong, memo: {} });
  return new LineReader(onText, onBytes, isUtf8, decode, rules.limits.maxLineBytes);
}
