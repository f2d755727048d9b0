/**
 * An artifact's bytes against its lock manifest's pin (docs/spec.md, "Generation"): its sha256, then UTF-8. Apart from
 * parse-artifact.ts, so that a thread that reads artifacts for another to parse (generate by stage:
 * src/node/generate/staged-parse.ts) checks them without loading the markdown parser.
 */
import { isUtf8, sha256Hex } from "../bytes.js";
import { notUtf8Message } from "../utf8.js";
import { DatasetError } from "../errors.js";
import type { ManifestArtifact } from "../lock/manifest.js";

/** Throws DatasetError naming the artifact when its bytes are not the ones pinned, or not UTF-8. */
export function verifyArtifactBytes(artifact: ManifestArtifact, bytes: Uint8Array): void {
  const digest = sha256Hex(bytes);
  if (digest !== artifact.sha256)
    throw new DatasetError([
      `${artifact.path}: changed since the lock manifest was written (its sha256 is ${digest}, the manifest pins ${artifact.sha256})`,
    ]);
  if (!isUtf8(bytes)) throw new DatasetError([notUtf8Message(artifact.path, bytes)]);
}
