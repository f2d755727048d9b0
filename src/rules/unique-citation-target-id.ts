import { defineRule, stringField } from "./define.js";

export const uniqueCitationTargetId = defineRule({
  id: "unique-citation-target-id",
  scope: "dataset",
  meta: { description: "No two records of a file share a citationTargetId.", defaultSeverity: "error" },
  messages: { duplicate: "citationTargetId {{value}} is already used on line {{firstLine}}: expected each id once in the dataset" },
  create(context) {
    const seen = new Map<string, number>();
    return {
      record({ record, line }) {
        const value = stringField(record, "citationTargetId");
        if (value === undefined) return;
        const firstLine = seen.get(value);
        if (firstLine === undefined) seen.set(value, line);
        else context.report({ messageId: "duplicate", data: { value, firstLine }, line, pointer: "/citationTargetId" });
      },
    };
  },
});
