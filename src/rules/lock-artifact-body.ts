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
    const runs = new Runs();
    // Lines that are not records (too long, too deep, not JSON…): their markdown is missing from the
    // concatenation, so "regenerate it" would be a follow-on of those lines' own problems; not said then.
    let skipped = 0;
    const compare = () => {
      const lock = context.lock!;
      const pinnedOf = new Map(lock.manifest.artifacts.map((a) => [a.path, a.sha256]));
      for (const run of runs.finished()) {
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
        if (expected !== undefined && run.digest !== expected && skipped === 0) {
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
        if (target) runs.add(target.path, target.markdown, line, line);
      },
      skipped() {
        skipped++;
      },
      // A range's runs, in order: those with their markdown are joined (the first may continue the run
      // before, of the same artifact); those with a digest lay wholly inside the range.
      range(summary, lineOffset) {
        skipped += (summary as RangeRuns).skipped;
        for (const run of (summary as RangeRuns).runs) {
          if (run.texts) for (const text of run.texts) runs.add(run.path, text, lineOffset + run.firstLine, lineOffset + run.lastLine);
          else runs.addDigested({ path: run.path, firstLine: lineOffset + run.firstLine, lastLine: lineOffset + run.lastLine, digest: run.digest! });
        }
      },
      end: compare,
    };
  },
  // In a range: a run wholly inside it (another artifact's target before and after) is digested there;
  // the first and last runs, which a range boundary may cut, travel whole (their markdown) to be joined.
  createRange() {
    const runs = new Runs(true);
    let skipped = 0;
    return {
      record({ record, line }) {
        const target = targetOf(record);
        if (target) runs.add(target.path, target.markdown, line, line);
      },
      skipped() {
        skipped++;
      },
      end(): RangeRuns {
        const last = runs.open();
        const done = runs.finished().map(({ texts, digest, ...run }, i): RangeRun => (i === 0 ? { ...run, texts: texts! } : { ...run, digest }));
        return { runs: last ? [...done, last] : done, skipped };
      },
    };
  },
});

interface DigestedRun {
  path: string;
  firstLine: number;
  lastLine: number;
  digest: string;
  texts?: string[];
}

/** The runs of consecutive targets of one artifact, each digested as its markdown streams by (and the markdown kept, when asked). */
class Runs {
  private readonly done: DigestedRun[] = [];
  private current: { path: string; firstLine: number; lastLine: number; hash: Hash; texts: string[] | undefined } | undefined;
  constructor(private readonly keepTexts = false) {}

  /** One more piece of an artifact's markdown; a new artifact ends the run before. `firstLine` counts only for a new run. */
  add(path: string, text: string, firstLine: number, lastLine: number): void {
    if (this.current?.path !== path) {
      this.finish();
      this.current = { path, firstLine, lastLine, hash: createHash("sha256"), texts: this.keepTexts ? [] : undefined };
    }
    this.current.hash.update(text);
    this.current.texts?.push(text);
    this.current.lastLine = lastLine;
  }

  /** A whole run digested elsewhere. */
  addDigested(run: DigestedRun): void {
    this.finish();
    this.done.push(run);
  }

  /** The runs ended so far, and the open one ended. */
  finished(): DigestedRun[] {
    this.finish();
    return this.done;
  }

  /** The open run, taken out unfinished (its markdown, for the next range to continue). */
  open(): RangeRun | undefined {
    const run = this.current;
    this.current = undefined;
    return run && { path: run.path, firstLine: run.firstLine, lastLine: run.lastLine, texts: run.texts ?? [] };
  }

  private finish(): void {
    if (!this.current) return;
    const { hash, texts, ...run } = this.current;
    this.done.push({ ...run, digest: hash.digest("hex"), ...(texts ? { texts } : {}) });
    this.current = undefined;
  }
}

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
  /** Lines of the range that were not records. */
  skipped: number;
}

/** The artifact and markdown of a markdown-artifact record that has both; other records do not break a run. */
function targetOf(record: Record<string, unknown>): { path: string; markdown: string } | undefined {
  if (!isMarkdownArtifact(record)) return undefined;
  const path = stringField(record, "artifactRelativePath");
  const markdown = stringField(record, "markdown");
  return path === undefined || markdown === undefined ? undefined : { path, markdown };
}
