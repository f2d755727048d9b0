/**
 * Issue 32, item 7 (start-up): the V8 code cache of the command line's own files (src/node/cache/code-cache.ts). Each case
 * runs in a child process of its own, as the bin does: the cache takes the place of Node's CommonJS compile for the
 * process. What it must show: a second run compiles from the cache; a file changed in place, even to the same length,
 * runs its new code; a damaged cache file is rejected and replaced; an unwritable place costs nothing but the cache;
 * files outside its root are left to Node; and the built bin says the same with the cache as without it.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const codeCache = join(repoRoot, "dist/node/code-cache.cjs");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, "root/node"), { recursive: true });
  await writeFile(join(dir, "root/node/a.cjs"), 'module.exports = require("./b.cjs") + 1;\n');
  await writeFile(join(dir, "root/node/b.cjs"), "module.exports = 40;\n");
  await writeFile(join(dir, "outside.cjs"), "module.exports = 7;\n");
  await writeDigests();
});

/** Writes root/code-digests.json as the build does: each listed file's SHA-256. */
async function writeDigests(paths = ["node/a.cjs", "node/b.cjs"]): Promise<void> {
  const digests: Record<string, string> = {};
  for (const path of paths)
    digests[path] = createHash("sha256")
      .update(await readFile(join(dir, "root", path)))
      .digest("hex");
  await writeFile(join(dir, "root/code-digests.json"), JSON.stringify(digests));
}
afterEach(async () => cleanup());

interface Run {
  value: unknown;
  outside: unknown;
  accepted: string[];
  compiled: string[];
  installed: boolean;
  stderr: string;
}

/** Installs the cache over `root`, requires a.cjs (which requires b.cjs) and a file outside it, and exits. */
function run(env: Record<string, string> = {}): Run {
  const script = `
    const { installCodeCache } = require(${JSON.stringify(codeCache)});
    const state = installCodeCache(${JSON.stringify(join(dir, "root"))}, "test");
    const value = require(${JSON.stringify(join(dir, "root/node/a.cjs"))});
    const outside = require(${JSON.stringify(join(dir, "outside.cjs"))});
    const names = (list) => list.map((path) => require("node:path").basename(path)).sort();
    process.stdout.write(JSON.stringify({ value, outside, installed: state !== undefined,
      accepted: names(state?.accepted ?? []), compiled: names(state?.compiled ?? []) }));`;
  const child = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, ...env }, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`the run exited ${child.status}: ${child.stderr}`);
  return { ...(JSON.parse(child.stdout) as Omit<Run, "stderr">), stderr: child.stderr };
}

const cacheFolder = () => join(dir, "root/.code-cache", `${process.version}-${process.arch}`, "test");
const cacheFiles = async () => (await readdir(cacheFolder())).sort();

