/**
 * Deterministic generation of citation-target records from a lock manifest and its artifacts
 * (docs/spec.md, "Generation"). Pure: the artifact bytes come through `read`, so the same
 * manifest and bytes give the same records on every machine. Memory grows with the largest
 * artifact, not the dataset: records are yielded one artifact at a time.
 */

import canonicalize from "canonicalize";
import { formatAddress } from "./address.js";
import { assignLocalCoordinates } from "./designation.js";
import { deriveCitationTargetId, deriveTextDigest, sha256Hex } from "./digest.js";
import { computeDatasetDigest, type LockManifest, type ManifestArtifact } from "./manifest.js";
import { ArtifactError, parseArtifact, type ParsedArtifact } from "./markdown.js";
import { SCHEMA_VERSION } from "./schema.js";
import { DatasetError } from "./errors.js";
import { dirnameOf, folderChain } from "./paths.js";
import { artifactRecordFields, artifactTrailBase, containerStructuralPath, targetStructuralPath } from "./model.js";

export { DatasetError } from "./errors.js";
export { dirnameOf, folderChain } from "./paths.js";

export type ArtifactReader = (path: string) => Promise<Uint8Array>;
export type OutputRecord = Record<string, string | number | string[]>;

const READ_AHEAD = 8;
const fatalDecoder = new TextDecoder("utf-8", { fatal: true });

/** The effective kind of an artifact: as set, else `file`. */
export function artifactKind(artifact: ManifestArtifact) {
  return artifactRecordFields(artifact).sourceArtifactKind;
}

/** Checks what can be checked without reading artifacts: paths, duplicates, directory contiguity, one index per folder. */
export function planDataset(manifest: LockManifest): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const closed = new Set<string>();
  const indexes = new Map<string, string>();
  let open: string[] = [];
  for (const artifact of manifest.artifacts) {
    const path = artifact.path;
    if (seen.has(path)) problems.push(`${path}: listed twice in the manifest`);
    seen.add(path);
    if (path.normalize("NFC") !== path) problems.push(`${path}: the path is not in Unicode NFC; rename the file`);
    const stem = path.slice(path.lastIndexOf("/") + 1, -3);
    if (path.split("/").some((s) => s === "" || s === "." || s === "..") || !path.endsWith(".md") || /[\u0000\r\n\\]/.test(path) || stem === "" || stem === "." || stem === "..") {
      problems.push(`${path}: not a relative POSIX path to a .md file inside the dataset root`);
      continue;
    }
    const chain = folderChain(path);
    open = open.filter((folder, i) => {
      if (chain[i] === folder) return true;
      closed.add(folder);
      return false;
    });
    for (const folder of chain.slice(open.length)) {
      if (closed.has(folder)) problems.push(`${path}: folder "${folder}" is not contiguous in document order (its artifacts must follow each other)`);
      open.push(folder);
    }
    if (artifactKind(artifact) === "directory-index") {
      const folder = dirnameOf(path);
      const other = indexes.get(folder);
      if (other !== undefined) problems.push(`${path}: folder "${folder || "."}" already has a directory-index artifact (${other})`);
      else indexes.set(folder, path);
    }
  }
  return problems;
}

/** One record as its canonical JSONL line (RFC 8785 + "\n"). */
export function serializeRecord(record: OutputRecord): string {
  return `${canonicalize(record)}\n`;
}

interface OpenFolder {
  path: string;
  headingText: string;
}

/** An artifact read, verified, decoded and cut into targets. */
export interface ParsedSource {
  text: string;
  parsed: ParsedArtifact;
}

/**
 * Gives the artifact at a position of the manifest, parsed. Positions are asked for in order, except
 * that a folder's directory-index may be asked for early (for the folder's heading) and again at its
 * turn; an implementation may work ahead (read-ahead, worker threads), holding a bounded number.
 */
export type ArtifactSource = (position: number, early?: boolean) => Promise<ParsedSource>;

/** Verifies an artifact's bytes against the manifest, decodes them (UTF-8, fatal) and parses them; throws DatasetError naming the artifact. */
export function parseArtifactBytes(artifact: ManifestArtifact, bytes: Uint8Array): ParsedSource {
  const digest = sha256Hex(bytes);
  if (digest !== artifact.sha256) throw new DatasetError([`${artifact.path}: changed since the lock manifest was written (its sha256 is ${digest}, the manifest pins ${artifact.sha256})`]);
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    throw new DatasetError([`${artifact.path}: not valid UTF-8`]);
  }
  try {
    return { text, parsed: parseArtifact(text, artifact.indexKind ?? "body-block") };
  } catch (error) {
    if (error instanceof ArtifactError) throw new DatasetError([`${artifact.path}: ${error.message}`]);
    throw error;
  }
}

/** The source of one thread: reads run a few artifacts ahead of parsing, so that I/O and parsing overlap; memory stays at a few artifacts. */
export function readingSource(manifest: LockManifest, read: ArtifactReader): ArtifactSource {
  const pending = new Map<number, Promise<Uint8Array>>();
  const readAt = (position: number) => {
    const bytes = read(manifest.artifacts[position]!.path);
    bytes.catch(() => undefined); // a read that fails is reported when its artifact's turn comes, not as an unhandled rejection
    return bytes;
  };
  return async (position) => {
    for (let i = position + 1; i < Math.min(position + 1 + READ_AHEAD, manifest.artifacts.length); i++) if (!pending.has(i)) pending.set(i, readAt(i));
    const queued = pending.get(position);
    pending.delete(position);
    return parseArtifactBytes(manifest.artifacts[position]!, await (queued ?? readAt(position)));
  };
}

