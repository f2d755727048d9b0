import { isUtf8 } from "node:buffer";
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from "node:fs";
import { join, sep } from "node:path";
import { DatasetError } from "../../core/errors.js";
import { comparePaths } from "../../core/address/natural-sort.js";
import { sha256Hex } from "../../core/bytes.js";
import { notUtf8Message } from "../../core/utf8.js";
import { describeIoError, OperationalError } from "../errors.js";
import { displayPath, openedPath } from "../files/files.js";
import { checkBraces } from "../files/globs.js";
import { fileKind, notRegular } from "../files/regular-file.js";

/**
 * The largest artifact `lock`, `generate` and `update` read, by default: 64 MiB (the largest real statute is about 2
 * MB).
 */
export const DEFAULT_MAX_ARTIFACT_BYTES = 64 * 2 ** 20;

/** The problem of another repository (a submodule) inside a dataset folder, at `path` from the dataset root. */
export function nestedRepository(path: string): string {
  return `${path}: a git submodule (or another repository) inside the dataset folder, not an artifact: its files are not the dataset's; move it out of the dataset folder, or leave it out with --ignore '${path}/**'`;
}

/** The problem of an artifact over the cap. */
export function tooLarge(path: string, size: number, max: number): string {
  return `${path}: ${size} bytes, more than the cap of ${max} bytes for one artifact (raise it with --max-artifact-bytes)`;
}

/**
 * What the dataset walk always leaves out, whatever the manifest's `ignore` says: dot folders (by fast-glob's `dot:
 * false`) and these.
 */
export const ALWAYS_IGNORED = ["**/node_modules/**"];

/**
 * Told of each folder of a dataset walk just before it is listed: its path, and its path from the root ("" for the
 * root, else ending in "/").
 */
export type FolderVisit = (folder: string, prefix: string) => void;

/**
 * The markdown files of a dataset folder: every `*.md` below `root` except dot folders,
 * `node_modules` and the `ignore` globs, as POSIX paths in natural order. This one walk serves
 * `lock` (what to lock) and `validate` (which files the manifest does not list). `onFolder` is told of
 * every folder before it is listed (validate's cache fingerprints them).
 */
export async function listDatasetFiles(
  root: string,
  ignore: readonly string[] = [],
  onFolder?: FolderVisit,
  repositories: string[] = [],
): Promise<string[]> {
  for (const glob of ignore) checkBraces(glob, "ignore glob"); // a manifest's ignore is not digested: bound it here
  if (ignore.length === 0) return walkMarkdown(root, onFolder, repositories).sort(comparePaths);
  // Every folder fast-glob may list is told first (a superset: those its ignore globs leave out too).
  if (onFolder) visitFolders(root, onFolder);
  const { default: fg } = await import("fast-glob"); // tens of ms of start-up: only when a dataset folder has ignore globs
  // The synchronous walk: a dataset folder is small, and a publisher's repository has thousands (the asynchronous one's
  // queue costs more than the walk).
  const options = { cwd: root, dot: false, onlyFiles: false, followSymbolicLinks: false };
  // Another repository inside the dataset folder (a submodule), unless the ignore globs leave it out: named, not entered.
  const found = fg
    .sync("**/.git", { ...options, ignore: [...ALWAYS_IGNORED, ...ignore] })
    .filter((path) => path !== ".git")
    .map((path) => path.slice(0, -"/.git".length))
    .sort(comparePaths);
  for (const path of found) if (!repositories.some((outer) => path.startsWith(`${outer}/`))) repositories.push(path);
  const entries = fg.sync("**/*.md", {
    ...options,
    ignore: [...ALWAYS_IGNORED, ...ignore, ...repositories.map((path) => `${fg.escapePath(path)}/**`)],
  });
  return entries.sort(comparePaths);
}

