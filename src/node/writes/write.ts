import { lstatSync, promises as fs, readdirSync, type Stats, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ioError, OperationalError } from "../errors.js";
import { creatingTemporary, isRunning, removeOnInterrupt } from "./interrupted-writes.js";
import { randomHex } from "../builtins.js";

/**
 * A file being written atomically: bytes go to a temporary file in the target's folder
 * (`.<name>.<pid>.<random>.tmp`, a dot file that no `*.jsonl` or `*.lock.json` pattern matches), which
 * `commit` syncs and renames over the target, so no reader ever sees half a file. `abort` removes it.
 */
export interface AtomicFile {
  /** The final path. */
  readonly path: string;
  write(data: string | Uint8Array): Promise<void>;
  /** Syncs, closes and renames the temporary file over the target. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is untouched. Safe to call more than once. */
  abort(): Promise<void>;
  /**
   * Syncs and closes the temporary file and gives its path, for the caller to rename over the target
   * later (`renameInto`) or remove (`discardTemporary`): a worker thread writes, the main thread
   * renames every dataset's files only once all of them are written. With `sync: false` the caller
   * syncs it before the rename (`syncFiles`: thousands of small files synced side by side, not one
   * after another).
   */
  detach(options?: { sync?: boolean }): Promise<string>;
}

/**
 * Targets whose stale temporaries this thread has removed already: once a run is enough (a folder of thousands of
 * datasets is read once per target, not once per write).
 */
const swept = new Set<string>();

/**
 * Runs one step of an atomic write; a failure becomes an OperationalError that names the target (never
 * only the hidden temporary file, and never no path at all, as a failed write on a file handle would).
 */
async function step<T>(path: string, run: () => Promise<T>, note = ""): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw ioError(error, "write", path, note);
  }
}

/**
 * Creates a folder and the folders above it that are missing, one level at a time. Not
 * `fs.mkdir(folder, { recursive: true })`: under /proc (and other file systems that answer ENOENT for a
 * child that cannot exist) Node's recursive mkdir retries the parent and the child for ever
 * (nodejs/node, a spin at 100 % CPU), so `schema -o /proc/x/y.json` would hang instead of failing.
 */
async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let at = folder; statSync(at, { throwIfNoEntry: false }) === undefined; at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing.reverse()) {
    try {
      await fs.mkdir(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // made meanwhile by another writer: fine
    }
  }
}

/**
 * Refuses to write `output` when it is one of the run's inputs (the same file, by device and inode, so
 * also through a link): `generate M -o M` would destroy what it reads. Names the input.
 */
export function refuseOverInputs(
  output: string,
  inputs: Iterable<{ path: string; what: string }>,
  shown = output,
): void {
  const target = outputStats(output);
  if (target === undefined) return;
  for (const input of inputs)
    refuseOverInput(target, statSync(input.path, { throwIfNoEntry: false }), input.what, shown);
}

/**
 * What is at the output's path now, to compare the inputs with (refuseOverInput); undefined when nothing is, or a folder
 * of its path is a file (nothing there to write over: the write says why it fails).
 */
