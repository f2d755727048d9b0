/**
 * `update --jobs 1` of several datasets hands them whole to the one capped worker every parse needs (update.ts,
 * `wholeDatasets`; docs/spec.md, "Worker threads"), as `--jobs 2` hands them to two: taking them in turn in the main
 * thread, each one's artifacts parsed in that worker, cost a round trip a dataset (6,636 laws: 10.8 s against 4.7 s).
 * The built library runs (`npm test` builds first), so that its pool starts the real worker (from the sources there is
 * no worker script, and everything runs in this thread); a stand-in of createPool records the pool's options and the
 * tasks sent to its worker. The reports are those of the datasets taken in turn by the main thread.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { tempDir, writeTree } from "./helpers/datasets.js";

const pools: { threads: number; warm?: string; capped?: boolean; workers: number; tasks: string[] }[] = [];
vi.mock("../dist/node/pool/pool.js", async (original) => {
  const real = await original<typeof import("../dist/node/pool/pool.js")>();
  return {
    ...real,
    createPool: async (threads: number, tasks: never, options: { warm?: string; capped?: boolean } = {}) => {
      const pool = await real.createPool(threads, tasks, options);
      const seen = {
        threads,
        warm: options.warm,
        capped: options.capped,
        workers: pool.workers,
        tasks: [] as string[],
      };
      pools.push(seen);
      return {
        ...pool,
        run: (name: string, task: unknown, transfer?: unknown) => {
          if (!seen.tasks.includes(name)) seen.tasks.push(name);
          return (pool.run as unknown as (...args: unknown[]) => Promise<unknown>)(name, task, transfer);
        },
      };
    },
  };
});

const { lock } = await import("../dist/node/dataset/lock.js");
const { update } = await import("../dist/node/update/update.js");

let repo: string;
let cleanup: () => Promise<void>;
const SLUGS = ["law-a", "law-b", "law-c"];

beforeAll(async () => {
  ({ dir: repo, cleanup } = await tempDir());
  const files: Record<string, string> = { ".git/HEAD": "ref: refs/heads/main\n" };
  for (const [i, slug] of SLUGS.entries())
    files[`laws/${slug}/index.md`] =
      `# Gesetz ${i}\n\n## § 1 Zweck\n\nText ${i}.\n\n## § 2 Begriffe\n\n1. eins,\n2. zwei.\n`;
  await writeTree(repo, files);
  for (const [i, slug] of SLUGS.entries())
    await lock({
      dir: join(repo, "laws", slug),
      cwd: repo,
      output: join(repo, ".tooling/citation-targets", `${slug}.lock.json`),
      slug,
      titleId: `G${i}`,
      name: `Gesetz ${i}`,
      versionDate: "2024-12-31",
      sourceTextUrl: `https://www.legislation.gov.au/G${i}/2024-12-31/text`,
    });
});

afterAll(async () => {
  await cleanup();
});

test("with --jobs 1, several datasets go whole to the one capped worker, with the reports of datasets taken in turn", async () => {
  pools.length = 0;
  const one = await update({ cwd: repo, check: true, jobs: 1, cache: false });
  // One worker, sent the datasets whole.
  expect(pools).toEqual([{ threads: 1, warm: "updateDatasets", capped: true, workers: 1, tasks: ["updateDatasets"] }]);
  pools.length = 0;
  const two = await update({ cwd: repo, check: true, jobs: 2, cache: false });
  // Three datasets are fewer than two a thread: with --jobs 2 this thread takes them in turn, the workers parsing.
  expect(pools).toEqual([{ threads: 2, warm: undefined, capped: true, workers: 2, tasks: ["artifactBatch"] }]);
  expect(one).toEqual(two);
  expect(one.map((result) => result.slug)).toEqual(SLUGS);
  for (const result of one) {
    expect(result.records.after).toBeGreaterThan(2); // the law's heading and its two sections at least
    expect(result.outputChanged).toBe(true); // no JSONL yet: each would be written
  }
});

test("one dataset is taken in the main thread, its artifacts parsed by the capped worker, with the same report", async () => {
  pools.length = 0;
  const manifest = join(repo, ".tooling/citation-targets/law-b.lock.json");
  const alone = await update({ cwd: repo, check: true, jobs: 1, cache: false, manifests: [manifest] });
  expect(pools).toEqual([{ threads: 1, warm: undefined, capped: true, workers: 1, tasks: ["artifactBatch"] }]);
  const whole = await update({ cwd: repo, check: true, jobs: 1, cache: false });
  expect(alone).toEqual(whole.filter((result) => result.slug === "law-b"));
});
