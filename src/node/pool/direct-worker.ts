/**
 * One capped worker thread without Piscina: the pool of a run that parses in a single worker (pool.ts, `capped` with
 * one thread: generate of a dataset from MAIN_THREAD_PARSE_BYTES of markdown up to the size that pays for several)
 * talks to it by messages, so that neither thread loads Piscina. It starts as the pool is made (`warm`), and loads its
 * modules while the main thread prepares the first task. Up to two tasks at once in it, as in Piscina's workers, or as
 * many as the run says (`tasksAtOnce`: generate, which bounds what it sends). One that stops (out of memory) fails the
 * task it was running, its oldest; the others it held had not started: they go to the worker that takes its place,
 * unless their buffers moved to the one that stopped, and then they fail saying that they never started (not as if they
 * had run out of memory: generate names the files of a task that did). The worker's side is `serveDirect` in worker.ts.
 */
import type { Worker } from "node:worker_threads";
import { workerThreads } from "../builtins.js";
import { codeFile } from "../code-root.js";
import { WORKER_LIMITS } from "./thread-limits.js";
import { interruptGate } from "../writes/interrupted-writes.js";

/** What the main thread sends: the run's reading rule once, then tasks by id. */
export type DirectRequest = { outsideAllowed: boolean } | { id: number; name: string; task: unknown };
/** What the worker answers a task with: its result, or the message of what it threw. */
export type DirectReply = { id: number; value: unknown } | { id: number; thrown: string };

/**
 * Tasks a worker holds at once by default, as `concurrentTasksPerWorker` of the Piscina pool (pool.ts). A run that
 * bounds what it sends itself may give it more (`tasksAtOnce`): a task beyond them waits in this thread until the worker
 * answers one, and this thread hears that answer only when its event loop turns, which a thread busy with the answers
 * it has (their promises settle as microtasks) puts off (generate.ts, `tasksAtOnce`).
 */
const TASKS_AT_ONCE = 2;

function spawn(warm: string, heapMb: number, script: URL): Worker {
  return new (workerThreads().Worker)(script, {
    resourceLimits: { ...WORKER_LIMITS, maxOldGenerationSizeMb: heapMb },
    workerData: { warm, direct: true, interruptGate: interruptGate() },
  });
}

interface Pending {
  id: number;
  name: string;
  task: unknown;
  transferList: ArrayBuffer[] | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The one worker and its queue: `run` and `destroy` as the Piscina pool's (pool.ts, PiscinaLike). */
export class DirectWorker {
  private worker: Worker | undefined;
  private readonly queue: Pending[] = [];
  private readonly running = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  /** Its old generation in MiB: WORKER_LIMITS', or more for validate of a large dataset (validateHeapMb). */
  readonly heapMb: number;
  /** Tasks it holds at once (TASKS_AT_ONCE; at least one). */
  private readonly tasksAtOnce: number;
  /** The worker entry: the built worker.ts (a test names it, as createPool's `script`). */
  private readonly script: URL;

  constructor(
    private readonly warm: string,
    private readonly outsideAllowed: boolean,
    options: { heapMb?: number; tasksAtOnce?: number; script?: URL } = {},
  ) {
    this.heapMb = options.heapMb ?? WORKER_LIMITS.maxOldGenerationSizeMb;
    this.tasksAtOnce = Math.max(1, options.tasksAtOnce ?? TASKS_AT_ONCE);
    this.script = options.script ?? new URL(codeFile("node/pool/worker.js"));
    this.worker = this.attach(spawn(warm, this.heapMb, this.script));
  }

  run(task: unknown, options: { name: string; transferList?: ArrayBuffer[] }): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error("the worker thread was closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        name: options.name,
        task,
        transferList: options.transferList,
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  async destroy(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error("the worker thread was closed"));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** Listens to a worker and tells it the run's reading rule (before any task: messages keep their order). */
  private attach(worker: Worker): Worker {
    worker.on("message", (reply: DirectReply) => {
      const pending = this.running.get(reply.id);
      if (pending === undefined) return;
      this.running.delete(reply.id);
      if ("thrown" in reply) pending.reject(new Error(reply.thrown));
      else pending.resolve(reply.value);
      this.dispatch();
    });
    // A worker that stops (out of memory, or otherwise) fails the task it was running: its oldest (it answers them in
    // turn). The others had not started: sent again, to the worker the next dispatch starts, unless their buffers moved
    // to this one (gone with it), and then failed as never started.
    const stopped = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const held = [...this.running.values()];
      this.running.clear();
      held[0]?.reject(error);
      for (const pending of held.slice(1).reverse()) {
        if ((pending.transferList ?? []).length === 0) this.queue.unshift(pending);
        else
          pending.reject(
            Object.assign(new Error("it stopped before it started this task, on an earlier one (said there)"), {
              code: "ERR_WORKER_TASK_NOT_STARTED",
            }),
          );
      }
      this.dispatch();
    };
    worker.on("error", stopped);
    worker.on("exit", (code) => stopped(new Error(`the worker thread exited with code ${code}`)));
    worker.postMessage({ outsideAllowed: this.outsideAllowed } satisfies DirectRequest);
    worker.unref(); // held open only while it has work (dispatch)
    return worker;
  }

  private dispatch(): void {
    while (!this.closed && this.queue.length > 0 && this.running.size < this.tasksAtOnce) {
      this.worker ??= this.attach(spawn(this.warm, this.heapMb, this.script));
      const pending = this.queue.shift()!;
      this.running.set(pending.id, pending);
      const request: DirectRequest = { id: pending.id, name: pending.name, task: pending.task };
      this.worker.postMessage(request, pending.transferList ?? []);
    }
    if (this.running.size > 0) this.worker?.ref();
    else this.worker?.unref();
  }
}
