import { createReadStream } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { createRangeCheck } from "../engine/check-range.js";
import { describeIoError } from "./errors.js";
import { mapWithLimit } from "./concurrency.js";
import { createFileValidator, type FileValidator, type ValidateOptions } from "./validate.js";
import type { Task, WorkerMessage } from "./validate-workers.js";

// One worker of `validate`: builds its own file validator from the (plain-data) options, then does
// each task the main thread sends (a batch of whole files, or one range of a large file) until it
// sends null. The protocol is described in validate-workers.ts.

/** Files of a batch read at once, so that reads overlap checks. */
const FILES_AT_ONCE = 4;
const port = parentPort!;
const post = (message: WorkerMessage) => port.postMessage(message);
const failure = (error: unknown) => ({ error: { name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) } });

async function checkRange(validator: FileValidator, id: number, task: Extract<Task, { kind: "range" }>): Promise<void> {
  // The range rules need no lock manifest (the manifest rules run where the ranges are merged).
  const { checkOptions } = await validator.prepare(task.input, { withoutLock: true });
  const check = createRangeCheck(task.manifestPath !== undefined ? { ...checkOptions, manifestPath: task.manifestPath } : checkOptions, task.fields, (visits) => post({ id, visits }));
  let error: string | undefined;
  try {
    for await (const chunk of createReadStream(task.input.absolute, { start: task.start, end: task.end - 1, highWaterMark: 1 << 20 })) check.push(chunk as Buffer);
  } catch (caught) {
    error = describeIoError(caught, "read", task.input.display);
  }
  post({ id, summary: check.end(), ...(error !== undefined ? { error } : {}) });
}

try {
  const validator = await createFileValidator(workerData as ValidateOptions & { cwd: string });
  port.on("message", (message: { id: number; task: Task } | null) => {
    if (message === null) {
      port.close();
      return;
    }
    const { id, task } = message;
    const done = task.kind === "files" ? mapWithLimit(task.items, FILES_AT_ONCE, (item) => validator.check(item.input)).then((reports) => post({ id, reports })) : checkRange(validator, id, task);
    done.catch((error: unknown) => post(failure(error)));
  });
  post({ ready: true });
} catch (error) {
  post(failure(error));
}
