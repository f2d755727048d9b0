import { defineRule } from "./define.js";

export const schema = defineRule({
  id: "schema",
  scope: "line",
  meta: { description: "Every record matches its variant of the JSON Schema (fields, types, patterns, enums).", defaultSeverity: "error", lineOrder: 100 },
  messages: { missing: "{{detail}}", additional: "{{detail}}", invalid: "{{detail}}" },
  create(context) {
    return {
      // Runs even when off: the record rules are told whether the record passed.
      line(state) {
        const issues = context.schemaCheck(state.value);
        for (const issue of issues) context.report({ messageId: issue.messageId, data: { detail: issue.message }, line: state.number, pointer: issue.pointer });
        state.schemaValid = issues.length === 0;
        return undefined;
      },
    };
  },
});
