/**
 * `diff`: what changed between two versions of citation-targets files, by change kind and class
 * (docs/spec.md, section 12). Finds the pairs (two files, two folders matched by
 * file name, or the working tree against a git revision), streams each pair through the core's
 * RecordDiff or diffSchemas, applies the approvals and the gate.
 */
import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import { applyApprovals, type Approval, describeApproval, type DiffPair, type DiffReport, type FailOn, parseApprovals, summarizeDiff } from "../core/diff.js";
import { RecordDiff } from "../core/diff-records.js";
import { diffSchemas } from "../core/diff-schema.js";
import { looksLike } from "../core/file-kind.js";
import { LineReader } from "../core/lines.js";
import { buildRecordSchema } from "../core/schema.js";
import { existsAt, filesAt, gitBlob, gitTopLevel, resolveRevision } from "./diff-git.js";
import { describeIoError, OperationalError } from "./errors.js";
import { DEFAULT_PATTERN, displayPath } from "./files.js";
import { readJsonFile } from "./json-file.js";
import { UNCOMPARED_FIELDS } from "./record-changes.js";
import { REPOSITORY_SCHEMA_PATH } from "./schema-source.js";

/** The folder of the default pattern: `.tooling/citation-targets`. */
const DEFAULT_FOLDER = DEFAULT_PATTERN.slice(0, DEFAULT_PATTERN.lastIndexOf("/"));

export interface DiffOptions {
  cwd?: string;
  /**
   * Without `against`: two paths, old then new (two files, two folders whose `*.jsonl` are paired by
   * file name, or a folder and a file). With `against`: working-tree files or folders (default: the
   * repository's `.tooling/citation-targets/*.jsonl` and its record schema, when it has one).
   */
  paths?: string[];
  /** A git revision: compare the working tree's files with the same paths at it. */
  against?: string;
  /** The paths are record JSON Schemas. */
  schema?: boolean;
  /** A reviewed approvals file (README, "diff", approvals). */
  approvals?: string;
  /** Which changes fail the run: breaking (default), any, none. */
  failOn?: FailOn;
}

/** One side of a pair: a file on disk, a file at a git revision, or nothing (a dataset added or deleted). */
export interface DiffSide {
  label: string;
  missing: boolean;
  open(): AsyncIterable<Uint8Array>;
}

export interface DiffTarget {
  type: "records" | "schema";
  old: DiffSide;
  new: DiffSide;
}

const isSchemaPath = (path: string) => path.endsWith(".schema.json");

async function kindOf(path: string): Promise<"file" | "folder" | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? "file" : info?.isDirectory() ? "folder" : undefined;
}

/** A file on disk; `missing` when it is not there. */
export async function fileSide(absolute: string, label: string): Promise<DiffSide> {
  const missing = (await kindOf(absolute)) !== "file";
  return {
    label,
    missing,
    async *open() {
      try {
        for await (const chunk of createReadStream(absolute)) yield chunk as Buffer;
      } catch (error) {
        throw new OperationalError(describeIoError(error, "read", label));
      }
    },
  };
}

const missingSide = (label: string): DiffSide => ({
  label,
  missing: true,
  async *open() {},
});

/** Streams the records of a side: each line that is a JSON object with a string citationAddress; counts the others. */
export async function readRecords(side: DiffSide, onRecord: (record: Record<string, unknown>, line: number) => void): Promise<{ unreadable: number }> {
  let unreadable = 0;
  const decoder = new TextDecoder();
  const reader = new LineReader(
    (line) => {
      const text = line.number === 1 && line.text.startsWith("\uFEFF") ? line.text.slice(1) : line.text;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch {
        unreadable++;
        return;
      }
      if (record === null || typeof record !== "object" || Array.isArray(record) || typeof (record as { citationAddress?: unknown }).citationAddress !== "string") {
        unreadable++;
        return;
      }
      onRecord(record as Record<string, unknown>, line.number);
    },
    () => unreadable++,
    (bytes) => isUtf8(bytes),
    (bytes) => decoder.decode(bytes),
  );
  for await (const chunk of side.open()) reader.push(chunk);
  reader.end();
  return { unreadable };
}

