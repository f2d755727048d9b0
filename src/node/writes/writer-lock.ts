/**
 * One writer at a time (SECURITY.md, "One writer at a time"). Every command that writes under the tooling folder
 * (`update`, `update --recover`, `adopt`, `lock`) first takes the writer lock: `.citation-targets-writer.lock` at the
 * repository root (the working directory outside a repository, as for the journal), a small JSON file with the
 * process id and host of its holder, made whole in one step (a temporary file hard-linked into place, so that no
 * other writer ever reads half of it). A second writer is refused, naming the holder. A lock whose process is gone on
 * this same host (killed, or the machine restarted) is taken over, and the command says so. A lock file that git
 * tracks is ignored with a warning: a pull request could otherwise block every run.
 */
import { closeSync, linkSync, lstatSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { OperationalError } from "../errors.js";
import { displayPath, findRepositoryRoot } from "../files/files.js";
import { runGit } from "../git/diff-git.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { isRunning } from "./interrupted-writes.js";
import { randomHex } from "../builtins.js";

export const WRITER_LOCK_NAME = ".citation-targets-writer.lock";

/** What the lock file holds. */
interface Holder {
  lock: "citation-targets writer";
  pid: number;
  host: string;
  command: string;
  /** A random token: this process's own lock, not another one with the same process id. */
  token: string;
}

/** The lock this process holds: nested writers (adopt runs update) share it. */
const held = new Map<string, { token: string; depth: number }>();

/** The tracked lock files warned of already (once a run, not once per writer of the run). */
const warnedTracked = new Set<string>();

/** Where the writer lock of a run from `cwd` is. */
export async function writerLockPath(cwd: string): Promise<string> {
  return join((await findRepositoryRoot(cwd)) ?? resolve(cwd), WRITER_LOCK_NAME);
}

/** Creates the lock file whole, or throws EEXIST when there is one. */
function create(path: string, holder: Holder): void {
  const text = `${JSON.stringify(holder)}\n`;
  const temporary = `${path}.${process.pid}.${randomHex(4)}.tmp`;
  writeFileSync(temporary, text, { flag: "wx" });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw error;
    // A file system without hard links: an exclusive create (a reader may then see it empty for a moment).
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The holder a lock file names, or undefined when it cannot be read as one. */
function readHolder(path: string): Holder | undefined {
  try {
    const data = JSON.parse(readRegularFileSync(path, path, true).toString("utf8")) as Partial<Holder>;
    if (
      data?.lock === "citation-targets writer" &&
      Number.isSafeInteger(data.pid) &&
      typeof data.host === "string" &&
      typeof data.token === "string"
    )
      return data as Holder;
  } catch {
    // not a lock file this tool wrote
  }
  return undefined;
}

/**
 * Takes the writer lock for `command` (run from `cwd`); resolves to the function that releases it. `note` is told of a
 * lock taken over from a process that is gone, and of a lock file git tracks (ignored). An OperationalError names the
 * holder when another writer runs.
 */
export async function takeWriterLock(cwd: string, command: string, note: (text: string) => void): Promise<() => void> {
  const path = await writerLockPath(cwd);
  const mine = held.get(path);
  if (mine !== undefined) {
    mine.depth++;
    return releaser(path);
  }
  const shown = displayPath(path, cwd);
  const holder: Holder = {
    lock: "citation-targets writer",
    pid: process.pid,
    host: hostname(),
    command,
    token: randomHex(8),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      create(path, holder);
      if (held.size === 0) {
        process.on("SIGINT", releaseOnSignal);
        process.on("SIGTERM", releaseOnSignal);
      }
      held.set(path, { token: holder.token, depth: 1 });
      return releaser(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        // A folder that cannot be written (a read-only checkout): the command's own write fails there, naming it.
        return () => undefined;
      }
    }
    if (await trackedByGit(path, resolve(path, ".."))) {
      if (!warnedTracked.has(path)) {
        warnedTracked.add(path);
        note(
          `${shown} is tracked by git: a writer lock is never committed, so it is ignored (remove it: git rm ${JSON.stringify(WRITER_LOCK_NAME)})`,
        );
      }
      return () => undefined;
    }
    const other = readHolder(path);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info === undefined) continue; // released meanwhile: try again
    if (other === undefined) {
      throw new OperationalError(
        `${shown} is there but is not a writer lock of citation-targets (${info.isFile() ? "unreadable contents" : "not a regular file"}): if no citation-targets runs in this repository, remove it`,
      );
    }
    const gone = other.host === holder.host && (!isRunning(other.pid) || other.pid === process.pid);
    if (!gone || attempt >= 3)
      throw new OperationalError(
        `another citation-targets writes in this repository: ${shown} is held by process ${other.pid} (${other.command}) on host ${other.host}; run again once it has ended (if it is gone, remove ${shown})`,
      );
    // The holder is gone: take its lock over, once the file is still the one read.
    const again = readHolder(path);
    if (again?.token !== other.token) continue;
    rmSync(path, { force: true });
    note(
      `took over the writer lock ${shown} of process ${other.pid} (${other.command}) on host ${other.host}, which is no longer running`,
    );
  }
}

/** Removes the lock files that are still this process's (`path`: that one only); forgets them, however deeply nested. */
export function releaseWriterLock(path?: string): void {
  for (const [at, { token }] of [...held]) {
    if (path !== undefined && at !== path) continue;
    held.delete(at);
    if (readHolder(at)?.token === token) rmSync(at, { force: true });
  }
  if (held.size === 0) {
    process.off("SIGINT", releaseOnSignal);
    process.off("SIGTERM", releaseOnSignal);
  }
}

/**
 * SIGINT or SIGTERM while the lock is held: the lock file is removed, then the signal ends the process as it would
 * have. While the renames of an update hold signals back (journal.ts), they run first: the signal comes back here when
 * they are done.
 */
function releaseOnSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return; // held back by another listener, which sends it again
  releaseWriterLock();
  process.kill(process.pid, signal);
}

function releaser(path: string): () => void {
  let done = false;
  return () => {
    const mine = held.get(path);
    if (done || mine === undefined) return;
    done = true;
    if (--mine.depth > 0) return;
    releaseWriterLock(path);
  };
}

/** Runs `run` holding the writer lock (see takeWriterLock), released however it ends. */
export async function withWriterLock<T>(
  cwd: string,
  command: string,
  note: (text: string) => void,
  run: () => Promise<T>,
): Promise<T> {
  const release = await takeWriterLock(cwd, command, note);
  try {
    return await run();
  } finally {
    release();
  }
}

/** The `onNote` of a writer's options: the given one, else a process warning. */
export function noteOf(options: { onNote?: (text: string) => void }): (text: string) => void {
  return options.onNote ?? ((text) => process.emitWarning(text, "citation-targets"));
}

/** True when git tracks `path` (a file of the working tree at `root`); false outside a repository or without git. */
export async function trackedByGit(path: string, root: string): Promise<boolean> {
  try {
    const result = await runGit(["ls-files", "-z", "--", relative(root, path).split(sep).join("/")], root);
    return result.code === 0 && result.stdout !== "";
  } catch {
    return false;
  }
}
