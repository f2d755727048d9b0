/**
 * validate reads each JSONL into one buffer of its thread (src/node/validate/reused-reads.ts), and the reader takes a
 * canonical line's depth from its canonical scan (canonicalDepth) rather than walk the record again: both must read
 * every file as before, lines across chunks and a last line without LF included.
 */
import fc from "fast-check";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { closeSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { canonicalDepth } from "../src/core/json/canonical.js";
import { nestingDepth } from "../src/engine/read-records.js";
import { validate } from "../src/index.js";
import { CHUNK_BYTES, pushReused, readChunk, readWhole } from "../src/node/validate/reused-reads.js";
import { sampleRecord, toJsonl } from "./helpers/records.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reused-reads-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("reads into one buffer", () => {
  test("the complete lines are handed over as they lie, the rest as a copy the next read cannot change", () => {
    const buffer = new TextEncoder().encode('{"a":1}\n{"b":2}\n{"c":');
    const pushed: Uint8Array[] = [];
    pushReused(buffer, (chunk) => pushed.push(chunk));
    expect(pushed.map((chunk) => new TextDecoder().decode(chunk))).toEqual(['{"a":1}\n{"b":2}\n', '{"c":']);
    buffer.fill(0x20); // the next read
    expect(new TextDecoder().decode(pushed[1])).toBe('{"c":');
    const none: Uint8Array[] = [];
    pushReused(new TextEncoder().encode("no line feed"), (chunk) => none.push(chunk));
    expect(none.map((chunk) => new TextDecoder().decode(chunk))).toEqual(["no line feed"]);
  });

  test("a small file is read whole, an empty one as empty, a large one in chunks to its end", async () => {
    const small = join(dir, "small.bin");
    await writeFile(small, "abc\ndef");
    const fd = openSync(small, "r");
    try {
      expect(new TextDecoder().decode(readWhole(fd, 7))).toBe("abc\ndef");
    } finally {
      closeSync(fd);
    }
    const empty = join(dir, "empty.bin");
    await writeFile(empty, "");
    const emptyFd = openSync(empty, "r");
    try {
      expect(readWhole(emptyFd, 0).length).toBe(0);
    } finally {
      closeSync(emptyFd);
    }
    const large = join(dir, "large.bin");
    await writeFile(large, Buffer.alloc(CHUNK_BYTES * 2 + 5, 0x61));
    const largeFd = openSync(large, "r");
    const sizes: number[] = [];
    try {
      for (let chunk = readChunk(largeFd); chunk.length > 0; chunk = readChunk(largeFd)) sizes.push(chunk.length);
    } finally {
      closeSync(largeFd);
    }
    expect(sizes).toEqual([CHUNK_BYTES, CHUNK_BYTES, 5]);
  });

  test("a file of several chunks, its lines across their ends and its last line without LF, reads as before", async () => {
    const text = toJsonl([sampleRecord("markdown-artifact", 0), sampleRecord("structural-container", 0)]);
    let big = "";
    while (big.length < CHUNK_BYTES * 2.5) big += text;
    const lines = big.split("\n").length - 1;
    const file = join(dir, "privacy-act-1988.jsonl");
    await writeFile(file, big.slice(0, -1)); // the last LF taken off
    const report = await validate({
      cwd: dir,
      patterns: [file],
      lock: false,
      jobs: 1,
      limits: { maxStoredProblems: 1_000_000 },
    });
    const [checked] = report.files;
    expect(checked?.records).toBe(lines);
    const readingProblems = checked!.problems.filter((p) =>
      ["json-syntax", "invalid-utf8", "final-newline", "blank-line", "line-length"].includes(p.ruleId),
    );
    expect(readingProblems.map((p) => `${p.line} ${p.ruleId}`)).toEqual([`${lines} final-newline`]);
  });
});

describe("the depth of a canonical line", () => {
  const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.string(), tie("value"), { maxKeys: 3, noNullPrototype: true }),
    ),
  })).value;

  test("is the depth of the value it parses to; a line not shown canonical says -1", () => {
    fc.assert(
      fc.property(value, (parsed) => {
        const text = JSON.stringify(parsed, (_key, v: unknown) =>
          v !== null && typeof v === "object" && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
            : v,
        );
        const depth = canonicalDepth(text);
        if (depth >= 0) expect(depth).toBe(nestingDepth(JSON.parse(text), 1000));
      }),
    );
    expect(canonicalDepth('{"a":[[1]],"b":{}}')).toBe(3);
    expect(canonicalDepth("[]")).toBe(1);
    expect(canonicalDepth('"x"')).toBe(0);
    expect(canonicalDepth('{"b":1,"a":2}')).toBe(-1);
    expect(canonicalDepth('{"a": 1}')).toBe(-1);
  });
});
