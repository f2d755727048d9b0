/**
 * The one pool of worker threads of a run (docs/spec.md, "Worker threads"). Every kind of work
 * (checking a batch of JSONL files, updating a dataset, parsing a batch of artifacts) goes to the same
 * pool, started once per run on the first task and closed when the run ends: no thread, process or
 * pool is started per file or per dataset. The pool is Piscina, with one worker entry
 * (`worker.ts`) whose exported functions are the kinds of task.
 *
 * The pool knows no command: it is generic in its kinds of task, which the command that makes it
 * passes (each kind lives with the command's own code; `worker.ts` exports them all by name). When
 * the worker script is not built (the test suite runs the TypeScript sources), or the run has one
 * thread, those functions run in this thread, in the same order, so the results are the same. A task
 * that fails returns its error as data (task-failure.ts).
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { codeFile } from "../code-root.js";
import { OperationalError } from "../errors.js";
import { statIfThere } from "../files/files.js";
import { readsOutsideAllowed } from "../files/regular-file.js";
import { interruptGate } from "../writes/interrupted-writes.js";
import { errorMessage } from "../../core/errors.js";
import { heapCapMb, maxJobs, WORKER_LIMITS } from "./thread-limits.js";
import { DirectWorker } from "./direct-worker.js";

/**
 * The kinds of task a pool runs, by name (the names `worker.ts` exports them by): each takes plain data and resolves to
 * plain data, a failure included.
 */
export type TaskTable<T> = { [N in keyof T]: (task: never) => Promise<unknown> };

export { maxJobs, WORKER_LIMITS } from "./thread-limits.js";

/**
 * When a kind of work pays for worker threads by default: from this many bytes (or this many items) of it; at most
 * `most` threads.
 */
export interface ThreadPolicy {
  fromBytes: number;
  fromItems?: number;
  most?: number;
}

/**
 * The threads a run uses for `items` pieces of work of `bytes` in all: as asked (a `--jobs` value,
 * checked), but no more than there are pieces (a piece is never split); else, when the policy says
 * there is enough work for threads to pay off, one per core (at most the policy's most), else one.
 */
export function chooseJobs(
  asked: number | undefined,
  work: { items: number; bytes: number },
  policy: ThreadPolicy,
): number {
  if (work.items < 2) return 1;
  if (asked !== undefined) return Math.min(asked, work.items);
  const enough = work.bytes >= policy.fromBytes || (policy.fromItems !== undefined && work.items >= policy.fromItems);
  return enough ? Math.min(availableParallelism(), policy.most ?? Number.POSITIVE_INFINITY, work.items) : 1;
}

/** Checks a `--jobs` value: a whole number from 1 to four per core. */
export function checkJobs(jobs: number | undefined): number | undefined {
  if (jobs === undefined) return undefined;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new OperationalError(`--jobs ${jobs}: expected a whole number of threads, 1 or more`);
  return Math.min(jobs, maxJobs());
}

/**
 * Work items (by their sizes in bytes, in order) grouped into the batches a pool's tasks carry, in order: up to
 * `most.items` items, fewer when there is little work (every thread gets about four batches at least), or until a batch
 * holds `most.bytes`; a large item is a batch of its own. Small items travel together, so that a run of thousands pays
 * for hundreds of messages, not thousands.
 */
