/**
 * The pairs `diff` compares (docs/spec.md, section 12): two paths (files, or folders paired by file name), or the
 * working tree's files against the same paths at a git revision, read with git itself. Pairs whose sides hold the same
 * bytes are marked identical, and not parsed.
 */
import { isAddressedRecord } from "../records/record-stream.js";
import { statSync, promises as fs } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { countLines } from "../../core/lines.js";
import { escapeControls, shellQuote } from "../../core/text.js";
import { REPOSITORY_SCHEMA_PATH } from "../config/schema-source.js";
import { OperationalError } from "../errors.js";
import { DEFAULT_FOLDER, DEFAULT_PATTERN, displayPath, isInside } from "../files/files.js";
import { readRegularIfPresent } from "../files/regular-file.js";
import {
  BlobReader,
  blobId,
  filesAt,
  gitBlob,
  gitTopLevel,
  resolveRevision,
  type TreeEntry,
  treeAt,
} from "../git/diff-git.js";
import { blobSide, type DiffSide, fileSide, missingSide, WHOLE_BLOB_UP_TO } from "./diff-sides.js";

export interface DiffTarget {
  type: "records" | "schema";
  old: DiffSide;
  new: DiffSide;
  /**
   * Both sides hold the same bytes (the working tree file's blob id is the revision's): nothing to compare; the count
   * of records.
   */
  identical?: { records: number };
}

const isSchemaPath = (path: string) => path.endsWith(".schema.json");

async function kindOf(path: string): Promise<"file" | "folder" | undefined> {
  const info = statSync(path, { throwIfNoEntry: false }); // synchronous: thousands of dataset files a run
  return info?.isFile() ? "file" : info?.isDirectory() ? "folder" : undefined;
}

/** The `*.jsonl` files directly in a folder (names). */
async function jsonlIn(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl")).map((entry) => entry.name);
}

/**
 * Two paths: file and file, folder and folder (paired by file name), or a folder and a file (the file's name in the
 * folder).
 */
export async function localTargets(paths: string[], cwd: string, schema: boolean): Promise<DiffTarget[]> {
  // One operand that is no file or folder here: a git revision meant (`diff HEAD~1`), said with the command for it.
  if (paths.length === 1 && (await kindOf(resolve(cwd, paths[0]!))) === undefined)
    throw new OperationalError(
      `diff needs two paths, old then new; ${escapeControls(paths[0]!)} is no file or folder here: to compare with a git revision, run \`citation-targets diff --against ${shellQuote(paths[0]!)}\``,
    );
  if (paths.length !== 2)
    throw new OperationalError(
      `diff needs two paths, old then new (got ${paths.length}); or --against REV to compare with a git revision`,
    );
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
  const pair = async (o: string, n: string): Promise<DiffTarget> => {
    const target: DiffTarget = {
      type,
      old: await fileSide(o, displayPath(o, cwd)),
      new: await fileSide(n, displayPath(n, cwd)),
    };
    // Two files with the same bytes are not parsed: nothing changed (many datasets, few of them amended).
    const size = statSync(o, { throwIfNoEntry: false })?.size;
    if (
      type === "records" &&
      !target.old.missing &&
      !target.new.missing &&
      size !== undefined &&
      size <= WHOLE_BLOB_UP_TO &&
      statSync(n, { throwIfNoEntry: false })?.size === size
    ) {
      const [before, after] = [readRegularIfPresent(o), readRegularIfPresent(n)];
      if (before !== undefined && after !== undefined && before.equals(after) && startsWithRecord(after))
        target.identical = { records: countLines(after) };
    }
    return target;
  };
  if (type === "schema" && (oldKind !== "file" || newKind !== "file"))
    throw new OperationalError("--schema compares two schema files, not folders");
  if (oldKind === "file" && newKind === "file") return [await pair(oldAbsolute, newAbsolute)];
  if (oldKind === "folder" && newKind === "file")
    return [await pair(join(oldAbsolute, basename(newAbsolute)), newAbsolute)];
  if (oldKind === "file" && newKind === "folder")
    return [await pair(oldAbsolute, join(newAbsolute, basename(oldAbsolute)))];
  const names = [...new Set([...(await jsonlIn(oldAbsolute)), ...(await jsonlIn(newAbsolute))])].sort();
  if (names.length === 0) throw new OperationalError(`no *.jsonl files in ${oldPath} or ${newPath}`);
  return Promise.all(names.map((name) => pair(join(oldAbsolute, name), join(newAbsolute, name))));
}

const posix = (path: string) => path.split(sep).join("/");

