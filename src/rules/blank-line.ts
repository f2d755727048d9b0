import { defineRule } from "./define.js";

export const blankLine = defineRule({
  id: "blank-line",
  scope: "line",
  meta: { description: "No blank lines: every line is one record.", defaultSeverity: "error", lineOrder: 50 },
  messages: { blank: "blank line: expected one JSON object on every line" },
  create(context) {
    return {
      line(state) {
        if (!/^[ \t]*$/.test(state.text!)) return undefined;
        context.report({ messageId: "blank", line: state.number, pointer: "" });
        return "stop";
      },
    };
  },
});
