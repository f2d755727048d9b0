// Two worker threads create temporary files of atomic writes without pause; once both have made 40, the main thread
// sends itself SIGINT. The run must end by the signal with none of them left in the folder (test/interrupt-gate.test.ts).
// Argument: the folder. RACE_UNGATED=1 leaves the workers outside the main thread's gate (the control of the test).
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { join } from "node:path";
import { openAtomic } from "../../dist/node/writes/write.js";
import { interruptGate, joinInterruptGate, removeOnInterrupt } from "../../dist/node/writes/interrupted-writes.js";

if (isMainThread) {
  const folder = process.argv[2];
  removeOnInterrupt([folder], true);
  let ready = 0;
  for (let i = 0; i < 2; i++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { folder, gate: interruptGate(), i } });
    worker.on("message", () => {
      if (++ready === 2) process.kill(process.pid, "SIGINT");
    });
  }
} else {
  if (process.env.RACE_UNGATED !== "1") joinInterruptGate(workerData.gate);
  for (let n = 1; ; n++) {
    const file = await openAtomic(join(workerData.folder, `w${workerData.i}-${n}.json`), { sweep: false });
    await file.write("{}\n");
    await file.detach({ sync: false });
    if (n === 40) parentPort.postMessage("many");
  }
}