/** The working tree's files against the same paths at a revision, read with git. */
export async function gitTargets(
  revision: string,
  paths: string[],
  cwd: string,
  schema: boolean,
): Promise<{ targets: DiffTarget[]; commit: string; close: () => void }> {
  const root = await gitTopLevel(cwd);
  const commit = await resolveRevision(root, revision);
  const targets: DiffTarget[] = [];
  // The revision's side: one ls-tree per folder for the blob ids, one cat-file --batch for the blobs.
  const trees = new Map<string, Promise<Map<string, TreeEntry>>>();
  const treeOf = (dir: string) => {
    let tree = trees.get(dir);
    if (tree === undefined) {
      tree = treeAt(root, commit, dir);
      tree.catch(() => undefined); // asked ahead of its use: a failure surfaces where it is awaited
      trees.set(dir, tree);
    }
    return tree;
  };
  const entryAt = async (rel: string) =>
    (await treeOf(rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "")).get(rel);
  let reader: BlobReader | undefined;
  const add = async (rel: string, type: "records" | "schema") => {
    const absolute = join(root, ...rel.split("/"));
    const label = `${revision}:${rel}`;
    const at = await entryAt(rel);
    const now = await fileSide(absolute, displayPath(absolute, cwd));
    let old: DiffSide = missingSide(label);
    if (at !== undefined) {
      const { blob, size } = at;
      old =
        size > WHOLE_BLOB_UP_TO
          ? { label, missing: false, open: () => gitBlob(root, commit, rel) }
          : blobSide(label, () => {
              reader ??= new BlobReader(root);
              return reader.read(blob, label);
            });
    }
    const target: DiffTarget = { type, old, new: now };
    // Same size first (a file of another size is not the same blob), so that a large file is never read whole.
    if (at !== undefined && !now.missing && type === "records" && at.size <= WHOLE_BLOB_UP_TO && now.size === at.size) {
      const bytes = readRegularIfPresent(absolute);
      if (
        bytes !== undefined &&
        blobId(bytes, at.blob.length === 64 ? "sha256" : "sha1") === at.blob &&
        startsWithRecord(bytes)
      )
        target.identical = { records: countLines(bytes) };
    }
    targets.push(target);
  };
  const close = () => reader?.close();
  const folder = async (rel: string, shown: string) => {
    const absolute = join(root, ...rel.split("/"));
    const tree = treeOf(rel); // git lists the revision's folder while this one is read
    const here = (await kindOf(absolute)) === "folder" ? (await jsonlIn(absolute)).map((name) => `${rel}/${name}`) : [];
    const there = [...(await tree).keys()].filter(
      (path) => path.endsWith(".jsonl") && !path.slice(rel.length + 1).includes("/"),
    );
    const all = [...new Set([...here, ...there])].sort();
    if (all.length === 0)
      throw new OperationalError(`no *.jsonl files in ${shown}, in the working tree or at ${revision}`);
    for (const path of all) await add(path, "records");
  };
  if (paths.length === 0) {
    if (schema) await add(REPOSITORY_SCHEMA_PATH, "schema");
    else {
      await folder(DEFAULT_FOLDER, DEFAULT_PATTERN);
      const schemaHere = (await kindOf(join(root, ...REPOSITORY_SCHEMA_PATH.split("/")))) === "file";
      if (schemaHere || (await entryAt(REPOSITORY_SCHEMA_PATH)) !== undefined)
        await add(REPOSITORY_SCHEMA_PATH, "schema");
    }
    return { targets, commit, close };
  }
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const rel = posix(relative(root, absolute));
    if (!isInside(root, absolute) || rel === "")
      throw new OperationalError(`${path} is not inside the repository (${root})`);
    const type = schema || isSchemaPath(rel) ? "schema" : "records";
    const kind = await kindOf(absolute);
    if (kind === "folder") await folder(rel, path);
    else if (kind === "file" || (await entryAt(rel)) !== undefined) await add(rel, type);
    else if ((await filesAt(root, commit, rel)).length > 0) await folder(rel, path);
    else
      throw new OperationalError(`cannot read ${path}: no such file or folder in the working tree or at ${revision}`);
  }
  return { targets, commit, close };
}

/**
 * Whether a file's first line is a record (an object with a citationAddress): two identical files of something else (a
 * lock manifest named by mistake) are read as any other pair, and said not to be JSONL of records, never passed as
 * "no changes" with their lines counted as records.
 */
function startsWithRecord(bytes: Buffer): boolean {
  const end = bytes.indexOf(0x0a);
  try {
    return isAddressedRecord(JSON.parse(bytes.subarray(0, end === -1 ? bytes.length : end).toString("utf8")));
  } catch {
    return false;
  }
}
