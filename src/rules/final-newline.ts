import { defineRule } from "./define.js";

export const finalNewline = defineRule({
  id: "final-newline",
  scope: "line",
  meta: { description: "A non-empty file ends with a newline after its last record.", defaultSeverity: "error", lineOrder: 10 },
  messages: { missing: 'the last line has no newline after it: expected every record followed by "\\n"' },
  create(context) {
    return {
      line(state) {
        if (!state.terminated) context.report({ messageId: "missing", line: state.number, pointer: "" });
        return undefined;
      },
    };
  },
});
