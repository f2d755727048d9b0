/**
 * The name of a lock manifest kept inside its dataset folder (docs/spec.md, section 8): apart from manifest.ts, so that
 * the command line's help names it without loading the manifest's code (bench/RESULTS.md, start-up).
 */
export const DEFAULT_MANIFEST_NAME = "citation-targets.lock.json";
