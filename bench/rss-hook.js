// Preloaded with `node --import` into a measured child (the CLI itself, unchanged): on exit, writes the
// process's peak RSS and CPU time to $BENCH_RSS_FILE. maxRSS covers every thread of the process
// (validate's workers included); only the main thread writes, last.
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const file = process.env.BENCH_RSS_FILE;
if (file && isMainThread) {
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
