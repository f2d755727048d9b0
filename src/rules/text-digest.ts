import { deriveTextDigest } from "../core/digest.js";
import { defineRule, isMarkdownArtifact, isStructuralContainer, regenerateCommand, stringField } from "./define.js";
import { generatedTwin } from "./generated-twin.js";

export const textDigest = defineRule({
  id: "text-digest",
  scope: "record",
  meta: {
    description:
      "textDigest is the SHA-256 of `markdown` (markdown-artifact) or of `headingText` (structural-container).",
    defaultSeverity: "error",
  },
  messages: {
    mismatch:
      "textDigest is {{actual}} but the SHA-256 of {{source}} is {{expected}}: the record was edited after it was generated; regenerate the file with {{fix}}",
  },
  create(context) {
    return {
      record({ record, line }) {
        const source = isMarkdownArtifact(record)
          ? "markdown"
          : isStructuralContainer(record)
            ? "headingText"
            : undefined;
        if (source === undefined) return;
        const text = stringField(record, source);
        const actual = stringField(record, "textDigest");
        if (text === undefined || actual === undefined) return;
        // generate's record at this address, of this kind and with this text, carries the digest of this text
        // (deriveTextDigest, made once).
        const twin = generatedTwin(context, record);
        const expected =
          twin !== undefined &&
          twin.targetKind === record.targetKind &&
          twin[source] === text &&
          typeof twin.textDigest === "string"
            ? twin.textDigest
            : deriveTextDigest(text);
        if (actual !== expected)
          context.report({
            messageId: "mismatch",
            data: { actual, expected, source, fix: regenerateCommand(context) },
            line,
            pointer: "/textDigest",
          });
      },
    };
  },
});
