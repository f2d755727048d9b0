#!/usr/bin/env node
// No heap cap is set here: V8 sizes this thread's heap when Node starts, so a cap set now would never take effect.
// generate, update and adopt parse the markdown in worker threads whose heaps are capped (src/node/pool/pool.ts,
// `capped`); generate parses a small dataset here (MAIN_THREAD_PARSE_BYTES, src/node/pool/thread-limits.ts).
// CommonJS (bin/package.json), as the bundle it requires: a run starts without Node's ES module loader, 10 to 20 ms
// sooner (scripts/bundle-cli.js, bench/RESULTS.md "Start-up").
// The compiled code of the bundle is cached beside it from the second run on (src/node/cache/code-cache.ts): some 20 ms of
// every start-up on Node 20, which has no compile cache of its own.
// Each command has a cache of its own, of the functions it runs.
const COMMANDS = ["validate", "schema", "lock", "generate", "update", "adopt", "diff", "view", "resolve"];
const kind = COMMANDS.includes(process.argv[2]) ? process.argv[2] : "other";
require("../dist/node/code-cache.cjs").installCodeCache(
  require("node:path").join(__dirname, "../dist"),
  kind,
  require.main,
);
const { main } = require("../dist/node/cli.cjs");

/**
 * Standard output or error, made on the first write: making `process.stdout` or `process.stderr` costs a run some ms (a
 * pipe's or a terminal's stream, with Node's modules for it), and most runs write to one of them only. Whether it is a
 * terminal is asked of the file descriptor, which makes no stream.
 * A reader that goes away early (`citation-targets validate | head -1`) closes the pipe: like git,
 * stop writing to it quietly, with no stack trace, and finish with the exit code the run earns.
 */
function output(fd, make) {
  let stream;
  let closed = false;
  const opened = () => {
    if (stream === undefined) {
      stream = make();
      stream.on("error", (error) => {
        if (error.code !== "EPIPE") throw error;
        closed = true;
        stream.emit("drain"); // release a writer waiting for the pipe to drain
      });
    }
    return stream;
  };
  return {
    write: (text) => (closed ? true : opened().write(text)),
    once: (event, listener) => opened().once(event, listener),
    get isTTY() {
      return stream !== undefined ? stream.isTTY === true : require("node:tty").isatty(fd);
    },
  };
}

main({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout: output(1, () => process.stdout),
  stderr: output(2, () => process.stderr),
  // Made when read (`validate -`, `resolve` of standard input): a run that reads none makes none, as for the outputs.
  get stdin() {
    return process.stdin;
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`citation-targets: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
