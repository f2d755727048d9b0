import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { sha256Bytes } from "../../core/bytes.js";
import { errorMessage } from "../../core/errors.js";
import { compare } from "../../core/report/problem.js";
import { OperationalError } from "../errors.js";
import { listFolder } from "./folder-listing.js";
import { checkBraces } from "./globs.js";

export { DEFAULT_FOLDER, DEFAULT_MANIFEST_PATTERN, DEFAULT_PATTERN, MANIFEST_FOLDER } from "./tooling-paths.js";

/** Characters that make a pattern a glob (fast-glob's syntax); a path without them is a literal file. */
const GLOB_SYNTAX = /[*?[\]{}()!]/;

export interface InputFile {
  /** Absolute path for reading (for standard input: of the name it was given, if any). */
  absolute: string;
  /** Path shown in output: relative to cwd with POSIX separators when inside it. */
  display: string;
  /** Read from standard input; `display` is the name given with --stdin-filename, or `<stdin>`. */
  stdin?: boolean;
  /**
   * Its size in bytes as the listing found it (the stat that told a literal path to be a file, or the lstat of a file
   * that is no link); absent when the listing did not stat it (sizesOf asks then).
   */
  size?: number;
}

/** How standard input is shown when no name is given for it. */
export const STDIN_NAME = "<stdin>";

/**
 * The path as shown to users: relative to `cwd` with `/` separators, as git shows it (`../x` from a
 * subfolder); absolute when it shares no folder with `cwd` but the file system's root.
 */
export function displayPath(absolute: string, cwd: string): string {
  // A plain path below cwd (the common case, thousands of times a run): the rest of it, without path.relative's work.
  const below = plainBelow(cwd, absolute);
  if (below !== undefined) return sep === "/" ? below : below.split(sep).join("/");
  const rel = relative(cwd, absolute);
  const firstFolder = (path: string) => resolve(path).split(sep)[1];
  const unrelated = !isInside(cwd, absolute) && firstFolder(cwd) !== firstFolder(absolute);
  return (rel === "" || isAbsolute(rel) || unrelated ? absolute : rel).split(sep).join("/");
}

/**
 * Expands paths, directories and globs into a sorted, de-duplicated file list.
 * A literal path is used as it is (a missing one is reported when it is read); a directory means
 * every `*.jsonl` below it; a glob that matches nothing is an error unless `allowUnmatched`.
 */
