/**
 * validate's capped checks (src/node/validate/capped-checks.ts): a file whose dataset is too large for the main thread
 * is checked first in a worker of 1 GiB (the records generate writes made as the file is read); when that worker runs
 * out of memory (a file far from those records has every one held), again in one sized for the dataset. The pool is a
 * fake here: what is under test is which heaps are tried, in which order, and what the caller gets.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { WORKER_LIMITS } from "../src/node/pool/thread-limits.js";

const started: number[] = [];
let outcome: (heapMb: number) => unknown;

vi.mock("../src/node/pool/pool.js", async (original) => {
  const actual = await original<typeof import("../src/node/pool/pool.js")>();
  return {
    ...actual,
    createPool: async (_threads: number, _tasks: unknown, options: { heapMb: number }) => {
      started.push(options.heapMb);
      return {
        workers: 1,
        run: async () => {
          const result = outcome(options.heapMb);
          if (result instanceof Error) throw result;
          return result;
        },
        close: async () => undefined,
      };
    },
  };
});

const { cappedChecks } = await import("../src/node/validate/capped-checks.js");
const { WorkerMemoryError } = await import("../src/node/pool/pool.js");

const REPORT = { report: { path: "big.jsonl", records: 1, problems: [], unstored: { errors: 0, warnings: 0 } } };
const input = { absolute: "/x/big.jsonl", display: "big.jsonl" };
/** 150 MB of markdown: a heap of 40 bytes a byte of it, far above 1 GiB. */
const LARGE = 150 * 2 ** 20;
const LARGE_HEAP = Math.ceil((40 * LARGE) / 2 ** 20);

afterEach(() => {
  started.length = 0;
});

describe("the capped checks of a large dataset", () => {
  test("a file the 1 GiB worker checks: one worker, of 1 GiB", async () => {
    outcome = () => [REPORT];
    const checks = cappedChecks({ cwd: "/x" }, () => undefined);
    expect(await checks.elsewhere(input, LARGE)).toEqual(REPORT);
    expect(started).toEqual([WORKER_LIMITS.maxOldGenerationSizeMb]);
  });

  test("the 1 GiB worker runs out of memory: checked again in one sized for the dataset, whose report is returned", async () => {
    outcome = (heapMb) => (heapMb === WORKER_LIMITS.maxOldGenerationSizeMb ? new WorkerMemoryError(heapMb) : [REPORT]);
    const checks = cappedChecks({ cwd: "/x" }, () => undefined);
    expect(await checks.elsewhere(input, LARGE)).toEqual(REPORT);
    expect(started).toEqual([WORKER_LIMITS.maxOldGenerationSizeMb, LARGE_HEAP]);
  });

  test("both run out of memory: the outcome names the larger heap, never a pass", async () => {
    outcome = (heapMb) => new WorkerMemoryError(heapMb);
    const checks = cappedChecks({ cwd: "/x" }, () => undefined);
    const result = await checks.elsewhere(input, LARGE);
    expect(result).toEqual({ outOfMemory: expect.stringContaining(`capped at ${LARGE_HEAP} MiB`) });
    expect(started).toEqual([WORKER_LIMITS.maxOldGenerationSizeMb, LARGE_HEAP]);
  });

  test("a dataset that fits 1 GiB: one try only; another error is thrown on", async () => {
    outcome = (heapMb) => new WorkerMemoryError(heapMb);
    const small = cappedChecks({ cwd: "/x" }, () => undefined);
    expect(await small.elsewhere(input, 2 ** 20)).toEqual({
      outOfMemory: expect.stringContaining("capped at 1024 MiB"),
    });
    expect(started).toEqual([WORKER_LIMITS.maxOldGenerationSizeMb]);
    outcome = () => new RangeError("a bug");
    await expect(cappedChecks({ cwd: "/x" }, () => undefined).elsewhere(input, LARGE)).rejects.toThrow("a bug");
  });
});