/** A folder (not the dataset root) that holds `.git`, a file (a submodule) or a folder (a clone): another repository. */
function isRepository(entries: readonly Dirent[]): boolean {
  return entries.some((entry) => entry.name === ".git");
}

/**
 * What fast-glob's `**\/*.md` finds with `dot: false`, `onlyFiles: false`, `followSymbolicLinks: false`
 * and `**\/node_modules/**` ignored, by a plain walk: entries named `*.md` (files, links, folders),
 * no name starting with a dot, no folder named node_modules descended into, no link followed.
 * A dataset without ignore globs is walked this way: fast-glob's cost a folder is paid by a repository
 * of thousands of datasets on every validate (bench/RESULTS.md, issue 18); test/dataset-files.test.ts
 * holds the two to the same answer. A folder holding `.git` (a submodule, another clone) is not entered: its path goes
 * to `repositories`, for the caller to name (docs/spec.md, rule lock-dataset-files).
 */
export function walkMarkdown(root: string, onFolder?: FolderVisit, repositories: string[] = []): string[] {
  const found: string[] = [];
  // An explicit stack, not recursion: a folder of any depth or size is walked in bounded stack.
  const pending: [string, string][] = [[root, ""]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [folder, prefix] = next;
    onFolder?.(folder, prefix);
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (prefix === "") throw error;
      // An unreadable subfolder may hold artifacts: the walk cannot say what the dataset holds (fast-glob throws too).
      throw Object.assign(new OperationalError(describeIoError(error, "read the folder", prefix.slice(0, -1))), {
        code: (error as NodeJS.ErrnoException).code,
      });
    }
    if (prefix !== "" && isRepository(entries)) {
      repositories.push(prefix.slice(0, -1)); // a submodule or another clone: its files are not the dataset's
      continue;
    }
    const folders: [string, string][] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".")) continue;
      if (name.endsWith(".md")) found.push(prefix + name);
      if (entry.isDirectory() && name !== "node_modules") folders.push([join(folder, name), `${prefix}${name}/`]);
    }
    for (let i = folders.length - 1; i >= 0; i--) pending.push(folders[i]!);
  }
  return found;
}

/**
 * Tells `onFolder` of every folder walkMarkdown would list, without listing markdown: a folder that
 * cannot be read is told and not entered (fast-glob, which then lists the dataset, says whether that
 * is an error: not when the ignore globs leave it out).
 */
function visitFolders(root: string, onFolder: FolderVisit): void {
  const pending: [string, string][] = [[root, ""]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [folder, prefix] = next;
    onFolder(folder, prefix);
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
        pending.push([join(folder, entry.name), `${prefix}${entry.name}/`]);
    }
  }
}

/**
 * Every markdown file of the dataset with the sha256 of its bytes; each file is read once.
 * Refuses, naming each file, names with NUL, CR, LF or a backslash, links that lead to nothing, and files that are not
 * UTF-8: the dataset's faults. A file that is there but cannot be read (a FIFO or a device, or a link to one, a link out
 * of the root, permission denied, an I/O error) is refused too, named by its path from `cwd`, and makes the error
 * `unreadable`: the checkout is at fault, not the dataset (README, "Exit codes"). Folders (one named `x.md`, or a link
 * to one) are left out. `realRoot`: the root's real path, when the caller has just resolved it; `only`: the one file of
 * a file root.
 */
