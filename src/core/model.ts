/**
 * The model's constants and derivations, in one place (docs/spec.md, sections 4 and 6): `generate`
 * uses each derivation to produce a field, and the rule that checks the field uses the same one.
 * A change to the model is made here.
 */

/**
 * The file names that stand for their folder: first in its order, no stem in paths, a folder's `directory-index`. In
 * this order.
 */
export const INDEX_FILE_NAMES = ["index.md", "README.md"] as const;

/** True for `index.md` and `README.md`. */
export function isIndexFileName(name: string): boolean {
  return name === INDEX_FILE_NAMES[0] || name === INDEX_FILE_NAMES[1];
}

/** A dataset slug: lowercase alphanumeric groups joined by single hyphens. */
export const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
export const SLUG_REGEXP = new RegExp(SLUG_PATTERN);

/** A legislation host: a lowercase DNS host name, optionally with a port. */
export const LEGISLATION_HOST_PATTERN =
  "^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?$";

/** The dataset fields a lock manifest holds and every record repeats. */
export const MANIFEST_DATASET_FIELDS = ["slug", "titleId", "name", "versionDate", "sourceTextUrl"] as const;
export type ManifestDatasetField = (typeof MANIFEST_DATASET_FIELDS)[number];

/** The fields every record of one file repeats with one value: the manifest's, and the two the generator adds. */
export const RECORD_DATASET_FIELDS = [...MANIFEST_DATASET_FIELDS, "datasetDigest", "schemaVersion"] as const;

/** The kinds of markdown artifact a manifest may name (a record's sourceArtifactKind). */
export const MARKDOWN_ARTIFACT_KINDS = [
  "file",
  "directory-index",
  "document-frontmatter",
  "document-contents",
  "document-preamble",
] as const;
/** Where in its artifact a target's text is taken from (a record's sourceIndexKind). */
export const SOURCE_INDEX_KINDS = ["body-block", "body-div"] as const;
export type ArtifactKind = (typeof MARKDOWN_ARTIFACT_KINDS)[number];
export type IndexKind = (typeof SOURCE_INDEX_KINDS)[number];

/** The record fields an artifact's manifest entry decides, with the manifest's defaults applied. */
export function artifactRecordFields(artifact: {
  path: string;
  kind?: ArtifactKind;
  indexKind?: IndexKind;
  sourceDocumentPath?: string;
}): {
  sourceArtifactKind: ArtifactKind;
  sourceIndexKind: IndexKind;
  sourceDocumentPath: string;
} {
  return {
    sourceArtifactKind: artifact.kind ?? "file",
    sourceIndexKind: artifact.indexKind ?? "body-block",
    sourceDocumentPath: artifact.sourceDocumentPath ?? artifact.path,
  };
}

/** The structuralPath of a structural container: its folder's segments. */
export function containerStructuralPath(folder: string): string[] {
  return folder.split("/");
}

/**
 * The last artifact path a structuralPath was derived for, and its segments (folders, then the stem but for index
 * files): an artifact's targets come together.
 */
let lastArtifactPath: string | undefined;
let lastArtifactSegments: readonly string[] = [];

/**
 * The structuralPath of a markdown-artifact target: folder segments, the file's stem (none for index.md/README.md),
 * then the local coordinate's segments.
 */
export function targetStructuralPath(artifactPath: string, local: string): string[] {
  const segments = artifactSegments(artifactPath).slice();
  if (local.includes("/")) segments.push(...local.split("/"));
  else segments.push(local);
  return segments;
}

/** What the structuralPath of each markdown-artifact target of an artifact starts with (targetStructuralPath). */
export function artifactSegments(artifactPath: string): readonly string[] {
  if (artifactPath !== lastArtifactPath) {
    const segments = artifactPath.split("/");
    const fileName = segments.pop()!;
    if (!isIndexFileName(fileName)) segments.push(fileName.slice(0, -3));
    lastArtifactPath = artifactPath;
    lastArtifactSegments = segments;
  }
  return lastArtifactSegments;
}

/**
 * How a markdown-artifact target's headingTrail starts inside its folder: the folder's own trail and
 * heading, except in a directory-index artifact, which supplies its folder's heading itself, so its
 * trail continues the folder's own trail.
 */
export function artifactTrailBase(kind: ArtifactKind, folderTrail: readonly string[], folderHeading: string): string[] {
  return kind === "directory-index" ? [...folderTrail] : [...folderTrail, folderHeading];
}

/** The canonicalPath of a record: its structuralPath joined with "/". */
export function canonicalPathOf(structuralPath: readonly string[]): string {
  return structuralPath.join("/");
}
