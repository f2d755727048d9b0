/**
 * A lock manifest edited by hand (docs/spec.md, "Lock manifest"): its `datasetDigest` is no longer the digest of its
 * content. Its fields are compared with the JSONL generated from it before (whose records carry the digest the
 * manifest recorded), so that the message names what was edited; a slug edited is the pair's fault
 * (`<name>.lock.json` and `<name>.jsonl` are named after it), with its own fix.
 */
import { basename, dirname, join } from "node:path";
import { computeDatasetDigest, DEFAULT_MANIFEST_NAME, type LockManifest } from "../../core/lock/manifest.js";
import { MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { shellQuote } from "../../core/text.js";
import { displayPath } from "../files/files.js";
import { regularPiecesSync } from "../files/regular-file.js";

/**
 * `<name>` of a manifest named `<name>.lock.json` (whose JSONL is `<name>.jsonl`); undefined for
 * `citation-targets.lock.json`, whose JSONL is named after its slug.
 */
export function manifestStem(path: string): string | undefined {
  const name = basename(path);
  if (name === DEFAULT_MANIFEST_NAME || !name.endsWith(".lock.json")) return undefined;
  return name.slice(0, -".lock.json".length);
}

/**
 * Why `update` may not write this manifest with this slug: its JSONL is named after the manifest
 * (`<name>.jsonl` beside `<name>.lock.json`), and a JSONL must be named after its slug (the file-name
 * rule), so a slug edited in the manifest would give a JSONL validate rejects. Undefined when they agree.
 */
export function slugConflict(output: string, slug: string, cwd: string): string | undefined {
  const stem = manifestStem(output);
  if (stem === undefined || stem === slug) return undefined;
  return `${displayPath(output, cwd)} holds slug ${JSON.stringify(slug)}, but its JSONL is named after the manifest (${stem}.jsonl) and a JSONL must be named after its slug (validate's file-name rule): ${pairFix(stem, slug)}, then run the command again`;
}

/**
 * The two ways out of a slug that is not the pair's name: the slug set back, or the pair renamed after it; `update`,
 * when given, is the command to run after either (the manifest's name then).
 */
function pairFix(stem: string, slug: string, update?: (name: string) => string): string {
  const after = (name: string) => (update === undefined ? "" : ` and run ${update(name)}`);
  return `set the slug back to ${JSON.stringify(stem)}${after(stem)}, or move the pair to ${slug}.lock.json and ${slug}.jsonl (git mv)${after(slug)}`;
}

/** The longest first line of a JSONL read to compare its fields with the manifest's. */
const FIRST_LINE_BYTES = 1024 * 1024;

/**
 * What is wrong with a manifest whose datasetDigest is not the digest of its content, as generate says it (it cannot
 * generate from it: every record would carry a digest no manifest has); undefined when the digest is right.
 */
export function handEditProblem(
  manifestPath: string,
  manifest: LockManifest,
  shown: string,
  cwd: string,
): string | undefined {
  const computed = computeDatasetDigest(manifest);
  if (computed === manifest.datasetDigest) return undefined;
  const said = `${shown}: its datasetDigest ${manifest.datasetDigest} is not the digest of its content (${computed}): it was edited by hand`;
  const stem = manifestStem(manifestPath);
  const jsonl = join(dirname(manifestPath), `${stem ?? manifest.slug}.jsonl`);
  const edits = editedFields(manifest, jsonl).map(
    ({ field, was }) =>
      `its ${field} is ${JSON.stringify(manifest[field])} where ${displayPath(jsonl, cwd)}, generated from it, has ${JSON.stringify(was)}`,
  );
  const seen = edits.length > 0 ? ` (${edits.join("; ")})` : "";
  if (stem !== undefined && stem !== manifest.slug)
    return `${said}${seen}: the pair is named ${stem}, not after its slug ${JSON.stringify(manifest.slug)}, as a JSONL must be (validate's file-name rule): ${pairFix(
      stem,
      manifest.slug,
      (name) =>
        `\`citation-targets update ${shellQuote(displayPath(join(dirname(manifestPath), `${name}.lock.json`), cwd))}\``,
    )}`;
  const update = `\`citation-targets update ${shellQuote(shown)}\``;
  return edits.length > 0
    ? `${said}${seen}: if the edit is meant, run ${update}, which refreshes the digest and the JSONL; else set ${edits.length === 1 ? "it" : "them"} back`
    : `${said} (a field or an artifact's sha256): run ${update} to keep the edit (it refreshes the digest and the JSONL), or undo it (git diff -- ${shellQuote(shown)} shows it)`;
}

/**
 * The dataset fields of the manifest that differ from the first record of its JSONL, when that record carries the
 * digest the manifest recorded (generated from it before the edit); none when the JSONL is not there or not such.
 */
function editedFields(
  manifest: LockManifest,
  jsonl: string,
): { field: (typeof MANIFEST_DATASET_FIELDS)[number]; was: unknown }[] {
  let record: Record<string, unknown>;
  try {
    const pieces: Uint8Array[] = [];
    let length = 0;
    for (const piece of regularPiecesSync(jsonl)) {
      const end = piece.indexOf(0x0a);
      pieces.push(end === -1 ? piece : piece.subarray(0, end));
      length += piece.length;
      if (end !== -1 || length > FIRST_LINE_BYTES) break;
    }
    record = JSON.parse(Buffer.concat(pieces).toString("utf8")) as Record<string, unknown>;
  } catch {
    return []; // not there, or its first line is no record: nothing to compare with
  }
  if (record === null || typeof record !== "object" || record.datasetDigest !== manifest.datasetDigest) return [];
  return MANIFEST_DATASET_FIELDS.filter((field) => record[field] !== manifest[field]).map((field) => ({
    field,
    was: record[field],
  }));
}
