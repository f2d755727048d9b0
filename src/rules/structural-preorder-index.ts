import { defineRule, isStructuralContainer } from "./define.js";
import { checkCountsFromZero } from "./sequence.js";

export const structuralPreorderIndex = defineRule({
  id: "structural-preorder-index",
  scope: "dataset",
  meta: {
    description: "structuralPreorderIndex of structural-container records counts 0, 1, 2, … in file order.",
    defaultSeverity: "error",
  },
  messages: {
    gap: "structuralPreorderIndex is {{actual}}: expected {{expected}} (structural-container records are numbered from 0 in file order)",
  },
  create: (context) => checkCountsFromZero(context, isStructuralContainer, "structuralPreorderIndex"),
});
