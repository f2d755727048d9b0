import { parentPort, workerData } from "node:worker_threads";
import type { InputFile } from "./files.js";
import { createFileValidator, type ValidateOptions } from "./validate.js";

// One worker of `validate`: builds its own file validator from the (plain-data) options, then checks
// each file the main thread sends until it sends null.
const port = parentPort!;
try {
  const { check } = await createFileValidator(workerData as ValidateOptions & { cwd: string });
  port.on("message", (message: { index: number; input: InputFile } | null) => {
    if (message === null) {
      port.close();
      return;
    }
    check(message.input).then(
      (report) => port.postMessage({ index: message.index, report }),
      (error: unknown) => port.postMessage({ error: { name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) } }),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ error: { name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) } });
}
