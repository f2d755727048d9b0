import { defineRule } from "./define.js";

/**
 * A problem of reading (src/engine/read-records.ts): a line longer than the cap is dropped as it streams past and is no
 * record.
 */
export const lineLength = defineRule({
  id: "line-length",
  scope: "reading",
  meta: {
    description:
      "No line is longer than the cap (--max-line-bytes, default 64 MiB): a longer one is skipped without being held in memory.",
    defaultSeverity: "error",
  },
  messages: {
    tooLong:
      "line is {{length}} bytes long, more than the cap of {{max}} bytes: it was skipped (raise the cap with --max-line-bytes)",
  },
});
