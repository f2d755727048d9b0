import { defineRule } from "./define.js";

export const bom = defineRule({
  id: "bom",
  scope: "line",
  meta: { description: "No byte order mark at the start of the file or of a line.", defaultSeverity: "error", lineOrder: 20 },
  messages: { bom: "line starts with a byte order mark (U+FEFF): expected UTF-8 without BOM" },
  create(context) {
    return {
      // Reported, then taken off, so that the record behind it is still read.
      line(state) {
        const { bytes, text } = state;
        if (bytes !== undefined && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) state.bytes = bytes.subarray(3);
        else if (text !== undefined && text.charCodeAt(0) === 0xfeff) state.text = text.slice(1);
        else return undefined;
        context.report({ messageId: "bom", line: state.number, column: 1, pointer: "" });
        return undefined;
      },
    };
  },
});
