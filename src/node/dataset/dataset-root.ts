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

/**
 * The fault of a dataset whose root is not the dataset's (rootAbsence says why), as update and generate say it: named
 * by the manifest, with the fix (`then`: what to run once it is fixed, "run update again").
 */
export function rootProblem(
  named: string,
  absence: string,
  manifest: { shown: string; datasetRoot: string | undefined; shownRoot: string },
  then: string,
): string {
  const said = `${manifest.shown}: its ${rootNoun(named)} ${manifest.shownRoot || "."} (datasetRoot ${JSON.stringify(manifest.datasetRoot ?? ".")}) ${absence}`;
  const kind = isFileRoot(named) ? "FILE" : "FOLDER";
  return absence === "is not there"
    ? `${said}: if the law's ${kind.toLowerCase()} moved or was renamed, point the manifest at its new place with \`citation-targets adopt --move NEW-${kind}\` (${kind === "FILE" ? "its slug kept, and its addresses unless the file's name changed: the name is in each" : "its slug and addresses kept"}; or \`citation-targets lock NEW-${kind} -o ${manifest.shown}\`), then ${then}; if the law was withdrawn, remove the manifest and its JSONL (git rm)`
    : `${said}: a dataset root is a folder of markdown files or one markdown file; put the law there, or set datasetRoot in ${manifest.shown} to where it is`;
}
