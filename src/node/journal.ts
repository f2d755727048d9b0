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
import { randomBytes } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { errorMessage } from "../core/errors.js";
import { escapeRegExp } from "../core/text.js";
import { ioError, OperationalError } from "./errors.js";
import { displayPath, findRepositoryRoot } from "./files.js";

export const JOURNAL_NAME = ".citation-targets-update.journal.json";

/** The command that completes a pending journal. */
export const RECOVER_COMMAND = "citation-targets update --recover";

interface Entry {
  temporary: string;
  target: string;
  /** A hard link to (or copy of) the target as it was; absent when there was none. */
  backup?: string;
}

interface Journal {
  journal: "citation-targets update";
  version: 1;
  /** forward: renaming temporaries over targets; back: restoring the targets from their backups. */
  direction: "forward" | "back";
  entries: Entry[];
}

/** Where the journal of a run from `cwd` is: at the repository root, or in `cwd` outside a repository. */
export async function journalPath(cwd: string): Promise<string> {
  return join((await findRepositoryRoot(cwd)) ?? resolve(cwd), JOURNAL_NAME);
}

/** The message for a pending journal, or undefined when there is none. */
export async function pendingJournal(cwd: string): Promise<string | undefined> {
  const path = await journalPath(cwd);
  if (!existsSync(path)) return undefined;
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
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
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
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.bak`);
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
    if (received !== undefined) process.kill(process.pid, received);
  }
}

/** Renames the temporaries, all of them or (a rename failed) none, through the journal at `journal`. */
export async function renameAll(pairs: readonly { temporary: string; path: string }[], journal: string): Promise<void> {
  if (pairs.length === 0) return;
  await holdingSignals(() => {
    const entries: Entry[] = pairs.map(({ temporary, path }) => ({ temporary, target: path }));
    try {
      for (const entry of entries) {
        if (!existsSync(entry.target)) continue;
        const backup = backupName(entry.target);
        try {
          linkSync(entry.target, backup);
        } catch {
          copyFileSync(entry.target, backup); // a file system without hard links
        }
        entry.backup = backup;
      }
      writeJournal(journal, { journal: "citation-targets update", version: 1, direction: "forward", entries }, true);
    } catch (error) {
      for (const entry of entries) if (entry.backup) rmSync(entry.backup, { force: true });
      throw error instanceof OperationalError
        ? error
        : ioError(error, "write", journal, " (the journal of the renames)");
    }
    let failed: { error: unknown; target: string } | undefined;
    for (const entry of entries) {
      try {
        renameSync(entry.temporary, entry.target);
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
      writeJournal(journal, { journal: "citation-targets update", version: 1, direction: "back", entries }, false);
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
 * killed here is completed by the next.
 */
function finish(journal: string, entries: readonly Entry[], direction: Journal["direction"]): void {
  const folders = new Set<string>();
  for (const entry of entries) {
    folders.add(dirname(entry.target));
    const pending = existsSync(entry.temporary);
    if (direction === "forward") {
      if (pending) renameSync(entry.temporary, entry.target);
    } else if (pending) {
      rmSync(entry.temporary, { force: true }); // never renamed: the target is as it was
    } else if (entry.backup !== undefined) {
      if (existsSync(entry.backup)) renameSync(entry.backup, entry.target); // renamed: put the old file back
    } else {
      rmSync(entry.target, { force: true }); // renamed, and there was no file before
    }
  }
  for (const folder of folders) syncFolder(folder);
  for (const entry of entries) if (entry.backup !== undefined) rmSync(entry.backup, { force: true });
  rmSync(journal, { force: true });
  syncFolder(dirname(journal));
}

/** Completes the journal at `journal` if there is one; says what it did (undefined: there was none). */
export async function recoverJournal(
  journal: string,
): Promise<{ direction: Journal["direction"]; files: number } | undefined> {
  let data: Journal;
  try {
    data = JSON.parse(readFileSync(journal, "utf8")) as Journal;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new OperationalError(
      `${journal}: the journal of an interrupted update cannot be read (${errorMessage(error)}): restore the datasets it names with git, then remove it`,
    );
  }
  if (
    data.journal !== "citation-targets update" ||
    data.version !== 1 ||
    !Array.isArray(data.entries) ||
    (data.direction !== "forward" && data.direction !== "back")
  )
    throw new OperationalError(
      `${journal} is not a journal this version of citation-targets wrote: restore the datasets it names with git, then remove it`,
    );
  // The journal is a file in the repository: it may only rename a dataset's own temporaries and backups, beside their
  // targets, below its folder.
  const root = dirname(journal);
  const sibling = (path: unknown, target: string, suffix: string) =>
    typeof path === "string" &&
    dirname(path) === dirname(target) &&
    new RegExp(`^\\.${escapeRegExp(basename(target))}\\.[0-9]+\\.[0-9a-f]{8}\\.${suffix}$`).test(basename(path));
  for (const entry of data.entries) {
    const target = typeof entry?.target === "string" ? resolve(entry.target) : "";
    const inside = target.startsWith(root + sep) && entry.target === target;
    if (
      !inside ||
      !sibling(entry.temporary, target, "tmp") ||
      (entry.backup !== undefined && !sibling(entry.backup, target, "bak"))
    )
      throw new OperationalError(
        `${journal} names ${JSON.stringify(entry?.target)}, which no update of this repository writes: restore the datasets it names with git, then remove it`,
      );
  }
  try {
    await holdingSignals(() => finish(journal, data.entries, data.direction));
  } catch (error) {
    throw ioError(error, "complete the interrupted update of", journal);
  }
  return { direction: data.direction, files: data.entries.length };
}
