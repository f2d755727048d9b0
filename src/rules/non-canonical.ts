import { defineRule } from "./define.js";

/**
 * A problem of reading (src/engine/read-records.ts): the line is not the canonical form of its record; the record is
 * still read.
 */
export const nonCanonical = defineRule({
  id: "non-canonical",
  scope: "reading",
  meta: {
    description:
      "Every line is the RFC 8785 (JCS) canonical JSON of its record: sorted keys, no whitespace, canonical escapes and numbers.",
    defaultSeverity: "error",
  },
  messages: {
    nonCanonical: "not in canonical form (RFC 8785): {{reason}}; expected {{expected}}",
    notRepresentable: "record cannot be canonicalised: {{reason}}",
  },
});
