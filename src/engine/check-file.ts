/**
 * The engine: checks one JSONL file with the rules it is given (as ESLint's linter is given its
 * rules). Each line goes through the line rules' hooks, in their `lineOrder`; a line no hook
 * stopped is a record, handed to every record and dataset rule. Holds one chunk of complete
 * lines (or one longer line) plus what the rules keep across the file.
 */
import { isUtf8 } from "node:buffer";
import type { LockContext } from "../core/lock-context.js";
import { LineReader, type Line, type TextLine } from "../core/lines.js";
import { sortProblems, type Excerpt, type Problem, type RuleSetting, type Severity } from "../core/problem.js";
import type { RecordSchemaCheck } from "../core/schema-issues.js";
import { interpolate } from "../core/text.js";
import { DEFAULT_LIMITS, type Limits, type LineState, type LineVerdict, type RecordVisit, type Rule, type RuleContext, type RuleHandlers } from "../rules/define.js";

export interface FileCheckOptions {
  /** The rules to run (the registry's `rules`, or a selection). */
  rules: readonly Rule[];
  /** The file as shown in problems (relative, POSIX). */
  file: string;
  schemaCheck: RecordSchemaCheck;
  /** Severity per rule id; rules not named keep their default. */
  ruleSettings?: Partial<Record<string, RuleSetting>>;
  lock?: LockContext;
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

const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");

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
  const severities = resolveSeverities(options.rules, options.ruleSettings);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const problems: Problem[] = [];
  const unstored = { errors: 0, warnings: 0 };
  let ended = false;
  const fileName = options.file.slice(options.file.lastIndexOf("/") + 1);
  let records = 0;

  const report = (rule: Rule, messageId: string, data: Record<string, unknown>, line: number, pointer: string, column?: number, excerpt?: Excerpt) => {
    const severity = severities.get(rule.id);
    if (severity === undefined) return;
    const template = rule.messages[messageId];
    if (template === undefined) throw new Error(`rule ${rule.id} reported an unknown messageId "${messageId}"`);
    if (problems.length >= limits.maxStoredProblems && !ended) {
      severity === "error" ? unstored.errors++ : unstored.warnings++;
      return;
    }
    const problem: Problem = { ruleId: rule.id, messageId, data, message: interpolate(template, data), severity, file: options.file, line, pointer };
    if (column !== undefined) problem.column = column;
    if (excerpt !== undefined) problem.excerpt = excerpt;
    problems.push(problem);
  };

  const lineHooks: { order: number; hook: (state: LineState) => LineVerdict }[] = [];
  const handlers: RuleHandlers[] = [];
  for (const rule of options.rules) {
    if (!rule.create) continue;
    if (rule.scope === "manifest" && !options.lock) continue;
    if (rule.id === "file-name" && options.fileNameUnknown) continue;
    const isLineRule = rule.scope === "line";
    // Line rules run even when off, since the reader needs them (a line that is not JSON is no record); their reports are dropped.
    if (!isLineRule && !severities.has(rule.id)) continue;
    const context: RuleContext = {
      fileName,
      file: options.file,
      lock: options.lock,
      schemaCheck: options.schemaCheck,
      limits,
      report: (r) => report(rule, r.messageId, r.data ?? {}, r.line, r.pointer, r.column, r.excerpt),
    };
    const created = rule.create(context);
    if (created.line) lineHooks.push({ order: rule.meta.lineOrder ?? Number.MAX_SAFE_INTEGER, hook: created.line.bind(created) });
    handlers.push(created);
  }
  const hooks = lineHooks.sort((a, b) => a.order - b.order).map((h) => h.hook);
  const recordHandlers = handlers.flatMap((h) => (h.record ? [h.record.bind(h)] : []));
  const skipHandlers = handlers.flatMap((h) => (h.skipped ? [h.skipped.bind(h)] : []));

  const checkLine = (state: LineState) => {
    for (const hook of hooks) {
      if (hook(state) === "stop") {
        for (const handle of skipHandlers) handle(state.number);
        return;
      }
    }
    records++;
    const visit: RecordVisit = { record: state.value as Record<string, unknown>, line: state.number, schemaValid: state.schemaValid ?? true };
    for (const handle of recordHandlers) handle(visit);
  };
  const onText = ({ text, number, terminated }: TextLine) => checkLine({ text, number, terminated, memo: {} });
  const onBytes = ({ bytes, number, terminated, overlong }: Line) => checkLine(overlong === undefined ? { bytes, number, terminated, memo: {} } : { number, terminated, overlong, memo: {} });

  const reader = new LineReader(onText, onBytes, isUtf8, decode, limits.maxLineBytes);
  return {
    push: (chunk) => reader.push(chunk),
    end() {
      reader.end();
      ended = true;
      for (const h of handlers) h.end?.();
      return { path: options.file, records, problems: sortProblems(problems), unstored };
    },
  };
}
