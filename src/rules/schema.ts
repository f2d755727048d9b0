import { RECORD_DATASET_FIELDS } from "../core/model.js";
import { excerptOf, valueAtPointer } from "../core/text.js";
import { defineRule } from "./define.js";

export const schema = defineRule({
  id: "schema",
  scope: "line",
  meta: {
    description: "Every record matches its variant of the JSON Schema (fields, types, patterns, enums).",
    defaultSeverity: "error",
    lineOrder: 100,
    // The dataset-level fields are the same on every record: a wrong value is said once per file, not once per record.
    foldRepeats: RECORD_DATASET_FIELDS.map((field) => `/${field}`),
  },
  messages: { missing: "{{detail}}", additional: "{{detail}}", invalid: "{{detail}}", repeated: "{{field}}: the same problem as on line {{firstLine}}, on {{more}} ({{lines}})" },
  create(context) {
    return {
      // Runs even when off: the record rules are told whether the record passed.
      line(state) {
        const issues = context.schemaCheck(state.value);
        for (const issue of issues) {
          const value = issue.messageId === "missing" ? undefined : valueAtPointer(state.value, issue.pointer);
          const excerpt = value === undefined ? undefined : excerptOf(JSON.stringify(value) ?? "");
          context.report({ messageId: issue.messageId, data: { detail: issue.message }, line: state.number, pointer: issue.pointer, ...(excerpt ? { excerpt } : {}) });
        }
        state.schemaValid = issues.length === 0;
        return undefined;
      },
    };
  },
});
