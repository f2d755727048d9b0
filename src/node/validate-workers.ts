/**
 * How validate spreads work over worker threads, and the progress it reports. The main thread cuts
 * the work into tasks, in input order: a batch of small whole files, or one line-aligned byte range
 * of a large file (docs/spec.md, "Checking one file on several threads"). Each worker takes the next
 * task when it is done with one (two in flight, so reads overlap checks) and answers a batch with
 * its files' reports, a range with its records' summaries as it goes and then the range's problems.
 * The main thread merges each large file's ranges in file order, running the cross-record rules
 * over the summaries, and puts the reports back in input order.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { createRangeCheck, createRangeMerge, rangePlan, type RangeMerge, type RangePlan, type RangeSummary, type VisitBatch } from "../engine/check-range.js";
import type { FileReport } from "../core/report.js";
import { mapWithLimit } from "./concurrency.js";
import { describeIoError, OperationalError } from "./errors.js";
import type { InputFile } from "./files.js";
import { lockFacts, type FileValidator, type PreparedFile, type ValidateOptions } from "./validate.js";

export interface ProgressTracker {
  read(bytes: number): void;
  fileDone(bytesOfFile?: number): void;
}

export async function sizesOf(inputs: InputFile[]): Promise<number[]> {
  return mapWithLimit(inputs, 32, async (input) => (await stat(input.absolute).catch(() => undefined))?.size ?? 0);
}

/** Reports progress after each read or finished file. */
export function startProgress(inputs: InputFile[], sizes: number[], onProgress: NonNullable<ValidateOptions["onProgress"]>): ProgressTracker {
  const state = { files: inputs.length, filesDone: 0, bytes: sizes.reduce((a, b) => a + b, 0), bytesDone: 0 };
  return {
    read(n) {
      state.bytesDone += n;
      onProgress({ ...state });
    },
    fileDone(bytesOfFile = 0) {
      state.filesDone++;
      state.bytesDone += bytesOfFile;
      onProgress({ ...state });
    },
  };
}

/** Worker threads pay off for many files or much data: 200 files, or 32 MB in all. */
const WORKERS_FROM_FILES = 200;
const WORKERS_FROM_BYTES = 32 * 2 ** 20;
/** A file larger than this is checked in ranges of about this size, on every thread, by default. */
export const DEFAULT_RANGE_BYTES = 4 * 2 ** 20;
/** Small files travel to a worker in batches of up to this many, or this many bytes. */
const FILES_PER_TASK = 64;
const BYTES_PER_TASK = 4 * 2 ** 20;
const TASKS_IN_FLIGHT_PER_WORKER = 2;

/** The threads a run uses: as asked (but one for a single file too small to cut into ranges), else one per core when there is enough work. */
export function chooseJobs(inputs: InputFile[], jobs: number | undefined, sizes: number[] | undefined, rangeBytes = DEFAULT_RANGE_BYTES): number {
  const bytes = (sizes ?? []).reduce((a, b) => a + b, 0);
  const splittable = (sizes ?? []).some((size) => size > rangeBytes);
  if (jobs !== undefined) return Math.max(1, inputs.length > 1 || splittable ? jobs : 1);
  const cores = availableParallelism();
  if (cores < 2) return 1;
  return inputs.length >= WORKERS_FROM_FILES || bytes >= WORKERS_FROM_BYTES ? cores : 1;
}

export type Task =
  | { kind: "files"; items: { index: number; input: InputFile }[] }
  | { kind: "range"; index: number; input: InputFile; range: number; start: number; end: number; plan: RangePlan; manifestPath?: string };

/** One large file on its way through the ranges: merged range after range, in file order. */
interface SplitFile {
  prepared: PreparedFile;
  merge: RangeMerge;
  /** How many ranges the file has; fewer once a read error has ended it. */
  ranges: number;
  /** The range being merged; later ranges' messages wait. */
  current: number;
  waiting: Map<number, { batches: VisitBatch[]; summary?: RangeSummary }>;
  error?: string;
}

/**
 * Checks the inputs in `jobs` threads, this one and at most `jobs - 1` workers (no more than there
 * are tasks for), and gives the reports in input order, with the number of threads used. Undefined
 * when the worker script is not built (tests run the TypeScript sources): the caller checks in this
 * thread instead.
 */
