/**
 * The young generation a pool's workers are given (pool.ts, `youngMb`): update's pool for the artifacts of a few large
 * datasets gives ARTIFACT_BATCH_YOUNG_MB, every other pool WORKER_LIMITS'; the old generation is the same either way.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { createPool } from "../src/node/pool/pool.js";
import { ARTIFACT_BATCH_YOUNG_MB, WORKER_LIMITS } from "../src/node/pool/thread-limits.js";
import { repoRoot } from "./helpers/records.js";

const script = pathToFileURL(join(repoRoot, "test/helpers/limits-worker.mjs"));
const tasks = { limits: async () => ({}) as Record<string, number> };

test.each([
  [undefined, WORKER_LIMITS.maxYoungGenerationSizeMb],
  [ARTIFACT_BATCH_YOUNG_MB, ARTIFACT_BATCH_YOUNG_MB],
])("youngMb %s: the workers' young generation is %s MB", async (youngMb, expected) => {
  const pool = await createPool(2, tasks, { script, ...(youngMb !== undefined ? { youngMb } : {}) });
  try {
    const limits = await pool.run("limits", undefined as never);
    expect(limits.maxYoungGenerationSizeMb).toBe(expected);
    expect(limits.maxOldGenerationSizeMb).toBe(WORKER_LIMITS.maxOldGenerationSizeMb);
  } finally {
    await pool.close();
  }
});
