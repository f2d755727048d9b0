import { defineRule } from "./define.js";

export const schema = defineRule({
  id: "schema",
  scope: "line",
  meta: { description: "Every record matches its variant of the JSON Schema (fields, types, patterns, enums).", defaultSeverity: "error" },
  messages: { missing: "{{detail}}", additional: "{{detail}}", invalid: "{{detail}}" },
});