export async function validateInWorkers(
  inputs: InputFile[],
  options: ValidateOptions & { cwd: string },
  validator: FileValidator,
  jobs: number,
  sizes: number[],
  progress?: ProgressTracker,
): Promise<{ files: FileReport[]; threads: number } | undefined> {
  const script = new URL("./validate-worker.js", import.meta.url);
  if (!(await stat(fileURLToPath(script)).catch(() => undefined))) return undefined;
  const rangeBytes = options.rangeBytes ?? DEFAULT_RANGE_BYTES;
  const files: FileReport[] = new Array(inputs.length);
  const split = new Map<number, SplitFile>();
  const tasks: Task[] = [];
  // Batches small enough that every thread gets several, large enough that messages are few.
  const filesPerTask = Math.max(1, Math.min(FILES_PER_TASK, Math.ceil(inputs.length / (jobs * 4))));
  let batch: { index: number; input: InputFile }[] = [];
  let batchBytes = 0;
  const closeBatch = () => {
    if (batch.length > 0) tasks.push({ kind: "files", items: batch });
    batch = [];
    batchBytes = 0;
  };
  for (const [index, input] of inputs.entries()) {
    const size = sizes[index] ?? 0;
    const cuts = size > rangeBytes ? await lineAlignedCuts(input.absolute, size, rangeBytes).catch(() => undefined) : undefined;
    if (cuts && cuts.length > 2) {
      closeBatch();
      const prepared = await validator.prepare(input);
      const plan = rangePlan(prepared.checkOptions);
      split.set(index, { prepared, merge: createRangeMerge(prepared.checkOptions, plan), ranges: cuts.length - 1, current: 0, waiting: new Map() });
      const manifestPath = prepared.checkOptions.lock?.manifestPath;
      for (let range = 0; range + 1 < cuts.length; range++) {
        tasks.push({ kind: "range", index, input, range, start: cuts[range]!, end: cuts[range + 1]!, plan, ...(manifestPath !== undefined ? { manifestPath } : {}) });
      }
      continue;
    }
    batch.push({ index, input });
    batchBytes += size;
    if (batch.length >= filesPerTask || batchBytes >= BYTES_PER_TASK) closeBatch();
  }
  closeBatch();

  const finishSplit = async (index: number, file: SplitFile) => {
    await lockFacts(file.prepared.checkOptions.lock);
    const result = file.merge.end();
    files[index] = validator.finish(file.prepared, file.error !== undefined ? { ...result, error: file.error } : result);
    split.delete(index);
    progress?.fileDone();
  };
  /** Merges what has arrived of the file's current range, and of the ranges after it once each is complete. */
  const advance = async (index: number, file: SplitFile) => {
    for (let waiting = file.waiting.get(file.current); waiting; waiting = file.waiting.get(file.current)) {
      for (const visits of waiting.batches) file.merge.addVisits(visits);
      waiting.batches = [];
      if (!waiting.summary) return;
      file.merge.endRange(waiting.summary);
      file.waiting.delete(file.current);
      if (++file.current === file.ranges) await finishSplit(index, file);
    }
  };

  const pending: Promise<void>[] = [];
  /** Takes in what a thread did for a task: reports of whole files, or a range's summaries and then its problems. True when the task is done. */
  const receive = (task: Task, message: TaskResult): boolean => {
    if ("reports" in message) {
      for (const [i, report] of message.reports.entries()) {
        const { index } = (task as Extract<Task, { kind: "files" }>).items[i]!;
        files[index] = report;
        progress?.fileDone(sizes[index]);
      }
      return true;
    }
    const { index, range, start, end } = task as Extract<Task, { kind: "range" }>;
    const file = split.get(index);
    if (file === undefined || range >= file.ranges) return "summary" in message; // a range after a read error: the file ended before it
    const waiting = file.waiting.get(range) ?? { batches: [] };
    file.waiting.set(range, waiting);
    if ("visits" in message) waiting.batches.push(message.visits);
    else {
      waiting.summary = message.summary;
      progress?.read(end - start);
      if (message.readError !== undefined) {
        // As in one thread, the file ends where it could not be read: the ranges after this one are dropped.
        file.error ??= message.readError;
        file.ranges = Math.min(file.ranges, range + 1);
        for (const later of file.waiting.keys()) if (later > range) file.waiting.delete(later);
      }
    }
    if (range === file.current) pending.push(advance(index, file));
    return "summary" in message;
  };
  /** False for a range of a file that has ended (a read error before it): it is not checked. */
  const live = (task: Task) => task.kind === "files" || task.range < (split.get(task.index)?.ranges ?? 0);
  /** The next task worth doing, or undefined when there is none left. */
  const take = (): number | undefined => {
    while (next < tasks.length && !live(tasks[next]!)) next++;
    return next < tasks.length ? next++ : undefined;
  };

  // This thread takes tasks too, besides jobs - 1 workers (no more than there is work for), so that
  // the threads match the cores; it merges the ranges between its own chunks.
  let next = 0;
  const workers = Math.min(jobs - 1, Math.max(0, Math.ceil((tasks.length - 1) / TASKS_IN_FLIGHT_PER_WORKER)));
  const started: Worker[] = [];
  const here = async () => {
    for (let id = take(); id !== undefined; id = take()) {
      const task = tasks[id]!;
      if (task.kind === "files") receive(task, { reports: await checkFiles(validator, task) });
      else receive(task, await checkRange(validator, task, (visits) => receive(task, { visits })));
      // Small files are read synchronously, so a batch may never leave this thread's microtasks: let the
      // workers' messages in before taking the next task, or they would wait for their next tasks until this thread had done them all.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const inWorkers = new Promise<void>((done, fail) => {
    let running = 0;
    const start = () => {
      running++;
      const worker = new Worker(script, { workerData: workerOptionsOf(options) });
      started.push(worker);
      const inFlight = new Map<number, Task>();
      let closed = false;
      const send = () => {
        const id = take();
        if (id !== undefined) {
          inFlight.set(id, tasks[id]!);
          worker.postMessage({ id, task: tasks[id] });
        } else if (inFlight.size === 0 && !closed) {
          closed = true;
          worker.postMessage(null);
        }
      };
      worker.on("message", (message: WorkerMessage) => {
        if ("error" in message) {
          fail(message.error.name === "OperationalError" ? new OperationalError(message.error.message) : new Error(message.error.message));
          void worker.terminate();
        } else if ("ready" in message) {
          for (let i = 0; i < TASKS_IN_FLIGHT_PER_WORKER; i++) send();
        } else if (receive(inFlight.get(message.id)!, message)) {
          inFlight.delete(message.id);
          send();
        }
      });
      worker.on("error", fail);
      worker.on("exit", (code) => {
        // A worker that stops on its own (not after the null that closes it) leaves its tasks undone: the run cannot finish.
        if (!closed) fail(new Error(`a worker thread stopped (exit code ${code}) with ${inFlight.size} task${inFlight.size === 1 ? "" : "s"} undone`));
        else if (--running === 0) done();
      });
    };
    if (workers === 0) done();
    for (let i = 0; i < workers; i++) start();
  });
  try {
    await Promise.all([here(), inWorkers]);
    for (let settled = 0; settled < pending.length; settled = pending.length) await Promise.all(pending.slice(settled));
  } catch (error) {
    next = tasks.length; // this thread takes no more tasks
    await Promise.all(started.map((worker) => worker.terminate()));
    throw error;
  }
  return { files, threads: workers + 1 };
}

