// Loaded with `node --require`: appends every CommonJS file a thread loads, as `<threadId> <path>`, to the file
// RECORD_REQUIRES names (test/startup-modules.test.ts). It runs in each worker thread too.
const { appendFileSync } = require("node:fs");
const Module = require("node:module");
const { threadId } = require("node:worker_threads");

const out = process.env.RECORD_REQUIRES;
const load = Module._load;
Module._load = function (request, parent, isMain, ...rest) {
  const loaded = load.call(this, request, parent, isMain, ...rest);
  if (out && !request.startsWith("node:") && !Module.isBuiltin(request)) {
    try {
      appendFileSync(out, `${threadId} ${Module._resolveFilename(request, parent, isMain)}\n`);
    } catch {}
  }
  return loaded;
};
