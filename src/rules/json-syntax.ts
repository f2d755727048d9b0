import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a line that is not one JSON value is no record. */
export const jsonSyntax = defineRule({
  id: "json-syntax",
  scope: "reading",
  meta: { description: "Every line is one well-formed JSON value.", defaultSeverity: "error" },
  messages: { invalid: "invalid JSON: {{detail}}" },
});