export function batchesOf(sizes: number[], jobs: number, most: { items: number; bytes: number }): number[][] {
  const items = Math.max(1, Math.min(most.items, Math.ceil(sizes.length / (jobs * 4))));
  const batches: number[][] = [];
  let batch: number[] = [];
  let bytes = 0;
  for (const [index, size] of sizes.entries()) {
    batch.push(index);
    bytes += size;
    if (batch.length >= items || bytes >= most.bytes) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export interface WorkPool<T extends TaskTable<T>> {
  /** Threads that do the work, this one included when it works too: 1 when everything runs in this thread. */
  readonly threads: number;
  /** Worker threads: 0 when everything runs in this thread. */
  readonly workers: number;
  /**
   * Every task runs in a worker whose heap is capped (WORKER_LIMITS), this thread doing none: made with `capped` and
   * the worker script built.
   */
  readonly capped: boolean;
  /** Runs a task; the buffers in `transfer` are moved to the worker, not copied (they are unusable here after). */
  run<N extends keyof T & string>(
    name: N,
    task: Parameters<T[N]>[0],
    transfer?: ArrayBuffer[],
  ): Promise<Awaited<ReturnType<T[N]>>>;
  close(): Promise<void>;
}

interface PiscinaLike {
  run(task: unknown, options: { name: string; transferList?: ArrayBuffer[] }): Promise<unknown>;
  destroy(): Promise<void>;
  on?(event: "error", listener: (error: unknown) => void): unknown;
}

/**
 * A pool for a run of `threads` threads, started on its first task, or at once when told the kind of task the run
 * will send (`warm`), whose modules each worker then loads as it starts. By default this thread only
 * hands out work and the pool has `threads` workers; with `mainWorks`, this thread does its share
 * too and the pool has `threads - 1`. With one thread, or when the worker script is not built, the
 * `tasks` run in this thread. `heapMb`: the old generation of a single capped worker (WORKER_LIMITS' by default;
 * validate's for a large dataset: validateHeapMb). `script`: the worker entry, the built worker.ts (a test
 * gives its own). `youngMb`: the workers' young generation, when not WORKER_LIMITS' (ARTIFACT_BATCH_YOUNG_MB).
 * `tasksAtOnce`: the tasks the single capped worker holds at once, for a run that bounds what it sends (direct-worker.ts).
 */
export async function createPool<T extends TaskTable<T>>(
  threads: number,
  tasks: T,
  {
    mainWorks = false,
    warm,
    capped = false,
    heapMb = WORKER_LIMITS.maxOldGenerationSizeMb,
    script = codeFile("node/pool/worker.js"),
    youngMb,
    tasksAtOnce,
  }: {
    mainWorks?: boolean;
    warm?: keyof T & string;
    capped?: boolean;
    heapMb?: number;
    script?: URL;
    youngMb?: number;
    tasksAtOnce?: number;
  } = {},
): Promise<WorkPool<T>> {
  // `capped`: the run parses markdown, whose cost a hostile file can make large; this thread's heap cannot be capped
  // once Node has started (V8 sizes it at start-up), a worker's can: every task goes to `threads` workers, even one.
  const jobs = capped ? threads : mainWorks ? threads - 1 : threads;
  const built = (threads > 1 || capped) && jobs >= 1 && statIfThere(fileURLToPath(script)) !== undefined;
  // One capped worker (generate of a small dataset): without Piscina (direct-worker.ts).
  const direct = built && capped && jobs === 1;
  if (!built) {
    return {
      threads: 1,
      workers: 0,
      capped: false,
      run: (name, task) => (tasks[name] as unknown as (task: unknown) => Promise<never>)(task),
      close: async () => {},
    };
  }
  let pool: PiscinaLike | undefined;
  let failure: Error | undefined;
  let closing = false;
  const start = async (): Promise<PiscinaLike> => {
    if (direct) return new DirectWorker(warm ?? "", readsOutsideAllowed(), { heapMb, tasksAtOnce, script });
    const { Piscina } = await import("piscina");
    const piscina = new Piscina({
      filename: script.href,
      minThreads: jobs,
      maxThreads: jobs,
      idleTimeout: 60_000,
      resourceLimits: youngMb === undefined ? WORKER_LIMITS : { ...WORKER_LIMITS, maxYoungGenerationSizeMb: youngMb },
      // Two tasks at once in a worker, so that one's waits for the file system overlap the other's work.
      concurrentTasksPerWorker: 2,
      // Every worker takes the next task when it is done with one; a queue of any length (the run bounds what it
      // submits).
      maxQueue: Number.POSITIVE_INFINITY,
      // What the workers load as they start, whether their reads may leave the repository (regular-file.ts), and the
      // gate their temporary files are created through (interrupted-writes.ts).
      workerData: {
        ...(warm !== undefined ? { warm } : {}),
        outsideAllowed: readsOutsideAllowed(),
        interruptGate: interruptGate(),
      },
    }) as PiscinaLike;
    // What Piscina tells on the pool's 'error' event would, unheard, end the run with an uncaught exception: exit 1, as
    // if the gate had failed, and a stack trace. Closing a pool whose workers still run tasks (a run that stops at an
    // error) makes Piscina say "Unexpected message from Worker" for each answer that arrives after: nothing to do then.
    // A worker that stops while it holds no task (one that fails as it starts) ends the run as one that stops during a
    // task does (exit 2, said), and the pool is destroyed, so that no task queued for it waits for ever. One out of
    // memory took no task with it: Piscina starts another in its place, and the run goes on.
    piscina.on?.("error", (error) => {
      if (closing) return;
      const stopped = workerFailure(error, WORKER_LIMITS.maxOldGenerationSizeMb);
      if (stopped instanceof WorkerMemoryError || failure !== undefined) return;
      failure = stopped;
      void piscina.destroy().catch(() => undefined);
    });
    return piscina;
  };
  // `warm`: the run will send this kind of task; the workers start now, and load its modules as they start, while this
  // thread prepares the first tasks (about a quarter of a second of a run's start-up).
  let starting: Promise<PiscinaLike> | undefined = warm !== undefined ? start() : undefined;
  if (starting !== undefined) pool = await starting.catch(() => undefined); // one that cannot start says so at its first task
  return {
    threads,
    workers: jobs,
    capped,
    async run(name, task, transfer) {
      if (failure) throw failure;
      starting ??= start();
      pool ??= await starting;
      try {
        return (await pool.run(task, { name, ...(transfer?.length ? { transferList: transfer } : {}) })) as never;
      } catch (error) {
        if (failure) throw failure; // the pool was destroyed for it: the task's own error says less
        const stopped = workerFailure(error, direct ? heapMb : WORKER_LIMITS.maxOldGenerationSizeMb);
        // A worker out of memory fails its own tasks; the pool starts another in its place and the run goes on (the
        // caller names what the task was doing). Any other stop ends the run.
        if (!(stopped instanceof WorkerMemoryError)) failure = stopped;
        throw stopped;
      }
    },
    async close() {
      closing = true;
      const started = pool ?? (starting ? await starting.catch(() => undefined) : undefined); // one that never started has nothing to close
      await started?.destroy();
    },
  };
}

/** A task whose worker ran out of memory (its heap capped at `heapMb`); the caller names what it was doing. */
export class WorkerMemoryError extends OperationalError {
  override name = "WorkerMemoryError";
  /** `held`: what the worker was doing, when its caller knows (`while it parsed index.md`). */
  constructor(
    readonly heapMb = WORKER_LIMITS.maxOldGenerationSizeMb,
    held?: string,
  ) {
    super(
      `a worker thread ran out of memory${held !== undefined ? ` ${held}` : ""} (its heap is capped at ${heapMb} MiB): lower the caps of docs/spec.md, section 13 (generate's and update's --max-front-matter-bytes, --max-artifact-bytes, …)${heapMb < WORKER_LIMITS.maxOldGenerationSizeMb ? ", or run Node with a larger --max-old-space-size" : ""}`,
    );
  }
}

/**
 * A worker that ran out of memory fails its tasks (WorkerMemoryError); one that stopped otherwise ends the run, saying
 * so (its tasks return their own errors as data).
 */
function workerFailure(error: unknown, heapMb: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ERR_WORKER_OUT_OF_MEMORY") return new WorkerMemoryError(heapCapMb(heapMb));
  const message = errorMessage(error);
  return new OperationalError(`a worker thread stopped: ${message}`);
}
