// A signal while worker threads write: the main thread removes the run's temporary files only once no thread can
// create another (src/node/writes/interrupted-writes.ts, the gate); before, a worker's file made after the main
// thread's look was left behind (a CI run of "SIGINT while update writes (--jobs 2)" found one).
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const race = join(repoRoot, "test/helpers/temporaries-race.mjs");

/** Runs the race once: how the process ended, and the temporary files left in the folder. */
async function runRace(ungated: boolean): Promise<{ signal: NodeJS.Signals | null; left: string[] }> {
  const child = spawn(process.execPath, [race, dir], {
    env: { ...process.env, RACE_UNGATED: ungated ? "1" : "0" },
    stdio: "ignore",
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
  const left = (await readdir(dir)).filter((name) => name.endsWith(".tmp"));
  return { signal, left };
}

describe("SIGINT while two worker threads create temporary files without pause", () => {
  test("each of five runs ends by the signal and leaves none of them", async () => {
    for (let run = 0; run < 5; run++) expect(await runRace(false)).toEqual({ signal: "SIGINT", left: [] });
  }, 60_000);

  test("the control: workers outside the gate leave files made after the main thread's look", async () => {
    let left = 0;
    for (let run = 0; run < 5 && left === 0; run++) left += (await runRace(true)).left.length;
    expect(left).toBeGreaterThan(0);
  }, 60_000);
});
