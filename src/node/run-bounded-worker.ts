import { parentPort, workerData } from "node:worker_threads";
import { DatasetError } from "../core/errors.js";
import { OperationalError } from "./errors.js";
import { generate, type GenerateOptions } from "./generate.js";
import { update, type UpdateOptions } from "./update.js";

// Runs generate -o or update in a thread whose heap is capped (runBounded), so that V8 collects as it
// goes instead of growing the heap to a share of the machine's memory; posts the result or the error.
const { task, options } = workerData as { task: "generate"; options: GenerateOptions } | { task: "update"; options: UpdateOptions };
const run = task === "generate" ? generate(options) : update(options);
run.then(
  (result) => parentPort!.postMessage({ result }),
  (error: unknown) =>
    parentPort!.postMessage({
      error: {
        kind: error instanceof DatasetError ? "dataset" : error instanceof OperationalError ? "operational" : "other",
        message: error instanceof Error ? error.message : String(error),
        problems: error instanceof DatasetError ? error.problems : undefined,
        code: (error as NodeJS.ErrnoException)?.code,
      },
    }),
);
