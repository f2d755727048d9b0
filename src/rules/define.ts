import { parseAddress, type AddressParts } from "../core/address.js";
import { analyseCanonical, type CanonicalVerdict } from "../core/canonical.js";
import { shellQuote } from "../core/text.js";
import type { Excerpt, Severity } from "../core/problem.js";
import type { LockContext } from "../core/lock-context.js";
import type { RecordSchemaCheck } from "../core/schema-issues.js";

/** A parsed line that holds a JSON object; rules guard the types of the fields they read. */
export type TargetRecord = Record<string, unknown>;

export interface RecordVisit {
  record: TargetRecord;
  /** 1-based line of the record in its file. */
  line: number;
  /** True when the record passed the schema. */
  schemaValid: boolean;
}

export interface RuleReport<MessageId extends string = string> {
  messageId: MessageId;
  data?: Record<string, unknown>;
  line: number;
  column?: number;
  pointer: string;
  /** A piece of the line to show under the message (see `excerptOf`). */
  excerpt?: Excerpt;
}

export interface RuleContext<MessageId extends string = string> {
  /** The file's base name, e.g. `privacy-act-1988.jsonl`. */
  readonly fileName: string;
  /** The file as shown in problems (relative, POSIX), for the commands messages suggest. */
  readonly file: string;
  /** The lock manifest the file is checked against, when one is in force. */
  readonly lock: LockContext | undefined;
  /** The lock manifest in force, as shown in messages (also where the manifest rules do not run: a range of a file checked apart). */
  readonly manifestPath: string | undefined;
  /** The record schema in force (for the schema rule). */
  readonly schemaCheck: RecordSchemaCheck;
  /** The caps in force (for the line-length and nesting-depth rules). */
  readonly limits: Limits;
  report(report: RuleReport<MessageId>): void;
}

/**
 * One line on its way to becoming a record. The line rules' `line` hooks run in their `lineOrder`;
 * each may report, narrow the line (strip a BOM or CR, decode, parse) or stop it: a stopped line is
 * not a record. A line from a run that is not valid UTF-8 comes as `bytes` until a hook decodes it.
 */
export interface LineState {
  /** 1-based line number. */
  readonly number: number;
  /** False only for a last line without LF. */
  readonly terminated: boolean;
  bytes?: Uint8Array;
  text?: string;
  /** The parsed JSON value, once json-syntax has parsed the text. */
  value?: unknown;
  /** Set, to the line's length in bytes, when the line was longer than the cap and its bytes were not kept. */
  overlong?: number;
  /** Whether the record matched the schema, once the schema rule has checked it. */
  schemaValid?: boolean;
  /** Work shared between hooks of one line (the canonical-form rules share their scan). */
  memo: Record<string, unknown>;
}

/** Resource caps of a check (docs/spec.md, "Limits"); each can be raised from the command line. */
export interface Limits {
  /** The longest line kept, in bytes. */
  maxLineBytes: number;
  /** The deepest nesting of arrays and objects in a record. */
  maxDepth: number;
  /** Problems kept per file; the rest are counted. */
  maxStoredProblems: number;
}

export const DEFAULT_LIMITS: Limits = { maxLineBytes: 64 * 2 ** 20, maxDepth: 64, maxStoredProblems: 10_000 };

/** "stop": the line is not a record; the rules after this one do not see it. */
export type LineVerdict = "stop" | undefined;

export interface RuleHandlers {
  /** For line rules: looks at (and may narrow or stop) each line before it becomes a record. */
  line?(state: LineState): LineVerdict;
  record?(visit: RecordVisit): void;
  /** Called for a line that could not be read as a record (blank, not UTF-8, not JSON, not an object). */
  skipped?(line: number): void;
  /** Called once after the last line. */
  end?(): void;
  /** For a rule with `createRange`, where a file is checked in ranges: each range's summary, in file order, in place of the range's records; `lineOffset` is the number of lines before the range. */
  range?(summary: unknown, lineOffset: number): void;
}

/** What a rule with `createRange` does in the thread of one range of a file: it sees the range's records and unreadable lines, and sums them up. */
export interface RangeHandlers {
  record(visit: RecordVisit): void;
  skipped?(line: number): void;
  /** The range's summary, as plain data (it crosses threads), lines numbered from 1 within the range. */
  end(): unknown;
}

