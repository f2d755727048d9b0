import { defineRule, regenerateCommand, stringField } from "./define.js";

export const lockDatasetDigest = defineRule({
  id: "lock-dataset-digest",
  scope: "manifest",
  meta: {
    description: "Records carry the datasetDigest of the lock manifest they were generated from.",
    defaultSeverity: "error",
  },
  messages: {
    mismatch:
      "datasetDigest is {{actual}} but lock manifest {{manifest}} has {{expected}}: the manifest changed since this file was generated; regenerate it with {{fix}}",
  },
  create(context) {
    let reported = false;
    return {
      record({ record, line }) {
        const actual = stringField(record, "datasetDigest");
        const expected = context.lock!.manifest.datasetDigest;
        if (reported || actual === undefined || actual === expected) return;
        reported = true; // dataset-fields already reports records that disagree with each other
        context.report({
          messageId: "mismatch",
          data: { actual, expected, manifest: context.lock!.manifestPath, fix: regenerateCommand(context) },
          line,
          pointer: "/datasetDigest",
        });
      },
    };
  },
});
