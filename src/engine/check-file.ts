/**
 * The engine: checks one JSONL file with the rules it is given (as ESLint's linter is given its
 * rules). The reader (read-records.ts) turns the bytes into records, saying its problems under the
 * ids of the reading rules; each record goes to every record, dataset and manifest rule in force, in
 * the rules' order. Holds one piece of complete lines (or one longer line) plus what the rules keep
 * across the file.
 */
import type { LockContext } from "../core/lock/lock-context.js";
import { sortProblems, type Problem, type RuleSetting, type Severity } from "../core/report/problem.js";
import type { RecordSchemaCheck } from "../core/schema/schema-issues.js";
import { interpolate } from "../core/text.js";
import { DEFAULT_LIMITS, type Limits, type RecordVisit, type Rule, type RuleReport } from "../rules/define.js";
import { createRecordReader, READING_RULE_IDS, type ReadingRuleId } from "./read-records.js";

export interface FileCheckOptions {
  /**
   * The rules to run (the registry's `rules`, or a selection). Reading is the same whatever the selection; a reading
   * rule left out is silent.
   */
  rules: readonly Rule[];
  /** The file as shown in problems (relative, POSIX). */
  file: string;
  schemaCheck: RecordSchemaCheck;
  /** Severity per rule id; rules not named keep their default. */
  ruleSettings?: Partial<Record<string, RuleSetting>>;
  lock?: LockContext;
  /** The lock manifest as named in messages; default: `lock`'s. */
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

/**
 * How many problems of one file are kept by default; the rest are counted. Problems found at the end of the file have
 * an allowance of their own, the same.
 */
export const STORED_PROBLEMS_LIMIT = DEFAULT_LIMITS.maxStoredProblems;

/** A streaming check of one JSONL file: push its bytes in chunks of any size, then call `end()`. */
export interface FileCheck {
  push(chunk: Uint8Array): void;
  /**
   * The result. `unread`: the file could not be read to its end (its read failed, which the caller reports): the lines
   * read keep their problems, and the rules' checks of the file as a whole (records missing from it, coverage, counts)
   * are not run, since they would speak of a file that was not read.
   */
  end(unread?: boolean): FileResult;
}

/** Resolves the severity of every rule from its default and the settings; rules set to "off" are left out. */
export function resolveSeverities(
  rules: readonly Rule[],
  settings: Partial<Record<string, RuleSetting>> = {},
): Map<string, Severity> {
  const severities = new Map<string, Severity>();
  for (const rule of rules) {
    const setting = settings[rule.id] ?? rule.meta.defaultSeverity;
    if (setting !== "off") severities.set(rule.id, setting);
  }
  return severities;
}

/**
 * What every file's check of a run works out alike from its rules and their settings: the severities and the folds'
 * pointers and templates. The last one is kept: a run checks thousands of files with the same rules and settings.
 */
let lastSetUp: {
  rules: readonly Rule[];
  settings: Partial<Record<string, RuleSetting>> | undefined;
  severities: Map<string, Severity>;
  folds: FoldTemplates;
} = { rules: [], settings: undefined, severities: new Map(), folds: foldTemplatesOf([]) };

function setUpOf(rules: readonly Rule[], settings: Partial<Record<string, RuleSetting>> | undefined) {
  if (lastSetUp.rules !== rules || lastSetUp.settings !== settings)
    lastSetUp = { rules, settings, severities: resolveSeverities(rules, settings), folds: foldTemplatesOf(rules) };
  return lastSetUp;
}

/** Starts the check of one file. */
export function createFileCheck(options: FileCheckOptions): FileCheck {
  const { severities, folds } = setUpOf(options.rules, options.ruleSettings);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const sink = new ProblemSink(
    limits.maxStoredProblems,
    folds.pointers.size === 0 ? undefined : new RepeatFolds(folds),
  );
  const fileName = options.file.slice(options.file.lastIndexOf("/") + 1);
  /** Turns a rule's report into a problem of the file. */
  const reporter =
    (rule: Rule, severity: Severity) =>
    ({ messageId, data = {}, line, pointer, column, excerpt }: RuleReport) => {
      const template = rule.messages[messageId];
      if (template === undefined) throw new Error(`rule ${rule.id} reported an unknown messageId "${messageId}"`);
      const problem: Problem = {
        ruleId: rule.id,
        messageId,
        data,
        message: interpolate(template, data),
        severity,
        file: options.file,
        line,
        pointer,
      };
      if (column !== undefined) problem.column = column;
      if (excerpt !== undefined) problem.excerpt = excerpt;
      sink.add(problem);
    };
  const readingReporters = new Map<string, (report: RuleReport) => void>();
  const recordHandlers: ((visit: RecordVisit) => void)[] = [];
  const skipHandlers: ((line: number) => void)[] = [];
  const endHandlers: (() => void)[] = [];
  for (const rule of options.rules) {
    if (rule.scope === "reading") {
      if (!READING_RULE_IDS.includes(rule.id as ReadingRuleId) || rule.create)
        throw new Error(
          `rule ${rule.id} has scope "reading", but the reader finds only the problems of ${READING_RULE_IDS.join(", ")}, and a reading rule has no handlers`,
        );
      const severity = severities.get(rule.id);
      if (severity !== undefined) readingReporters.set(rule.id, reporter(rule, severity));
      continue;
    }
    const severity = severities.get(rule.id);
    if (!rule.create || severity === undefined) continue;
    if (rule.scope === "manifest" && !options.lock) continue;
    if (rule.id === "file-name" && options.fileNameUnknown) continue;
    const handlers = rule.create({
      fileName,
      file: options.file,
      lock: options.lock,
      manifestPath: options.manifestPath ?? options.lock?.manifestPath,
      report: reporter(rule, severity),
    });
    if (handlers.end && rule.scope === "record")
      throw new Error(
        `rule ${rule.id} has an end handler but scope "record": only dataset and manifest rules may keep state across lines`,
      );
    if (handlers.record) recordHandlers.push(handlers.record.bind(handlers));
    if (handlers.skipped) skipHandlers.push(handlers.skipped.bind(handlers));
    if (handlers.end) endHandlers.push(handlers.end.bind(handlers));
  }
  let records = 0;
  const reader = createRecordReader({
    limits,
    schemaCheck: options.schemaCheck,
    listening: new Set([...readingReporters.keys()] as ReadingRuleId[]),
    report: ({ ruleId, ...report }) => readingReporters.get(ruleId)?.(report),
    record(visit) {
      records++;
      for (const handle of recordHandlers) handle(visit);
    },
    skipped(line) {
      for (const handle of skipHandlers) handle(line);
    },
  });
  return {
    push: (chunk) => reader.push(chunk),
    end(unread = false) {
      reader.end();
      sink.startEnd();
      if (!unread) for (const handle of endHandlers) handle();
      return { path: options.file, records, problems: sortProblems(sink.problems), unstored: sink.unstored };
    },
  };
}

/**
 * The most distinct problems a check remembers for folding (a file whose every record has its own wrong slug folds
 * nothing, and must not fill memory).
 */
const MAX_FOLD_KEYS = 1_000;

/** The pointers whose repeats each rule folds (`meta.foldRepeats`) and its `repeated` message, by rule id. */
interface FoldTemplates {
  pointers: Map<string, Set<string>>;
  templates: Map<string, string>;
}

function foldTemplatesOf(rules: readonly Rule[]): FoldTemplates {
  const pointers = new Map<string, Set<string>>();
  const templates = new Map<string, string>();
  for (const rule of rules) {
    const template = (rule.messages as Record<string, string>).repeated;
    if (rule.meta.foldRepeats === undefined) continue;
    if (template === undefined)
      throw new Error(`rule ${rule.id} folds repeated problems (meta.foldRepeats) but has no "repeated" message`);
    pointers.set(rule.id, new Set(rule.meta.foldRepeats));
    templates.set(rule.id, template);
  }
  return { pointers, templates };
}

/**
 * The problems rules say once per file (`meta.foldRepeats`): the first of each (rule, pointer,
 * message) passes as it is; the second becomes one problem with the rule's `repeated` message,
 * which every later one adds its record and line to.
 */
class RepeatFolds {
  private readonly pointers: Map<string, Set<string>>;
  private readonly templates: Map<string, string>;
  private readonly seen = new Map<string, { firstLine: number; folded?: Problem }>();

