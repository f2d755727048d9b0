// Preloaded with `node --require` into a measured child (the CLI itself, unchanged): on exit, writes the process's peak
// RSS and CPU time to $BENCH_RSS_FILE. maxRSS covers every thread of the process (validate's workers included); only
// the main thread writes, last. The measured run starts as a user's does: CommonJS, without Node's ES module loader
// (`--import` of an ES module started it: 10 to 12 ms a run, a twentieth of a pre-commit hook), and without loading
// `node:worker_threads` to ask which thread this is (the CLI loads it only when it starts a worker): the main thread,
// preloaded first, marks the environment with its process id, which a worker's copy of it then holds (a worker has its
// process's id; a child process another).
"use strict";
const { writeFileSync } = require("node:fs");

const file = process.env.BENCH_RSS_FILE;
if (file && process.env.BENCH_RSS_MAIN !== String(process.pid)) {
  process.env.BENCH_RSS_MAIN = String(process.pid);
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxRssMb: usage.maxRSS / 1024,
        userSeconds: usage.userCPUTime / 1e6,
        systemSeconds: usage.systemCPUTime / 1e6,
      }),
    );
  });
}
