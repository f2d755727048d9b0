import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a CR before the LF is taken off the line, which is still read. */
export const carriageReturn = defineRule({
  id: "carriage-return",
  scope: "reading",
  meta: { description: "Lines end with LF alone, never CR LF.", defaultSeverity: "error" },
  messages: { crlf: "line ends with CR LF: expected LF alone" },
});
