import { defineRule } from "./define.js";

export const carriageReturn = defineRule({
  id: "carriage-return",
  scope: "line",
  meta: { description: "Lines end with LF alone, never CR LF.", defaultSeverity: "error" },
  messages: { crlf: "line ends with CR LF: expected LF alone" },
});
