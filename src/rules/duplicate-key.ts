import { excerptOf } from "../core/text.js";
import { canonicalVerdict, defineRule } from "./define.js";

export const duplicateKey = defineRule({
  id: "duplicate-key",
  scope: "line",
  meta: { description: "No object has the same key twice.", defaultSeverity: "error", lineOrder: 80 },
  messages: { duplicate: 'duplicate key "{{key}}" (first at column {{firstColumn}}): expected each key once' },
  create(context) {
    return {
      // JSON.parse keeps the last of duplicate keys silently; a line with one is never canonical, so only non-canonical lines are scanned.
      line(state) {
        const verdict = canonicalVerdict(state);
        if (verdict.kind !== "duplicates") return undefined;
        for (const d of verdict.duplicates)
          context.report({
            messageId: "duplicate",
            data: { key: d.key, firstColumn: d.firstIndex + 1 },
            line: state.number,
            column: d.index + 1,
            pointer: d.pointer,
            excerpt: excerptOf(state.text!, d.index + 1),
          });
        return undefined;
      },
    };
  },
});
