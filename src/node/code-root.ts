/**
 * Where this package's code is: `dist/` as built, `src/` when the test suite runs the TypeScript sources. A module
 * that found a file of the package (the worker script, a precompiled validator, the modules a cache hashes,
 * package.json) by its own place would find another once bundled, since scripts/bundle-cli.js puts the command line
 * and what it imports in one file of `dist/node/`: every such path is taken from here, and this module sits in
 * `dist/node/` bundled or not.
 */
import { fileURLToPath } from "node:url";

/** The folder of the code (`dist/` or `src/`), with a final slash. */
export const codeRoot: URL = new URL("../", import.meta.url);

/** A file of the code by its path from `dist/` (or `src/`), such as `node/worker.js`. */
export function codeFile(path: string): URL {
  return new URL(path, codeRoot);
}

/** The same as a path of the file system. */
export function codePath(path: string): string {
  return fileURLToPath(codeFile(path));
}

/** True when the code runs as TypeScript sources (the test suite), false as built. */
export const fromSources: boolean = import.meta.url.endsWith(".ts");
