/**
 * Temporary files of atomic writes (`.<name>.<pid>.<8 hex>.tmp`, src/node/writes/write.ts) on an interrupt, and
 * those an interrupted run left (docs/spec.md, section 14, "Writes"). A Ctrl-C or a SIGTERM while
 * `update` writes would leave its temporaries beside the JSONL, and `git add -A` would commit them: on
 * SIGINT and SIGTERM, the main thread removes every temporary file of this process (the worker
 * threads' too: they share its id) in the folders the run writes into, then lets the signal end the
 * process as it would have. `validate` and `update --check` name any left over by an earlier run.
 */
import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { listNames } from "../files/folder-listing.js";

/** A temporary file's name: `.<target>.<pid>.<8 hex>.tmp` (write.ts). */
const TEMPORARY = /^\.(.+)\.([0-9]+)\.[0-9a-f]{8}\.tmp$/;

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** The folders this run writes temporary files into (main thread). */
const folders = new Set<string>();
let installed = false;
/** A signal came: the temporaries are being removed, the process ends once they are. */
let ending = false;

/**
 * Shared by the main thread and its workers (`interruptGate`, `joinInterruptGate`): slot 0 is 1 once a signal came,
 * slot 1 counts the temporary files being created now, in any thread. On a signal, the main thread closes the gate
 * and waits for the creations under way before it looks for the temporaries to remove: a worker can no longer create
 * one after the look (which left it behind when the process ended).
 */
let gate = new Int32Array(new SharedArrayBuffer(8));
const CLOSED = 0;
const CREATING = 1;
/** The longest wait for creations under way (a file system that hangs must not keep an interrupted run alive). */
const SETTLE_MS = 2_000;

/** The main thread's gate, for its workers' `workerData`. */
export function interruptGate(): SharedArrayBuffer {
  return gate.buffer as SharedArrayBuffer;
}

/**
 * A worker of the pool (worker.ts joins the gate as it starts): it registers no folder and no signal handler, the main
 * thread does. Known without loading `node:worker_threads` to ask (some ms of a pre-commit hook's validate, which
 * writes its cache: bench/RESULTS.md, the hooks).
 */
let inWorker = false;

/** In a worker thread: creates its temporaries through the main thread's gate. */
export function joinInterruptGate(buffer: unknown): void {
  inWorker = true;
  if (buffer instanceof SharedArrayBuffer && buffer.byteLength >= 8) gate = new Int32Array(buffer);
}

/**
 * Creates a temporary file through the gate: once a signal came, never (the promise stays pending: the process is
 * ending). The count is held until the creation has settled, in whichever thread runs it.
 */
export async function creatingTemporary<T>(create: () => Promise<T>): Promise<T> {
  Atomics.add(gate, CREATING, 1);
  if (Atomics.load(gate, CLOSED) !== 0) {
    Atomics.sub(gate, CREATING, 1);
    return new Promise<T>(() => undefined);
  }
  try {
    return await create();
  } finally {
    Atomics.sub(gate, CREATING, 1);
  }
}

/** Waits, up to SETTLE_MS, until no thread is creating a temporary file (the main thread's own creations settle too). */
async function settled(): Promise<void> {
  const until = Date.now() + SETTLE_MS;
  while (Atomics.load(gate, CREATING) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Removes this process's temporary files in `folder`; what cannot be removed is left (the process is ending). */
function removeOwn(folder: string): void {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return;
  }
  for (const entry of entries) {
    const match = TEMPORARY.exec(entry);
    if (!match || Number(match[2]) !== process.pid) continue;
    try {
      if (lstatSync(join(folder, entry)).isFile()) unlinkSync(join(folder, entry));
    } catch {
      // gone already, or not ours to remove
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (ending) return; // a second Ctrl-C while the first is handled
  ending = true;
  Atomics.store(gate, CLOSED, 1);
  void settled().then(() => {
    for (const folder of folders) removeOwn(folder);
    for (const each of SIGNALS) process.off(each, onSignal);
    // With no listener left, the signal ends the process as it would have (exit status 128 + its number), unless
    // another part of the run holds it (the journal's renames), which delivers it when done.
    process.kill(process.pid, signal);
  });
}

/**
 * Notes that this run writes temporary files into the folder of each path (a target, or the folder itself with
 * `isFolder`): on SIGINT or SIGTERM they are removed. In a worker thread, nothing: the main thread registers the
 * folders of what the workers write.
 */
export function removeOnInterrupt(paths: Iterable<string>, isFolder = false): void {
  if (inWorker) return;
  for (const path of paths) folders.add(isFolder ? path : dirname(path));
  if (installed || folders.size === 0) return;
  installed = true;
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

/** Whether a process with this id runs (on this machine): the writer lock and the atomic writes ask too. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The temporary files left in these folders by writes whose process is gone (an interrupted run), as absolute paths,
 * sorted; a write still running is not counted.
 */
export function leftoverTemporaries(inFolders: Iterable<string>): string[] {
  const found: string[] = [];
  for (const folder of new Set(inFolders)) {
    let entries: string[];
    try {
      entries = listNames(folder);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const match = TEMPORARY.exec(entry);
      if (!match || isRunning(Number(match[2]))) continue;
      if (lstatSync(join(folder, entry), { throwIfNoEntry: false })?.isFile()) found.push(join(folder, entry));
    }
  }
  return found.sort();
}
