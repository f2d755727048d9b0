/**
 * Where a repository keeps its datasets' JSONL and lock manifests (relative to its root): constants only, so that the
 * command line's help can name them without loading files.ts (bench/RESULTS.md, start-up).
 */

/** What `validate` checks when no paths are named, relative to the repository root. */
export const DEFAULT_PATTERN = ".tooling/citation-targets/*.jsonl";
/** The folder of DEFAULT_PATTERN. */
export const DEFAULT_FOLDER = DEFAULT_PATTERN.slice(0, DEFAULT_PATTERN.lastIndexOf("/"));
/** The folder of a repository (from its root) where the JSONL files and their lock manifests live. */
export const MANIFEST_FOLDER = ".tooling/citation-targets";
/** The lock manifests `update` refreshes when none are named, relative to the repository root. */
export const DEFAULT_MANIFEST_PATTERN = `${MANIFEST_FOLDER}/*.lock.json`;
