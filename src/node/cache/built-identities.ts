/**
 * The code identities of the caches as the build worked them out (code-identity.ts): scripts/bundle-cli.js writes them
 * to `dist/node/cache/code-identities.json` as it bundles the command line, from the same modules, so that a run reads
 * one small file instead of hashing about a hundred modules and reading the packages' versions (bench/RESULTS.md,
 * start-up). They stand for the code the bundle was made from, which is the code the command line runs; a build that
 * changes that code writes them again. The test suite runs the sources, which have no such file: the identity is then
 * worked out from the files, as for a code folder other than the built one.
 */
import { readFileSync } from "node:fs";
import { codePath, fromSources } from "../code-root.js";

/** The file, by its path from the code's folder. */
export const BUILT_IDENTITIES_FILE = "node/cache/code-identities.json";

/** The key of a set of roots in the file. */
export const identityKey = (roots: readonly string[]): string => roots.join("\n");

let built: Record<string, string> | null | undefined;

/** The identity the build worked out for `roots` in the built code folder; undefined elsewhere or when there is none. */
export function builtIdentity(roots: readonly string[], root: string): string | undefined {
  if (fromSources || root !== codePath("")) return undefined;
  if (built === undefined) {
    try {
      built = JSON.parse(readFileSync(codePath(BUILT_IDENTITIES_FILE), "utf8")) as Record<string, string>;
    } catch {
      built = null; // not built by scripts/bundle-cli.js: worked out from the files
    }
  }
  const identity = built?.[identityKey(roots)];
  return typeof identity === "string" && /^[0-9a-f]{64}$/.test(identity) ? identity : undefined;
}
