import { defineRule } from "./define.js";

export const duplicateKey = defineRule({
  id: "duplicate-key",
  scope: "line",
  meta: { description: "No object has the same key twice.", defaultSeverity: "error" },
  messages: { duplicate: "duplicate key \"{{key}}\" (first at column {{firstColumn}}): expected each key once" },
});
