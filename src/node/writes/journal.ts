/**
 * All or nothing across the datasets of an `update` (docs/spec.md, section 14, item 6; SECURITY.md).
 * Every new file is first complete and synced in a temporary file beside its target. Before the first
 * rename, the main thread writes a journal (`.citation-targets-update.journal.json` at the
 * repository root, or the working directory outside a repository) listing every rename, with a hard
 * link (a backup) to each target that existed, and syncs it. Then it renames, SIGINT and SIGTERM held
 * back until the renames are done; then removes the backups and the journal. A rename that fails turns
 * the journal around ("back") and restores every target renamed so far from its backup.
 *
 * A run killed in between (SIGKILL, power) leaves the journal: every command names it and the command
 * that completes it, `citation-targets update --recover` (a plain `update` completes it first too),
 * which rolls it forward (the temporaries are complete) or back, as the journal says.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { errorMessage } from "../../core/errors.js";
import { escapeRegExp } from "../../core/text.js";
import { ioError, OperationalError } from "../errors.js";
import { displayPath, findRepositoryRoot, isInside } from "../files/files.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { releaseWriterLock, trackedByGit } from "./writer-lock.js";
import { randomHex } from "../builtins.js";

export const JOURNAL_NAME = ".citation-targets-update.journal.json";

/** The command that completes a pending journal. */
export const RECOVER_COMMAND = "citation-targets update --recover";

/**
 * What a file this tool made was when the journal was written: recovery acts on a temporary or backup only while its
 * `lstat` still says so (a journal in a pull request cannot name a file it did not make: SECURITY.md).
 */
interface Identity {
  path: string;
  dev: string;
  ino: string;
  size: string;
  /** Modification time, nanoseconds (a rename keeps it: the target renamed into is the temporary's file). */
  mtimeNs: string;
}

interface Entry {
  target: string;
  temporary: Identity;
  /** A hard link to (or copy of) the target as it was; absent when there was none. */
  backup?: Identity;
}

interface Journal {
  journal: "citation-targets update";
  version: 2;
  /** forward: renaming temporaries over targets; back: restoring the targets from their backups. */
  direction: "forward" | "back";
  entries: Entry[];
}

/** The identity of a file this run just made. */
function identityOf(path: string): Identity {
  const info = lstatSync(path, { bigint: true });
  return { path, dev: String(info.dev), ino: String(info.ino), size: String(info.size), mtimeNs: String(info.mtimeNs) };
}

/**
 * True when `path` is a regular file (not followed if a link) that is still the file `identity` recorded; with `link`,
 * a symbolic link too (the backup of a target that was one: a link leading out of the repository is replaced, not
 * written through, and put back as it was should the renames be undone).
 */
function isRecorded(path: string, identity: Identity, link = false): boolean {
  const info = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return (
    (info?.isFile() === true || (link && info?.isSymbolicLink() === true)) &&
    String(info.dev) === identity.dev &&
    String(info.ino) === identity.ino &&
    String(info.size) === identity.size &&
    String(info.mtimeNs) === identity.mtimeNs
  );
}

const present = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** Where the journal of a run from `cwd` is: at the repository root, or in `cwd` outside a repository. */
export async function journalPath(cwd: string): Promise<string> {
  return join((await findRepositoryRoot(cwd)) ?? resolve(cwd), JOURNAL_NAME);
}

/**
 * The message for a pending journal, or undefined when there is none. One that git tracks came with a commit, not from
 * an interrupted run (a pull request may carry one): said so, as recovery refuses it.
 */
export async function pendingJournal(cwd: string): Promise<string | undefined> {
  const path = await journalPath(cwd);
  if (!present(path)) return undefined;
  if (await trackedByGit(path, dirname(path)))
    return `${displayPath(path, cwd)} is tracked by git: a journal of citation-targets is never committed (a pull request may carry one to delete files); nothing runs while it is there, and it is never followed: remove it (git rm ${JSON.stringify(basename(path))})`;
  return `an interrupted update left its journal ${displayPath(path, cwd)}: the datasets it names are half renamed until \`${RECOVER_COMMAND}\` completes it (nothing else runs until then)`;
}

function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // a file system that cannot sync a folder: the rename is still atomic
  }
}

function writeJournal(path: string, journal: Journal, exclusive: boolean): void {
  const temporary = `${path}.${process.pid}.${randomHex(4)}.tmp`;
  const fd = openSync(temporary, "wx");
  try {
    writeSync(fd, `${JSON.stringify(journal, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (exclusive && existsSync(path)) {
    rmSync(temporary, { force: true });
    throw new OperationalError(
      `another update is renaming its files, or one was interrupted: ${path} is there; run \`${RECOVER_COMMAND}\` once no other update runs`,
    );
  }
  renameSync(temporary, path);
  syncFolder(dirname(path));
}

