/** The dataset lock manifest (brief section 4). */

export const LOCK_VERSION = 1;
export const DEFAULT_MANIFEST_NAME = "citation-targets.lock.json";

export type ArtifactKind = "file" | "directory-index" | "document-frontmatter" | "document-contents" | "document-preamble";
export type IndexKind = "body-block" | "body-div";

export interface ManifestArtifact {
  path: string;
  sha256: string;
  kind?: ArtifactKind;
  indexKind?: IndexKind;
  sourceDocumentPath?: string;
}

export interface LockManifest {
  lockVersion: 1;
  slug: string;
  titleId: string;
  name: string;
  versionDate: string;
  sourceTextUrl: string;
  artifacts: ManifestArtifact[];
  datasetDigest: string;
}
