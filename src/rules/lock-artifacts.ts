import { quote } from "../core/text.js";
import { artifactRecordFields } from "../core/model.js";
import { defineRule, isMarkdownArtifact, stringField } from "./define.js";

export const lockArtifacts = defineRule({
  id: "lock-artifacts",
  scope: "manifest",
  meta: {
    description:
      "The markdown-artifact records cover exactly the manifest's artifacts, in the manifest's order, with the manifest's kind, index kind and source document path.",
    defaultSeverity: "error",
  },
  messages: {
    unknown: 'artifact "{{path}}" is not in lock manifest {{manifest}}',
    order:
      'artifact "{{path}}" comes after "{{expected}}" here, but before it in the manifest: expected the manifest\'s document order',
    uncovered: 'lock manifest artifact "{{path}}" has no target in this file: expected every artifact covered',
    field: '{{field}} is {{actual}} but the manifest gives {{expected}} for "{{path}}"',
  },
  create(context) {
    const manifest = context.lock!.manifest;
    const position = new Map(manifest.artifacts.map((a, i) => [a.path, i]));
    const covered = new Set<string>();
    let current: string | undefined;
    let previous = -1;
    let skipped = 0;
    return {
      // A line that is not a record (too long, too deep, not JSON…) may hold an artifact's targets: while
      // there is one, "no target" would send the user after an artifact, not after that line.
      skipped() {
        skipped++;
      },
      record({ record, line }) {
        if (!isMarkdownArtifact(record)) return;
        const path = stringField(record, "artifactRelativePath");
        if (path === undefined) return;
        const at = position.get(path);
        if (at === undefined) {
          if (path !== current)
            context.report({
              messageId: "unknown",
              data: { path, manifest: context.lock!.manifestPath },
              line,
              pointer: "/artifactRelativePath",
            });
          current = path;
          return;
        }
        if (path !== current) {
          if (at < previous && !covered.has(path)) {
            context.report({
              messageId: "order",
              data: { path, expected: manifest.artifacts[previous]!.path },
              line,
              pointer: "/artifactRelativePath",
            });
          }
          previous = at;
          covered.add(path);
          current = path;
          const artifact = manifest.artifacts[at]!;
          const expected: Record<string, string> = artifactRecordFields(artifact);
          for (const [field, value] of Object.entries(expected)) {
            const actual = stringField(record, field);
            if (actual !== undefined && actual !== value)
              context.report({
                messageId: "field",
                data: { field, actual: quote(actual), expected: quote(value), path },
                line,
                pointer: `/${field}`,
              });
          }
        }
      },
      end() {
        if (skipped > 0) return;
        for (const artifact of manifest.artifacts) {
          if (!covered.has(artifact.path))
            context.report({ messageId: "uncovered", data: { path: artifact.path }, line: 0, pointer: "" });
        }
      },
    };
  },
});