/** What a thread answers for a task: all at once for a batch of files; for a range, summaries as it goes, then the range's problems. */
export type TaskResult = { reports: FileReport[] } | { visits: VisitBatch } | { summary: RangeSummary; readError?: string };

/** What a worker posts: ready, a task's result (by task id), or a failure that ends the run. */
export type WorkerMessage = { ready: true } | ({ id: number } & TaskResult) | { error: { name: string; message: string } };

/** Files of a batch in flight at once in one thread, so that reads overlap checks. */
const BATCH_FILES_IN_FLIGHT = 4;

/** Checks a batch of whole files. */
export function checkFiles(validator: FileValidator, task: Extract<Task, { kind: "files" }>): Promise<FileReport[]> {
  return mapWithLimit(task.items, BATCH_FILES_IN_FLIGHT, (item) => validator.check(item.input));
}

/** Checks one range of a large file: the line and record rules, handing each batch of record summaries to `onVisits`. */
export async function checkRange(validator: FileValidator, task: Extract<Task, { kind: "range" }>, onVisits: (visits: VisitBatch) => void): Promise<{ summary: RangeSummary; readError?: string }> {
  // The range rules need no lock manifest (the manifest rules run where the ranges are merged), only its name for messages.
  const { checkOptions } = await validator.prepare(task.input, { withoutLock: true });
  const check = createRangeCheck(task.manifestPath !== undefined ? { ...checkOptions, manifestPath: task.manifestPath } : checkOptions, task.plan, onVisits);
  let readError: string | undefined;
  try {
    for await (const chunk of createReadStream(task.input.absolute, { start: task.start, end: task.end - 1, highWaterMark: 1 << 20 })) check.push(chunk as Buffer);
  } catch (caught) {
    readError = describeIoError(caught, "read", task.input.display);
  }
  return { summary: check.end(), ...(readError !== undefined ? { readError } : {}) };
}

/** The options a worker builds its own file validator from: plain data, without what only the main thread uses. */
function workerOptionsOf(options: ValidateOptions & { cwd: string }): ValidateOptions & { cwd: string } {
  const { patterns: _patterns, patternsCwd: _patternsCwd, onProgress: _onProgress, stdin: _stdin, ...rest } = options;
  return rest;
}

/**
 * Byte offsets that cut the file into ranges of about `rangeBytes`, each just after a line feed:
 * [0, …, size]. A line longer than a range makes its range longer; a file with fewer line feeds has fewer ranges.
 */
export async function lineAlignedCuts(path: string, size: number, rangeBytes: number): Promise<number[]> {
  const handle = await open(path, "r");
  try {
    const cuts = [0];
    const buffer = Buffer.alloc(Math.min(64 * 1024, Math.max(rangeBytes, 4096))); // tiny ranges (tests) read little per cut
    let at = rangeBytes;
    while (at < size) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) break;
      const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
      if (newline === -1) {
        at += bytesRead;
        continue;
      }
      const cut = at + newline + 1;
      if (cut >= size) break;
      cuts.push(cut);
      at = cut + rangeBytes;
    }
    cuts.push(size);
    return cuts;
  } finally {
    await handle.close();
  }
}
