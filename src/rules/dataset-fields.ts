import { quote } from "../core/text.js";
import { defineRule } from "./define.js";

import { RECORD_DATASET_FIELDS } from "../core/model.js";

export const datasetFields = defineRule({
  id: "dataset-fields",
  scope: "dataset",
  meta: {
    description:
      "Dataset-level fields (slug, titleId, name, versionDate, sourceTextUrl, datasetDigest, schemaVersion) are identical in every record.",
    defaultSeverity: "error",
  },
  messages: {
    differs: "{{field}} is {{value}} but line {{firstLine}} has {{first}}: expected one value for the whole dataset",
  },
  create(context) {
    const first = new Map<string, { value: string; line: number }>();
    return {
      record({ record, line }) {
        for (const field of RECORD_DATASET_FIELDS) {
          const value = record[field];
          if (typeof value !== "string") continue;
          const seen = first.get(field);
          if (!seen) first.set(field, { value, line });
          else if (seen.value !== value) {
            context.report({
              messageId: "differs",
              data: { field, value: quote(value), first: quote(seen.value), firstLine: seen.line },
              line,
              pointer: `/${field}`,
            });
          }
        }
      },
    };
  },
});
