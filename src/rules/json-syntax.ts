import { scanJson } from "../core/json-scan.js";
import { excerptOf } from "../core/text.js";
import { defineRule } from "./define.js";

export const jsonSyntax = defineRule({
  id: "json-syntax",
  scope: "line",
  meta: { description: "Every line is one well-formed JSON value.", defaultSeverity: "error", lineOrder: 60 },
  messages: { invalid: "invalid JSON: {{detail}}" },
  create(context) {
    return {
      line(state) {
        try {
          state.value = JSON.parse(state.text!);
          return undefined;
        } catch {
          // JSON.parse gives no usable position: a position-reporting scan finds the error's column.
          const error = scanJson(state.text!).syntaxError ?? { index: 0, message: "not a JSON value" };
          context.report({ messageId: "invalid", data: { detail: error.message }, line: state.number, column: error.index + 1, pointer: "", excerpt: excerptOf(state.text!, error.index + 1) });
          return "stop";
        }
      },
    };
  },
});
