import { defineRule } from "./define.js";

export const invalidUtf8 = defineRule({
  id: "invalid-utf8",
  scope: "line",
  meta: { description: "Every line is valid UTF-8.", defaultSeverity: "error" },
  messages: { invalid: "invalid UTF-8 byte 0x{{byte}} at byte {{byteOffset}} of the line: expected UTF-8 text" },
});
