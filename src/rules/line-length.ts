import { defineRule } from "./define.js";

export const lineLength = defineRule({
  id: "line-length",
  scope: "line",
  meta: { description: "No line is longer than the cap (--max-line-bytes, default 64 MiB): a longer one is skipped without being held in memory.", defaultSeverity: "error", lineOrder: 5 },
  messages: { tooLong: "line is {{length}} bytes long, more than the cap of {{max}} bytes: it was skipped (raise the cap with --max-line-bytes)" },
  create(context) {
    return {
      line(state) {
        if (state.overlong === undefined) return undefined;
        context.report({ messageId: "tooLong", data: { length: state.overlong, max: context.limits.maxLineBytes }, line: state.number, pointer: "" });
        return "stop";
      },
    };
  },
});
