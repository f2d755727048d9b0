import { dirnameOf } from "../core/paths.js";
import { artifactTrailBase } from "../core/model.js";
import { defineRule, isMarkdownArtifact, isStructuralContainer, stringArrayField, stringField } from "./define.js";

const show = (trail: string[]) => JSON.stringify(trail);
/**
 * Whether `trail` starts with `prefix` (equal when of the same length): compared item by item, not through
 * JSON.stringify (which cost more a record: bench/RESULTS.md, "validate against the baseline").
 */
const startsWith = (trail: string[], prefix: string[]) =>
  trail.length >= prefix.length && prefix.every((item, i) => trail[i] === item);

export const parentContainer = defineRule({
  id: "parent-container",
  scope: "dataset",
  meta: {
    description:
      "Every record inside a folder follows that folder's structural-container record, and its headingTrail continues the container's trail and heading.",
    defaultSeverity: "error",
  },
  messages: {
    missing:
      'no structural-container record for folder "{{folder}}" before this line: expected the container of every folder before its first descendant',
    trail:
      'headingTrail is {{actual}}: expected {{expected}} (from the container of "{{folder}}" on line {{containerLine}})',
    trailPrefix:
      'headingTrail is {{actual}}: expected it to start with {{expected}} (from the container of "{{folder}}" on line {{containerLine}})',
    rootTrail: "headingTrail is {{actual}}: expected [] for a container at the dataset root",
  },
  create(context) {
    const containers = new Map<string, { heading: string; trail: string[]; line: number }>();
    // A container comes right before its first descendant, so unreadable lines just before a record may
    // have been the containers of its folder and of the folders above it: those are not reported missing.
    const unknown = new Set<string>();
    let afterSkip = false;
    return {
      skipped() {
        afterSkip = true;
      },
      record({ record, line }) {
        const path = stringField(record, "artifactRelativePath");
        const trail = stringArrayField(record, "headingTrail");
        if (path === undefined) return;
        const container = isStructuralContainer(record);
        if (!container && !isMarkdownArtifact(record)) return;
        const folder = dirnameOf(path);
        if (afterSkip) {
          for (let above = folder; above !== "" && !containers.has(above); above = dirnameOf(above)) unknown.add(above);
          afterSkip = false;
        }
        const parent = folder === "" ? undefined : containers.get(folder);
        if (folder !== "" && parent === undefined && !unknown.has(folder))
          context.report({ messageId: "missing", data: { folder }, line, pointer: "/artifactRelativePath" });
        if (trail !== undefined) {
          if (container) {
            const expected = parent ? [...parent.trail, parent.heading] : folder === "" ? [] : undefined;
            if (expected !== undefined && !(trail.length === expected.length && startsWith(trail, expected))) {
              context.report(
                parent
                  ? {
                      messageId: "trail",
                      data: { actual: show(trail), expected: show(expected), folder, containerLine: parent.line },
                      line,
                      pointer: "/headingTrail",
                    }
                  : { messageId: "rootTrail", data: { actual: show(trail) }, line, pointer: "/headingTrail" },
              );
            }
          } else if (parent) {
            const expected = artifactTrailBase(
              record.sourceArtifactKind === "directory-index" ? "directory-index" : "file",
              parent.trail,
              parent.heading,
            );
            if (!startsWith(trail, expected)) {
              context.report({
                messageId: "trailPrefix",
                data: { actual: show(trail), expected: show(expected), folder, containerLine: parent.line },
                line,
                pointer: "/headingTrail",
              });
            }
          }
        }
        const heading = stringField(record, "headingText");
        if (container && heading !== undefined && trail !== undefined && !containers.has(path))
          containers.set(path, { heading, trail, line });
      },
    };
  },
});
