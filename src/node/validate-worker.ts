import { parentPort, workerData } from "node:worker_threads";
import { createFileValidator, type ValidateOptions } from "./validate.js";
import { checkFiles, checkRange, type Task, type WorkerMessage } from "./validate-workers.js";

// One worker of `validate`: builds its own file validator from the (plain-data) options, then does
// each task the main thread sends (a batch of whole files, or one range of a large file) until it
// sends null. The protocol is described in validate-workers.ts.
const port = parentPort!;
const post = (message: WorkerMessage) => port.postMessage(message);
const failure = (error: unknown): WorkerMessage => ({ error: { name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) } });

try {
  const validator = await createFileValidator(workerData as ValidateOptions & { cwd: string });
  port.on("message", (message: { id: number; task: Task } | null) => {
    if (message === null) {
      port.close();
      return;
    }
    const { id, task } = message;
    const done =
      task.kind === "files"
        ? checkFiles(validator, task).then((reports) => post({ id, reports }))
        : checkRange(validator, task, (visits) => post({ id, visits })).then((result) => post({ id, ...result }));
    done.catch((error: unknown) => post(failure(error)));
  });
  post({ ready: true });
} catch (error) {
  post(failure(error));
}
