/**
 * createPool hands the single capped worker its options (pool.ts, `direct`): the heap, the tasks it holds at once
 * (`tasksAtOnce`, which generate sets: docs/spec.md, section 9) and the script. The worker is replaced by a stand-in that
 * keeps what it was made with.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, vi } from "vitest";
import { repoRoot } from "./helpers/records.js";

const made: unknown[][] = [];
vi.mock("../src/node/pool/direct-worker.js", () => ({
  DirectWorker: class {
    constructor(...args: unknown[]) {
      made.push(args);
    }
    async run() {
      return "ran";
    }
    async destroy() {}
  },
}));

const { createPool } = await import("../src/node/pool/pool.js");

test.each([
  [undefined, undefined],
  [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
  [5, 5],
])("tasksAtOnce %s reaches the single capped worker as %s", async (tasksAtOnce, expected) => {
  made.length = 0;
  const script = pathToFileURL(join(repoRoot, "test/helpers/direct-stop-worker.mjs")); // any file there: the pool is built
  const pool = await createPool(
    1,
    { t: async () => "here" },
    {
      capped: true,
      warm: "t",
      heapMb: 512,
      script,
      ...(tasksAtOnce !== undefined ? { tasksAtOnce } : {}),
    },
  );
  try {
    expect(await pool.run("t", undefined as never)).toBe("ran"); // by the worker, not in this thread
    expect(made).toHaveLength(1);
    expect(made[0]![0]).toBe("t");
    expect(made[0]![2]).toEqual({ heapMb: 512, tasksAtOnce: expected, script });
  } finally {
    await pool.close();
  }
});
