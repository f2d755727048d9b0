/**
 * Reading only regular files (SECURITY.md, "Only regular files are read"). A character device
 * (`/dev/zero`), a FIFO or a socket given as an input, symlinked in place of one, or swapped in for an
 * artifact would grow memory without bound or block forever: every file the tool reads is opened
 * without blocking (a FIFO opens at once), checked on the opened descriptor (so a swap between the
 * check and the read cannot slip through), and refused by name when it is not a regular file.
 * Standard input is read only when asked for with `-`.
 */
import { type BigIntStats, closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";

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
 * The flags every read opens with: no blocking (a FIFO with no writer opens at once), and `noFollow` refuses a symbolic
 * link as the last part.
 */
function readFlags(noFollow: boolean): number {
  return constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
}

/**
 * Opens a file for reading and checks, on the opened descriptor, that it is regular; returns the descriptor and its
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