describe("the code cache", () => {
  test("the first run compiles and writes a cache per file; the second compiles from it", async () => {
    const first = run();
    expect(first).toMatchObject({ value: 41, outside: 7, installed: true, accepted: [], compiled: ["a.cjs", "b.cjs"] });
    const files = await cacheFiles();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^node~a\.cjs\.[0-9a-f]{16}\.\d+-\d+-\d+\.v8$/);
    expect(files[1]).toMatch(/^node~b\.cjs\.[0-9a-f]{16}\.\d+-\d+-\d+\.v8$/);
    const second = run();
    expect(second).toMatchObject({ value: 41, outside: 7, accepted: ["a.cjs", "b.cjs"], compiled: [] });
    expect(await cacheFiles()).toEqual(files); // nothing rewritten
  });

  test("a file changed in place to the same length runs its new code, and its old cache file is removed", async () => {
    run();
    const before = await cacheFiles();
    // Same length, same modification time as far as a coarse clock goes: the name still differs (ns and inode).
    await writeFile(join(dir, "root/node/b.cjs"), "module.exports = 50;\n"); // and the list left as it was
    const changed = run();
    expect(changed).toMatchObject({ value: 51, accepted: ["a.cjs"], compiled: ["b.cjs"] });
    const after = await cacheFiles();
    expect(after).toHaveLength(2);
    expect(after.filter((name) => name.startsWith("node~b.cjs."))).not.toEqual(
      before.filter((name) => name.startsWith("node~b.cjs.")),
    );
    expect(run()).toMatchObject({ value: 51, accepted: ["a.cjs", "b.cjs"], compiled: [] });
  });

  test("another build's file of the same name, size, time and inode is compiled afresh (the digest differs)", async () => {
    // An upgrade from a tarball: every file has the tarball's time, and a removed file's inode is given to the next.
    const old = new Date(1985, 9, 26);
    await utimes(join(dir, "root/node/b.cjs"), old, old);
    run(); // caches b.cjs under that time
    await rm(join(dir, "root/node/b.cjs"));
    await writeFile(join(dir, "root/node/b.cjs"), "module.exports = 60;\n"); // same size; often the same inode
    await utimes(join(dir, "root/node/b.cjs"), old, old);
    await writeDigests(); // the new build's list
    expect(run()).toMatchObject({ value: 61, compiled: ["b.cjs"] });
    expect(run()).toMatchObject({ value: 61, accepted: ["a.cjs", "b.cjs"] });
  });

  test("a file the build did not list, or no list at all, is left to Node", async () => {
    await writeDigests(["node/a.cjs"]);
    expect(run()).toMatchObject({ value: 41, installed: true, compiled: ["a.cjs"] });
    expect(run()).toMatchObject({ value: 41, accepted: ["a.cjs"], compiled: [] });
    await writeFile(join(dir, "root/code-digests.json"), "{ not json");
    expect(run()).toMatchObject({ value: 41, installed: false });
    await rm(join(dir, "root/code-digests.json"));
    expect(run()).toMatchObject({ value: 41, installed: false });
  });

  test("a damaged cache file is rejected, the file compiled, and the cache written anew", async () => {
    run();
    for (const name of await cacheFiles()) await writeFile(join(cacheFolder(), name), "not a code cache");
    expect(run()).toMatchObject({ value: 41, accepted: [], compiled: ["a.cjs", "b.cjs"] });
    expect(run()).toMatchObject({ value: 41, accepted: ["a.cjs", "b.cjs"], compiled: [] });
  });

  test("an unwritable cache place leaves the run as without a cache, silent", async () => {
    await writeFile(join(dir, "root/.code-cache"), "a file where the folder would be");
    const result = run();
    expect(result).toMatchObject({ value: 41, outside: 7, accepted: [], compiled: ["a.cjs", "b.cjs"], stderr: "" });
    expect(await readFile(join(dir, "root/.code-cache"), "utf8")).toBe("a file where the folder would be");
  });

  test("CITATION_TARGETS_NO_CODE_CACHE=1 turns it off: nothing installed, nothing written", () => {
    expect(run({ CITATION_TARGETS_NO_CODE_CACHE: "1" })).toMatchObject({ value: 41, outside: 7, installed: false });
    expect(existsSync(join(dir, "root/.code-cache"))).toBe(false);
  });

  test("the caches of another Node version are emptied when this one writes", async () => {
    const other = join(dir, "root/.code-cache/v0.0.1-x64/test");
    await mkdir(other, { recursive: true });
    await writeFile(join(other, "node~a.cjs.1-2-3.v8"), "old");
    run();
    expect(await readdir(other)).toEqual([]);
  });
});

describe("the built bin with its code cache", () => {
  test("says the same, byte for byte, on a first run, a cached run and a run without the cache", async () => {
    const args = ["validate", ".tooling/citation-targets/mvfg.jsonl", "--no-cache"];
    const without = await runBin(args, repoRoot, { CITATION_TARGETS_NO_CODE_CACHE: "1" });
    const first = await runBin(args, repoRoot);
    const cached = await runBin(args, repoRoot);
    expect(without.code).toBe(0);
    for (const result of [first, cached]) expect(result).toEqual(without);
    const folder = join(repoRoot, "dist/.code-cache", `${process.version}-${process.arch}`, "validate");
    expect((await readdir(folder)).some((name) => /^node~cli-shared-.*\.v8$/.test(name))).toBe(true);
  });
});
