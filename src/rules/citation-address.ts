import { formatAddress } from "../core/address/address.js";
import { quote } from "../core/text.js";
import { addressOf, defineRule, stringField } from "./define.js";

export const citationAddress = defineRule({
  id: "citation-address",
  scope: "record",
  meta: {
    description:
      "citationAddress is in the grammar and equals the address recomputed from the record's slug, targetKind, artifactRelativePath and local coordinate.",
    defaultSeverity: "error",
  },
  messages: {
    malformed:
      "citationAddress {{value}} is not in the address grammar: expected <slug>/<artifact path>#<local coordinate> or <slug>/<folder path>/",
    kind: "citationAddress {{value}} is the address of a {{addressKind}}, but the record is a {{kind}}",
    mismatch: "citationAddress {{value}} does not match the record's own coordinates: expected {{expected}}",
  },
  create(context) {
    return {
      record({ record, line }) {
        const value = stringField(record, "citationAddress");
        const slug = stringField(record, "slug");
        const path = stringField(record, "artifactRelativePath");
        const kind = record.targetKind;
        if (value === undefined) return;
        const parts = addressOf(record);
        if (parts === undefined) {
          context.report({ messageId: "malformed", data: { value: quote(value) }, line, pointer: "/citationAddress" });
          return;
        }
        if (
          slug === undefined ||
          path === undefined ||
          (kind !== "markdown-artifact" && kind !== "structural-container")
        )
          return;
        if (parts.targetKind !== kind) {
          context.report({
            messageId: "kind",
            data: { value: quote(value), addressKind: parts.targetKind, kind },
            line,
            pointer: "/citationAddress",
          });
          return;
        }
        let expected: string;
        try {
          // The derivation generate uses: the address formatted from the record's own slug, kind and path, and the
          // local coordinate it carries.
          expected = formatAddress(
            kind === "markdown-artifact"
              ? { slug, targetKind: kind, path, local: parts.local ?? "" }
              : { slug, targetKind: kind, path },
          );
        } catch {
          return; // the slug or path itself is invalid: the schema reports it
        }
        if (expected !== value)
          context.report({
            messageId: "mismatch",
            data: { value: quote(value), expected: quote(expected) },
            line,
            pointer: "/citationAddress",
          });
      },
    };
  },
});
