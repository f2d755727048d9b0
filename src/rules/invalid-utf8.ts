import { defineRule } from "./define.js";

/** A problem of reading (src/engine/read-records.ts): a line that is not valid UTF-8 is no record. */
export const invalidUtf8 = defineRule({
  id: "invalid-utf8",
  scope: "reading",
  meta: { description: "Every line is valid UTF-8.", defaultSeverity: "error" },
  messages: { invalid: "invalid UTF-8 byte 0x{{byte}} at byte {{byteOffset}} of the line: expected UTF-8 text" },
});
