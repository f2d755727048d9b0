import { SCHEMA_VERSION } from "../core/schema/schema.js";
import { quote } from "../core/text.js";
import { defineRule, stringField } from "./define.js";

export const schemaVersion = defineRule({
  id: "schema-version",
  scope: "record",
  meta: {
    description: `Every record carries schemaVersion "${SCHEMA_VERSION}", the version this tool reads.`,
    defaultSeverity: "error",
  },
  messages: { unsupported: 'schemaVersion is {{value}}: expected "{{expected}}"' },
  create(context) {
    return {
      record({ record, line }) {
        const value = stringField(record, "schemaVersion");
        if (value !== undefined && value !== SCHEMA_VERSION) {
          context.report({
            messageId: "unsupported",
            data: { value: quote(value), expected: SCHEMA_VERSION },
            line,
            pointer: "/schemaVersion",
          });
        }
      },
    };
  },
});