export async function expandInputs(
  patterns: string[],
  cwd: string,
  allowUnmatched = false,
  base = cwd,
  confineTo?: string,
): Promise<InputFile[]> {
  const found = new Map<string, InputFile>();
  // The real path of each folder met, for this call: thousands of files of one folder cost one realpath, and an lstat
  // each.
  const realFolders = new Map<string, string>();
  /** Its real path, and its size when the lstat that tells a link made it known. `link`: known from the listing. */
  const realPathOfFile = (absolute: string, link?: boolean): { real: string; size?: number } => {
    let size: number | undefined;
    if (link === undefined) {
      try {
        const info = lstatSync(absolute, { throwIfNoEntry: false });
        link = info?.isSymbolicLink() ?? false;
        if (info?.isFile()) size = info.size;
      } catch {
        return { real: realPathOf(absolute) }; // cannot tell (a folder that cannot be searched): realPathOf says what it can
      }
    }
    if (link) return { real: realPathOf(absolute) };
    // Not a link (or not there): its real path is its folder's, and its name (what realPathOf gives, folder by folder).
    const folder = dirname(absolute);
    let real = realFolders.get(folder);
    if (real === undefined) {
      real = realPathOf(folder);
      realFolders.set(folder, real);
    }
    return { real: join(real, basename(absolute)), ...(size === undefined ? {} : { size }) };
  };
  /** `size`: known already (InputFile's); `link`: whether it is a symbolic link, when the listing said. */
  const add = (absolute: string, size?: number, link?: boolean) => {
    // Patterns from a config or the default: every file found must really be in the repository (a symbolic link
    // included).
    if (confineTo !== undefined) {
      const found = realPathOfFile(absolute, link);
      if (!isInside(confineTo, found.real))
        throw new OperationalError(
          `${displayPath(absolute, cwd)} is outside the repository ${confineTo} (it resolves to ${realPathOf(absolute)}): patterns are confined to the repository (${ALLOW_OUTSIDE_FLAG} allows more)`,
        );
      size ??= found.size;
    }
    found.set(absolute, { absolute, display: displayPath(absolute, cwd), ...(size === undefined ? {} : { size }) });
  };
  for (const pattern of patterns) {
    checkBraces(pattern);
    if (confineTo !== undefined && pattern.split(/[\\/]/).includes(".."))
      throw new OperationalError(
        `pattern "${pattern}" has a ".." segment: the patterns of a config are confined to the repository ${confineTo} and name files from the config's folder down, never up (name such files on the command line; ${ALLOW_OUTSIDE_FLAG} allows more)`,
      );
    if (
      confineTo !== undefined &&
      (isAbsolute(pattern) || !isInside(confineTo, realPathOf(resolve(base, pattern.split(/[*?[\]{}()!]/)[0]!))))
    )
      throw new OperationalError(
        `pattern "${pattern}" leads outside the repository ${confineTo}: patterns from a config are confined to the repository (${ALLOW_OUTSIDE_FLAG} allows more)`,
      );
    const absolute = resolve(base, pattern);
    const info = statIfThere(absolute);
    if (info?.isFile()) {
      add(absolute, info.size);
      continue;
    }
    const isDirectory = info?.isDirectory() ?? false;
    if (!isDirectory && !GLOB_SYNTAX.test(pattern)) {
      add(absolute); // reading it reports the problem with this very file
      continue;
    }
    // A folder's files by the end of their names (the default pattern, `.tooling/citation-targets/*.jsonl`): the
    // folder's listing, as fast-glob gives it, at a third of its cost (folderByEnding).
    const listed = isDirectory ? undefined : folderByEnding(base, pattern);
    if (listed !== undefined) {
      if (listed.length === 0 && !allowUnmatched)
        throw new OperationalError(`no files match "${pattern}" (relative to ${base})`);
      for (const entry of listed) add(entry.absolute, undefined, entry.link);
      continue;
    }
    const { default: fg } = await import("fast-glob"); // tens of ms of start-up: only when a pattern is expanded
    const glob = isDirectory ? `${fg.convertPathToPattern(pattern.replace(/[\\/]+$/, ""))}/**/*.jsonl` : pattern;
    let matches: string[];
    try {
      // Files (a symbolic link counts as what it leads to), and anything else named like a dataset file: a FIFO, a
      // folder, a device or a dangling link named `*.jsonl` is checked, and so refused by name, never passed over in
      // silence (its dataset would drop out of the check without a word).
      const entries = await fg(glob, {
        cwd: base,
        absolute: true,
        onlyFiles: false,
        dot: true,
        followSymbolicLinks: true,
        objectMode: true,
      });
      matches = entries
        .filter((entry) => entry.dirent.isFile() || entry.name.endsWith(".jsonl"))
        .map((entry) => entry.path);
    } catch (error) {
      throw new OperationalError(`bad pattern "${pattern}": ${errorMessage(error)}`);
    }
    if (matches.length === 0 && !allowUnmatched) {
      throw new OperationalError(`no files match "${pattern}" (relative to ${base})`);
    }
    for (const match of matches) add(resolve(match));
  }
  return [...found.values()].sort((a, b) => compare(a.display, b.display));
}

/** A pattern of a plain folder path (or none) and `*` and an ending: `.tooling/citation-targets/*.jsonl`. */
const FOLDER_AND_ENDING = /^((?:[A-Za-z0-9._-]+\/)*)\*([A-Za-z0-9._-]+)$/;

/**
 * The entries of a folder whose names end as a pattern `<folder>/*<ending>.jsonl` says, when `pattern` is one (its
 * folder plain: no `.` or `..` segment, no glob syntax): what expandInputs takes of fast-glob's answer with the options
 * it gives it (`onlyFiles: false`, `dot: true`: every kind of entry, names starting with a dot included, `*` matching
 * the empty name; of the entries, the files and those named `*.jsonl`, which here is every one), with whether each is a
 * symbolic link. Undefined for any other pattern (another ending: expandInputs drops what is no file, which needs a
 * stat), and when the folder cannot be listed (fast-glob then says why, or finds nothing, as before). A folder of 13,272
 * entries: 11 ms against fast-glob's 47–54 (bench/RESULTS.md, "A publisher's repository"); test/path-fast-paths.test.ts
 * holds the two to the same answers.
 */
