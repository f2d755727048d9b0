import { RECORD_DATASET_FIELDS } from "../core/model.js";
import { defineRule } from "./define.js";

/**
 * A problem of reading (src/engine/read-records.ts), its last step: the record against the record
 * schema in force. The record is still read, and the other rules are told whether it passed.
 */
export const schema = defineRule({
  id: "schema",
  scope: "reading",
  meta: {
    description: "Every record matches its variant of the JSON Schema (fields, types, patterns, enums).",
    defaultSeverity: "error",
    // The dataset-level fields are the same on every record: a wrong value is said once per file, not once per record.
    foldRepeats: RECORD_DATASET_FIELDS.map((field) => `/${field}`),
  },
  messages: {
    missing: "{{detail}}",
    additional: "{{detail}}",
    invalid: "{{detail}}",
    repeated: "{{field}}: the same problem as on line {{firstLine}}, on {{more}} ({{lines}})",
  },
});
