// The early writeback of atomic files (src/node/writes/write.ts, EarlyWriteback): a large file's bytes are sent to the
// disk while it is still written, and the file is whole, or (aborted) not there, as without it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { openAtomic } from "../src/node/writes/write.js";
import { tempDir } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

/** FileHandle's prototype (the class is not exported): what the writer's handle calls datasync on. */
async function fileHandlePrototype(): Promise<{ datasync: () => Promise<void> }> {
  const handle = await open(join(dir, "probe"), "w");
  await handle.close();
  return Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
}

describe("atomic files written to the disk as they are written", () => {
  test("every so many bytes an fdatasync starts, and the file committed is every byte written, in order", async () => {
    // Each finishes at once: how many start then depends on the bytes written, not on how busy the disk is (a real one
    // that took longer than the forty writes would be the only one, the test failing on a loaded machine).
    const datasync = vi.spyOn(await fileHandlePrototype(), "datasync").mockImplementation(async () => undefined);
    const path = join(dir, "out.jsonl");
    writeFileSync(path, "old\n");
    const file = await openAtomic(path, { writebackBytes: 1000 });
    const pieces: Buffer[] = [];
    for (let i = 0; i < 40; i++) {
      const piece = Buffer.from(`${String(i).padStart(3, "0")}:${"x".repeat(300)}\n`);
      pieces.push(piece);
      await file.write(piece);
    }
    // 40 pieces of 305 bytes, a datasync every 1,000 bytes or more at most one at a time: several, fewer than pieces.
    expect(datasync.mock.calls.length).toBeGreaterThan(1);
    expect(datasync.mock.calls.length).toBeLessThan(40);
    await file.commit();
    expect(readFileSync(path)).toEqual(Buffer.concat(pieces));
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  test("an abort while one runs leaves the target as it was and no temporary file", async () => {
    const path = join(dir, "out.jsonl");
    writeFileSync(path, "old\n");
    const file = await openAtomic(path, { writebackBytes: 10 });
    for (let i = 0; i < 5; i++) await file.write(Buffer.from("0123456789abcdef\n"));
    await file.abort();
    expect(readFileSync(path, "utf8")).toBe("old\n");
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  test("a failed fdatasync fails the write after it, or the commit, and nothing is renamed into place", async () => {
    const prototype = await fileHandlePrototype();
    vi.spyOn(prototype, "datasync").mockRejectedValue(Object.assign(new Error("EIO: i/o error"), { code: "EIO" }));
    const path = join(dir, "out.jsonl");
    writeFileSync(path, "old\n");
    const file = await openAtomic(path, { writebackBytes: 10 });
    let failed: unknown;
    try {
      for (let i = 0; i < 5; i++) await file.write(Buffer.from("0123456789abcdef\n"));
      await file.commit();
    } catch (error) {
      failed = error;
      await file.abort();
    }
    expect(String(failed)).toMatch(/EIO|i\/o error/);
    expect(readFileSync(path, "utf8")).toBe("old\n");
    expect(existsSync(path)).toBe(true);
  });
});
