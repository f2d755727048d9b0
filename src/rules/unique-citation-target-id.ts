import { defineRule } from "./define.js";
import { checkUnique } from "./unique.js";

export const uniqueCitationTargetId = defineRule({
  id: "unique-citation-target-id",
  scope: "dataset",
  meta: { description: "No two records of a file share a citationTargetId.", defaultSeverity: "error" },
  messages: {
    duplicate: "citationTargetId {{value}} is already used on line {{firstLine}}: expected each id once in the dataset",
  },
  create: (context) => checkUnique(context, "citationTargetId", { digests: true }),
});
