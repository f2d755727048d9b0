/**
 * `generate --check` reads the file it checks in pieces, synchronously (src/node/files/regular-file.ts,
 * regularPiecesSync), where it used a file stream: the pieces must be the file's bytes, each a buffer of its own, and the
 * file must be closed when the reader stops early as when it reads to the end; only regular files are read.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { regularPiecesSync } from "../src/node/files/regular-file.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "regular-pieces-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const openFiles = async () => (await readdir("/proc/self/fd")).length;

test("the pieces are the file's bytes, each a buffer of its own; the file is closed at the end", async () => {
  const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => `line ${i} ü\n`).join(""));
  const path = join(dir, "a.jsonl");
  await writeFile(path, bytes);
  const before = await openFiles();
  const pieces = [...regularPiecesSync(path, 4096)];
  expect(await openFiles()).toBe(before);
  expect(pieces.length).toBe(Math.ceil(bytes.length / 4096));
  expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
  expect(new Set(pieces.map((piece) => piece.buffer)).size).toBe(pieces.length);
  expect([...regularPiecesSync(join(dir, "a.jsonl"), bytes.length)]).toHaveLength(1);
  await writeFile(join(dir, "empty.jsonl"), "");
  expect([...regularPiecesSync(join(dir, "empty.jsonl"))]).toEqual([]);
});

test("a reader that stops early closes the file", async () => {
  const path = join(dir, "b.jsonl");
  await writeFile(path, "x".repeat(100_000));
  const before = await openFiles();
  for (const piece of regularPiecesSync(path, 1000)) {
    expect(piece.length).toBe(1000);
    expect(await openFiles()).toBe(before + 1);
    break;
  }
  expect(await openFiles()).toBe(before);
});

test("only a regular file is read: a FIFO is refused without blocking", async () => {
  const fifo = join(dir, "fifo");
  execFileSync("mkfifo", [fifo]);
  expect(() => [...regularPiecesSync(fifo)]).toThrow(/FIFO|not a regular file/);
});
