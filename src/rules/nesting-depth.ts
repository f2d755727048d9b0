import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a value nested deeper than the cap is no record. */
export const nestingDepthRule = defineRule({
  id: "nesting-depth",
  scope: "reading",
  meta: {
    description:
      "No record nests arrays and objects deeper than the cap (--max-depth, default 64): a record is at most 2 deep.",
    defaultSeverity: "error",
  },
  messages: {
    tooDeep:
      "the value nests arrays and objects more than {{max}} deep: it was skipped (raise the cap with --max-depth)",
  },
});
