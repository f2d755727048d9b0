/**
 * The young generation a pool's workers are given (pool.ts, `youngMb`): update's pool for the artifacts of a few large
 * datasets gives ARTIFACT_BATCH_YOUNG_MB, every other pool WORKER_LIMITS'; the old generation is the same either way.
 * And the tasks the single capped worker holds at once (direct-worker.ts, `tasksAtOnce`).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { DirectWorker } from "../src/node/pool/direct-worker.js";
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

test.each([
  [undefined, 2],
  [5, 5],
])(
  "tasksAtOnce %s: the single capped worker is sent %s tasks at once, the others wait in this thread",
  async (tasksAtOnce, held) => {
    const built = pathToFileURL(join(repoRoot, "dist/node/pool/worker.js")); // npm test builds first
    const worker = new DirectWorker("parseBatch", false, {
      ...(tasksAtOnce !== undefined ? { tasksAtOnce } : {}),
      script: built,
    });
    try {
      const task = { artifacts: [], contents: [], limits: {}, units: false, head: { datasetDigest: "", slug: "x" } };
      const runs = Array.from({ length: 7 }, () => worker.run(task, { name: "parseBatch" }));
      const state = worker as unknown as { running: Map<number, unknown>; queue: unknown[] };
      expect(state.running.size).toBe(held);
      expect(state.queue.length).toBe(7 - held);
      expect(await Promise.all(runs)).toEqual(Array.from({ length: 7 }, () => []));
      expect(state.running.size + state.queue.length).toBe(0);
    } finally {
      await worker.destroy();
    }
  },
);

test("a direct worker that stops fails the task it was running; the ones it held go to the next, or fail as never started when their bytes moved to it", async () => {
  const script = pathToFileURL(join(repoRoot, "test/helpers/direct-stop-worker.mjs"));
  const worker = new DirectWorker("", false, { tasksAtOnce: 8, script });
  try {
    const moved = new ArrayBuffer(8);
    const outcomes = await Promise.allSettled([
      worker.run({ value: 1 }, { name: "t" }),
      worker.run({ stop: true }, { name: "t" }),
      worker.run({ value: 3 }, { name: "t" }),
      worker.run({ value: 4, moved }, { name: "t", transferList: [moved] }),
      worker.run({ value: 5 }, { name: "t" }),
    ]);
    expect(outcomes[0]).toEqual({ status: "fulfilled", value: 1 });
    expect(outcomes[1]).toMatchObject({
      status: "rejected",
      reason: { message: expect.stringMatching(/exited with code 3/) },
    });
    // Held, not started, nothing moved: run by the worker that took its place.
    expect(outcomes[2]).toEqual({ status: "fulfilled", value: 3 });
    expect(outcomes[3]).toMatchObject({ status: "rejected", reason: { code: "ERR_WORKER_TASK_NOT_STARTED" } });
    expect(outcomes[4]).toEqual({ status: "fulfilled", value: 5 });
  } finally {
    await worker.destroy();
  }
});
