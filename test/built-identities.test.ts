/**
 * The caches' code identities as the build works them out (src/node/cache/built-identities.ts, written by
 * scripts/bundle-cli.js): the built command line reads them instead of hashing its modules each run, so they must be the
 * identities the modules as built give (code-identity.ts), and they stand only for the built code folder.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BUILT_IDENTITIES_FILE, builtIdentity, identityKey } from "../src/node/cache/built-identities.js";
import { computeCodeIdentity } from "../src/node/cache/code-identity.js";
import { UPDATE_CACHE_CODE } from "../src/node/cache/update-cache.js";
import { VALIDATE_CACHE_CODE } from "../src/node/cache/validate-cache.js";
import { codePath } from "../src/node/code-root.js";
import { RESOLVE_CACHE_CODE } from "../src/node/resolve/resolve.js";
import { repoRoot } from "./helpers/records.js";

const dist = join(repoRoot, "dist");

describe("the code identities the build works out", () => {
  test("are those of the caches' modules as built, one for each cache", async () => {
    const built = JSON.parse(await readFile(join(dist, BUILT_IDENTITIES_FILE), "utf8")) as Record<string, string>;
    const expected = Object.fromEntries(
      [UPDATE_CACHE_CODE, VALIDATE_CACHE_CODE, RESOLVE_CACHE_CODE].map((roots) => [
        identityKey(roots),
        computeCodeIdentity(roots, dist),
      ]),
    );
    expect(built).toEqual(expected);
    expect(new Set(Object.values(built)).size).toBe(3);
  });

  test("stand for the built code folder only: the sources, or another folder, work theirs out", () => {
    expect(builtIdentity(UPDATE_CACHE_CODE, codePath(""))).toBeUndefined(); // the suite runs the sources
    expect(builtIdentity(UPDATE_CACHE_CODE, dist)).toBeUndefined();
  });
});