  constructor({ pointers, templates }: FoldTemplates) {
    this.pointers = pointers;
    this.templates = templates;
  }

  /**
   * The problem to keep: the problem itself, the folded problem a first repeat makes, or undefined when an earlier fold
   * took it.
   */
  take(problem: Problem): Problem | undefined {
    if (this.pointers.size === 0 || !this.pointers.get(problem.ruleId)?.has(problem.pointer)) return problem;
    const key = `${problem.ruleId}\u0000${problem.pointer}\u0000${problem.message}`;
    const fold = this.seen.get(key);
    if (fold === undefined) {
      if (this.seen.size < MAX_FOLD_KEYS) this.seen.set(key, { firstLine: problem.line });
      return problem;
    }
    const created = fold.folded === undefined;
    if (fold.folded === undefined) {
      const { excerpt: _excerpt, column: _column, ...rest } = problem;
      fold.folded = {
        ...rest,
        messageId: "repeated",
        data: { of: problem.message },
        repeated: { records: 0, firstLine: fold.firstLine, lastLine: problem.line },
      };
    }
    const folded = fold.folded;
    const repeated = folded.repeated!;
    repeated.records++;
    repeated.lastLine = problem.line;
    const more = `${repeated.records} more ${repeated.records === 1 ? "record" : "records"}`;
    const lines =
      repeated.lastLine === folded.line ? `line ${folded.line}` : `lines ${folded.line} to ${repeated.lastLine}`;
    folded.data = {
      field: folded.pointer.slice(1),
      firstLine: repeated.firstLine,
      records: repeated.records,
      more,
      lines,
      of: problem.message,
    };
    folded.message = interpolate(this.templates.get(folded.ruleId)!, folded.data);
    return created ? folded : undefined;
  }
}

/**
 * The problems of a check, in the order they were reported; past the cap, problems are only counted.
 * The problems of the end of the file (the dataset and manifest rules' `end`) have an allowance of
 * their own, the same cap: a file of garbage lines does not hide them, and a manifest of 100,000
 * missing artifacts keeps no more than the cap either. Problems a rule says once per file are folded
 * first (RepeatFolds).
 */
class ProblemSink {
  readonly problems: Problem[] = [];
  readonly unstored = { errors: 0, warnings: 0 };
  /** Set once the end of the file is reached: the problems kept before it, for its own allowance to start after. */
  private keptBeforeEnd: number | undefined;
  constructor(
    private readonly limit: number,
    private readonly folds?: RepeatFolds,
  ) {}

  add(reported: Problem): void {
    const problem = this.folds ? this.folds.take(reported) : reported;
    if (problem === undefined) return;
    if (this.problems.length - (this.keptBeforeEnd ?? 0) >= this.limit) {
      problem.severity === "error" ? this.unstored.errors++ : this.unstored.warnings++;
      return;
    }
    this.problems.push(problem);
  }

  startEnd(): void {
    this.keptBeforeEnd = this.problems.length;
  }
}
