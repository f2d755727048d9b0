// Loaded with `node --import`: counts the markdown files (`*.md`) this thread opens for reading, and
// writes the count to COUNT_OPENS_FILE when the process exits; for the tests of validate's cache, which
// must not read a dataset's artifacts when its verdict holds. Run the command with --jobs 1.
import fs from "node:fs";
import module from "node:module";

const out = process.env.COUNT_OPENS_FILE ?? "";
const { openSync, writeFileSync } = fs;
let opened = 0;
fs.openSync = function (path, ...rest) {
  if (String(path).endsWith(".md")) opened++;
  return openSync.call(this, path, ...rest);
};
module.syncBuiltinESMExports();
if (out !== "") process.on("exit", () => writeFileSync(out, String(opened)));
