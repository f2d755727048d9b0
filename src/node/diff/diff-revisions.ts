/**
 * `diff REV1 REV2` (README, "diff"): both sides read at git revisions, as `--against` reads its old
 * side (one `ls-tree` per revision and folder, one `cat-file --batch` for the blobs), and how two
 * arguments are read: paths or revisions (`resolveDiffArguments`).
 */
import { statSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { BlobReader, gitBlob, gitTopLevel, resolveRevision, runGit, type TreeEntry, treeAt } from "../git/diff-git.js";
import { countLines } from "../../core/lines.js";
import { OperationalError } from "../errors.js";
import { DEFAULT_FOLDER, DEFAULT_PATTERN, isInside } from "../files/files.js";
import { REPOSITORY_SCHEMA_PATH } from "../config/schema-source.js";

const posix = (path: string) => path.split(sep).join("/");

/** A side as diff reads it (src/node/diff.ts, DiffSide): what this module needs of it. */
export interface RevisionSide {
  label: string;
  missing: boolean;
  open(): AsyncIterable<Uint8Array>;
  release?(): void;
}

/** How diff makes its sides (given by src/node/diff.ts, so that this module does not import it). */
export interface SideMakers<S extends RevisionSide> {
  missing(label: string): S;
  /** A blob read whole from git's batch, once. */
  blob(label: string, fetch: () => Promise<Buffer>): S;
  /** A blob larger than `wholeUpTo`, streamed by a git process of its own. */
  stream(label: string, open: () => AsyncIterable<Uint8Array>): S;
  wholeUpTo: number;
}

export interface RevisionTarget<S extends RevisionSide> {
  type: "records" | "schema";
  old: S;
  new: S;
  identical?: { records: number };
}

/** The files of two revisions, the paths given (or the default dataset folder and schema) paired by path. */
export async function revisionTargets<S extends RevisionSide>(
  oldRevision: string,
  newRevision: string,
  paths: string[],
  cwd: string,
  schema: boolean,
  make: SideMakers<S>,
): Promise<{ targets: RevisionTarget<S>[]; commits: [string, string]; close: () => void }> {
  const root = await gitTopLevel(cwd);
  const commits: [string, string] = [
    await resolveRevision(root, oldRevision),
    await resolveRevision(root, newRevision),
  ];
  const trees = [await treeAt(root, commits[0], ""), await treeAt(root, commits[1], "")] as const;
  let reader: BlobReader | undefined;
  const sideAt = (index: 0 | 1, rel: string): S => {
    const revision = index === 0 ? oldRevision : newRevision;
    const label = `${revision}:${rel}`;
    const entry: TreeEntry | undefined = trees[index].get(rel);
    if (entry === undefined) return make.missing(label);
    if (entry.size > make.wholeUpTo) return make.stream(label, () => gitBlob(root, commits[index], rel));
    return make.blob(label, () => {
      reader ??= new BlobReader(root);
      return reader.read(entry.blob, label);
    });
  };
  const targets: RevisionTarget<S>[] = [];
  const add = (rel: string, type: "records" | "schema") => {
    const before = trees[0].get(rel);
    const after = trees[1].get(rel);
    const target: RevisionTarget<S> = { type, old: sideAt(0, rel), new: sideAt(1, rel) };
    // The same blob on both sides: nothing changed; its lines are counted when the report needs the records.
    if (type === "records" && before !== undefined && after !== undefined && before.blob === after.blob)
      target.identical = { records: -1 };
    targets.push(target);
  };
  const inFolder = (rel: string) =>
    [...new Set([...trees[0].keys(), ...trees[1].keys()])]
      .filter(
        (path) => path.startsWith(`${rel}/`) && path.endsWith(".jsonl") && !path.slice(rel.length + 1).includes("/"),
      )
      .sort();
  const folder = (rel: string, shown: string) => {
    const files = inFolder(rel);
    if (files.length === 0)
      throw new OperationalError(`no *.jsonl files in ${shown} at ${oldRevision} or at ${newRevision}`);
    for (const path of files) add(path, "records");
  };
  if (paths.length === 0) {
    if (schema) add(REPOSITORY_SCHEMA_PATH, "schema");
    else {
      folder(DEFAULT_FOLDER, DEFAULT_PATTERN);
      if (trees[0].has(REPOSITORY_SCHEMA_PATH) || trees[1].has(REPOSITORY_SCHEMA_PATH))
        add(REPOSITORY_SCHEMA_PATH, "schema");
    }
  }
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const rel = posix(relative(root, absolute)).replace(/\/+$/, "");
    if (!isInside(root, absolute) || rel === "")
      throw new OperationalError(`${path} is not inside the repository (${root})`);
    const type = schema || rel.endsWith(".schema.json") ? "schema" : "records";
    if (trees[0].has(rel) || trees[1].has(rel)) add(rel, type);
    else if (inFolder(rel).length > 0) folder(rel, path);
    else
      throw new OperationalError(`cannot read ${path}: no such file or folder at ${oldRevision} or at ${newRevision}`);
  }
  // The record counts of unchanged pairs: read only when their blob is (the summary counts records of every pair).
  for (const target of targets)
    if (target.identical?.records === -1) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of target.new.open()) chunks.push(chunk);
      target.new.release?.();
      target.identical = { records: countLines(Buffer.concat(chunks)) };
    }
  return { targets, commits, close: () => reader?.close() };
}

/** How `diff A B` reads its two arguments: two paths, or two revisions (then A is `against`, B is `to`). */
export type DiffArguments = { paths: string[] } | { against: string; to: string; paths: string[] };

/**
 * Reads `diff`'s operands git-style: those after `--` are paths; before it, two arguments are paths when each is an
 * existing file or folder, else revisions when both resolve with `git rev-parse --verify`; anything else is a usage
 * error (exit 2) naming both readings.
 */
export async function resolveDiffArguments(before: string[], after: string[], cwd: string): Promise<DiffArguments> {
  if (before.length !== 2) return { paths: [...before, ...after] };
  const [a, b] = before as [string, string];
  const exists = (path: string) => statSync(resolve(cwd, path), { throwIfNoEntry: false }) !== undefined;
  if (after.length === 0 && exists(a) && exists(b)) return { paths: [a, b] };
  const verify = async (revision: string) =>
    !revision.startsWith("-") &&
    (
      await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`], cwd).catch(() => ({
        code: 1,
      }))
    ).code === 0;
  const [ra, rb] = await Promise.all([verify(a), verify(b)]);
  if (ra && rb) return { against: a, to: b, paths: after };
  const missing = [a, b].filter((path) => !exists(path));
  const unresolved = [a, b].filter((_, index) => ![ra, rb][index]);
  const asPaths =
    after.length > 0 ? "paths come after --" : missing.map((path) => `${path}: no such file or folder`).join(", ");
  throw new OperationalError(
    `diff ${a} ${b}: not two paths (${asPaths}) and not two git revisions (${unresolved.map((rev) => `${rev}: not a revision in this repository`).join(", ")}); name two files or folders, or two revisions (git rev-parse --verify), and paths after --`,
  );
}
