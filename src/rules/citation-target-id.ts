import { deriveCitationTargetId } from "../core/digest.js";
import { defineRule, stringField } from "./define.js";
import { generatedTwin } from "./generated-twin.js";

export const citationTargetId = defineRule({
  id: "citation-target-id",
  scope: "record",
  meta: {
    description: 'citationTargetId is SHA-256 of "citation-target-id/v1" NUL datasetDigest NUL citationAddress.',
    defaultSeverity: "error",
  },
  messages: {
    mismatch:
      "citationTargetId is {{actual}} but the derivation from datasetDigest and citationAddress gives {{expected}}",
  },
  create(context) {
    return {
      record({ record, line }) {
        const datasetDigest = stringField(record, "datasetDigest");
        const address = stringField(record, "citationAddress");
        const actual = stringField(record, "citationTargetId");
        if (datasetDigest === undefined || address === undefined || actual === undefined) return;
        // generate's record at this address, of this datasetDigest, carries its id (deriveCitationTargetId, made once).
        const twin = generatedTwin(context, record);
        const expected =
          twin !== undefined && twin.datasetDigest === datasetDigest && typeof twin.citationTargetId === "string"
            ? twin.citationTargetId
            : deriveCitationTargetId(datasetDigest, address);
        if (actual !== expected)
          context.report({ messageId: "mismatch", data: { actual, expected }, line, pointer: "/citationTargetId" });
      },
    };
  },
});
