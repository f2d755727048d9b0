import { createHash, type Hash } from "node:crypto";
import { defineRule, isMarkdownArtifact, regenerateCommand, stringField, updateCommand } from "./define.js";

export const lockArtifactBody = defineRule({
  id: "lock-artifact-body",
  scope: "manifest",
  meta: {
    description: "With the artifact files at hand, each still matches the manifest's sha256, and the markdown of its targets, concatenated in order, is exactly its body: nothing lost, nothing added.",
    defaultSeverity: "error",
  },
  messages: {
    changed:
      'artifact "{{path}}" has changed since the lock manifest was written (its sha256 is now {{actual}}, the manifest pins {{pinned}}): run {{fix}} to refresh the lock and regenerate this file',
    differs:
      "the markdown of the targets of \"{{path}}\" (lines {{firstLine}}–{{lastLine}}) does not concatenate to the artifact's body: the body's sha256 is {{expected}}, the concatenation's {{actual}}: this file was not generated from the artifact as it is; regenerate it with {{fix}}",
  },
  create(context) {
    let current: { path: string; hash: Hash; firstLine: number; lastLine: number } | undefined;
    const finish = () => {
      if (!current) return;
      const lock = context.lock!;
      const changed = lock.changedArtifacts.get(current.path);
      if (changed !== undefined) {
        const pinned = lock.manifest.artifacts.find((a) => a.path === current!.path)?.sha256;
        context.report({ messageId: "changed", data: { path: current.path, actual: changed, pinned, fix: updateCommand(context) }, line: current.firstLine, pointer: "/artifactRelativePath" });
      }
      const expected = lock.bodyDigests.get(current.path);
      const actual = current.hash.digest("hex");
      if (expected !== undefined && actual !== expected) {
        context.report({
          messageId: "differs",
          data: { path: current.path, firstLine: current.firstLine, lastLine: current.lastLine, expected, actual, fix: regenerateCommand(context) },
          line: current.firstLine,
          pointer: "/markdown",
        });
      }
      current = undefined;
    };
    return {
      record({ record, line }) {
        if (!isMarkdownArtifact(record)) return;
        const path = stringField(record, "artifactRelativePath");
        const markdown = stringField(record, "markdown");
        if (path === undefined || markdown === undefined) return;
        if (current?.path !== path) {
          finish();
          current = { path, hash: createHash("sha256"), firstLine: line, lastLine: line };
        }
        current.hash.update(markdown);
        current.lastLine = line;
      },
      end: finish,
    };
  },
});
