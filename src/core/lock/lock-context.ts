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
  /**
   * Artifact path → the bytes of its body, for such artifacts kept whole rather than digested (validate keeps
   * a dataset's bodies up to a few MiB): the rule compares the targets' markdown with them, and digests
   * them only when they differ. An artifact is in this map or in `bodyDigests`, never both.
   */
  bodyBytes?: Map<string, Uint8Array>;
  /**
   * Artifact path → SHA-256 of its file, for the artifacts whose files are present but no longer match the manifest.
   */
  changedArtifacts: Map<string, string>;
  /**
   * Of `changedArtifacts`, those that match their pin once CR LF is read as LF (a Windows checkout with
   * core.autocrlf=true): not a change of the law, and `update` is not the fix.
   */
  lineEndingsOnly?: Set<string>;
  /** Artifacts the manifest lists whose files are not in the dataset folder. */
  missingArtifacts: string[];
  /** Markdown files in the dataset folder that the manifest does not list (nor ignores). */
  unlistedFiles: string[];
  /** Folders of the dataset folder that are other repositories (a submodule: they hold `.git`), not entered. */
  repositories?: string[];
  /** The dataset folder as shown in messages, when it is there. */
  datasetRoot?: string;
  /** The dataset root is one markdown file (a one-file dataset): datasetRoot then shows that file. */
  datasetRootIsFile?: boolean;
  /** Why the artifact checks were skipped, when they were: asked to (`--no-artifacts`, config `"artifacts": false`). */
  artifactsSkipped?: string;
  /** The dataset folder as shown in messages, when it is not there (moved or deleted): an error of lock-dataset-files. */
  datasetFolderMissing?: string;
  /** What is at the dataset root's place instead, when something is (`is a FIFO (named pipe), not a folder`). */
  datasetRootAbsence?: string;
  /**
   * What `generate` writes, citationAddress → the record (as serializeRecord writes it) and its place among the
   * records, when every artifact is there and matches its pin and the manifest's datasetDigest is its own
   * (lock-generated compares).
   */
  generated?: Map<string, { record: Readonly<Record<string, unknown>>; order: number }>;
  /** Why generate refuses the dataset although its artifacts match their pins (lock-generated says it). */
  generateFailed?: string;
  /**
   * Why some artifact checks could not run (a file or folder that cannot be read): the file checked gets an error,
   * never a pass.
   */
  artifactsFailed?: string;
  /**
   * Settles when the facts about the artifact files above (digests, missing, unlisted, skipped) are
   * filled in: they are gathered while the file is checked, and the rules read them only at the
   * end, so the caller awaits this before ending the check. Absent: the facts are there already.
   */
  ready?: Promise<void>;
}
