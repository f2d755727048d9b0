/**
 * What `update`'s cache proves to `validate` (docs/spec.md, "Worker threads and the cache", item 9): its entry for a
 * lock manifest holds, under a key made of the generator's identity, the limits and the manifest's bytes, the SHA-256
 * of the JSONL that generation wrote from them. A JSONL checked against a manifest with exactly those bytes, every
 * artifact matching its pin, is what `generate` writes when its own bytes have that digest: `lock-generated` then has
 * nothing to say, and validate spares generating the dataset again (the pre-commit hook after `update`, bench/RESULTS.md).
 * Any other outcome (no entry, another key, other bytes) and validate generates as without it.
 */
import { statSync } from "node:fs";
import { cacheKey, openCache } from "./update-cache.js";

/** The digest of the JSONL the cache proves `generate` writes from this manifest (absolute path, bytes), if any. */
export type GeneratedProof = (manifestPath: string, manifestText: string) => string | undefined;

/**
 * update's cache at `path` (its default place) as proofs; undefined when there is no such file or it cannot be read.
 * Validate generates with the default limits, so only entries made with them count.
 */
export function openGeneratedProof(path: string): GeneratedProof | undefined {
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
  let cache: ReturnType<typeof openCache>;
  try {
    cache = openCache(path);
  } catch {
    return undefined; // not a cache validate may read: it generates as without it
  }
  return (manifestPath, manifestText) => {
    const entry = cache.get(manifestPath);
    return entry !== undefined && entry.key === cacheKey(cache.generator, manifestText, {}) ? entry.output : undefined;
  };
}
