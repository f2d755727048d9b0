import { shellQuote } from "../core/text.js";
import { type Sha256Stream, sha256Hex, sha256Stream } from "../core/bytes.js";
import {
  addressOf,
  defineRule,
  integerField,
  isMarkdownArtifact,
  regenerateCommand,
  stringField,
  updateCommand,
} from "./define.js";
import { UnitNesting } from "./unit-nesting.js";

export const lockArtifactBody = defineRule({
  id: "lock-artifact-body",
  scope: "manifest",
  meta: {
    description:
      "With the artifact files at hand, each still matches the manifest's sha256, and the markdown of its targets, concatenated in order, is exactly its body: nothing lost, nothing added.",
    defaultSeverity: "error",
  },
  messages: {
    changed:
      'artifact "{{path}}" has changed since the lock manifest was written (its sha256 is now {{actual}}, the manifest pins {{pinned}}): run {{fix}} to refresh the lock and regenerate this file',
    lineEndings:
      'artifact "{{path}}" differs from the sha256 the lock manifest pins only in its line endings (CR LF: a Windows checkout with core.autocrlf=true?): neither lock nor update (they would pin the CR LF bytes); convert it back to LF (the line endings only: edits are kept): {{fix}}; with `-text` in .gitattributes (adopt writes it) Git keeps it LF',
    differs:
      "the markdown of the targets of \"{{path}}\" (lines {{firstLine}}–{{lastLine}}) does not concatenate to the artifact's body: the body's sha256 is {{expected}}, the concatenation's {{actual}}: this file was not generated from the artifact as it is; regenerate it with {{fix}}",
    unitsDiffer:
      'the markdown of the units below {{local}} in "{{path}}" does not concatenate to its body (the {{what}}): this file was not generated from the artifact as it is; regenerate it with {{fix}}',
  },
  create(context) {
    // Each artifact's run of records is compared with the artifact's body as it streams by (or digested,
    // where the body's bytes are not at hand); the comparison with the files waits for the end, when the
    // facts about the files (gathered meanwhile) are in: one entry per artifact.
    const lock = context.lock!;
    const runs = new Runs((path) => lock.bodyBytes?.get(path));
    // Lines that are not records (too long, too deep, not JSON…): their markdown is missing from the
    // concatenation, so "regenerate it" would be a follow-on of those lines' own problems; not said then.
    let skipped = 0;
    let nestingPath = "";
    // The units of each target or unit, in a dataset with units: their markdown concatenated is its body (a unit's
    // whole markdown; a heading's markdown after its heading block: a suffix of it, after at least its heading).
    const nesting = new UnitNesting((entry) => {
      if (entry.children === 0 || skipped > 0 || entry.markdown === undefined) return;
      const text = entry.childText.join("");
      const fits = entry.unit
        ? text === entry.markdown
        : text.length < entry.markdown.length && entry.markdown.endsWith(text);
      if (!fits)
        context.report({
          messageId: "unitsDiffer",
          data: {
            local: entry.local,
            path: nestingPath,
            what: entry.unit ? "unit's whole markdown" : "heading's markdown after its heading",
            fix: regenerateCommand(context),
          },
          line: entry.line,
          pointer: "/markdown",
        });
    });
    const compare = () => {
      const pinnedOf = new Map(lock.manifest.artifacts.map((a) => [a.path, a.sha256]));
      for (const run of runs.finished()) {
        const changed = lock.changedArtifacts.get(run.path);
        if (changed !== undefined && lock.lineEndingsOnly?.has(run.path)) {
          // The file from the working directory when the dataset root is shown (the root itself for a one-file dataset),
          // else its path in the folder.
          const file =
            lock.datasetRoot === undefined
              ? run.path
              : lock.datasetRootIsFile
                ? lock.datasetRoot
                : `${lock.datasetRoot}/${run.path}`;
          context.report({
            messageId: "lineEndings",
            data: { path: run.path, fix: `\`sed -i 's/\\r$//' ${shellQuote(file)}\` (on macOS, \`sed -i ''\`)` },
            line: run.firstLine,
            pointer: "/artifactRelativePath",
          });
        } else if (changed !== undefined) {
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
            data: {
              path: run.path,
              firstLine: run.firstLine,
              lastLine: run.lastLine,
              expected,
              actual: run.digest,
              fix: regenerateCommand(context),
            },
            line: run.firstLine,
            pointer: "/markdown",
          });
        }
      }
    };
    return {
      record({ record, line }) {
        const target = targetOf(record);
        if (!target) return;
        const local = addressOf(record)?.local;
        const start = integerField(record, "sourceArtifactBlockStartIndex");
        const end = integerField(record, "sourceArtifactBlockEndExclusive");
        if (local !== undefined && start !== undefined && end !== undefined && start >= 0 && end >= start) {
          if (target.path !== nestingPath) nesting.finish();
          nestingPath = target.path;
          const { parent } = nesting.place(target.path, local, start, end, line, target.markdown);
          if (parent !== undefined) {
            // A unit: its text is its parent's, already in the artifact's run.
            parent.children++;
            parent.childText.push(target.markdown);
            return;
          }
        }
        runs.add(target.path, target.markdown, line);
      },
      skipped() {
        skipped++;
      },
      end() {
        nesting.finish();
        compare();
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
}

interface OpenRun {
  path: string;
  firstLine: number;
  lastLine: number;
  /** The body's bytes, while the markdown so far is their first `matched` bytes. */
  body: Uint8Array | undefined;
  matched: number;
  /** The digest so far: from the start when there is no body to compare with, else from where the markdown left it. */
  hash: Sha256Stream | undefined;
}

/**
 * The runs of consecutive targets of one artifact, each checked as its markdown streams by: compared
 * with the body's bytes when `bodyOf` has them (a byte comparison costs a fraction of a SHA-256 pass, and
 * the body need not be digested at all when they agree), else digested.
 * A run that leaves the body is digested from there on, the bytes it matched first, so its digest is the
 * one the digesting path gives: the messages do not depend on the path.
 */
class Runs {
  private readonly done: DigestedRun[] = [];
  private current: OpenRun | undefined;
  constructor(private readonly bodyOf: (path: string) => Uint8Array | undefined) {}

  /** The markdown of the next target, on `line`; a new artifact ends the run before. */
  add(path: string, text: string, line: number): void {
    if (this.current?.path !== path) {
      this.finish();
      const body = this.bodyOf(path);
      this.current = {
        path,
        firstLine: line,
        lastLine: line,
        body,
        matched: 0,
        hash: body ? undefined : sha256Stream(),
      };
    }
    const run = this.current;
    if (run.hash) run.hash.update(text);
    else {
      const body = run.body!;
      const bytes = utf8Of(text);
      const end = run.matched + bytes.length;
      if (end <= body.length && Buffer.compare(bytes, body.subarray(run.matched, end)) === 0) run.matched = end;
      else run.hash = sha256Stream().update(body.subarray(0, run.matched)).update(bytes);
    }
    run.lastLine = line;
  }

  /** The runs ended so far, and the open one ended. */
  finished(): DigestedRun[] {
    this.finish();
    return this.done;
  }

  private finish(): void {
    const run = this.current;
    if (!run) return;
    const { path, firstLine, lastLine } = run;
    const digest = run.hash
      ? run.hash.digest("hex")
      : run.matched === run.body!.length
        ? undefined
        : sha256Hex(run.body!.subarray(0, run.matched));
    this.done.push({ path, firstLine, lastLine, digest });
    this.current = undefined;
  }
}

/**
 * Room for the UTF-8 of a record's markdown (3 bytes at most per UTF-16 unit), reused; a longer text gets its own
 * buffer.
 */
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * The UTF-8 bytes of `text` as Node writes them (a lone surrogate as U+FFFD, as the digest's own encoding does); valid
 * until the next call.
 */
function utf8Of(text: string): Uint8Array {
  if (text.length * 3 > scratch.length) {
    if (text.length * 3 > 1 << 20) return Buffer.from(text, "utf8");
    scratch = Buffer.allocUnsafe(1 << 20);
  }
  return scratch.subarray(0, scratch.write(text, "utf8"));
}

/** The artifact and markdown of a markdown-artifact record that has both; other records do not break a run. */
function targetOf(record: Record<string, unknown>): { path: string; markdown: string } | undefined {
  if (!isMarkdownArtifact(record)) return undefined;
  const path = stringField(record, "artifactRelativePath");
  const markdown = stringField(record, "markdown");
  return path === undefined || markdown === undefined ? undefined : { path, markdown };
}
