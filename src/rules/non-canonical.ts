import { excerptOf } from "../core/text.js";
import { canonicalVerdict, defineRule } from "./define.js";

export const nonCanonical = defineRule({
  id: "non-canonical",
  scope: "line",
  meta: {
    description: "Every line is the RFC 8785 (JCS) canonical JSON of its record: sorted keys, no whitespace, canonical escapes and numbers.",
    defaultSeverity: "error",
    lineOrder: 90,
  },
  messages: {
    nonCanonical: "not in canonical form (RFC 8785): {{reason}}; expected {{expected}}",
    notRepresentable: "record cannot be canonicalised: {{reason}}",
  },
  create(context) {
    return {
      line(state) {
        const verdict = canonicalVerdict(state);
        if (verdict.kind === "unrepresentable") context.report({ messageId: "notRepresentable", data: { reason: verdict.reason }, line: state.number, pointer: "" });
        if (verdict.kind !== "different") return undefined; // duplicate keys are duplicate-key's to report
        const { found } = verdict;
        context.report({
          messageId: "nonCanonical",
          data: { reason: found?.reason ?? "bytes differ from the canonical serialisation", expected: found?.expected ?? "the RFC 8785 serialisation of the record" },
          line: state.number,
          column: verdict.column,
          pointer: found?.pointer ?? "",
          excerpt: excerptOf(state.text!, verdict.column),
        });
        return undefined;
      },
    };
  },
});
