import type { LockManifest } from "./manifest.js";

/** What the manifest rules need: the manifest, its recomputed digest, and the artifact bodies that could be read. */
export interface LockContext {
  manifest: LockManifest;
  /** The manifest's path as shown in messages. */
  manifestPath: string;
  /** datasetDigest recomputed from the manifest's own content. */
  computedDigest: string;
  /** Artifact path → its body (text without front matter), for the artifacts whose files were present and matched their sha256. */
  bodies: Map<string, string>;
}
