// Loaded with `node --import`: fails renames on purpose, for the tests of update's all-or-nothing
// renames (test/untrusted-data.test.ts). Only renames onto a dataset file count (a destination ending in
// .jsonl or .lock.json). FAIL_RENAME_AT=<n>: the n-th such rename fails with EIO; FAIL_RENAME_FROM=<n>:
// the n-th and every later one fail (so that restoring the renamed targets fails too);
// SIGNAL_RENAME_AT=<n> with SIGNAL_RENAME=<SIGTERM|SIGINT>: the process sends itself that signal just
// before the n-th such rename (a signal during the renames, at a moment that does not depend on timing);
// PAUSE_RENAME_AT=<n> with PAUSE_FILE=<path>: just before the n-th such rename, writes `<path>.paused` and
// waits (blocking, as a long rename would) until <path> exists (another command run in the middle of the renames).
import fs from "node:fs";
import module from "node:module";

const at = Number(process.env.FAIL_RENAME_AT ?? Number.NaN);
const from = Number(process.env.FAIL_RENAME_FROM ?? Number.NaN);
let count = 0;
const { renameSync, promises } = fs;
const renameAsync = promises.rename;
const signalAt = Number(process.env.SIGNAL_RENAME_AT ?? Number.NaN);
const pauseAt = Number(process.env.PAUSE_RENAME_AT ?? Number.NaN);
const counts = (to) => {
  if (!/\.(jsonl|lock\.json)$/.test(String(to))) return false;
  count++;
  if (count === signalAt) process.kill(process.pid, process.env.SIGNAL_RENAME ?? "SIGTERM");
  if (count === pauseAt) {
    const file = process.env.PAUSE_FILE;
    fs.writeFileSync(`${file}.paused`, String(process.pid));
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    for (let waited = 0; !fs.existsSync(file) && waited < 60_000; waited += 20) Atomics.wait(sleeper, 0, 0, 20);
  }
  return count === at || count >= from;
};
const eio = (from, to) =>
  Object.assign(new Error(`EIO: i/o error, rename '${from}' -> '${to}'`), {
    code: "EIO",
    syscall: "rename",
    path: String(from),
    dest: String(to),
  });

fs.renameSync = function (oldPath, newPath) {
  if (counts(newPath)) throw eio(oldPath, newPath);
  return renameSync.call(this, oldPath, newPath);
};
promises.rename = async function (oldPath, newPath) {
  if (counts(newPath)) throw eio(oldPath, newPath);
  return renameAsync.call(this, oldPath, newPath);
};
module.syncBuiltinESMExports();
