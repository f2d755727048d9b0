import { quote } from "../core/text.js";
import { defineRule, stringField } from "./define.js";

export const uniqueCitationAddress = defineRule({
  id: "unique-citation-address",
  scope: "dataset",
  meta: { description: "No two records of a file share a citationAddress.", defaultSeverity: "error" },
  messages: { duplicate: "citationAddress {{value}} is already used on line {{firstLine}}: expected each address once in the dataset" },
  create(context) {
    const seen = new Map<string, number>();
    return {
      record({ record, line }) {
        const value = stringField(record, "citationAddress");
        if (value === undefined) return;
        const firstLine = seen.get(value);
        if (firstLine === undefined) seen.set(value, line);
        else context.report({ messageId: "duplicate", data: { value: quote(value), firstLine }, line, pointer: "/citationAddress" });
      },
    };
  },
});
