import { isUtf8 } from "node:buffer";
import canonicalize from "canonicalize";
import { getRule, rules, type RuleId } from "../rules/index.js";
import type { RecordVisit, RuleContext, RuleHandlers } from "../rules/define.js";
import { scanJson } from "./json-scan.js";
import type { LockContext } from "./lock-context.js";
import { LineReader, type Line, type TextLine } from "./lines.js";
import { sortProblems, type Problem, type RuleSetting, type Severity } from "./problem.js";
import type { RecordSchemaCheck } from "./schema-issues.js";
import { interpolate } from "./text.js";

export interface FileCheckOptions {
  /** The file as shown in problems (relative, POSIX). */
  file: string;
  schemaCheck: RecordSchemaCheck;
  /** Severity per rule id; rules not named keep their default. */
  ruleSettings?: Partial<Record<RuleId, RuleSetting>>;
  lock?: LockContext;
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

/** How many problems of one file are kept; the rest are counted. Problems found at the end of the file are always kept. */
export const STORED_PROBLEMS_LIMIT = 10_000;

/** A streaming check of one JSONL file: push its bytes in chunks of any size, then call `end()`. */
export interface FileCheck {
  push(chunk: Uint8Array): void;
  end(): FileResult;
}

const decoder = new TextDecoder("utf-8");
const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");

/** Resolves the severity of every rule from its default and the settings. */
export function resolveSeverities(settings: Partial<Record<string, RuleSetting>> = {}): Map<string, Severity> {
  const severities = new Map<string, Severity>();
  for (const rule of rules) {
    const setting = settings[rule.id] ?? rule.meta.defaultSeverity;
    if (setting !== "off") severities.set(rule.id, setting);
  }
  return severities;
}

/** Starts the check of one file. Holds one chunk of complete lines (or one longer line) plus the per-dataset identifier sets. */
export function createFileCheck(options: FileCheckOptions): FileCheck {
  const severities = resolveSeverities(options.ruleSettings);
  const problems: Problem[] = [];
  const unstored = { errors: 0, warnings: 0 };
  let ended = false;
  const fileName = options.file.slice(options.file.lastIndexOf("/") + 1);
  let records = 0;

  const report = (ruleId: RuleId, messageId: string, data: Record<string, unknown>, line: number, pointer: string, column?: number) => {
    const severity = severities.get(ruleId);
    if (severity === undefined) return;
    if (problems.length >= STORED_PROBLEMS_LIMIT && !ended) {
      severity === "error" ? unstored.errors++ : unstored.warnings++;
      return;
    }
    const template = getRule(ruleId)?.messages[messageId] ?? messageId;
    const problem: Problem = { ruleId, messageId, data, message: interpolate(template, data), severity, file: options.file, line, pointer };
    if (column !== undefined) problem.column = column;
    problems.push(problem);
  };

  const handlers: RuleHandlers[] = [];
  for (const rule of rules) {
    const create = (rule as { create?: (context: RuleContext) => RuleHandlers }).create;
    if (!create || !severities.has(rule.id)) continue;
    if (rule.scope === "manifest" && !options.lock) continue;
    if (rule.id === "file-name" && options.fileNameUnknown) continue;
    const context: RuleContext = {
      fileName,
      file: options.file,
      lock: options.lock,
      report: (r) => report(rule.id, r.messageId, r.data ?? {}, r.line, r.pointer, r.column),
    };
    handlers.push(create(context));
  }
  const recordHandlers = handlers.flatMap((h) => (h.record ? [h.record.bind(h)] : []));
  const skipHandlers = handlers.flatMap((h) => (h.skipped ? [h.skipped.bind(h)] : []));
  const skip = (n: number) => {
    for (const handle of skipHandlers) handle(n);
  };

  /** A line that is not valid UTF-8: named with the column of its first bad byte, then skipped. */
  const checkBytes = (line: Line) => {
    let bytes = line.bytes;
    const n = line.number;
    if (!line.terminated) report("final-newline", "missing", {}, n, "");
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      report("bom", "bom", {}, n, "", 1);
      bytes = bytes.subarray(3);
    }
    if (bytes[bytes.length - 1] === 0x0d) {
      bytes = bytes.subarray(0, bytes.length - 1);
      report("carriage-return", "crlf", {}, n, "");
    }
    if (isUtf8(bytes)) return checkText({ text: decode(bytes), number: n, terminated: true });
    const at = firstInvalidUtf8(bytes);
    const column = decoder.decode(bytes.subarray(0, at)).length + 1;
    report("invalid-utf8", "invalid", { byte: (bytes[at] ?? 0).toString(16).padStart(2, "0"), byteOffset: at }, n, "", column);
    skip(n);
  };

