import { lstatSync, readlinkSync } from "node:fs";
import { errorMessage } from "../core/errors.js";

/** An operational failure the CLI reports with exit code 2: bad usage, configuration, or I/O. */
export class OperationalError extends Error {
  override name = "OperationalError";
}

const IO_WORDS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EISDIR: "it is a folder, not a file",
  ENOTDIR: "a part of the path is not a folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EMFILE: "too many open files",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
  EIO: "input/output error",
  ENOSPC: "no space left on the device",
  EROFS: "read-only file system",
  EDQUOT: "the disk quota is used up",
  EFBIG: "the file is too large",
  EEXIST: "it already exists",
  EBUSY: "it is busy",
  ERR_FS_EISDIR: "it is a folder, not a file",
};

/**
 * "not there" said of a symbolic link that is there, leading nowhere (a committed link to a file not in the checkout):
 * what it leads to, so that the link is looked at, not the path. Undefined for any other error.
 */
function danglingLink(error: unknown): string | undefined {
  const { code, path } = error as NodeJS.ErrnoException;
  if (code !== "ENOENT" || typeof path !== "string") return undefined;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return `it is a symbolic link to ${readlinkSync(path)}, which is not there`;
  } catch {
    return undefined;
  }
}

/** Plain words for a failed file operation: "cannot read <path>: no such file or folder". */
export function describeIoError(error: unknown, verb: string, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // ENOTREG, EOUTSIDE (regular-file.ts): a file that is not regular, or outside the repository, said in the message.
  const words =
    code !== undefined && code !== "ENOTREG" && code !== "EOUTSIDE"
      ? (danglingLink(error) ?? IO_WORDS[code] ?? code)
      : error instanceof Error
        ? error.message
        : String(error);
  return `cannot ${verb} ${path}: ${words}`;
}

/**
 * An OperationalError for a failed file operation, naming the path; it keeps the error's code (ENOENT, EACCES…) for
 * callers that test it.
 */
export function ioError(error: unknown, verb: string, path: string, note = ""): OperationalError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return Object.assign(
    new OperationalError(`${describeIoError(error, verb, path)}${note}`, { cause: error }),
    code !== undefined ? { code } : {},
  );
}

/**
 * Plain words for an I/O error that reached the top without a path of its own: the path Node put in
 * its message ("EACCES: permission denied, open '/x'") when it has one, else what the error says.
 */
export function describeUnexpectedIoError(error: unknown): string {
  const { code, syscall, path, dest } = error as NodeJS.ErrnoException & { dest?: string };
  const message = errorMessage(error);
  const named = path ?? /, [a-z]+ '(.*?)'(?: -> '.*')?$/.exec(message)?.[1];
  const verb = syscall === "open" || syscall === undefined ? "access" : syscall;
  if (named !== undefined) return describeIoError(error, verb, dest !== undefined ? `${named} (to ${dest})` : named);
  return `${code !== undefined ? (IO_WORDS[code] ?? code) : "error"}: ${message}`;
}
