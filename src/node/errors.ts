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
};

/** Plain words for a failed file operation: "cannot read <path>: no such file or folder". */
export function describeIoError(error: unknown, verb: string, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const words = code !== undefined ? (IO_WORDS[code] ?? code) : error instanceof Error ? error.message : String(error);
  return `cannot ${verb} ${path}: ${words}`;
}