  const checkText = ({ text: raw, number: n, terminated }: TextLine) => {
    let text = raw;
    if (!terminated) report("final-newline", "missing", {}, n, "");
    if (text.charCodeAt(0) === 0xfeff) {
      report("bom", "bom", {}, n, "", 1);
      text = text.slice(1);
    }
    if (text.charCodeAt(text.length - 1) === 0x0d) {
      text = text.slice(0, -1);
      report("carriage-return", "crlf", {}, n, "");
    }
    if (/^[ \t]*$/.test(text)) {
      report("blank-line", "blank", {}, n, "");
      return skip(n);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const scan = scanJson(text);
      const error = scan.syntaxError ?? { index: 0, message: "not a JSON value" };
      report("json-syntax", "invalid", { detail: error.message }, n, "", error.index + 1);
      return skip(n);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
      report("record-not-object", "notObject", { got }, n, "");
      return skip(n);
    }
    records++;
    checkCanonical(text, value, n);
    const issues = options.schemaCheck(value);
    for (const issue of issues) report("schema", issue.messageId, { detail: issue.message }, n, issue.pointer);
    const visit: RecordVisit = { record: value as Record<string, unknown>, line: n, schemaValid: issues.length === 0 };
    for (const handle of recordHandlers) handle(visit);
  };

  const checkCanonical = (text: string, value: unknown, n: number) => {
    if (isCanonicalFast(text, value)) return;
    let canonical: string;
    try {
      canonical = canonicalize(value) ?? "";
    } catch (error) {
      const reason = error instanceof RangeError ? "it is nested too deeply" : error instanceof Error ? error.message.toLowerCase() : String(error);
      report("non-canonical", "notRepresentable", { reason }, n, "");
      return;
    }
    if (canonical === text) return;
    const scan = scanJson(text);
    if (scan.duplicates.length > 0) {
      for (const d of scan.duplicates) report("duplicate-key", "duplicate", { key: d.key, firstColumn: d.firstIndex + 1 }, n, d.pointer, d.index + 1);
      return;
    }
    const found = scan.nonCanonical;
    const column = found ? found.index + 1 : firstDifference(text, canonical) + 1;
    report(
      "non-canonical",
      "nonCanonical",
      { reason: found?.reason ?? "bytes differ from the canonical serialisation", expected: found?.expected ?? "the RFC 8785 serialisation of the record" },
      n,
      found?.pointer ?? "",
      column,
    );
  };

  const reader = new LineReader(checkText, checkBytes, isUtf8, decode);
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

/**
 * The fast path of the canonical-form check, exact without building the canonical text: when
 * `JSON.stringify` (native, ECMAScript number and string forms, members in parse order) gives the
 * line back, the line has no white space, canonical escapes and canonical numbers; it is then
 * canonical exactly when every object's member names are in UTF-16 order and no `\ud…` escape
 * (a lone surrogate, which I-JSON forbids) occurs. Integer-like names, which V8 reorders, and
 * deep nesting take the slow path.
 */
function isCanonicalFast(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(value) === text && !text.includes("\\ud") && membersSorted(value);
  } catch {
    return false;
  }
}

function membersSorted(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(membersSorted);
  let previous: string | undefined;
  for (const key in value as Record<string, unknown>) {
    if (previous !== undefined && !(previous < key)) return false;
    const first = key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) return false; // a name V8 may treat as an array index: take the slow path
    if (!membersSorted((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/** Byte offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) (need = 1), (min = 0x80);
    else if (b === 0xe0) (need = 2), (min = 0xa0);
    else if (b === 0xed) (need = 2), (min = 0x80), (max = 0x9f);
    else if (b >= 0xe1 && b <= 0xef) (need = 2), (min = 0x80);
    else if (b === 0xf0) (need = 3), (min = 0x90);
    else if (b >= 0xf1 && b <= 0xf3) (need = 3), (min = 0x80);
    else if (b === 0xf4) (need = 3), (min = 0x80), (max = 0x8f);
    else return i;
    const second = bytes[i + 1];
    if (second === undefined || second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
