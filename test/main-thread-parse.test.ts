/**
 * generate of less than MAIN_THREAD_PARSE_BYTES of markdown in one thread parses in the main thread rather than start a
 * capped worker (src/node/pool/thread-limits.ts; docs/spec.md, section 13, "heap of the threads that parse markdown"):
 * the caps bound what such a parse holds. The hostile inputs of issue 32, item 7, cut down to fit under the budget, are
 * still refused, or parse within a small heap, in the main thread; the built bin runs them as a user does.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { lock } from "../src/node/dataset/lock.js";
import { MAIN_THREAD_PARSE_BYTES } from "../src/node/pool/thread-limits.js";
import { runBin } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const META = {
  slug: "t",
  titleId: "T",
  name: "T",
  versionDate: "2024-01-01",
  sourceTextUrl: "https://www.legislation.gov.au/T/text",
};

/** Locks one artifact of `text` as `d.lock.json`; its size, which must be under the budget. */
async function lockOne(text: string): Promise<number> {
  await writeTree(dir, { "d/index.md": text });
  await lock({ dir: join(dir, "d"), ...META, output: join(dir, "d.lock.json") });
  const bytes = Buffer.byteLength(text);
  expect(bytes).toBeLessThan(MAIN_THREAD_PARSE_BYTES);
  return bytes;
}

// The main thread's heap at 256 MiB (a V8 flag: the workers' too); or every worker's at 16 MiB
// (test/helpers/small-worker-heap.mjs).
const env = { NODE_OPTIONS: "--max-old-space-size=256" };
const small = join(repoRoot, "test/helpers/small-worker-heap.mjs");
const smallWorkers = { NODE_OPTIONS: `--import=${small}`, SMALL_WORKER_HEAP_MB: "16" };

describe("generate under MAIN_THREAD_PARSE_BYTES parses in the main thread, bounded by the caps", () => {
  test("2,000 nested > then 50,000 lines is refused by the cap on depth times lines, named", async () => {
    await lockOne(`# Q\n\n${">".repeat(2000)} a\n${"b\n".repeat(50_000)}`);
    const run = await runBin(["generate", "d.lock.json"], dir, env);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("index.md: block quotes nested");
    expect(run.stderr).toContain("their depth times lines is more than 2000000, the cap");
  });

  test("flow-style YAML front matter under the budget, its cap raised, parses within a main thread's heap of 256 MiB", async () => {
    await lockOne(`---\nk: [${"[a], ".repeat(20_000)}a]\n---\n# d\n\n## § 1 Eins\n\nText.\n`);
    const run = await runBin(["generate", "d.lock.json", "--max-front-matter-bytes", "4000000"], dir, env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(2);
  });

  test("over the budget, such front matter goes to a capped worker, which runs out of memory and names the dataset", async () => {
    const text = `---\nk: [${"[a], ".repeat(50_000)}a]\n---\n# d\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAIN_THREAD_PARSE_BYTES);
    await writeTree(dir, { "d/index.md": text });
    await lock({ dir: join(dir, "d"), ...META, output: join(dir, "d.lock.json") });
    const run = await runBin(["generate", "d.lock.json", "--max-front-matter-bytes", "4000000"], dir, smallWorkers);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("d.lock.json: a worker thread ran out of memory (its heap is capped at");
  });
});
