/**
 * Reading only regular files (SECURITY.md, "Only regular files are read"). A character device
 * (`/dev/zero`), a FIFO or a socket given as an input, symlinked in place of one, or swapped in for an
 * artifact would grow memory without bound or block forever: every file the tool reads is opened
 * without blocking (a FIFO opens at once), checked on the opened descriptor (so a swap between the
 * check and the read cannot slip through), and refused by name when it is not a regular file.
 * Standard input is read only when asked for with `-`.
 */
import {
  type BigIntStats,
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  type ReadStream,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ALLOW_OUTSIDE_FLAG, isInside, openedPath } from "./files.js";

/** What a file that is not regular is, in plain words. */
export function fileKind(info: Stats | BigIntStats): string {
  if (info.isDirectory()) return "a folder";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/**
 * The error for a file that is not regular: its message is the plain words, its code ENOTREG (for callers that test
 * it).
 */
export function notRegular(info: Stats | BigIntStats): Error {
  return Object.assign(new Error(`it is ${fileKind(info)}, not a regular file: only regular files are read`), {
    code: "ENOTREG",
  });
}

/**
 * Reads stay in the repository (SECURITY.md, "Reads stay in the repository"): a file whose path is inside a repository
 * (below the nearest folder holding `.git`) must really be there once every symbolic link is resolved, or it is
 * refused by name (code EOUTSIDE). A committed link to `/etc/passwd` or to a file of another checkout, named on the
 * command line by a shell glob or a pre-commit file list, or met beside a manifest, is never read. A path outside any
 * repository (named so by the user) is read as it is. `--allow-outside-repository` lifts the rule for the run.
 */
let outsideAllowed = false;

/** Lifts (or puts back) the confinement of reads for this thread: `--allow-outside-repository`. */
export function allowReadsOutsideRepository(allowed: boolean): void {
  outsideAllowed = allowed;
}

/** Whether reads outside the repository are allowed in this thread (a worker is told with its task). */
export function readsOutsideAllowed(): boolean {
  return outsideAllowed;
}

/** The repository root (lexical, and real) of each folder asked about; null outside any repository. */
const repositories = new Map<string, { root: string; real: string } | null>();

function repositoryOf(folder: string): { root: string; real: string } | null {
  const known = repositories.get(folder);
  if (known !== undefined) return known;
  let found: { root: string; real: string } | null;
  if (statSync(join(folder, ".git"), { throwIfNoEntry: false }) !== undefined) {
    let real = folder;
    try {
      real = realpathSync.native(folder);
    } catch {
      // cannot be resolved: compared as it is
    }
    found = { root: folder, real };
  } else {
    const parent = dirname(folder);
    found = parent === folder ? null : repositoryOf(parent);
  }
  repositories.set(folder, found);
  return found;
}

/** The error for a file that resolves outside its repository: plain words, code EOUTSIDE. */
function outside(real: string, root: string, path: string): Error {
  return Object.assign(
    new Error(
      `it resolves to ${real}, outside the repository ${root} (a symbolic link leads out of it): only files in the repository are read (${ALLOW_OUTSIDE_FLAG} allows more)`,
    ),
    { code: "EOUTSIDE", path }, // the path read, for a message that names it (describeUnexpectedIoError)
  );
}

/** Throws EOUTSIDE when the file open on `fd`, named `path`, is in a repository by its path but not really. */
function checkConfined(path: string, fd: number): void {
  if (outsideAllowed) return;
  const absolute = resolve(path);
  const repository = repositoryOf(dirname(absolute));
  if (repository === null) return;
  let real = openedPath(fd);
  if (real === undefined) {
    try {
      real = realpathSync.native(absolute);
    } catch {
      return; // gone meanwhile: the read says so
    }
  }
  if (!isInside(repository.real, real)) throw outside(real, repository.root, path);
}

/**
 * The flags every read opens with: no blocking (a FIFO with no writer opens at once), and `noFollow` refuses a symbolic
 * link as the last part.
 */
function readFlags(noFollow: boolean): number {
  return constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
}

/**
 * The one open of every read: without blocking, checked on the opened descriptor to be a regular file and, when its
 * path is in a repository, to really be there (checkConfined); returns the descriptor and its
 * stats (with `bigint`, in nanoseconds).
 */
export function openRegularSync(path: string, noFollow?: boolean): { fd: number; info: Stats };
export function openRegularSync(path: string, noFollow: boolean, bigint: true): { fd: number; info: BigIntStats };
export function openRegularSync(
  path: string,
  noFollow = false,
  bigint = false,
): { fd: number; info: Stats | BigIntStats } {
  const fd = openSync(path, readFlags(noFollow));
  try {
    const info = bigint ? fstatSync(fd, { bigint: true }) : fstatSync(fd);
    if (!info.isFile()) throw notRegular(info);
    checkConfined(path, fd);
    return { fd, info };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Reads a whole regular file; throws ENOTREG (notRegular) for anything else, without reading it. */
export function readRegularFileSync(path: string, _shown?: string, noFollow = false): Buffer {
  const { fd } = openRegularSync(path, noFollow);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file's bytes in one call; undefined when it is not there, not a regular file or cannot be read (the caller
 * compares in full, or rewrites it).
 */
export function readRegularIfPresent(path: string): Buffer | undefined {
  try {
    return readRegularFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A regular file's bytes in pieces of `size` bytes, each read when it is asked for, synchronously. The file is opened
 * now, as every read is (openRegularSync: regular, in the repository: what is refused throws here), and closed when the
 * pieces end or the reader stops: read at least the first piece. No stream: loading a file stream's machinery costs a
 * run some ms (bench/RESULTS.md, start-up). Each piece is a buffer of its own, which the reader may keep.
 */
export function regularPiecesSync(path: string, size = 64 * 1024): Generator<Uint8Array, void, undefined> {
  return piecesOf(openRegularSync(path).fd, size);
}

function* piecesOf(fd: number, size: number): Generator<Uint8Array, void, undefined> {
  try {
    for (;;) {
      const piece = Buffer.allocUnsafe(size);
      const read = readSync(fd, piece, 0, size, null);
      if (read === 0) return;
      yield read === size ? piece : piece.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

/** A stream of a file's bytes, opened as every read is (openRegularSync: regular, in the repository). */
export function regularReadStream(path: string, options: { highWaterMark?: number } = {}): ReadStream {
  const { fd } = openRegularSync(path);
  return createReadStream("", { ...options, fd });
}

/**
 * Runs `run` with reads outside the repository allowed when `allowed` (the `allowOutsideRepository` option of a
 * command), and puts the rule back after it; the pool's workers started meanwhile are told (pool.ts).
 */
export async function withOutsideReads<T>(allowed: boolean | undefined, run: () => Promise<T>): Promise<T> {
  if (allowed !== true || outsideAllowed) return run();
  outsideAllowed = true;
  try {
    return await run();
  } finally {
    outsideAllowed = false;
  }
}
