/**
 * A worker that stops while it runs no task (one that fails as it starts): Piscina says so on the pool's 'error' event, which, unheard, ends the
 * process with an uncaught exception (exit 1, the code of a failed gate, and a stack trace). The pool hears it and the
 * run's next task fails with a worker's error (exit 2, said).
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
