// Loaded with `node --import` (worker threads inherit it): fails reads on purpose, for the tests of
// what validate does then. FAIL_READ_FILE names the file (a path suffix); with FAIL_READ_AT=<byte>,
// every read stream over that byte ends with EIO there; with FAIL_READ_WORKER_EXIT=1, a worker thread
// that opens the file exits at once, as a crashed worker would; with FAIL_WORKER_START=1, every worker
// thread exits as it starts, before it can take a task (a crash that does not depend on which thread
// happens to take which task).
import fs from "node:fs";
import module from "node:module";
import { Readable } from "node:stream";
import { isMainThread } from "node:worker_threads";

const file = process.env.FAIL_READ_FILE ?? "";
const at = Number(process.env.FAIL_READ_AT ?? Number.NaN);
const exitWorker = process.env.FAIL_READ_WORKER_EXIT === "1";
if (process.env.FAIL_WORKER_START === "1" && !isMainThread) process.exit(3);
const targeted = (path) => file !== "" && String(path).endsWith(file);
const { createReadStream, readFileSync } = fs;

fs.createReadStream = function (path, options = {}) {
  if (!targeted(path)) return createReadStream.call(this, path, options);
  if (exitWorker && !isMainThread) process.exit(3);
  const start = options.start ?? 0;
  const end = options.end ?? Number.POSITIVE_INFINITY;
  if (!(at >= start && at <= end)) return createReadStream.call(this, path, options);
  const before = createReadStream.call(this, path, { ...options, end: at - 1 });
  return Readable.from(
    (async function* () {
      for await (const chunk of before) yield chunk;
      throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO", syscall: "read" });
    })(),
  );
};
fs.readFileSync = function (path, ...rest) {
  if (targeted(path) && exitWorker && !isMainThread) process.exit(3);
  return readFileSync.call(this, path, ...rest);
};
module.syncBuiltinESMExports();
