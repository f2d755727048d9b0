// Listings kept for a run that writes nothing into what it lists (src/node/files/folder-listing.ts): before
// keepListings a folder is listed afresh each time; after it, once, whatever path names it.
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { keepListings, listFolder } from "../src/node/files/folder-listing.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

test("a folder is listed afresh until listings are kept, then once for the run", () => {
  writeFileSync(join(dir, "a.lock.json"), "{}");
  const names = () => listFolder(dir).map((entry) => entry.name);
  expect(names()).toEqual(["a.lock.json"]);
  writeFileSync(join(dir, "a.jsonl"), "");
  expect(names().sort()).toEqual(["a.jsonl", "a.lock.json"]); // not kept: listed again
  keepListings();
  const kept = listFolder(dir);
  writeFileSync(join(dir, "b.lock.json"), "{}");
  expect(listFolder(dir)).toBe(kept); // kept: the run's listing
  expect(listFolder(`${relative(process.cwd(), dir)}/`)).toBe(kept); // the same folder by another path
  expect(() => listFolder(join(dir, "missing"))).toThrow(/ENOENT/);
});
