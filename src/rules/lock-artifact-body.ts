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
        const target = targetOf(record);
        if (target === undefined) return;
        if (current?.path !== target.path) {
          finish();
          current = { path: target.path, hash: createHash("sha256"), firstLine: line, lastLine: line };
        }
        current.hash.update(target.markdown);
        current.lastLine = line;
      },
      // A range's runs, in order: a run begun in the range before continues it (same artifact).
      range(summary, lineOffset) {
        for (const [i, run] of (summary as RangeRuns).runs.entries()) {
          if (i === 0 && run.texts && current?.path === run.path) {
            for (const text of run.texts) current.hash.update(text);
            current.lastLine = lineOffset + run.lastLine;
            continue;
          }
          finish();
          if (run.texts) {
            current = { path: run.path, hash: createHash("sha256"), firstLine: lineOffset + run.firstLine, lastLine: lineOffset + run.lastLine };
            for (const text of run.texts) current.hash.update(text);
          } else {
            runs.push({ path: run.path, firstLine: lineOffset + run.firstLine, lastLine: lineOffset + run.lastLine, digest: run.digest! });
          }
        }
      },
      end: compare,
    };
  },
  // In a range: a run wholly inside it (another artifact's target before and after) is digested there;
  // the first and last runs, which a range boundary may cut, travel whole (their markdown) to be joined.
  createRange() {
    const runs: RangeRun[] = [];
    let current: (RangeRun & { hash: Hash; texts: string[] }) | undefined;
    const finish = () => {
      if (!current) return;
      const { hash, texts, ...run } = current;
      runs.push(runs.length === 0 ? { ...run, texts } : { ...run, digest: hash.digest("hex") });
      current = undefined;
    };
    return {
      record({ record, line }) {
        const target = targetOf(record);
        if (target === undefined) return;
        if (current?.path !== target.path) {
          finish();
          current = { path: target.path, firstLine: line, lastLine: line, hash: createHash("sha256"), texts: [] };
        }
        current.hash.update(target.markdown);
        current.texts.push(target.markdown);
        current.lastLine = line;
      },
      end(): RangeRuns {
        if (current) {
          const { hash: _hash, ...last } = current;
          runs.push(last); // the last run: the next range may continue it
          current = undefined;
        }
        return { runs };
      },
    };
  },
});

/** A run of one artifact's targets within a range: its digest, or, where a range boundary may cut it, its markdown. Lines are the range's. */
interface RangeRun {
  path: string;
  firstLine: number;
  lastLine: number;
  digest?: string;
  texts?: string[];
}
interface RangeRuns {
  runs: RangeRun[];
}

/** The artifact and markdown of a markdown-artifact record that has both; other records do not break a run. */
function targetOf(record: Record<string, unknown>): { path: string; markdown: string } | undefined {
  if (!isMarkdownArtifact(record)) return undefined;
  const path = stringField(record, "artifactRelativePath");
  const markdown = stringField(record, "markdown");
  return path === undefined || markdown === undefined ? undefined : { path, markdown };
}
