import { createHash, type Hash } from "node:crypto";
import { sha256Hex } from "../core/digest.js";
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
    // Each artifact's run of records is compared with the artifact's body as it streams by (or digested,
    // where the body's bytes are not at hand); the comparison with the files waits for the end, when the
    // facts about the files (gathered meanwhile) are in: one entry per artifact.
    const lock = context.lock!;
    const runs = new Runs(false, (path) => lock.bodyBytes?.get(path));
    // Lines that are not records (too long, too deep, not JSON…): their markdown is missing from the
    // concatenation, so "regenerate it" would be a follow-on of those lines' own problems; not said then.
    let skipped = 0;
    const compare = () => {
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
        if (run.digest === undefined || skipped > 0) continue; // no digest: the markdown is the body's bytes exactly
        const bytes = lock.bodyBytes?.get(run.path);
        const expected = lock.bodyDigests.get(run.path) ?? (bytes && sha256Hex(bytes));
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
        const done = runs.finished().map(({ texts, digest, ...run }, i): RangeRun => (i === 0 ? { ...run, texts: texts! } : { ...run, digest: digest! }));
        return { runs: last ? [...done, last] : done, skipped };
      },
    };
  },
});

interface DigestedRun {
  path: string;
  firstLine: number;
  lastLine: number;
  /** The SHA-256 of the run's markdown; undefined when it was compared with the body's bytes and is exactly them. */
  digest: string | undefined;
  texts?: string[];
}

interface OpenRun {
  path: string;
  firstLine: number;
  lastLine: number;
  /** The body's bytes, while the markdown so far is their first `matched` bytes. */
  body: Uint8Array | undefined;
  matched: number;
  /** The digest so far: from the start when there is no body to compare with, else from where the markdown left it. */
  hash: Hash | undefined;
  texts: string[] | undefined;
}

/**
 * The runs of consecutive targets of one artifact, each checked as its markdown streams by: compared
 * with the body's bytes when `bodyOf` has them (a byte comparison costs a fraction of a SHA-256 pass, and
 * the body need not be digested at all when they agree), else digested (and the markdown kept, when asked).
 * A run that leaves the body is digested from there on, the bytes it matched first, so its digest is the
 * one the digesting path gives: the messages do not depend on the path.
 */
class Runs {
  private readonly done: DigestedRun[] = [];
  private current: OpenRun | undefined;
  constructor(
    private readonly keepTexts = false,
    private readonly bodyOf: (path: string) => Uint8Array | undefined = () => undefined,
  ) {}

  /** One more piece of an artifact's markdown; a new artifact ends the run before. `firstLine` counts only for a new run. */
  add(path: string, text: string, firstLine: number, lastLine: number): void {
    if (this.current?.path !== path) {
      this.finish();
      const body = this.keepTexts ? undefined : this.bodyOf(path);
      this.current = { path, firstLine, lastLine, body, matched: 0, hash: body ? undefined : createHash("sha256"), texts: this.keepTexts ? [] : undefined };
    }
    const run = this.current;
    if (run.hash) run.hash.update(text);
    else {
      const body = run.body!;
      const bytes = utf8Of(text);
      const end = run.matched + bytes.length;
      if (end <= body.length && Buffer.compare(bytes, body.subarray(run.matched, end)) === 0) run.matched = end;
      else run.hash = createHash("sha256").update(body.subarray(0, run.matched)).update(bytes);
    }
    run.texts?.push(text);
    run.lastLine = lastLine;
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
    const run = this.current;
    if (!run) return;
    const { path, firstLine, lastLine, texts } = run;
    const digest = run.hash ? run.hash.digest("hex") : run.matched === run.body!.length ? undefined : sha256Hex(run.body!.subarray(0, run.matched));
    this.done.push({ path, firstLine, lastLine, digest, ...(texts ? { texts } : {}) });
    this.current = undefined;
  }
}

/** Room for the UTF-8 of a record's markdown (3 bytes at most per UTF-16 unit), reused; a longer text gets its own buffer. */
let scratch = Buffer.allocUnsafe(1 << 16);

/** The UTF-8 bytes of `text` as Node writes them (a lone surrogate as U+FFFD, as the digest's own encoding does); valid until the next call. */
function utf8Of(text: string): Uint8Array {
  if (text.length * 3 > scratch.length) {
    if (text.length * 3 > 1 << 20) return Buffer.from(text, "utf8");
    scratch = Buffer.allocUnsafe(1 << 20);
  }
  return scratch.subarray(0, scratch.write(text, "utf8"));
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