/** Compares two versions of one dataset file: three streaming passes at most (src/core/diff-records.ts). */
export async function diffRecordSides(old: DiffSide, now: DiffSide): Promise<DiffPair> {
  const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: old.label, newFile: now.label });
  const warnings: string[] = [];
  const unreadable = (side: DiffSide, count: number) => {
    if (count > 0)
      warnings.push(
        `${side.label}: ${count} ${count === 1 ? "line is" : "lines are"} not a record with a citationAddress and ${count === 1 ? "was" : "were"} not compared (run citation-targets validate)`,
      );
  };
  /** Reads one side; a side with lines but not one record is not a dataset file at all, and comparing it would say "no changes". */
  const read = async (side: DiffSide, add: (record: Record<string, unknown>, line: number) => void) => {
    let records = 0;
    const { unreadable: count } = await readRecords(side, (record, line) => {
      records++;
      add(record, line);
    });
    if (records === 0 && count > 0) {
      const kind = looksLike(side.label);
      throw new OperationalError(
        `${side.label} is not a citation-targets JSONL file: none of its ${count} ${count === 1 ? "line is a record" : "lines is a record"}${kind !== undefined && !kind.startsWith("JSON Lines") ? ` (it looks like ${kind})` : ""}; diff compares JSONL files of records, or two record JSON Schemas with --schema`,
      );
    }
    unreadable(side, count);
  };
  if (!old.missing) await read(old, (record, line) => diff.addOld(record, line));
  if (!now.missing) await read(now, (record, line) => diff.addNew(record, line));
  if (diff.endNew() && !old.missing) await readRecords(old, (record) => diff.addOldDetail(record));
  const result = diff.finish();
  return {
    type: "records",
    old: old.label,
    new: now.label,
    ...(old.missing ? { oldMissing: true } : {}),
    ...(now.missing ? { newMissing: true } : {}),
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
    throw new OperationalError(`schema ${side.label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Compares two record schemas. A side that is missing stands for the bundled schema (what validate uses when a repository has none). */
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

/** The `*.jsonl` files directly in a folder (names). */
async function jsonlIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl")).map((entry) => entry.name);
}

/** Two paths: file and file, folder and folder (paired by file name), or a folder and a file (the file's name in the folder). */
async function localTargets(paths: string[], cwd: string, schema: boolean): Promise<DiffTarget[]> {
  if (paths.length !== 2) throw new OperationalError(`diff needs two paths, old then new (got ${paths.length}); or --against REV to compare with a git revision`);
  const [oldPath, newPath] = paths as [string, string];
  const oldAbsolute = resolve(cwd, oldPath);
  const newAbsolute = resolve(cwd, newPath);
  const oldKind = await kindOf(oldAbsolute);
  const newKind = await kindOf(newAbsolute);
  for (const [kind, path] of [
    [oldKind, oldPath],
    [newKind, newPath],
  ] as const) {
    if (kind === undefined) throw new OperationalError(`cannot read ${path}: no such file or folder`);
  }
  const type = schema || (isSchemaPath(oldPath) && isSchemaPath(newPath)) ? "schema" : "records";
  const pair = async (o: string, n: string): Promise<DiffTarget> => ({ type, old: await fileSide(o, displayPath(o, cwd)), new: await fileSide(n, displayPath(n, cwd)) });
  if (type === "schema" && (oldKind !== "file" || newKind !== "file")) throw new OperationalError("--schema compares two schema files, not folders");
  if (oldKind === "file" && newKind === "file") return [await pair(oldAbsolute, newAbsolute)];
  if (oldKind === "folder" && newKind === "file") return [await pair(join(oldAbsolute, basename(newAbsolute)), newAbsolute)];
  if (oldKind === "file" && newKind === "folder") return [await pair(oldAbsolute, join(newAbsolute, basename(oldAbsolute)))];
  const names = [...new Set([...(await jsonlIn(oldAbsolute)), ...(await jsonlIn(newAbsolute))])].sort();
  if (names.length === 0) throw new OperationalError(`no *.jsonl files in ${oldPath} or ${newPath}`);
  return Promise.all(names.map((name) => pair(join(oldAbsolute, name), join(newAbsolute, name))));
}

const posix = (path: string) => path.split(sep).join("/");

/** The working tree's files against the same paths at a revision, read with git. */
async function gitTargets(revision: string, paths: string[], cwd: string, schema: boolean): Promise<{ targets: DiffTarget[]; commit: string }> {
  const root = await gitTopLevel(cwd);
  const commit = await resolveRevision(root, revision);
  const targets: DiffTarget[] = [];
  const add = async (rel: string, type: "records" | "schema") => {
    const absolute = join(root, ...rel.split("/"));
    const label = `${revision}:${rel}`;
    const at = await existsAt(root, commit, rel);
    targets.push({ type, old: at ? { label, missing: false, open: () => gitBlob(root, commit, rel) } : missingSide(label), new: await fileSide(absolute, displayPath(absolute, cwd)) });
  };
  const folder = async (rel: string, shown: string) => {
    const absolute = join(root, ...rel.split("/"));
    const here = (await kindOf(absolute)) === "folder" ? (await jsonlIn(absolute)).map((name) => `${rel}/${name}`) : [];
    const there = (await filesAt(root, commit, rel)).filter((path) => path.endsWith(".jsonl"));
    const all = [...new Set([...here, ...there])].sort();
    if (all.length === 0) throw new OperationalError(`no *.jsonl files in ${shown}, in the working tree or at ${revision}`);
    for (const path of all) await add(path, "records");
  };
  if (paths.length === 0) {
    if (schema) await add(REPOSITORY_SCHEMA_PATH, "schema");
    else {
      await folder(DEFAULT_FOLDER, DEFAULT_PATTERN);
      const schemaHere = (await kindOf(join(root, ...REPOSITORY_SCHEMA_PATH.split("/")))) === "file";
      if (schemaHere || (await existsAt(root, commit, REPOSITORY_SCHEMA_PATH))) await add(REPOSITORY_SCHEMA_PATH, "schema");
    }
    return { targets, commit };
  }
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const rel = posix(relative(root, absolute));
    if (rel.startsWith("..") || rel === "") throw new OperationalError(`${path} is not inside the repository (${root})`);
    const type = schema || isSchemaPath(rel) ? "schema" : "records";
    const kind = await kindOf(absolute);
    if (kind === "folder") await folder(rel, path);
    else if (kind === "file" || (await existsAt(root, commit, rel))) await add(rel, type);
    else if ((await filesAt(root, commit, rel)).length > 0) await folder(rel, path);
    else throw new OperationalError(`cannot read ${path}: no such file or folder in the working tree or at ${revision}`);
  }
  return { targets, commit };
}

/** Reads and checks an approvals file; an OperationalError (exit 2) names every problem. */
export async function loadApprovals(path: string, cwd: string): Promise<Approval[]> {
  const document = await readJsonFile(resolve(cwd, path), "approvals file", path);
  const { approvals, problems } = parseApprovals(document);
  if (problems.length > 0) throw new OperationalError(`approvals file ${path} is not valid:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  return approvals;
}

/** Finds the pairs, compares each, applies the approvals and the gate. Throws OperationalError for usage and I/O problems. */
export async function diff(options: DiffOptions = {}): Promise<DiffReport> {
  const cwd = options.cwd ?? process.cwd();
  const failOn = options.failOn ?? "breaking";
  const approvals = options.approvals !== undefined ? await loadApprovals(options.approvals, cwd) : [];
  let targets: DiffTarget[];
  let against: DiffReport["against"];
  if (options.against !== undefined) {
    const found = await gitTargets(options.against, options.paths ?? [], cwd, options.schema ?? false);
    targets = found.targets;
    against = { revision: options.against, commit: found.commit };
  } else {
    targets = await localTargets(options.paths ?? [], cwd, options.schema ?? false);
  }
  const pairs: DiffPair[] = [];
  for (const target of targets) {
    if (target.old.missing && target.new.missing) throw new OperationalError(`cannot read ${target.new.label}: it is neither in the old nor in the new version`);
    pairs.push(target.type === "schema" ? await diffSchemaSides(target.old, target.new) : await diffRecordSides(target.old, target.new));
  }
  const unmatched = applyApprovals(pairs, approvals);
  const warnings = unmatched.map((approval) => `approval ${describeApproval(approval)} matches no change (is it still needed?)`);
  return { ...(against ? { against } : {}), pairs, summary: summarizeDiff(pairs, failOn), warnings };
}
