/**
 * The part of generation that parses markdown (docs/spec.md, "Generation"): an artifact's bytes verified, decoded and
 * parsed, and the records of a dataset read and parsed in this thread. Apart from generate.ts, so that a module that
 * only plans a dataset or joins lines the worker threads made (lock, generate's main thread) does not load the
 * markdown and YAML parsers as it starts. Pure: the bytes come through `read`.
 */
import { decodeUtf8, hasCrOrNul } from "../bytes.js";
import { DatasetError } from "../errors.js";
import type { LockManifest, ManifestArtifact } from "../lock/manifest.js";
import { type ArtifactLimits, ArtifactError } from "../markdown/limits.js";
import { parseArtifactKnown } from "../markdown/targets.js";
import type { OutputRecord } from "./record-line.js";
import { type ArtifactReader, type ArtifactSource, generateRecordsFrom, type ParsedSource } from "./generate.js";
import { verifyArtifactBytes } from "./verify-artifact.js";

const READ_AHEAD = 8;

/**
 * Verifies an artifact's bytes against the manifest, decodes them (UTF-8, fatal) and parses them; throws DatasetError
 * naming the artifact.
 */
export function parseArtifactBytes(
  artifact: ManifestArtifact,
  bytes: Uint8Array,
  limits: ArtifactLimits = {},
  checked = false,
  units = false,
): ParsedSource {
  // `checked`: these are the very bytes whose digest the manifest pins, just digested and found UTF-8 by lock.
  if (!checked) verifyArtifactBytes(artifact, bytes);
  const text = decodeUtf8(bytes);
  try {
    return {
      text,
      parsed: parseArtifactKnown(text, artifact.indexKind ?? "body-block", limits, units, !hasCrOrNul(bytes)),
    };
  } catch (error) {
    if (error instanceof ArtifactError) throw new DatasetError([`${artifact.path}: ${error.message}`]);
    throw error;
  }
}

/**
 * The source of one thread: reads run a few artifacts ahead of parsing, so that I/O and parsing overlap; memory stays
 * at a few artifacts.
 */
export function readingSource(manifest: LockManifest, read: ArtifactReader): ArtifactSource {
  const pending = new Map<number, Promise<Uint8Array>>();
  const readAt = (position: number) => {
    const bytes = read(manifest.artifacts[position]!.path);
    bytes.catch(() => undefined); // a read that fails is reported when its artifact's turn comes, not as an unhandled rejection
    return bytes;
  };
  return async (position) => {
    for (let i = position + 1; i < Math.min(position + 1 + READ_AHEAD, manifest.artifacts.length); i++)
      if (!pending.has(i)) pending.set(i, readAt(i));
    const queued = pending.get(position);
    pending.delete(position);
    return parseArtifactBytes(
      manifest.artifacts[position]!,
      await (queued ?? readAt(position)),
      {},
      false,
      manifest.units === true,
    );
  };
}

/**
 * Yields the dataset's records in file order. Verifies each artifact's sha256 and UTF-8 as it
 * reads it and throws DatasetError on the first fault (the caller writes nothing then).
 */
export async function* generateRecords(manifest: LockManifest, read: ArtifactReader): AsyncGenerator<OutputRecord> {
  yield* generateRecordsFrom(manifest, readingSource(manifest, read));
}
