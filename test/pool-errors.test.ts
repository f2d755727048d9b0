/**
 * What Piscina says on the pool's 'error' event, which, unheard, ends the process with an uncaught exception (exit 1,
 * the code of a failed gate, and a stack trace; vitest fails a test file on one): a worker that stops while it runs no
 * task (one that fails as it starts), whose error the run's next task fails with (exit 2, said); and the answers of
 * tasks that arrive after the pool was closed under them, as a run that stops at an error closes it ("Unexpected
 * message from Worker": `diff --jobs 2` exited 1 now and then where it must exit 2).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { expect, test } from "vitest";
import { createPool } from "../src/node/pool/pool.js";
import { OperationalError } from "../src/node/errors.js";
import { repoRoot } from "./helpers/records.js";

test("workers that fail as they start, before any task: the task fails with their error, and nothing is uncaught", async () => {
  const tasks = { echo: async (task: number) => task };
  const pool = await createPool(2, tasks, {
    warm: "echo",
    script: pathToFileURL(join(repoRoot, "test/helpers/idle-failing-worker.mjs")),
  });
  try {
    expect(pool.workers).toBe(2);
    await sleep(500); // both workers have failed
    const next = pool.run("echo", 2);
    await expect(next).rejects.toBeInstanceOf(OperationalError);
    await expect(next).rejects.toThrow(/a worker thread stopped: thrown as the worker starts/);
  } finally {
    await pool.close();
  }
});

test("a pool closed while its workers still answer tasks: nothing is uncaught", async () => {
  // Closed after the 50th of 400 answers, the pool got an answer after it was closed in about half the rounds here.
  for (let round = 0; round < 20; round++) {
    const pool = await createPool(
      2,
      { echo: async (task: number) => task },
      { warm: "echo", script: pathToFileURL(join(repoRoot, "test/helpers/echo-worker.mjs")) },
    );
    // Both workers loaded first: Node 20 can stop with a fatal error (v8::Module::IsGraphAsync, the worker's require of
    // the ES module entry) when a worker is terminated while it loads it, which is not what this test is about.
    await sleep(150);
    const answers = Array.from({ length: 400 }, (_, i) => pool.run("echo", i));
    for (const answer of answers) answer.catch(() => undefined);
    expect(await answers[50]).toBe(50);
    await pool.close();
  }
});
