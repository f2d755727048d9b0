import { createHash, type Hash } from "node:crypto";
import { defineRule, isMarkdownArtifact, regenerateCommand, stringField, updateCommand } from "./define.js";

export const lockArtifactBody = defineRule({
  id: "lock-artifact-body",
  scope: "manifest",
  meta: {
    description: "With the artifact files at hand, each still matches the manifest's sha256, and the markdown of its targets, concatenated in order, is exactly its body: nothing lost, nothing added.",
    defaultSeverity: "error",
    reads: ["targetKind", "artifactRelativePath", "markdown"],
  },
  messages: {
    changed:
      'artifact "{{path}}" has changed since the lock manifest was written (its sha256 is now {{actual}}, the manifest pins {{pinned}}): run {{fix}} to refresh the lock and regenerate this file',
    differs:
      "the markdown of the targets of \"{{path}}\" (lines {{firstLine}}–{{lastLine}}) does not concatenate to the artifact's body: the body's sha256 is {{expected}}, the concatenation's {{actual}}: this file was not generated from the artifact as it is; regenerate it with {{fix}}",
  },
  create(context) {
    // Each artifact's run of records is digested as it streams by; the comparison with the files waits
    // for the end, when the facts about the files (gathered meanwhile) are in: one entry per artifact.
    const runs: { path: string; firstLine: number; lastLine: number; digest: string }[] = [];
    let current: { path: string; hash: Hash; firstLine: number; lastLine: number } | undefined;
    const finish = () => {
      if (!current) return;
      runs.push({ path: current.path, firstLine: current.firstLine, lastLine: current.lastLine, digest: current.hash.digest("hex") });
      current = undefined;
    };
    const compare = () => {
      finish();
      const lock = context.lock!;
      const pinnedOf = new Map(lock.manifest.artifacts.map((a) => [a.path, a.sha256]));
      for (const run of runs) {
        const changed = lock.changedArtifacts.get(run.path);
        if (changed !== undefined) {
          context.report({
            messageId: "changed",
            data: { path: run.path, actual: changed, pinned: pinnedOf.get(run.path), fix: updateCommand(context) },
            line: run.firstLine,
            pointer: "/artifactRelativePath",
          });
        }
        const expected = lock.bodyDigests.get(run.path);
        if (expected !== undefined && run.digest !== expected) {
          context.report({
            messageId: "differs",
            data: { path: run.path, firstLine: run.firstLine, lastLine: run.lastLine, expected, actual: run.digest, fix: regenerateCommand(context) },
            line: run.firstLine,
            pointer: "/markdown",
          });
        }
      }
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
      end: compare,
    };
  },
});
