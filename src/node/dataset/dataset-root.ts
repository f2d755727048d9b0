/**
 * A dataset's root (docs/spec.md, section 8, "One-file datasets"): a folder, whose markdown files are the artifacts, or
 * one markdown file (a `datasetRoot` whose name ends in `.md`), the dataset's one artifact. The artifact paths are
 * relative to the folder (for a file root, the folder that holds it), so that an act has the same addresses whether it
 * is a folder of one file or a file root.
 */
import { statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { fileKind } from "../files/regular-file.js";

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
  return rootAbsence(root) === undefined;
}

/**
 * Why a dataset root is not a dataset's, in words that follow its name: "is not there", or what it is instead ("is a
 * FIFO (named pipe), not a folder"); undefined when it is the folder, or the file a file root names.
 */
export function rootAbsence(root: string): string | undefined {
  const info = statSync(root, { throwIfNoEntry: false });
  if (info === undefined) return "is not there";
  const file = isFileRoot(root);
  if (file ? info.isFile() : info.isDirectory()) return undefined;
  return `is ${info.isFile() ? "a file" : fileKind(info)}, not ${file ? "a markdown file" : "a folder"}`;
}

/** What a dataset root is called in messages: "dataset folder", or "dataset file" for a file root. */
export function rootNoun(root: string): string {
  return isFileRoot(root) ? "dataset file" : "dataset folder";
}
