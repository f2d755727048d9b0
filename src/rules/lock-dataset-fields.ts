import { quote } from "../core/text.js";
import { defineRule, stringField } from "./define.js";

import { MANIFEST_DATASET_FIELDS as FIELDS } from "../core/model.js";

export const lockDatasetFields = defineRule({
  id: "lock-dataset-fields",
  scope: "manifest",
  meta: {
    description: "slug, titleId, name, versionDate and sourceTextUrl agree with the lock manifest.",
    defaultSeverity: "error",
  },
  messages: { mismatch: "{{field}} is {{actual}} but lock manifest {{manifest}} has {{expected}}" },
  create(context) {
    const reported = new Set<string>();
    return {
      record({ record, line }) {
        const manifest = context.lock!.manifest;
        for (const field of FIELDS) {
          const actual = stringField(record, field);
          if (actual === undefined || actual === manifest[field] || reported.has(field)) continue;
          reported.add(field);
          context.report({
            messageId: "mismatch",
            data: {
              field,
              actual: quote(actual),
              expected: quote(manifest[field]),
              manifest: context.lock!.manifestPath,
            },
            line,
            pointer: `/${field}`,
          });
        }
      },
    };
  },
});
