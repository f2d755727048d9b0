import { defineRule } from "./define.js";

export const recordNotObject = defineRule({
  id: "record-not-object",
  scope: "line",
  meta: { description: "Every line holds a JSON object, not an array, string, number, boolean or null.", defaultSeverity: "error", lineOrder: 70 },
  messages: { notObject: "line holds {{got}}: expected one JSON object per line" },
  create(context) {
    return {
      line(state) {
        const { value } = state;
        if (value !== null && typeof value === "object" && !Array.isArray(value)) return undefined;
        const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
        context.report({ messageId: "notObject", data: { got }, line: state.number, pointer: "" });
        return "stop";
      },
    };
  },
});
