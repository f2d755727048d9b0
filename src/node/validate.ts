import { createReadStream } from "node:fs";
import { createFileCheck } from "../core/check-file.js";
import type { LockContext } from "../core/lock-context.js";
import type { Problem, RuleSetting } from "../core/problem.js";
import type { RecordSchemaCheck } from "../core/schema-issues.js";
import type { RuleId } from "../rules/index.js";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { DEFAULT_PATTERN, displayPath, expandInputs, type InputFile } from "./files.js";
import { mapWithLimit } from "./concurrency.js";
import { OperationalError } from "./errors.js";
import { loadLockContext } from "./manifest-io.js";
import { loadSchema, type SchemaSource } from "./schema-source.js";

export interface ValidateOptions {
  /** Files, directories or globs; default `.tooling/citation-targets/*.jsonl`. */
  patterns?: string[];
  cwd?: string;
  /** A schema file that replaces the repository's and the bundled one. */
  schema?: string;
  /** Host that `sourceTextUrl` must be on (bundled schema only); default www.legislation.gov.au. */
  legislationHost?: string;
  /** Per-rule severity: "error", "warning" or "off". */
  rules?: Partial<Record<RuleId, RuleSetting>>;
  /** Do not fail when a pattern matches no file. */
  allowUnmatched?: boolean;
  /**
   * A lock manifest to check every file against (the manifest rules). Without it, a file
   * `<name>.jsonl` is checked against `<name>.lock.json` beside it when that exists; `false` turns that off.
   */
  lock?: string | false;
}

export interface FileReport {
  path: string;
  records: number;
  problems: Problem[];
  /** Problems counted but not kept (more than 10,000 in the file). */
  unstored?: { errors: number; warnings: number };
  /** Set when the file could not be read; its problems are then incomplete. */
  error?: string;
  /** The lock manifest the file was checked against, as shown in messages. */
  lockManifest?: string;
}

export interface Summary {
  files: number;
  records: number;
  errors: number;
  warnings: number;
}

export interface Report {
  files: FileReport[];
  summary: Summary;
  schemaSource: SchemaSource;
}

const CHUNK_SIZE = 1 << 20;
const FILES_AT_ONCE = 8;

/** Validates JSONL files and resolves to a report; throws OperationalError only for bad options, schema or patterns. */
export async function validate(options: ValidateOptions = {}): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  const schema = await loadSchema({ cwd, ...(options.schema ? { schemaPath: options.schema } : {}), ...(options.legislationHost ? { legislationHost: options.legislationHost } : {}) });
  const inputs = await expandInputs(options.patterns?.length ? options.patterns : [DEFAULT_PATTERN], cwd, options.allowUnmatched);
  const explicitLock = typeof options.lock === "string" ? await loadLockContext(resolve(cwd, options.lock), displayPath(resolve(cwd, options.lock), cwd)) : undefined;
  const lockFor = async (input: InputFile): Promise<LockContext | undefined> => {
    if (explicitLock || options.lock === false) return explicitLock;
    const sibling = input.absolute.replace(/\.jsonl$/, "") + ".lock.json";
    if (sibling === input.absolute || !(await stat(sibling).catch(() => undefined))?.isFile()) return undefined;
    return loadLockContext(sibling, displayPath(sibling, cwd));
  };
  const files = await mapWithLimit(inputs, FILES_AT_ONCE, async (input) => {
    let lockContext: LockContext | undefined;
    try {
      lockContext = await lockFor(input);
    } catch (error) {
      // A broken manifest beside one file is that file's I/O error: the file is still checked without it, and so are the others.
      if (!(error instanceof OperationalError)) throw error;
      const report = await validateFile(input, { ...options, schemaCheck: schema.check, lockContext: undefined });
      return { ...report, error: error.message };
    }
    const report = await validateFile(input, { ...options, schemaCheck: schema.check, lockContext });
    return lockContext ? { ...report, lockManifest: lockContext.manifestPath } : report;
  });
  return { files, summary: summarize(files), schemaSource: schema.source };
}

async function validateFile(input: InputFile, options: ValidateOptions & { schemaCheck: RecordSchemaCheck; lockContext: LockContext | undefined }): Promise<FileReport> {
  const check = createFileCheck({
    file: input.display,
    schemaCheck: options.schemaCheck,
    ...(options.rules ? { ruleSettings: options.rules } : {}),
    ...(options.lockContext ? { lock: options.lockContext } : {}),
  });
  try {
    const stream = createReadStream(input.absolute, { highWaterMark: CHUNK_SIZE });
    for await (const chunk of stream) check.push(chunk as Buffer);
  } catch (error) {
    const result = check.end();
    return { ...result, error: describeIoError(error, input.display) };
  }
  return check.end();
}

function describeIoError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `cannot read ${path}: no such file`;
  if (code === "EISDIR") return `cannot read ${path}: it is a directory`;
  if (code === "EACCES" || code === "EPERM") return `cannot read ${path}: permission denied`;
  return `cannot read ${path}: ${code ?? (error instanceof Error ? error.message : String(error))}`;
}

/** Counts files, records, errors and warnings. */
export function summarize(files: FileReport[]): Summary {
  let records = 0;
  let errors = 0;
  let warnings = 0;
  for (const file of files) {
    records += file.records;
    for (const problem of file.problems) problem.severity === "error" ? errors++ : warnings++;
    errors += file.unstored?.errors ?? 0;
    warnings += file.unstored?.warnings ?? 0;
  }
  return { files: files.length, records, errors, warnings };
}

/** 2 when a file could not be read, 1 when any error was found, else 0 (warnings alone pass). */
export function exitCodeFor(report: Report): 0 | 1 | 2 {
  if (report.files.some((file) => file.error !== undefined)) return 2;
  return report.summary.errors > 0 ? 1 : 0;
}
