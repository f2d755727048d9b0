/**
 * `npm pack` of this checkout, one at a time across the test files of a run: a pack rebuilds `dist/` and rewrites
 * `package.json` for a moment (scripts/pack-manifest.js), so two packs at once could put the other's manifest into a
 * tarball. The lock is a folder made atomically beside the checkout's `node_modules`; one left by a killed run is
 * taken over after ten minutes.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { runCommand } from "./bin.js";
import { repoRoot } from "./records.js";

const LOCK = join(repoRoot, "node_modules", ".citation-targets-pack.lock");
const STALE_MS = 10 * 60_000;

/** Packs the checkout into `destination`; the result of `npm pack` (its standard output ends with the tarball's name). */
export async function packCheckout(destination: string): Promise<Awaited<ReturnType<typeof runCommand>>> {
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const since = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > STALE_MS) await rm(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await runCommand("npm", ["pack", "--pack-destination", destination], repoRoot);
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}
