import { defineRule } from "./define.js";

export const blankLine = defineRule({
  id: "blank-line",
  scope: "line",
  meta: { description: "No blank lines: every line is one record.", defaultSeverity: "error" },
  messages: { blank: "blank line: expected one JSON object on every line" },
});