/** A name beside `target` for its backup: a dot file ending in `.bak`, which no pattern matches. */
function backupName(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex(4)}.bak`);
}

/**
 * Holds SIGINT and SIGTERM back while `run` runs (synchronously), then delivers the first one that
 * came (the default action: the process ends). A signal that arrives during `run` reaches its
 * listener only when the event loop turns, so the listeners stay until it has turned.
 */
async function holdingSignals<T>(run: () => T): Promise<T> {
  let received: NodeJS.Signals | undefined;
  const hold = (signal: NodeJS.Signals) => {
    received ??= signal;
  };
  process.on("SIGINT", hold);
  process.on("SIGTERM", hold);
  try {
    return run();
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
    process.off("SIGINT", hold);
    process.off("SIGTERM", hold);
    if (received !== undefined) {
      releaseWriterLock(); // the signal ends the process now: its writer lock goes first
      process.kill(process.pid, received);
    }
  }
}

/** Renames the temporaries, all of them or (a rename failed) none, through the journal at `journal`. */
export async function renameAll(pairs: readonly { temporary: string; path: string }[], journal: string): Promise<void> {
  if (pairs.length === 0) return;
  await holdingSignals(() => {
    const entries: Entry[] = [];
    try {
      for (const { temporary, path } of pairs) {
        const entry: Entry = { target: path, temporary: identityOf(temporary) };
        entries.push(entry);
        if (!present(path)) continue; // a dangling link is there too: it is backed up, and put back if undone
        const backup = backupName(path);
        if (lstatSync(path).isSymbolicLink()) {
          // A link (the target is replaced, never written through): backed up as a link of its own, never by a copy,
          // which would follow it (a dangling one cannot be copied; one leading out would be copied in).
          symlinkSync(readlinkSync(path), backup);
        } else {
          try {
            linkSync(path, backup);
          } catch {
            copyFileSync(path, backup, constants.COPYFILE_EXCL); // a file system without hard links
          }
        }
        entry.backup = identityOf(backup);
      }
      writeJournal(journal, { journal: "citation-targets update", version: 2, direction: "forward", entries }, true);
    } catch (error) {
      for (const entry of entries) if (entry.backup) rmSync(entry.backup.path, { force: true });
      throw error instanceof OperationalError
        ? error
        : ioError(error, "write", journal, " (the journal of the renames)");
    }
    let failed: { error: unknown; target: string } | undefined;
    for (const entry of entries) {
      try {
        renameSync(entry.temporary.path, entry.target);
      } catch (error) {
        failed = { error, target: entry.target };
        break;
      }
    }
    if (failed === undefined) {
      finish(journal, entries, "forward");
      return;
    }
    try {
      writeJournal(journal, { journal: "citation-targets update", version: 2, direction: "back", entries }, false);
      finish(journal, entries, "back");
    } catch (error) {
      throw new OperationalError(
        `${ioError(failed.error, "write", failed.target).message}\nand the targets renamed so far could not be restored (${ioError(error, "restore", journal).message}): run \`${RECOVER_COMMAND}\` to complete it`,
      );
    }
    throw ioError(failed.error, "write", failed.target);
  });
}

/**
 * Completes a journal in its direction, then removes the backups and the journal. Each step can be repeated: a run
 * killed here is completed by the next. A file is renamed or removed only while it is the file the journal recorded.
 */
function finish(journal: string, entries: readonly Entry[], direction: Journal["direction"]): void {
  const folders = new Set<string>();
  for (const entry of entries) {
    folders.add(dirname(entry.target));
    const pending = isRecorded(entry.temporary.path, entry.temporary);
    if (direction === "forward") {
      if (pending) renameSync(entry.temporary.path, entry.target);
    } else if (pending) {
      rmSync(entry.temporary.path, { force: true }); // never renamed: the target is as it was
    } else if (entry.backup !== undefined) {
      if (isRecorded(entry.backup.path, entry.backup, true)) renameSync(entry.backup.path, entry.target); // renamed: put the old file back
    } else if (isRecorded(entry.target, entry.temporary)) {
      rmSync(entry.target, { force: true }); // renamed, and there was no file before
    }
  }
  for (const folder of folders) syncFolder(folder);
  for (const entry of entries)
    if (entry.backup !== undefined && isRecorded(entry.backup.path, entry.backup, true))
      rmSync(entry.backup.path, { force: true });
  rmSync(journal, { force: true });
  syncFolder(dirname(journal));
}

const DIGITS = /^[0-9]+$/;

/** A recorded identity of the journal's own shape: a path and four numbers. */
function isIdentity(value: unknown): value is Identity {
  if (typeof value !== "object" || value === null) return false;
  const { path, dev, ino, size, mtimeNs } = value as Record<string, unknown>;
  return typeof path === "string" && [dev, ino, size, mtimeNs].every((n) => typeof n === "string" && DIGITS.test(n));
}

