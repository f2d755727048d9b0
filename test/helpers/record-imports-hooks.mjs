// The loader hooks of test/helpers/record-imports.mjs: each module loaded, with the thread that registered them.
import { appendFileSync } from "node:fs";

let thread = 0;
let out = "";

export function initialize(data) {
  thread = data.threadId;
  out = data.out;
}

export async function load(url, context, nextLoad) {
  appendFileSync(out, `${thread} ${url}\n`);
  return nextLoad(url, context);
}