/**
 * Yields the dataset's records in file order. Verifies each artifact's sha256 and UTF-8 as it
 * reads it and throws DatasetError on the first fault (the caller writes nothing then).
 */
export async function* generateRecords(manifest: LockManifest, read: ArtifactReader): AsyncGenerator<OutputRecord> {
  yield* generateRecordsFrom(manifest, readingSource(manifest, read));
}

/** Yields the dataset's records in file order, the artifacts coming parsed from `source` (one thread, or worker threads: the same records). */
export async function* generateRecordsFrom(manifest: LockManifest, source: ArtifactSource): AsyncGenerator<OutputRecord> {
  const planned = planDataset(manifest);
  if (planned.length > 0) throw new DatasetError(planned);
  const datasetDigest = computeDatasetDigest(manifest);
  if (manifest.datasetDigest !== datasetDigest) {
    throw new DatasetError([`manifest datasetDigest is ${manifest.datasetDigest} but its content digests to ${datasetDigest}: run \`citation-targets lock\` to refresh it`]);
  }
  const common = {
    datasetDigest,
    name: manifest.name,
    schemaVersion: SCHEMA_VERSION,
    slug: manifest.slug,
    sourceTextUrl: manifest.sourceTextUrl,
    textDigestAlgorithm: "sha256",
    titleId: manifest.titleId,
    versionDate: manifest.versionDate,
  };
  const indexOf = new Map<string, number>();
  manifest.artifacts.forEach((artifact, position) => {
    if (artifactKind(artifact) === "directory-index") indexOf.set(dirnameOf(artifact.path), position);
  });

  const open: OpenFolder[] = [];
  let documentOrder = 0;
  let preorder = 0;
  for (const [position, artifact] of manifest.artifacts.entries()) {
    const { parsed } = await source(position);
    const chain = folderChain(artifact.path);
    while (open.length > 0 && chain[open.length - 1] !== open[open.length - 1]!.path) open.pop();
    for (const folder of chain.slice(open.length)) {
      const index = indexOf.get(folder);
      let headingText = folder.slice(folder.lastIndexOf("/") + 1);
      if (index !== undefined) {
        const heading = index === position ? parsed.firstHeading : (await source(index, true)).parsed.firstHeading;
        if (heading !== undefined) headingText = heading;
      }
      const citationAddress = formatAddress({ slug: manifest.slug, targetKind: "structural-container", path: folder });
      yield {
        ...common,
        artifactRelativePath: folder,
        canonicalPath: folder,
        citationAddress,
        citationTargetId: deriveCitationTargetId(datasetDigest, citationAddress),
        headingText,
        headingTrail: open.map((f) => f.headingText),
        sourceArtifactKind: "structural-container",
        structuralPath: containerStructuralPath(folder),
        structuralPreorderIndex: preorder++,
        targetKind: "structural-container",
        textDigest: deriveTextDigest(headingText),
      };
      open.push({ path: folder, headingText });
    }
    const fields = artifactRecordFields(artifact);
    const innermost = open[open.length - 1];
    const folderTrail = innermost
      ? artifactTrailBase(
          fields.sourceArtifactKind,
          open.slice(0, -1).map((f) => f.headingText),
          innermost.headingText,
        )
      : [];
    const locals = assignLocalCoordinates(parsed.targets.map((t) => t.heading));
    const headingStack: { depth: number; text: string }[] = [];
    const text = parsed.body;
    for (const [i, target] of parsed.targets.entries()) {
      if (target.heading) while (headingStack.length > 0 && headingStack[headingStack.length - 1]!.depth >= target.heading.depth) headingStack.pop();
      const markdown = text.slice(target.start - parsed.bodyStart, target.end - parsed.bodyStart);
      const local = locals[i]!;
      const citationAddress = formatAddress({ slug: manifest.slug, targetKind: "markdown-artifact", path: artifact.path, local });
      const structuralPath = targetStructuralPath(artifact.path, local);
      yield {
        ...common,
        artifactRelativePath: artifact.path,
        canonicalPath: structuralPath.join("/"),
        citationAddress,
        citationTargetId: deriveCitationTargetId(datasetDigest, citationAddress),
        documentOrder: documentOrder++,
        headingText: target.heading?.text ?? "",
        headingTrail: [...folderTrail, ...headingStack.map((h) => h.text)],
        markdown,
        sourceArtifactBlockEndExclusive: target.blockEnd,
        sourceArtifactBlockStartIndex: target.blockStart,
        sourceArtifactKind: fields.sourceArtifactKind,
        sourceDocumentPath: fields.sourceDocumentPath,
        sourceIndexKind: fields.sourceIndexKind,
        structuralPath,
        targetKind: "markdown-artifact",
        textDigest: deriveTextDigest(markdown),
      };
      if (target.heading) headingStack.push(target.heading);
    }
  }
}
