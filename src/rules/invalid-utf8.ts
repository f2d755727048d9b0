import { isUtf8 } from "node:buffer";
import { firstInvalidUtf8 } from "../core/utf8.js";
import { defineRule } from "./define.js";

const decoder = new TextDecoder("utf-8");
const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");

export const invalidUtf8 = defineRule({
  id: "invalid-utf8",
  scope: "line",
  meta: { description: "Every line is valid UTF-8.", defaultSeverity: "error", lineOrder: 40 },
  messages: { invalid: "invalid UTF-8 byte 0x{{byte}} at byte {{byteOffset}} of the line: expected UTF-8 text" },
  create(context) {
    return {
      // Lines of valid runs arrive decoded; a line of a run that is not valid UTF-8 arrives as bytes: decode it, or name its first bad byte.
      line(state) {
        const { bytes } = state;
        if (bytes === undefined) return undefined;
        state.bytes = undefined;
        if (isUtf8(bytes)) {
          state.text = decode(bytes);
          return undefined;
        }
        const at = firstInvalidUtf8(bytes);
        const column = decoder.decode(bytes.subarray(0, at)).length + 1;
        context.report({ messageId: "invalid", data: { byte: (bytes[at] ?? 0).toString(16).padStart(2, "0"), byteOffset: at }, line: state.number, column, pointer: "" });
        return "stop";
      },
    };
  },
});
