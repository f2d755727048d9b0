/**
 * DigestLines (src/rules/digest-lines.ts) keeps the first line of each citationTargetId in typed arrays: it must answer
 * what a Map of the strings answers, for SHA-256s in hex and for any other string, across its chunks and its growth.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { expect, test } from "vitest";
import { DigestLines } from "../src/rules/digest-lines.js";

/** What the Map gave: the first line of each value, undefined the first time. */
function mapAnswers(values: string[]): (number | undefined)[] {
  const seen = new Map<string, number>();
  return values.map((value, line) => {
    const first = seen.get(value);
    if (first === undefined) seen.set(value, line);
    return first;
  });
}

const digestLinesAnswers = (values: string[]) => {
  const lines = new DigestLines();
  return values.map((value, line) => lines.firstLine(value, line));
};

const sha = (n: number) => createHash("sha256").update(String(n)).digest("hex");

test("the same answers as a Map, for digests, near-digests and other strings", () => {
  const hex = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 });
  const value = fc.oneof(
    fc.integer({ min: 0, max: 40 }).map(sha), // repeats are likely
    hex,
    hex.map((h) => h.toUpperCase()), // not lowercase: another value, not the same digest
    hex.map((h) => `${h.slice(0, 63)}g`),
    hex.map((h) => h.slice(1)),
    fc.string(),
  );
  fc.assert(
    fc.property(fc.array(value, { maxLength: 300 }), (values) => {
      expect(digestLinesAnswers(values)).toEqual(mapAnswers(values));
    }),
  );
});

test("past a chunk and several growths: every repeat found, with its first line", () => {
  const values: string[] = [];
  for (let i = 0; i < 70_000; i++) values.push(sha(i));
  for (let i = 0; i < 70_000; i += 997) values.push(sha(i)); // repeats of entries in both chunks
  values.push(sha(69_999).toUpperCase(), sha(-1));
  const answers = digestLinesAnswers(values);
  expect(answers).toEqual(mapAnswers(values));
  expect(answers.filter((answer) => answer !== undefined)).toHaveLength(Math.ceil(70_000 / 997));
});

test("a small file's table takes some KiB, not a full chunk of fresh memory (thousands of datasets a run)", () => {
  const before = process.memoryUsage().arrayBuffers;
  const kept: DigestLines[] = [];
  for (let file = 0; file < 200; file++) {
    const lines = new DigestLines();
    for (let line = 0; line < 10; line++) lines.firstLine(sha(file * 10 + line), line);
    kept.push(lines);
  }
  const perFile = (process.memoryUsage().arrayBuffers - before) / kept.length;
  // A full first chunk was 2 MiB of ids and 256 KiB of lines a file; 256 entries are 9 KiB, the slots 4 KiB.
  expect(perFile).toBeLessThan(64 * 1024);
  expect(kept[199]!.firstLine(sha(1999), 0)).toBe(9);
});
