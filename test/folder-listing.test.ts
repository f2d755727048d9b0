// Listings kept for a run that writes nothing into what it lists (src/node/files/folder-listing.ts): before
// keepListings a folder is listed afresh each time; while kept, once (with types) and by names from that listing, or
// once by names; after the run's end (endListings, which the command line calls as each command ends), afresh again.
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { endListings, keepListings, listFolder, listNames } from "../src/node/files/folder-listing.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const typed = () =>
  listFolder(dir)
    .map((entry) => entry.name)
    .sort();

test("a folder is listed afresh until listings are kept, then once for the run, and afresh after it", () => {
  writeFileSync(join(dir, "a.lock.json"), "{}");
  expect(typed()).toEqual(["a.lock.json"]);
  writeFileSync(join(dir, "a.jsonl"), "");
  expect(typed()).toEqual(["a.jsonl", "a.lock.json"]); // not kept: listed again
  expect(listNames(dir).sort()).toEqual(["a.jsonl", "a.lock.json"]);
  keepListings();
  const kept = listFolder(dir);
  writeFileSync(join(dir, "b.lock.json"), "{}");
  expect(listFolder(dir)).toBe(kept); // kept: the run's listing
  expect(listFolder(`${relative(process.cwd(), dir)}/`)).toBe(kept); // the same folder by another path
  // Names from the kept listing with types: the run's view, not the folder's now.
  expect(listNames(dir).sort()).toEqual(["a.jsonl", "a.lock.json"]);
  expect(() => listFolder(join(dir, "missing"))).toThrow(/ENOENT/);
  endListings();
  // The run over: listed afresh (a later run in the same process sees the folder as it is).
  expect(typed()).toEqual(["a.jsonl", "a.lock.json", "b.lock.json"]);
  expect(listNames(dir).sort()).toEqual(["a.jsonl", "a.lock.json", "b.lock.json"]);
});

test("names listed first are kept too, and a listing with types is made once after them", () => {
  writeFileSync(join(dir, "a.lock.json"), "{}");
  keepListings();
  try {
    const names = listNames(dir);
    writeFileSync(join(dir, "b.lock.json"), "{}");
    expect(listNames(dir)).toBe(names);
    expect(names).toEqual(["a.lock.json"]);
    // Types were not read with the names: listed once with them (the folder as it is then), and kept.
    const withTypes = listFolder(dir);
    expect(withTypes.map((entry) => entry.name).sort()).toEqual(["a.lock.json", "b.lock.json"]);
    expect(listFolder(dir)).toBe(withTypes);
  } finally {
    endListings();
  }
});

test("two validate runs in one process: the second sees the folder as it is (a JSONL removed between them)", async () => {
  const { cp, rm } = await import("node:fs/promises");
  const { runMain } = await import("./helpers/in-process.js");
  const { repoRoot } = await import("./helpers/records.js");
  await cp(join(repoRoot, ".tooling"), join(dir, ".tooling"), { recursive: true });
  await cp(join(repoRoot, "fixtures"), join(dir, "fixtures"), { recursive: true });
  const first = await runMain(["validate", "--no-cache", "--no-config"], dir);
  expect(first.code, first.stdout + first.stderr).toBe(0);
  await rm(join(dir, ".tooling/citation-targets/mvfg.jsonl"));
  const second = await runMain(["validate", "--no-cache", "--no-config", ".tooling/citation-targets/*.jsonl"], dir);
  expect(second.code).toBe(1);
  expect(second.stdout + second.stderr).toMatch(/mvfg\.lock\.json/);
}, 30_000);
