// Loaded with `node --import`: appends every module a thread loads through the ES module loader (our modules, the
// packages imported from them, Node's own), as `<threadId> <url>`, to the file RECORD_IMPORTS names
// (test/startup-modules.test.ts). A worker thread inherits the flag, so it runs there too. CommonJS files that a
// package requires are not seen here: test/helpers/record-requires.cjs records those.
import { register } from "node:module";
import { threadId } from "node:worker_threads";

if (process.env.RECORD_IMPORTS)
  register("./record-imports-hooks.mjs", import.meta.url, { data: { threadId, out: process.env.RECORD_IMPORTS } });
