#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";

// generate and update hold a bounded window of artifacts, never a dataset: a cap on this thread's heap
// makes V8 collect as it goes instead of growing the heap after the machine's memory (a 150 MB dataset
// in two threads: about 330 MB peak without, 285 MB with; bench/RESULTS.md). The cap is far above what
// they need; it is not set when the user set one, nor for the other commands (validate's identifier
// sets grow with a file's records).
const command = process.argv[2];
const capSet = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) => arg.includes("max-old-space-size"));
if ((command === "generate" || command === "update") && !capSet) setFlagsFromString("--max-old-space-size=1024");

const { main } = await import("../dist/node/cli.js");

/**
 * A reader that goes away early (`citation-targets validate | head -1`) closes the pipe: like git,
 * stop writing to it quietly, with no stack trace, and finish with the exit code the run earns.
 */
function quietOnClosedPipe(stream) {
  let closed = false;
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
    stream.emit("drain"); // release a writer waiting for the pipe to drain
  });
  return {
    write: (text) => (closed ? true : stream.write(text)),
    once: (event, listener) => stream.once(event, listener),
    get isTTY() {
      return stream.isTTY;
    },
  };
}

try {
  process.exitCode = await main({
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    env: process.env,
    stdout: quietOnClosedPipe(process.stdout),
    stderr: quietOnClosedPipe(process.stderr),
    stdin: process.stdin,
  });
} catch (error) {
  process.stderr.write(`citation-targets: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