export function folderByEnding(base: string, pattern: string): { absolute: string; link: boolean }[] | undefined {
  const parts = FOLDER_AND_ENDING.exec(pattern);
  if (
    parts === null ||
    !parts[2]!.endsWith(".jsonl") ||
    parts[1]!.split("/").some((segment) => segment === "." || segment === "..")
  )
    return undefined;
  const folder = resolve(base, parts[1]!);
  const ending = parts[2]!;
  let entries: Dirent[];
  try {
    entries = listFolder(folder); // kept for the run's later looks at the folder (folder-listing.ts)
  } catch {
    return undefined;
  }
  const found: { absolute: string; link: boolean }[] = [];
  for (const entry of entries)
    if (entry.name.endsWith(ending)) found.push({ absolute: join(folder, entry.name), link: entry.isSymbolicLink() });
  return found;
}

/**
 * A path's stat, or undefined when it cannot be had. A sync call: these are few and on a run's start path, where loading
 * `fs.promises` costs ms (bench/RESULTS.md, start-up).
 */
export function statIfThere(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The folders from `cwd` up to the repository root, nearest first: the root is the first folder
 * that holds `.git` (a folder, or a file as in a worktree or submodule); without one, up to the
 * file system's root. Every upward search (config, repository schema, default patterns) uses this.
 */
export async function foldersUpToRoot(cwd: string): Promise<{ folders: string[]; root: string | undefined }> {
  const folders: string[] = [];
  let folder = resolve(cwd);
  for (;;) {
    folders.push(folder);
    if (statIfThere(join(folder, ".git"))) return { folders, root: folder };
    const parent = dirname(folder);
    if (parent === folder) return { folders, root: undefined };
    folder = parent;
  }
}

/**
 * True when `path` is `root` or below it (lexically: resolve symbolic links first). A name that merely starts with two
 * dots (`..mvfg.jsonl`) is inside.
 */
export function isInside(root: string, path: string): boolean {
  if (plainBelow(root, path) !== undefined) return true;
  const rel = relative(root, path);
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** A `.` or `..` segment, or an empty one (`//`): a path that path.relative would first normalise. */
const NOT_PLAIN = /(^|[\\/])\.\.?([\\/]|$)|[\\/][\\/]/;

/**
 * The part of `path` below `folder` (system separators), when both are absolute and normal (no `.`, `..` or empty
 * segment, no trailing separator on the folder) and `path` is below it: what path.relative gives then, at a fraction of
 * its cost. Undefined otherwise (path.relative is asked).
 */
function plainBelow(folder: string, path: string): string | undefined {
  if (
    path.length <= folder.length + 1 ||
    path.charCodeAt(folder.length) !== sepCode ||
    !path.startsWith(folder) ||
    !isAbsolute(folder) ||
    folder.endsWith(sep) ||
    NOT_PLAIN.test(path)
  )
    return undefined;
  return path.slice(folder.length + 1);
}

const sepCode = sep.charCodeAt(0);

/**
 * The real path of a path, resolving every symbolic link; of its nearest existing parent (plus the rest) when it does
 * not exist.
 */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  const opened = openedFolderPath(absolute);
  if (opened !== undefined) return opened;
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPathOf(parent), basename(absolute));
  }
}

/**
 * A folder's real path from the folder opened (links followed) and where the system says the descriptor is (Linux:
 * /proc/self/fd): three system calls, where realpath costs one per folder of the path (a dataset folder is asked
 * for once a manifest, thousands of times a run). Undefined when that cannot be told this way (not a folder, cannot
 * be opened, no /proc): realpath then says.
 */
