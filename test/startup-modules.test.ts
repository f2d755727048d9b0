/**
 * Issue 32, item 7 (start-up): the main thread of `generate` and `lock` does not load the YAML parser (nor the markdown
 * parser, which is imported beside it): `lock` never parses, and `generate` parses only in its capped worker
 * (src/core/records/parse-artifact.ts is imported on demand). The built bin, each thread's CommonJS loads recorded by
 * test/helpers/record-requires.cjs; the worker's loads show that the recording sees the parser where it is loaded.
 */
import { cp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

const preload = join(repoRoot, "test/helpers/record-requires.cjs");

/** Runs the built bin with the recording; the packages each thread loaded (thread 0 is the main thread). */
async function packagesByThread(args: string[], cwd: string, name: string) {
  const record = join(dir, `${name}.txt`);
  await rm(record, { force: true });
  const run = await runCommand(process.execPath, ["--require", preload, bin, ...args], cwd, {
    RECORD_REQUIRES: record,
  });
  const threads = new Map<string, Set<string>>();
  for (const line of (await readFile(record, "utf8").catch(() => "")).split("\n").filter(Boolean)) {
    const [thread, path] = [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1)];
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (name === undefined) continue;
    if (!threads.has(thread)) threads.set(thread, new Set());
    threads.get(thread)!.add(name);
  }
  return { run, main: threads.get("0") ?? new Set<string>(), workers: [...threads].filter(([t]) => t !== "0") };
}

describe("the main thread loads no parser it does not use", () => {
  test("generate --check: the YAML parser is loaded in the capped worker only", async () => {
    const { run, main, workers } = await packagesByThread(
      ["generate", ".tooling/citation-targets/mvfg.lock.json", "--check", ".tooling/citation-targets/mvfg.jsonl"],
      repoRoot,
      "generate",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(main.has("commander")).toBe(true); // the recording sees the main thread's packages
    expect(main.has("yaml")).toBe(false);
    expect(workers).toHaveLength(1);
    expect(workers[0]![1].has("yaml")).toBe(true);
  });

  test("lock: no YAML parser in any thread", async () => {
    await cp(join(repoRoot, "fixtures/datasets/example-act"), join(dir, "example-act"), { recursive: true });
    const { run, main, workers } = await packagesByThread(["lock", "example-act"], dir, "lock");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("unchanged");
    expect(main.has("commander")).toBe(true);
    expect(main.has("yaml")).toBe(false);
    expect(workers).toHaveLength(0);
  });
});
