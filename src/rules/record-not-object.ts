import { defineRule } from "./define.js";

export const recordNotObject = defineRule({
  id: "record-not-object",
  scope: "line",
  meta: { description: "Every line holds a JSON object, not an array, string, number, boolean or null.", defaultSeverity: "error" },
  messages: { notObject: "line holds {{got}}: expected one JSON object per line" },
});
