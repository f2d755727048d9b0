import { defineRule } from "./define.js";

export const bom = defineRule({
  id: "bom",
  scope: "line",
  meta: { description: "No byte order mark at the start of the file or of a line.", defaultSeverity: "error" },
  messages: { bom: "line starts with a byte order mark (U+FEFF): expected UTF-8 without BOM" },
});
