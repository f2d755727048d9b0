import { quote } from "../core/text.js";
import { defineRule } from "./define.js";
import { checkUnique } from "./unique.js";

export const uniqueCitationAddress = defineRule({
  id: "unique-citation-address",
  scope: "dataset",
  meta: { description: "No two records of a file share a citationAddress.", defaultSeverity: "error" },
  messages: {
    duplicate:
      "citationAddress {{value}} is already used on line {{firstLine}}: expected each address once in the dataset",
  },
  create: (context) => checkUnique(context, "citationAddress", { show: quote }),
});
