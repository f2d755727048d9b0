// Loaded with `node --import`: the process sends itself a signal once it has opened the n-th temporary file of an
// atomic write (`….tmp`), for the tests of an interrupt while update writes (test/validate-proves.test.ts), at a moment
// that does not depend on timing. SIGNAL_TMP_AT=<n>, SIGNAL_TMP=<SIGINT|SIGTERM>.
import fs from "node:fs";
import module from "node:module";

const at = Number(process.env.SIGNAL_TMP_AT ?? Number.NaN);
let count = 0;
const { promises } = fs;
const openAsync = promises.open;
promises.open = async function (path, ...rest) {
  const handle = await openAsync.call(this, path, ...rest);
  if (/\.tmp$/.test(String(path)) && ++count === at) process.kill(process.pid, process.env.SIGNAL_TMP ?? "SIGINT");
  return handle;
};
module.syncBuiltinESMExports();
