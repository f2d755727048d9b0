import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): an empty or white-space-only line is no record. */
export const blankLine = defineRule({
  id: "blank-line",
  scope: "reading",
  meta: { description: "No blank lines: every line is one record.", defaultSeverity: "error" },
  messages: { blank: "blank line: expected one JSON object on every line" },
});