export async function digestDatasetFiles(
  root: string,
  ignore: readonly string[] = [],
  maxArtifactBytes = DEFAULT_MAX_ARTIFACT_BYTES,
  keepUpTo = 0,
  realRoot = realpathSync.native(root),
  only?: string,
  cwd = process.cwd(),
): Promise<{ digests: Map<string, string>; bytes: number; contents?: Map<string, Buffer> }> {
  const repositories: string[] = [];
  // `only`: the one file of a file root (dataset-root.ts), the folder not walked.
  const entries = only !== undefined ? [only] : await listDatasetFiles(root, ignore, undefined, repositories);
  if (repositories.length > 0) throw new DatasetError(repositories.map(nestedRepository));
  // With keepUpTo, the bytes read are kept for the caller (update generates from the very bytes it digested, not a
  // second read), while they add up to no more than that.
  let contents = keepUpTo > 0 ? new Map<string, Buffer>() : undefined;
  let bytes = 0;
  // Synchronous: each file is small, and the promise API's per-call cost (a FileHandle, several round trips) would
  // dominate.
  const inspect = (path: string): { problem?: string; digest?: string; unreadable?: boolean } => {
    if (/[\u0000\r\n\\]/.test(path))
      return { problem: `${JSON.stringify(path)}: the name has a NUL, CR, LF or backslash` };
    const absolute = join(root, ...path.split("/"));
    const unreadable = (cause: string) => ({
      problem: `cannot read ${displayPath(absolute, cwd)}: ${cause}`,
      unreadable: true,
    });
    try {
      return read(path, absolute, unreadable);
    } catch (error) {
      // Permission denied, an I/O error, a file gone since the folder was listed.
      return { problem: describeIoError(error, "read", displayPath(absolute, cwd)), unreadable: true };
    }
  };
  const read = (
    path: string,
    absolute: string,
    unreadable: (cause: string) => { problem: string; unreadable: boolean },
  ): { problem?: string; digest?: string; unreadable?: boolean } => {
    const info = lstatSync(absolute);
    // The file read is the file checked: opened without following a link (a link is resolved and checked first, its
    // target opened the same way), and, where the system says which file a descriptor is, that file is inside the root.
    // A swap between a file and a link to an outside file while lock runs can never pin the outside file.
    let opened: string;
    if (info.isSymbolicLink()) {
      try {
        opened = realpathSync.native(absolute);
      } catch {
        return { problem: `${path}: a symbolic link to nothing` };
      }
      if (!opened.startsWith(realRoot + sep))
        return unreadable(`it is a symbolic link to ${opened}, outside the dataset root`);
      const target = statSync(opened);
      if (!target.isFile())
        return target.isDirectory()
          ? {}
          : unreadable(`it is a symbolic link to ${fileKind(target)}, not a regular file: only regular files are read`);
    } else if (!info.isFile()) {
      return info.isDirectory() ? {} : unreadable(notRegular(info).message); // a FIFO or a device is never read: it would block or never end
    } else opened = absolute;
    let fd: number;
    try {
      fd = openSync(opened, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP" || code === "ENOENT")
        return unreadable("replaced while lock read it (now a symbolic link or gone): run lock again");
      throw error;
    }
    try {
      const opens = fstatSync(fd);
      if (!opens.isFile()) return unreadable("replaced while lock read it (now not a regular file): run lock again");
      const real = openedPath(fd);
      if (real !== undefined && !real.startsWith(realRoot + sep))
        return unreadable(`it resolves to ${real}, outside the dataset root`);
      if (opens.size > maxArtifactBytes) return { problem: tooLarge(path, opens.size, maxArtifactBytes) };
      const content = readFileSync(fd);
      bytes += content.length;
      if (contents !== undefined) {
        if (bytes <= keepUpTo) contents.set(path, content);
        else contents = undefined;
      }
      return isUtf8(content) ? { digest: sha256Hex(content) } : { problem: notUtf8Message(path, content) };
    } finally {
      closeSync(fd);
    }
  };
  const results = entries.map(inspect);
  const problems = results.flatMap((r) => (r.problem ? [r.problem] : []));
  if (problems.length > 0)
    throw new DatasetError(
      problems,
      undefined,
      results.some((r) => r.unreadable),
    );
  const digests = new Map<string, string>();
  entries.forEach((path, i) => {
    const digest = results[i]!.digest;
    if (digest !== undefined) digests.set(path, digest);
  });
  return { digests, bytes, ...(contents !== undefined ? { contents } : {}) };
}
