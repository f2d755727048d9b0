import { parseAddress, type AddressParts } from "../core/address/address.js";
import { shellQuote } from "../core/text.js";
import type { Excerpt, Severity } from "../core/report/problem.js";
import type { LockContext } from "../core/lock/lock-context.js";

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
  /** The lock manifest in force, as shown in messages. */
  readonly manifestPath: string | undefined;
  report(report: RuleReport<MessageId>): void;
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

export interface RuleHandlers {
  record?(visit: RecordVisit): void;
  /**
   * Called for a line that could not be read as a record (too long, not UTF-8, blank, not JSON, too deep, not an
   * object).
   */
  skipped?(line: number): void;
  /** Called once after the last line (dataset and manifest rules only). */
  end?(): void;
}

/**
 * `reading` rules name the problems the engine's reader finds as it turns a line into a record
 * (src/engine/read-records.ts, in the order it reads: bytes, line, UTF-8, JSON, depth, canonical form,
 * schema); they have no handlers. `record` rules look at one record at a time; `dataset` rules keep
 * state across the file; `manifest` rules need a lock manifest and are inert without one.
 */
export type RuleScope = "reading" | "record" | "dataset" | "manifest";

export interface RuleMeta {
  description: string;
  defaultSeverity: Severity;
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
  /** The rule's handlers for one file (every scope but `reading`). */
  create?(context: RuleContext<MessageId>): RuleHandlers;
}

/** Identity with types: declares one rule; `context.report` accepts only the rule's own message ids. */
export function defineRule<const Id extends string, const MessageId extends string>(
  rule: Rule<Id, MessageId>,
): Rule<Id, MessageId> {
  return rule;
}

/** The last record whose address was parsed, and its parts: the rules see one record after another. */
let lastParsed: { record: TargetRecord; parts: AddressParts | undefined } | undefined;

/**
 * The record's citationAddress parsed (undefined when absent or not in the grammar), parsed once per record for all
 * rules (they see one record after another: the last one parsed is kept, not one entry per record).
 */
export function addressOf(record: TargetRecord): AddressParts | undefined {
  if (lastParsed?.record === record) return lastParsed.parts;
  const value = record.citationAddress;
  const parts = typeof value === "string" ? parseAddress(value) : undefined;
  lastParsed = { record, parts };
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

/**
 * The command that regenerates the checked file, with the user's paths when a lock manifest is in force; for "how to
 * fix" hints.
 */
export function regenerateCommand(context: RuleContext): string {
  const manifest = context.manifestPath !== undefined ? shellQuote(context.manifestPath) : "<manifest>";
  // A file not named after the manifest's slug (a manifest given with --lock serves any file) is never the target: the
  // command writes <slug>.jsonl beside it, the name the file-name rule asks for, and replaces no other file (another
  // dataset's records, when --lock named the wrong manifest).
  const slug = context.lock?.manifest.slug;
  const file =
    slug !== undefined && context.file.endsWith(context.fileName) && context.fileName !== `${slug}.jsonl`
      ? `${context.file.slice(0, context.file.length - context.fileName.length)}${slug}.jsonl`
      : context.file;
  return `\`citation-targets generate ${manifest} -o ${shellQuote(file)}\``;
}

/**
 * A manifest beside its JSONL (`<name>.lock.json` for `<name>.jsonl`) that names another slug than the pair's name
 * (edited by hand, or the pair renamed): the JSONL it generates is `<slug>.jsonl`, so neither `generate -o` this file
 * nor `update` gives a pair the file-name rule accepts. Undefined when they agree, and for a manifest given with
 * --lock, which may serve any file.
 */
export function pairSlugConflict(context: RuleContext): { name: string; slug: string } | undefined {
  const lock = context.lock;
  if (lock === undefined || !context.fileName.endsWith(".jsonl")) return undefined;
  const name = context.fileName.slice(0, -".jsonl".length);
  if (!lock.manifestPath.endsWith(`${name}.lock.json`) || lock.manifest.slug === name) return undefined;
  return { name, slug: lock.manifest.slug };
}

/** The fix of a pairSlugConflict: the slug set back, or the pair renamed after it; either way updated after. */
export function pairFix(context: RuleContext, { name, slug }: { name: string; slug: string }): string {
  const manifest = context.lock!.manifestPath;
  const renamed = `${manifest.slice(0, -`${name}.lock.json`.length)}${slug}.lock.json`;
  return `set the slug back to "${name}" and run \`citation-targets update ${shellQuote(manifest)}\`, or move the pair to ${slug}.lock.json and ${slug}.jsonl (git mv) and run \`citation-targets update ${shellQuote(renamed)}\``;
}

/** The command that refreshes the lock manifest and regenerates the file in one step. */
export function updateCommand(context: RuleContext): string {
  return `\`citation-targets update ${context.manifestPath !== undefined ? shellQuote(context.manifestPath) : "<manifest>"}\``;
}
