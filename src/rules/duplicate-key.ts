import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a key twice in an object; the record is still read. */
export const duplicateKey = defineRule({
  id: "duplicate-key",
  scope: "reading",
  meta: { description: "No object has the same key twice.", defaultSeverity: "error" },
  messages: { duplicate: 'duplicate key "{{key}}" (first at column {{firstColumn}}): expected each key once' },
});