/**
 * Why the journal at `journal` (in the folder `root`) may not act on `entry`, or undefined when it may: the target
 * inside the repository after resolving links and never under `.git`, the temporary and the backup regular files with
 * this tool's names in the target's folder, each still the file it recorded.
 */
function refusal(entry: unknown, root: string, realRoot: string, direction: Journal["direction"]): string | undefined {
  const target = (entry as Entry | null)?.target;
  const shown = JSON.stringify(target);
  if (typeof target !== "string" || !isIdentity((entry as Entry).temporary))
    return `${shown}: not an entry this tool writes`;
  const { temporary, backup } = entry as Entry;
  if (backup !== undefined && !isIdentity(backup)) return `${shown}: not an entry this tool writes`;
  if (resolve(target) !== target || !target.startsWith(root + sep)) return `${shown}: outside the repository`;
  let folder: string;
  try {
    folder = realpathSync.native(dirname(target));
  } catch {
    return `${shown}: its folder is not there`;
  }
  if (!isInside(realRoot, folder) && folder !== realRoot)
    return `${shown}: its folder resolves to ${folder}, outside the repository`;
  const inside = relative(realRoot, join(folder, basename(target))).split(sep);
  if ([...relative(root, target).split(sep), ...inside].some((part) => part === ".git" || part === ".."))
    return `${shown}: under .git`;
  const named = (identity: Identity, suffix: string) =>
    dirname(identity.path) === dirname(target) &&
    new RegExp(`^\\.${escapeRegExp(basename(target))}\\.[0-9]+\\.[0-9a-f]{8}\\.${suffix}$`).test(
      basename(identity.path),
    );
  if (!named(temporary, "tmp"))
    return `${JSON.stringify(temporary.path)}: not a temporary file of ${shown} by this tool's name`;
  if (backup !== undefined && !named(backup, "bak"))
    return `${JSON.stringify(backup.path)}: not a backup of ${shown} by this tool's name`;
  if (present(temporary.path) && !isRecorded(temporary.path, temporary))
    return `${JSON.stringify(temporary.path)}: not the file the journal recorded (device, inode, size and modification time)`;
  if (backup !== undefined && present(backup.path) && !isRecorded(backup.path, backup, true))
    return `${JSON.stringify(backup.path)}: not the file the journal recorded (device, inode, size and modification time)`;
  if (
    direction === "back" &&
    backup === undefined &&
    !present(temporary.path) &&
    present(target) &&
    !isRecorded(target, temporary)
  )
    return `${shown}: not the file the update renamed there (device, inode, size and modification time)`;
  return undefined;
}

/** Completes the journal at `journal` if there is one; says what it did (undefined: there was none). */
export async function recoverJournal(
  journal: string,
): Promise<{ direction: Journal["direction"]; files: number } | undefined> {
  const cannot = (why: string) =>
    new OperationalError(`${journal}: ${why}: restore the datasets it names with git, then remove it`);
  let data: Journal;
  try {
    // A regular file, never a link followed, a FIFO waited on or a device read without end.
    data = JSON.parse(readRegularFileSync(journal, journal, true).toString("utf8")) as Journal;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw cannot(
      `the journal of an interrupted update cannot be read (${(error as NodeJS.ErrnoException).code === "ELOOP" ? "a symbolic link" : errorMessage(error)})`,
    );
  }
  const root = dirname(journal);
  // A journal comes from an interrupted run on this machine, never from a commit: one that git tracks came with a pull
  // request.
  if (await trackedByGit(journal, root))
    throw new OperationalError(
      `${journal} is tracked by git: a journal of citation-targets is never committed (a pull request may carry one to delete files), so it is not followed; remove it (git rm ${JSON.stringify(basename(journal))})`,
    );
  if (
    typeof data !== "object" ||
    data === null ||
    data.journal !== "citation-targets update" ||
    data.version !== 2 ||
    !Array.isArray(data.entries) ||
    (data.direction !== "forward" && data.direction !== "back")
  )
    throw cannot("not a journal this version of citation-targets wrote");
  const realRoot = realpathSync.native(root);
  const refused = data.entries.flatMap((entry) => refusal(entry, root, realRoot, data.direction) ?? []);
  if (refused.length > 0)
    throw new OperationalError(
      `${journal} names files which no update of this repository writes, and is not followed:\n${refused.map((why) => `  ${why}`).join("\n")}\nrestore the datasets it names with git, then remove it`,
    );
  try {
    await holdingSignals(() => finish(journal, data.entries, data.direction));
  } catch (error) {
    throw ioError(error, "complete the interrupted update of", journal);
  }
  return { direction: data.direction, files: data.entries.length };
}
