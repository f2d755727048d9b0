/**
 * A dataset's root (docs/spec.md, section 8, "One-file datasets"): a folder, whose markdown files are the artifacts, or
 * one markdown file (a `datasetRoot` whose name ends in `.md`), the dataset's one artifact. The artifact paths are
 * relative to the folder (for a file root, the folder that holds it), so that an act has the same addresses whether it
 * is a folder of one file or a file root.
 */
import { statSync } from "node:fs";
import { basename, dirname } from "node:path";

/** True when a dataset root (a path, or a manifest's `datasetRoot`) names one markdown file. */
export function isFileRoot(root: string): boolean {
  return root.endsWith(".md");
}

/** The folder the artifact paths of a dataset root are relative to, and the file a file root names. */
export function rootParts(root: string): { folder: string; file?: string } {
  return isFileRoot(root) ? { folder: dirname(root), file: basename(root) } : { folder: root };
}

/** True when the dataset root is there: the folder, or the file a file root names. */
export function rootPresent(root: string): boolean {
  const info = statSync(root, { throwIfNoEntry: false });
  return (isFileRoot(root) ? info?.isFile() : info?.isDirectory()) ?? false;
}

/** What a dataset root is called in messages: "dataset folder", or "dataset file" for a file root. */
export function rootNoun(root: string): string {
  return isFileRoot(root) ? "dataset file" : "dataset folder";
}