export function outputStats(output: string): Stats | undefined {
  try {
    return statSync(output, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Throws when an input's stats (`info`: undefined when it is not there) are those of the output (`target`). */
export function refuseOverInput(target: Stats, info: Stats | undefined, what: string, shown: string): void {
  if (info !== undefined && info.dev === target.dev && info.ino === target.ino)
    throw new OperationalError(
      `refusing to write ${shown}: it is ${what}, an input of this run; write the output elsewhere`,
    );
}

/** Written this many bytes since the last, an atomic file starts writing them to the disk (EarlyWriteback). */
const EARLY_WRITEBACK_BYTES = 64 * 2 ** 20;

/**
 * The disk writes of a large atomic file, started while it is still being written: every EARLY_WRITEBACK_BYTES, an
 * fdatasync in the background (one at a time), so that the disk writes what was written while the next bytes are
 * made, and the fsync before the rename waits only for the last of them (a GB of JSONL: 0.25 s of waiting at the end
 * with the CPU idle before, 0.02 s after; bench/RESULTS.md, "Units"). An error of one is thrown by the next write, or
 * by the commit.
 */
class EarlyWriteback {
  private since = 0;
  private running: Promise<void> | undefined;
  private failure: unknown;

  constructor(private readonly every: number) {}

  wrote(handle: FileHandle, bytes: number): void {
    if (this.failure !== undefined) throw this.failure;
    this.since += bytes;
    if (this.since < this.every || this.running !== undefined) return;
    this.since = 0;
    this.running = handle.datasync().then(
      () => {
        this.running = undefined;
      },
      (error: unknown) => {
        this.running = undefined;
        this.failure = error;
      },
    );
  }

  /** Waits for the fdatasync under way, if any; throws its error, or an earlier one's. */
  async settle(): Promise<void> {
    await this.running;
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * Opens an atomic writer for `path`, creating its folder; first removes what an interrupted earlier write to the same
 * path left behind.
 */
export async function openAtomic(
  path: string,
  options: { sweep?: boolean /** @internal For tests: EARLY_WRITEBACK_BYTES. */; writebackBytes?: number } = {},
): Promise<AtomicFile> {
  const folder = dirname(path);
  await step(path, () => makeFolder(folder), ` (cannot create its folder ${folder})`);
  removeOnInterrupt([folder], true); // Ctrl-C while writing leaves no temporary file behind
  if (options.sweep !== false && !swept.has(path)) {
    swept.add(path);
    await removeStaleTemporaries(path);
  }
  // A fresh random name each try: a name taken by anything (a committed folder named like a temporary file) is passed
  // over.
  let temporary = "";
  let handle: FileHandle | undefined;
  for (let attempt = 0; handle === undefined; attempt++) {
    temporary = join(folder, `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`);
    try {
      handle = await creatingTemporary(() => fs.open(temporary, "wx"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 8)
        throw ioError(error, "write", path, ` (cannot create a file in ${folder})`);
    }
  }
  // A replaced file keeps its mode and group (664 stays 664): the temporary file takes them before it is renamed over
  // it.
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing?.isFile()) {
    await handle.chmod(existing.mode & 0o7777).catch(() => undefined);
    await handle.chown(existing.uid, existing.gid).catch(() => handle!.chown(-1, existing.gid).catch(() => undefined));
  }
  const early = new EarlyWriteback(options.writebackBytes ?? EARLY_WRITEBACK_BYTES);
  return {
    path,
    async write(data) {
      await step(path, () => handle!.writeFile(data)); // writeFile writes all of it, from the current position
      early.wrote(handle!, typeof data === "string" ? data.length : data.byteLength);
    },
    async commit() {
      await step(path, async () => {
        await early.settle();
        await handle!.sync();
        await handle!.close();
        handle = undefined;
        await fs.rename(temporary, path);
      });
    },
    async abort() {
      await early.settle().catch(() => undefined);
      await handle?.close().catch(() => undefined);
      handle = undefined;
      await fs.rm(temporary, { force: true, recursive: false }).catch(() => undefined); // what is left is removed by the next write to the same path
    },
    async detach(options = {}) {
      await step(path, async () => {
        await early.settle();
        if (options.sync !== false) await handle!.sync();
        await handle!.close();
        handle = undefined;
      });
      return temporary;
    },
  };
}

/** How many files `syncFiles` syncs at once (the thread pool of libuv runs four; more queue). */
const SYNC_AT_ONCE = 16;

/**
 * Writes each file's data to the disk (fdatasync), many side by side: done before a journal is
 * written for the renames, so a temporary file renamed into place is on the disk as the journal
 * says (SECURITY.md). `shown` names the target in an error.
 */
export async function syncFiles(files: readonly { temporary: string; path: string }[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const { temporary, path } = files[i]!;
      await step(path, async () => {
        const handle = await fs.open(temporary, "r+");
        try {
          await handle.datasync();
        } finally {
          await handle.close();
        }
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SYNC_AT_ONCE, files.length) }, worker));
}

/** Renames a detached temporary file (AtomicFile.detach) over its target. */
export async function renameInto(temporary: string, path: string): Promise<void> {
  await step(path, () => fs.rename(temporary, path));
}

/** Removes a detached temporary file; the target is untouched. */
export async function discardTemporary(temporary: string): Promise<void> {
  await fs.rm(temporary, { force: true });
}

/**
 * Writes `data` to `path` (creating its folder) through a temporary file in the same folder and a rename, so no reader
 * ever sees half a file. An array of pieces is written one after another (the parts of a file kept as read, around a
 * part made anew: never joined into one buffer).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  const file = await openAtomic(path);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) await file.write(data);
    else for (const piece of data) await file.write(piece);
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/**
 * Removes the temporary files of earlier writes to `path` whose process is gone (killed, or the
 * machine stopped): `.<name>.<pid>.<8 hex>.tmp` in the same folder. A temporary file of a write still
 * running is left alone.
 */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  return (await removeStaleTemporariesOf([path])).get(path) ?? [];
}

/** A temporary file's name: `.<target>.<pid>.<8 hex>.tmp`. */
const TEMPORARY = /^\.(.+)\.([0-9]+)\.[0-9a-f]{8}\.tmp$/;

/**
 * `removeStaleTemporaries` for many targets, each folder read once: a run that writes thousands of
 * datasets into one folder (adopt, a new version of every law) sweeps it once, before it writes
 * (its writers then open with `sweep: false`). Returns what was removed, by target.
 */
export async function removeStaleTemporariesOf(paths: readonly string[]): Promise<Map<string, string[]>> {
  return removeTemporariesOf(paths, (pid) => !isRunning(pid));
}

/**
 * The temporary files this process wrote for `paths` (a worker thread that ran out of memory before it could say what
 * they were: a thread has its process's id); only when nothing else of this process writes to those targets.
 */
export async function removeOwnTemporariesOf(paths: readonly string[]): Promise<Map<string, string[]>> {
  return removeTemporariesOf(paths, (pid) => pid === process.pid);
}

function readdirIfThere(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

async function removeTemporariesOf(
  paths: readonly string[],
  removable: (pid: number) => boolean,
): Promise<Map<string, string[]>> {
  const removed = new Map<string, string[]>();
  const byFolder = new Map<string, Set<string>>();
  for (const path of paths) byFolder.set(dirname(path), (byFolder.get(dirname(path)) ?? new Set()).add(basename(path)));
  for (const [folder, names] of byFolder) {
    // Sync, as the few stats on a run's start path: `fs.promises` costs a run ms to load (bench/RESULTS.md, start-up).
    for (const entry of readdirIfThere(folder)) {
      const match = TEMPORARY.exec(entry);
      if (!match || !names.has(match[1]!) || !removable(Number(match[2]))) continue;
      if (!lstatSync(join(folder, entry), { throwIfNoEntry: false })?.isFile()) continue; // only a file this tool wrote: never a folder or a link named like one
      await fs.rm(join(folder, entry), { force: true });
      const target = join(folder, match[1]!);
      removed.set(target, [...(removed.get(target) ?? []), entry]);
    }
  }
  return removed;
}
