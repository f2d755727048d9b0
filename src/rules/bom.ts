import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a byte order mark is taken off the line, which is still read. */
export const bom = defineRule({
  id: "bom",
  scope: "reading",
  meta: { description: "No byte order mark at the start of the file or of a line.", defaultSeverity: "error" },
  messages: { bom: "line starts with a byte order mark (U+FEFF): expected UTF-8 without BOM" },
});