function openedFolderPath(absolute: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    return openedPath(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The path of the file or folder a descriptor is open on, where the system says (Linux: /proc/self/fd); undefined
 * elsewhere, or when it is gone.
 */
export function openedPath(fd: number): string | undefined {
  try {
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    return isAbsolute(real) && !real.endsWith(" (deleted)") ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Repository roots found, by the folder the search started from (a run reads thousands of manifests of one folder). */
const repositoryRoots = new Map<string, Promise<string | undefined>>();

/**
 * The folder datasets and patterns are confined to (SECURITY.md): the repository that holds `folder`
 * (the nearest folder with `.git`), else the working directory; real path, symbolic links resolved.
 */
export async function confinementRoot(folder: string, cwd: string): Promise<string> {
  let found = repositoryRoots.get(folder);
  if (found === undefined) {
    found = findRepositoryRoot(folder);
    repositoryRoots.set(folder, found);
  }
  const root = await found;
  if (root === undefined) return realPathOf(cwd);
  // The repository root's real path, once per root like the root itself (every manifest of a run asks).
  let real = realRepositoryRoots.get(root);
  if (real === undefined) {
    real = realPathOf(root);
    realRepositoryRoots.set(root, real);
  }
  return real;
}

/** Real paths of the repository roots found. */
const realRepositoryRoots = new Map<string, string>();

/** The flag that lifts the confinement, as messages name it. */
export const ALLOW_OUTSIDE_FLAG = "--allow-outside-repository";

/** The repository root above `cwd` (the nearest folder holding `.git`), or undefined outside a repository. */
export async function findRepositoryRoot(cwd: string): Promise<string | undefined> {
  return (await foldersUpToRoot(cwd)).root;
}

/** Where `cwd` is in its repository, POSIX, relative to the root ("" at the root); undefined outside a repository. */
export async function cwdInRepository(cwd: string): Promise<string | undefined> {
  const root = await findRepositoryRoot(cwd);
  return root === undefined ? undefined : relative(root, resolve(cwd)).split(sep).join("/");
}

/**
 * The path that decides a file's shard: relative to the repository root (POSIX) when the file is
 * inside it, so that the split is the same from whichever folder the shard jobs run; else the
 * absolute path.
 */
export function shardKey(absolute: string, root: string | undefined): string {
  const rel = root === undefined ? "" : relative(root, absolute);
  return (root === undefined || !isInside(root, absolute) ? absolute : rel).split(sep).join("/");
}

/**
 * The shard (0-based, of `count`) a file belongs to in a CI matrix: by a hash of its path from the
 * repository root (shardKey), so every shard job of the same checkout puts each file in exactly one
 * shard, whatever the order files are found in and wherever the job runs from.
 */
export function shardOf(key: string, count: number): number {
  const digest = sha256Bytes(key);
  return new DataView(digest.buffer, digest.byteOffset, 4).getUint32(0) % count;
}

/** The dataset folder a manifest points to (absolute), or undefined when it cannot be read as one. */
export function datasetRootOf(path: string): string | undefined {
  const field = datasetRootField(path);
  return field === undefined ? undefined : resolve(dirname(path), field);
}

/**
 * A manifest's datasetRoot as it is written (`.` when it has none: its own folder), or undefined when it cannot be read
 * as a manifest (not a regular file, not JSON).
 */
function datasetRootField(path: string): string | undefined {
  try {
    const data = JSON.parse(readSmallText(path)) as { datasetRoot?: unknown };
    return typeof data.datasetRoot === "string" ? data.datasetRoot : "."; // `null` throws: no manifest
  } catch {
    return undefined;
  }
}

/** A buffer of this thread for small files read whole (readSmallText), made on first use. */
let smallBuffer: Buffer | undefined;
const SMALL_BYTES = 64 * 1024;

/**
 * A regular file's text, as `readFileSync(path, "utf8")` gives it (anything else throws), read into one buffer of this
 * thread when it fits: a manifest of a law is some 500 bytes, and `--staged` reads every manifest of the repository to
 * map a staged file to its datasets, where a new buffer a file cost a third of the time (82 against 122–141 ms for
 * 6,636 manifests, read and parsed in one process).
 */
export function readSmallText(path: string): string {
  smallBuffer ??= Buffer.allocUnsafeSlow(SMALL_BYTES);
  // Opened without waiting, and only a regular file read: a FIFO committed under a manifest's name would block the
  // read for ever (`--staged` read every manifest with readFileSync, and hung on one).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let at = 0;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "ENOTREG" });
    // Read up to the size the file has (no further read to meet its end: a syscall a manifest, thousands a hook), as
    // readFileSync reads a regular file (one that grows meanwhile may be read with some of what it gained, never to its
    // new end); one whose stat says 0 (some of /proc's) to its end.
    for (;;) {
      const read = readSync(fd, smallBuffer, at, SMALL_BYTES - at, null);
      if (read === 0) break;
      at += read;
      if (stat.size > 0 && at >= stat.size && at < SMALL_BYTES) break;
      if (at === SMALL_BYTES) {
        // Larger: the rest read whole from here (readFileSync reads a descriptor from where it stands), decoded as one.
        return Buffer.concat([smallBuffer, readFileSync(fd)]).toString("utf8");
      }
    }
  } finally {
    closeSync(fd);
  }
  return smallBuffer.toString("utf8", 0, at);
}
