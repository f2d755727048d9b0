/**
 * The one choice of threads (chooseJobs in src/node/pool/pool.ts) that validate and generate share, each
 * with its policy: as asked but never more threads than pieces of work, and by default one per core
 * (at most the policy's most) only when there is enough work for threads to pay off.
 */
import { availableParallelism } from "node:os";
import { describe, expect, test } from "vitest";
import { chooseJobs } from "../src/node/pool/pool.js";
import { VALIDATE_NO_LOCK_THREADS, VALIDATE_THREADS } from "../src/node/validate/validate-workers.js";

const cores = availableParallelism();
const MiB = 2 ** 20;

describe("chooseJobs", () => {
  test.each([
    ["one piece of work is never split", 8, { items: 1, bytes: 100 * MiB }, 1],
    ["no work: one thread", undefined, { items: 0, bytes: 0 }, 1],
    ["as asked", 3, { items: 10, bytes: 0 }, 3],
    ["as asked, but no more threads than pieces", 8, { items: 2, bytes: 0 }, 2],
  ] as const)("%s", (_, asked, work, expected) => {
    expect(chooseJobs(asked, work, { fromBytes: 4 * MiB })).toBe(expected);
  });

  test("by default, one per core from the policy's bytes or items, at most its most; else one", () => {
    const validate = { fromItems: 200, fromBytes: 32 * MiB };
    expect(chooseJobs(undefined, { items: 199, bytes: 32 * MiB - 1 }, validate)).toBe(1);
    expect(chooseJobs(undefined, { items: 200, bytes: 0 }, validate)).toBe(Math.min(cores, 200));
    expect(chooseJobs(undefined, { items: 2, bytes: 32 * MiB }, validate)).toBe(Math.min(cores, 2));
    // validate's own: with lock manifests from 200 files; without (--no-lock), a file is less work, from 5,000 or 64 MiB
    // (a law's JSONL of ~45 KB: 1,000 of them are 43 MB, checked faster on one thread).
    expect(chooseJobs(undefined, { items: 1_000, bytes: 43 * MiB }, VALIDATE_THREADS)).toBe(Math.min(cores, 1_000));
    expect(chooseJobs(undefined, { items: 1_000, bytes: 43 * MiB }, VALIDATE_NO_LOCK_THREADS)).toBe(1);
    expect(chooseJobs(undefined, { items: 2_200, bytes: 94 * MiB }, VALIDATE_NO_LOCK_THREADS)).toBe(
      Math.min(cores, 2_200),
    );
    expect(chooseJobs(undefined, { items: 6_636, bytes: 0 }, VALIDATE_NO_LOCK_THREADS)).toBe(Math.min(cores, 6_636));
    const generate = { fromBytes: 4 * MiB, most: 4 };
    expect(chooseJobs(undefined, { items: 10_000, bytes: 4 * MiB - 1 }, generate)).toBe(1);
    expect(chooseJobs(undefined, { items: 10_000, bytes: 4 * MiB }, generate)).toBe(Math.min(cores, 4));
  });
});