/**
 * `line` rules are checked by the reader itself (they decide whether a line is a record at all);
 * `record` rules look at one record at a time; `dataset` rules keep state across the file;
 * `manifest` rules need a lock manifest and are inert without one.
 */
export type RuleScope = "line" | "record" | "dataset" | "manifest";

export interface RuleMeta {
  description: string;
  defaultSeverity: Severity;
  /** For line rules: where the `line` hook runs among the others, lowest first (the order the reader needs, not the order of the docs). */
  lineOrder?: number;
  /**
   * For dataset and manifest rules: every record field the rule reads. When a file is checked in
   * ranges on several threads, these fields (and only these) travel from the range's thread to the
   * thread that runs the rule over the whole file; a test holds each rule to its list.
   */
  reads?: readonly string[];
  /**
   * JSON Pointers at which the rule's problem, when the same (same message) on a later record, is said
   * once per file: the first record's problem as it is, the later ones folded into one problem, on
   * the line of the second, with the rule's `repeated` message (data: `field`, `firstLine`, `records`,
   * `more` ("20 more records"), `lines` ("lines 2 to 21"), `of`: the message repeated). For the
   * dataset-level fields, which are the same on every record, so that one wrong value is one
   * problem, not one per record (docs/spec.md, rule "schema").
   */
  foldRepeats?: readonly string[];
}

export interface Rule<Id extends string = string, MessageId extends string = string> {
  id: Id;
  scope: RuleScope;
  meta: RuleMeta;
  messages: Record<MessageId, string>;
  create?(context: RuleContext<MessageId>): RuleHandlers;
  /**
   * For a dataset or manifest rule whose work per record is heavy, or whose fields are large: that
   * work done in the thread of each range of a file checked in ranges, summed up per range and handed
   * to the `range` handler of `create`'s handlers (docs/spec.md, section 14). Such a rule reports only
   * at the end of the file.
   */
  createRange?(context: RuleContext<MessageId>): RangeHandlers;
}

/** Identity with types: declares one rule; `context.report` accepts only the rule's own message ids. */
export function defineRule<const Id extends string, const MessageId extends string>(rule: Rule<Id, MessageId>): Rule<Id, MessageId> {
  return rule;
}

const parsedAddresses = new WeakMap<TargetRecord, AddressParts | undefined>();

/** The record's citationAddress parsed (undefined when absent or not in the grammar), parsed once per record for all rules. */
export function addressOf(record: TargetRecord): AddressParts | undefined {
  if (parsedAddresses.has(record)) return parsedAddresses.get(record);
  const value = record.citationAddress;
  const parts = typeof value === "string" ? parseAddress(value) : undefined;
  parsedAddresses.set(record, parts);
  return parts;
}

/** The field as a string, or undefined when absent or of another type. */
export function stringField(record: TargetRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

/** The field as an integer, or undefined when absent or of another type. */
export function integerField(record: TargetRecord, key: string): number | undefined {
  const value = record[key];
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** The field as an array of strings, or undefined. */
export function stringArrayField(record: TargetRecord, key: string): string[] | undefined {
  const value = record[key];
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined;
}

export function isMarkdownArtifact(record: TargetRecord): boolean {
  return record.targetKind === "markdown-artifact";
}

export function isStructuralContainer(record: TargetRecord): boolean {
  return record.targetKind === "structural-container";
}

/** The command that regenerates the checked file, with the user's paths when a lock manifest is in force; for "how to fix" hints. */
export function regenerateCommand(context: RuleContext): string {
  const manifest = context.manifestPath !== undefined ? shellQuote(context.manifestPath) : "<manifest>";
  return `\`citation-targets generate ${manifest} -o ${shellQuote(context.file)}\``;
}

/** The command that refreshes the lock manifest and regenerates the file in one step. */
export function updateCommand(context: RuleContext): string {
  return `\`citation-targets update ${context.manifestPath !== undefined ? shellQuote(context.manifestPath) : "<manifest>"}\``;
}

/** The canonical-form analysis of a parsed line, made once and shared by the rules that need it. */
export function canonicalVerdict(state: LineState): CanonicalVerdict {
  const memo = state.memo as { canonical?: CanonicalVerdict };
  memo.canonical ??= analyseCanonical(state.text!, state.value, true); // the text was decoded from valid UTF-8: no lone surrogate
  return memo.canonical;
}
