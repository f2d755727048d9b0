import { defineRule } from "./define.js";

export const carriageReturn = defineRule({
  id: "carriage-return",
  scope: "line",
  meta: { description: "Lines end with LF alone, never CR LF.", defaultSeverity: "error", lineOrder: 30 },
  messages: { crlf: "line ends with CR LF: expected LF alone" },
  create(context) {
    return {
      // Reported, then taken off, so that the record before it is still read.
      line(state) {
        const { bytes, text } = state;
        if (bytes !== undefined && bytes[bytes.length - 1] === 0x0d) state.bytes = bytes.subarray(0, bytes.length - 1);
        else if (text !== undefined && text.charCodeAt(text.length - 1) === 0x0d) state.text = text.slice(0, -1);
        else return undefined;
        context.report({ messageId: "crlf", line: state.number, pointer: "" });
        return undefined;
      },
    };
  },
});
