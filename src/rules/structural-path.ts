import { containerStructuralPath, isIndexFileName, targetStructuralPath } from "../core/model.js";
import { addressOf, defineRule, isMarkdownArtifact, isStructuralContainer, stringArrayField, stringField } from "./define.js";

const show = (segments: string[]) => JSON.stringify(segments);
const sameSegments = (a: string[], b: string[]) => a.length === b.length && a.every((segment, i) => segment === b[i]);

/** The structuralPath a record must have: its folder segments, its file stem (not for index.md/README.md), its local coordinate's segments. */
export function expectedStructuralPath(record: Record<string, unknown>): string[] | undefined {
  const path = stringField(record, "artifactRelativePath");
  if (path === undefined) return undefined;
  if (isStructuralContainer(record)) return containerStructuralPath(path);
  const parts = addressOf(record);
  if (!isMarkdownArtifact(record) || parts?.local === undefined) return undefined;
  return targetStructuralPath(path, parts.local);
}

/**
 * `expectedStructuralPath(record)` joined with "/", built without the arrays (the same folder, stem and
 * local pieces). At least one segment, none with "/", that join to it are exactly that structuralPath:
 * a string splits at "/" one way only (and never into no segments, which join to "" as [""] does).
 */
function expectedJoinedPath(record: Record<string, unknown>): string | undefined {
  const path = stringField(record, "artifactRelativePath");
  if (path === undefined) return undefined;
  if (isStructuralContainer(record)) return path;
  const parts = addressOf(record);
  if (!isMarkdownArtifact(record) || parts?.local === undefined) return undefined;
  const slash = path.lastIndexOf("/");
  const fileName = path.slice(slash + 1);
  return `${path.slice(0, slash + 1)}${isIndexFileName(fileName) ? "" : `${fileName.slice(0, -3)}/`}${parts.local}`;
}

const hasSlash = (segment: string) => segment.includes("/");

export const structuralPath = defineRule({
  id: "structural-path",
  scope: "record",
  meta: {
    description: 'structuralPath is the record\'s folder segments, file stem and local coordinate segments, and canonicalPath is structuralPath joined with "/".',
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
        const joined = segments.join("/");
        // Compared joined, which needs no arrays; the arrays are built only to report a difference.
        const expectedJoined = expectedJoinedPath(record);
        if (expectedJoined !== undefined && (joined !== expectedJoined || segments.length === 0 || segments.some(hasSlash))) {
          const expected = expectedStructuralPath(record)!;
          if (!sameSegments(expected, segments)) context.report({ messageId: "segments", data: { actual: show(segments), expected: show(expected) }, line, pointer: "/structuralPath" });
        }
        const canonical = stringField(record, "canonicalPath");
        if (canonical !== undefined && canonical !== joined) {
          context.report({ messageId: "canonical", data: { actual: canonical, expected: joined }, line, pointer: "/canonicalPath" });
        }
      },
    };
  },
});
