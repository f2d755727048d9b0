import { canonicalPathOf, containerStructuralPath, targetStructuralPath } from "../core/model.js";
import {
  addressOf,
  defineRule,
  isMarkdownArtifact,
  isStructuralContainer,
  stringArrayField,
  stringField,
} from "./define.js";

const show = (segments: string[]) => JSON.stringify(segments);
const sameSegments = (a: string[], b: string[]) => a.length === b.length && a.every((segment, i) => segment === b[i]);

/**
 * The structuralPath a record must have, by the derivations generate uses (core/model.ts): its folder segments, its
 * file stem (not for index.md/README.md), its local coordinate's segments.
 */
export function expectedStructuralPath(record: Record<string, unknown>): string[] | undefined {
  const path = stringField(record, "artifactRelativePath");
  if (path === undefined) return undefined;
  if (isStructuralContainer(record)) return containerStructuralPath(path);
  const parts = addressOf(record);
  if (!isMarkdownArtifact(record) || parts?.local === undefined) return undefined;
  return targetStructuralPath(path, parts.local);
}

export const structuralPath = defineRule({
  id: "structural-path",
  scope: "record",
  meta: {
    description:
      'structuralPath is the record\'s folder segments, file stem and local coordinate segments, and canonicalPath is structuralPath joined with "/".',
    defaultSeverity: "error",
  },
  messages: {
    segments: "structuralPath is {{actual}}: expected {{expected}}",
    canonical: 'canonicalPath is "{{actual}}" but structuralPath joins to "{{expected}}"',
  },
  create(context) {
    return {
      record({ record, line }) {
        const segments = stringArrayField(record, "structuralPath");
        if (segments === undefined) return;
        const expected = expectedStructuralPath(record);
        if (expected !== undefined && !sameSegments(expected, segments)) {
          context.report({
            messageId: "segments",
            data: { actual: show(segments), expected: show(expected) },
            line,
            pointer: "/structuralPath",
          });
        }
        const canonical = stringField(record, "canonicalPath");
        const joined = canonicalPathOf(segments);
        if (canonical !== undefined && canonical !== joined) {
          context.report({
            messageId: "canonical",
            data: { actual: canonical, expected: joined },
            line,
            pointer: "/canonicalPath",
          });
        }
      },
    };
  },
});
