import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): the last line has no LF after it; the line is still read. */
export const finalNewline = defineRule({
  id: "final-newline",
  scope: "reading",
  meta: { description: "A non-empty file ends with a newline after its last record.", defaultSeverity: "error" },
  messages: { missing: 'the last line has no newline after it: expected every record followed by "\\n"' },
});
