/**
 * Interrupted writes lose nothing: every writer (generate -o, lock, update, schema -o) is killed with
 * SIGKILL at random moments, and the target is always the old complete file or the new complete
 * one. What a kill leaves behind is never matched by validate's patterns and is removed by the next
 * run; --check modes write nothing at all.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { removeStaleTemporaries } from "../src/node/writes/write.js";
import { runMain } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const bin = join(repoRoot, "bin/citation-targets.js");
const MANIFEST = ".tooling/citation-targets/privacy-act-1988.lock.json";
const JSONL = ".tooling/citation-targets/privacy-act-1988.jsonl";

/** Runs the built bin and kills it with SIGKILL after `ms` milliseconds (or lets it finish first). */
function runAndKill(args: string[], cwd: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const cli = runMain;

/** A deterministic sequence of delays, spread over the life of a run (start-up included). */
const delays = (n: number, max: number) =>
  Array.from({ length: n }, (_, i) => Math.round(((i * 7919) % n) * (max / n)) + 5);

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

async function repository(name: string): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, ".git"), { recursive: true });
  await cp(join(repoRoot, "fixtures"), join(root, "fixtures"), { recursive: true });
  await cp(join(repoRoot, ".tooling"), join(root, ".tooling"), { recursive: true });
  return root;
}

describe("SIGKILL at random moments", () => {
  test("generate -o: the output is always the old or the new complete file", async () => {
    const root = await repository("generate");
    const target = join(root, "out/privacy-act-1988.jsonl");
    const fresh = await readFile(join(repoRoot, JSONL), "utf8");
    const old = fresh.replace(/\n[^\n]*\n$/, "\n"); // an older, complete file: one record fewer
    await mkdir(join(root, "out"));
    await writeFile(target, old);
    for (const ms of delays(12, 700)) {
      await runAndKill(["generate", MANIFEST, "-o", "out/privacy-act-1988.jsonl"], root, ms);
      const now = await readFile(target, "utf8");
      expect([old, fresh]).toContain(now);
      // What a kill left behind is a dot file ending in .tmp: no *.jsonl pattern matches it.
      for (const entry of await readdir(join(root, "out")))
        expect(
          entry === "privacy-act-1988.jsonl" || /^\.privacy-act-1988\.jsonl\.\d+\.[0-9a-f]{8}\.tmp$/.test(entry),
        ).toBe(true);
      await writeFile(target, old);
    }
    // The next normal run removes the leftovers and writes the new file.
    expect((await cli(["generate", MANIFEST, "-o", "out/privacy-act-1988.jsonl"], root)).code).toBe(0);
    expect(await readdir(join(root, "out"))).toEqual(["privacy-act-1988.jsonl"]);
    expect(await readFile(target, "utf8")).toBe(fresh);
  });

  test("lock, update and schema -o: the targets are always old or new, never partial", async () => {
    const root = await repository("update");
    const manifestPath = join(root, MANIFEST);
    const jsonlPath = join(root, JSONL);
    const oldManifest = await readFile(manifestPath, "utf8");
    const oldJsonl = await readFile(jsonlPath, "utf8");
    await writeFile(join(root, "fixtures/datasets/privacy-act-1988/part-i/section-7.md"), "### 7 New\n\nText.\n");
    // The new files, as a run that is not interrupted writes them (in a copy).
    const reference = await repository("reference");
    await writeFile(join(reference, "fixtures/datasets/privacy-act-1988/part-i/section-7.md"), "### 7 New\n\nText.\n");
    expect((await cli(["update", MANIFEST], reference)).code).toBe(0);
    const newManifest = await readFile(join(reference, MANIFEST), "utf8");
    const newJsonl = await readFile(join(reference, JSONL), "utf8");
    for (const ms of delays(10, 700)) {
      await runAndKill(["update", MANIFEST], root, ms);
      // A kill during the renames leaves the journal: the next run completes it (test/untrusted-data.test.ts, "update is all or nothing across datasets").
      if (existsSync(join(root, ".citation-targets-update.journal.json")))
        expect((await cli(["update", "--recover"], root)).code).toBe(0);
      const manifestNow = await readFile(manifestPath, "utf8");
      expect([oldManifest, newManifest]).toContain(manifestNow);
      expect(await readFile(jsonlPath, "utf8")).toBe(manifestNow === oldManifest ? oldJsonl : newJsonl);
      await writeFile(manifestPath, oldManifest);
      await writeFile(jsonlPath, oldJsonl);
      await runAndKill(["lock", "fixtures/datasets/privacy-act-1988", "-o", MANIFEST], root, ms);
      expect([oldManifest, newManifest]).toContain(await readFile(manifestPath, "utf8"));
      await writeFile(manifestPath, oldManifest);
      await runAndKill(["schema", "-o", "schema.json"], root, ms);
      const schema = await readFile(join(root, "schema.json"), "utf8").catch(() => undefined);
      if (schema !== undefined) expect(() => JSON.parse(schema)).not.toThrow();
    }
    // validate's default pattern never matches a leftover, and a normal run clears them.
    const report = JSON.parse((await cli(["validate", "--format", "json", "--no-lock"], root)).stdout) as {
      files: { path: string }[];
    };
    expect(report.files.map((f) => f.path)).toEqual([".tooling/citation-targets/mvfg.jsonl", JSONL]);
    expect((await cli(["update"], root)).code).toBe(0);
    expect((await readdir(join(root, ".tooling/citation-targets"))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(await readFile(manifestPath, "utf8")).toBe(newManifest);
    expect(await readFile(jsonlPath, "utf8")).toBe(newJsonl);
  });
});

describe("--check modes write nothing", () => {
  test("lock --check, generate --check and update --check leave every file as it was", async () => {
    const root = await repository("check");
    await writeFile(
      join(root, "fixtures/datasets/privacy-act-1988/part-i/section-1.md"),
      "### 1 Short title\n\nAmended.\n",
    );
    const snapshot = async () => {
      const entries: string[] = [];
      const walk = async (folder: string): Promise<void> => {
        for (const entry of await readdir(folder, { withFileTypes: true })) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) await walk(path);
          else entries.push(`${path} ${(await stat(path)).mtimeMs} ${(await readFile(path)).length}`);
        }
      };
      await walk(root);
      return entries.sort();
    };
    const before = await snapshot();
    expect((await cli(["lock", "fixtures/datasets/privacy-act-1988", "-o", MANIFEST, "--check"], root)).code).toBe(1);
    expect((await cli(["generate", MANIFEST, "--check", JSONL], root)).code).toBe(1);
    expect((await cli(["update", "--check"], root)).code).toBe(1);
    expect(await snapshot()).toEqual(before);
  });

  test("a leftover of a running process is kept; one of a dead process is removed", async () => {
    const folder = join(dir, "leftovers");
    await mkdir(folder);
    await writeFile(join(folder, `.x.jsonl.${process.pid}.0000abcd.tmp`), "mine");
    await writeFile(join(folder, ".x.jsonl.999999999.0000abcd.tmp"), "dead");
    await writeFile(join(folder, ".y.jsonl.999999999.0000abcd.tmp"), "another target");
    expect(await removeStaleTemporaries(join(folder, "x.jsonl"))).toEqual([".x.jsonl.999999999.0000abcd.tmp"]);
    expect((await readdir(folder)).sort()).toEqual([
      `.x.jsonl.${process.pid}.0000abcd.tmp`,
      ".y.jsonl.999999999.0000abcd.tmp",
    ]);
  });
});
