import { describe, expect, it } from "vitest";
import type { WorkPool } from "../src/node/pool/pool.js";
import { MAIN_THREAD_PARSE_BYTES } from "../src/node/pool/thread-limits.js";
import { type ValidateTasks, validateInPool } from "../src/node/validate/validate-workers.js";

type Tasks = ValidateTasks<object, number, string>;

/**
 * A pool of one worker that answers each batch after the main thread has had a few turns (as a worker busy with a large
 * dataset would), recording what each side took.
 */
function fakePool(taken: number[][]): Promise<WorkPool<Tasks>> {
  return Promise.resolve({
    threads: 2,
    workers: 1,
    capped: false,
    async run(_name, task) {
      taken.push(task.items);
      for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      return task.items.map((item) => `worker ${item}`) as never; // the pool's generic answer type: this kind's reports
    },
    async close() {},
  });
}

describe("validate's threads share the files (validate-workers.ts)", () => {
  it("gives the workers the files of large datasets and the main thread the others, every report in input order", async () => {
    // Sizes in input order: a few large datasets and many small ones, mixed.
    const sizes = Array.from({ length: 200 }, (_, i) => (i % 40 === 7 ? 3_000_000 + i : 1_000 + ((i * 37) % 500)));
    const inputs = sizes.map((_, i) => i);
    const workerBatches: number[][] = [];
    const mainTook: number[] = [];
    const tasks: Tasks = {
      async validateFiles(task) {
        mainTook.push(...task.items);
        return task.items.map((item) => `main ${item}`);
      },
    };
    const { files, threads } = await validateInPool(inputs, {}, 2, sizes, tasks, undefined, fakePool(workerBatches));
    expect(threads).toBe(2);
    const workerTook = workerBatches.flat();
    // Every file checked once, by one side, and reported in its place.
    expect([...workerTook, ...mainTook].sort((a, b) => a - b)).toEqual(inputs);
    for (const [i, report] of files.entries())
      expect(report).toBe(`${workerTook.includes(i) ? "worker" : "main"} ${i}`);
    // The large files went to the worker: the main thread would hand a large dataset to a worker and wait for it.
    const large = inputs.filter((i) => sizes[i]! >= MAIN_THREAD_PARSE_BYTES);
    expect(large.length).toBeGreaterThan(0);
    expect(large.every((i) => workerTook.includes(i))).toBe(true);
    expect(mainTook.length).toBeGreaterThan(0);
    // The main thread took the small files largest first, one after another.
    const mainSizes = mainTook.map((i) => sizes[i]!);
    expect(mainSizes).toEqual([...mainSizes].sort((a, b) => b - a));
    expect(Math.max(...mainSizes)).toBeLessThan(MAIN_THREAD_PARSE_BYTES);
  });
});
