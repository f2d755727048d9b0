import type { LockManifest } from "./manifest.js";

/** What the manifest rules need: the manifest, its recomputed digest, and the body digests of the artifacts at hand. */
export interface LockContext {
  manifest: LockManifest;
  /** The manifest's path as shown in messages. */
  manifestPath: string;
  /** datasetDigest recomputed from the manifest's own content. */
  computedDigest: string;
  /** Artifact path → SHA-256 of its body, for the artifacts whose files are present and match their sha256. */
  bodyDigests: Map<string, string>;
  /** Artifact path → SHA-256 of its file, for the artifacts whose files are present but no longer match the manifest. */
  changedArtifacts: Map<string, string>;
}
