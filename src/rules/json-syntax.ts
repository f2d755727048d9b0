import { defineRule } from "./define.js";

export const jsonSyntax = defineRule({
  id: "json-syntax",
  scope: "line",
  meta: { description: "Every line is one well-formed JSON value.", defaultSeverity: "error" },
  messages: { invalid: "invalid JSON: {{detail}}" },
});
