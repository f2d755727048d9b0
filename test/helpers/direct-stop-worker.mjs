// A worker entry for test/pool-limits.test.ts that speaks the direct worker's messages (worker.ts, serveDirect): a task
// answers with its `value`, or, given `stop`, ends the thread with exit code 3 while later tasks wait in its queue.
import { parentPort } from "node:worker_threads";

parentPort.on("message", (message) => {
  if (!("id" in message)) return; // the run's reading rule
  if (message.task.stop) process.exit(3);
  parentPort.postMessage({ id: message.id, value: message.task.value });
});
