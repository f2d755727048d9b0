/**
 * `view`: one dataset file as one self-contained HTML page (docs/spec.md, section 17). Streams the
 * records (the page holds their addresses, headings, trails and, up to a limit, their texts) and
 * renders them with the pure formatter.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { type DatasetView, renderDatasetPagePieces, type ViewTarget } from "../../formatters/dataset-html.js";
import { fileSide, readRecords } from "../diff/diff-sides.js";
import { conflictMessage } from "../../core/lines.js";
import { OperationalError } from "../errors.js";
import { displayPath } from "../files/files.js";

/**
 * The most bytes of text a page holds by default (16 MiB, about seven times the largest German law):
 * up to it the page loads quickly in Chromium (bench/html-view.js; bench/RESULTS.md, "The dataset
 * page in Chromium"). A page of a larger
 * dataset keeps its tree and search and leaves the texts out; README ("view") gives the figures.
 */
export const DEFAULT_MAX_TEXT_BYTES = 16 * 2 ** 20;

export interface ViewOptions {
  cwd?: string;
  /** The JSONL file. */
  path: string;
  /** Past this many bytes of text (UTF-8), the page leaves the texts out. */
  maxTextBytes?: number;
  toolVersion?: string;
}

export interface ViewResult {
  /** The page, whole (for a large dataset, write `pieces` instead: the page is never held whole). */
  readonly html: string;
  /** The page's pieces, in order, each made as it is asked for (each read of this member makes them again). */
  readonly pieces: Iterable<string>;
  view: DatasetView;
  /** Notes for stderr: lines that are not records, texts left out. */
  warnings: string[];
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Reads a dataset file and renders its page. Throws OperationalError for a file that cannot be read or holds no record.
 */
export async function viewDataset(options: ViewOptions): Promise<ViewResult> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = resolve(cwd, options.path);
  const shown = displayPath(absolute, cwd);
  const info = statSync(absolute, { throwIfNoEntry: false });
  if (info === undefined) throw new OperationalError(`cannot read ${options.path}: no such file or folder`);
  if (!info.isFile())
    throw new OperationalError(
      `cannot read ${options.path}: ${info.isDirectory() ? "it is a folder, not a file: name one dataset file (<slug>.jsonl)" : "it is not a regular file"}`,
    );
  const limit = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
  // The texts that recur from record to record (each heading in the trail of every target below it, the artifact's
  // path, the kind) are held once, not once a record: a statute book as one dataset holds 149,080 targets.
  const held = new Map<string, string>();
  const once = (value: string): string => {
    const kept = held.get(value);
    if (kept !== undefined) return kept;
    held.set(value, value);
    return value;
  };
  const targets: ViewTarget[] = [];
  let first: Record<string, unknown> | undefined;
  let bytes = 0;
  let omitted = false;
  const { unreadable, conflictMarkers } = await readRecords(await fileSide(absolute, shown), (record) => {
    first ??= record;
    const markdown = text(record.markdown);
    if (markdown !== undefined) bytes += Buffer.byteLength(markdown);
    if (!omitted && bytes > limit) {
      // Past the limit no text is kept, those read before included: memory holds the tree, never the dataset's texts.
      omitted = true;
      for (const target of targets) delete target.text;
    }
    const trail = Array.isArray(record.headingTrail)
      ? record.headingTrail.filter((t): t is string => typeof t === "string").map(once)
      : [];
    targets.push({
      address: record.citationAddress as string,
      kind: once(text(record.targetKind) ?? "markdown-artifact"),
      heading: text(record.headingText) ?? "",
      trail,
      artifact: once(text(record.artifactRelativePath) ?? ""),
      ...(markdown !== undefined && !omitted ? { text: markdown } : {}),
    });
  });
  // A file git left in conflict holds both sides' records: a page of them would show the law twice.
  if (conflictMarkers > 0) throw new OperationalError(conflictMessage(shown, `${conflictMarkers} marker lines`, true));
  if (targets.length === 0) {
    throw new OperationalError(
      unreadable > 0
        ? `${shown} is not a citation-targets JSONL file: none of its ${unreadable} lines is a record with a citationAddress`
        : `${shown} holds no record: nothing to show`,
    );
  }
  const warnings: string[] = [];
  if (unreadable > 0)
    warnings.push(
      `${shown}: ${unreadable} ${unreadable === 1 ? "line is" : "lines are"} not a record with a citationAddress and ${unreadable === 1 ? "is" : "are"} not shown (run citation-targets validate)`,
    );
  if (omitted)
    warnings.push(
      `${shown}: the texts hold ${bytes} bytes, more than --max-text-bytes ${limit}: the page leaves them out (the tree and the search are complete)`,
    );
  const dataset = first ?? {};
  const view: DatasetView = {
    file: shown,
    targets,
    ...(text(dataset.slug) !== undefined ? { slug: text(dataset.slug)! } : {}),
    ...(text(dataset.name) !== undefined ? { name: text(dataset.name)! } : {}),
    ...(text(dataset.titleId) !== undefined ? { titleId: text(dataset.titleId)! } : {}),
    ...(text(dataset.versionDate) !== undefined ? { versionDate: text(dataset.versionDate)! } : {}),
    ...(text(dataset.sourceTextUrl) !== undefined ? { sourceTextUrl: text(dataset.sourceTextUrl)! } : {}),
    ...(omitted ? { textsOmitted: { bytes, limit } } : {}),
    ...(options.toolVersion !== undefined ? { toolVersion: options.toolVersion } : {}),
  };
  return {
    get html() {
      return [...renderDatasetPagePieces(view)].join("");
    },
    get pieces() {
      return renderDatasetPagePieces(view);
    },
    view,
    warnings,
  };
}

/**
 * How long a chunk of the page is, at least (but the last): 64 Ki characters. The pieces of a chunk are garbage once it
 * is written; joined a MiB at a time they lived through scavenges, and the old generation grew with pages written
 * long ago (the statute book with its units, peak RSS: 556 MB at 1 MiB, 392 MB at 64 Ki).
 */
export const PAGE_CHUNK = 2 ** 16;

/** The page's pieces joined into texts of PAGE_CHUNK characters (at least, but for the last), in order: one write each. */
export function* pageChunks(pieces: Iterable<string>): Generator<string> {
  let joined: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    joined.push(piece);
    length += piece.length;
    if (length >= PAGE_CHUNK) {
      yield joined.join("");
      joined = [];
      length = 0;
    }
  }
  if (joined.length > 0) yield joined.join("");
}
