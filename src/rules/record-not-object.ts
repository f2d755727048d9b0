import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a JSON value that is not an object is no record. */
export const recordNotObject = defineRule({
  id: "record-not-object",
  scope: "reading",
  meta: {
    description: "Every line holds a JSON object, not an array, string, number, boolean or null.",
    defaultSeverity: "error",
  },
  messages: { notObject: "line holds {{got}}: expected one JSON object per line" },
});
