import { defineRule, isMarkdownArtifact } from "./define.js";
import { checkCountsFromZero } from "./sequence.js";

export const documentOrder = defineRule({
  id: "document-order",
  scope: "dataset",
  meta: {
    description: "documentOrder of markdown-artifact records counts 0, 1, 2, … in file order.",
    defaultSeverity: "error",
  },
  messages: {
    gap: "documentOrder is {{actual}}: expected {{expected}} (markdown-artifact records are numbered from 0 in file order)",
  },
  create: (context) => checkCountsFromZero(context, isMarkdownArtifact, "documentOrder"),
});
