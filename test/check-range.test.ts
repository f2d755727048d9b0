/**
 * One file checked in ranges (src/engine/check-range.ts) gives exactly the problems, line numbers,
 * order and counts of a one-thread check, wherever the ranges are cut: over a fixture with problems
 * of every kind spread across every boundary, and over random damage and random cuts (fast-check).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { LockContext } from "../src/core/lock-context.js";
import { computeDatasetDigest, type LockManifest } from "../src/core/manifest.js";
import type { Limits } from "../src/rules/define.js";
import { createFileCheck, type FileCheckOptions, type FileResult } from "../src/engine/check-file.js";
import { createRangeCheck, createRangeMerge, rangePlan, type RangeSummary, type VisitBatch } from "../src/engine/check-range.js";
import { rules } from "../src/rules/index.js";
import { fixtureRecords, repoRoot, schemaCheck, toJsonl, type Rec } from "./helpers/records.js";

const encoder = new TextEncoder();

function optionsFor(extra: Partial<FileCheckOptions> = {}): FileCheckOptions {
  return { rules, file: "privacy-act-1988.jsonl", schemaCheck, ...extra };
}

function oneThread(bytes: Uint8Array, options: FileCheckOptions): FileResult {
  const check = createFileCheck(options);
  check.push(bytes);
  return check.end();
}

/** The start of the line that holds byte `at` (a cut is moved back to a line start, as the splitter moves it forward to one). */
function lineStart(bytes: Uint8Array, at: number): number {
  const newline = bytes.lastIndexOf(0x0a, at - 1);
  return newline === -1 ? 0 : newline + 1;
}

/** Checks `bytes` in the ranges between `cuts` (byte offsets, moved to line starts), passing every message through structuredClone as a worker would. */
function inRanges(bytes: Uint8Array, cuts: number[], options: FileCheckOptions, chunkSize = 7): FileResult {
  const plan = structuredClone(rangePlan(options));
  const merge = createRangeMerge(options, plan);
  const starts = [...new Set([0, ...cuts.map((cut) => lineStart(bytes, Math.min(cut, bytes.length)))])].sort((a, b) => a - b);
  starts.forEach((start, i) => {
    const end = starts[i + 1] ?? bytes.length;
    const batches: VisitBatch[] = [];
    const range = createRangeCheck(options, plan, (batch) => batches.push(structuredClone(batch)));
    for (let at = start; at < end; at += chunkSize) range.push(bytes.subarray(at, Math.min(at + chunkSize, end)));
    const summary: RangeSummary = structuredClone(range.end());
    for (const batch of batches) merge.addVisits(batch);
    merge.endRange(summary);
  });
  return merge.end();
}

/** Every line boundary of the text. */
function boundaries(bytes: Uint8Array): number[] {
  const at: number[] = [];
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) at.push(i + 1);
  return at;
}

const lineOf = (records: Rec[], path: string) => records.findIndex((r) => r.artifactRelativePath === path);

/** The privacy fixture with problems of every kind, on lines spread over the file. */
function damaged(): Uint8Array {
  const records = structuredClone(fixtureRecords("privacy-act-1988"));
  records[3]!.documentOrder = 99; // document-order
  records[5]!.citationAddress = records[20]!.citationAddress; // unique-citation-address (first seen later), citation-target-id
  records[30]!.citationAddress = records[2]!.citationAddress; // unique-citation-address, first seen earlier
  records[12]!.textDigest = "0".repeat(64); // text-digest
  records[25]!.slug = "other"; // dataset-fields
  records[33]!.headingTrail = ["Wrong"]; // parent-container
  records[8]!.structuralPreorderIndex = 7; // structural-preorder-index (if a container)
  const moved = records.splice(lineOf(records, "part-i/section-6.md"), 1)[0]!;
  records.push(moved); // record-order (artifact split), block-range, lock-artifacts order
  const lines = toJsonl(records).split("\n");
  lines[10] = "not json";
  lines[14] = "";
  lines[17] = `${lines[17]}\r`;
  lines[19] = `\ufeff${lines[19]}`;
  lines[22] = lines[22]!.replace('{"', '{ "'); // non-canonical
  lines[27] = lines[27]!.replace('{"artifactRelativePath"', '{"artifactRelativePath":"x","artifactRelativePath"'); // duplicate-key
  lines[36] = "[1,2]";
  const text = lines.join("\n").replace(/\n$/, ""); // final-newline
  const bytes = encoder.encode(text);
  const at = encoder.encode(lines.slice(0, 38).join("\n")).length + 5;
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  out[at] = 0xff; // invalid-utf8 on line 39
  return out;
}

/** A lock manifest for the damaged fixture; with `everyBody`, every artifact's body digest differs, so that every run's digest is shown in a problem. */
function lockContext(everyBody = false): LockContext {
  const manifest = JSON.parse(readFileSync(`${repoRoot}.tooling/citation-targets/privacy-act-1988.lock.json`, "utf8")) as LockManifest;
  manifest.artifacts = manifest.artifacts.filter((a) => a.path !== "endnotes.md");
  manifest.versionDate = "2024-07-01";
  manifest.datasetDigest = computeDatasetDigest(manifest);
  manifest.name = "hand edited";
  return {
    manifest,
    manifestPath: "privacy-act-1988.lock.json",
    computedDigest: computeDatasetDigest(manifest),
    bodyDigests: everyBody ? new Map(manifest.artifacts.map((a) => [a.path, "0".repeat(64)])) : new Map([["part-i/section-6.md", "4f0b3bd1f3d2a9a6a5a1b5a3c7e4d9f6e2b1c0a9d8e7f6a5b4c3d2e1f0a9b8c7"]]),
    changedArtifacts: new Map([["part-ii/section-12.md", "1".repeat(64)]]),
    missingArtifacts: ["gone.md"],
    unlistedFiles: ["new.md"],
  };
}

describe("a file checked in ranges", () => {
  const bytes = damaged();

  test("the damaged fixture has problems of most rules, spread over the file", () => {
    const expected = oneThread(bytes, optionsFor({ lock: lockContext() }));
    const ruleIds = new Set(expected.problems.map((p) => p.ruleId));
    expect(ruleIds.size).toBeGreaterThanOrEqual(18);
    expect(new Set(expected.problems.map((p) => p.line)).size).toBeGreaterThanOrEqual(15);
  });

  test.each([
    ["without a lock manifest", {}],
    ["with a lock manifest", { lock: lockContext() }],
    ["with a lock manifest whose every body digest differs (each run's digest is shown)", { lock: lockContext(true) }],
    ["with a cap of 5 problems", { limits: { maxStoredProblems: 5 } as Partial<Limits> }],
    ["with rules off and downgraded", { ruleSettings: { "unique-citation-address": "off", "record-order": "warning", "json-syntax": "off" } as const }],
  ])("one cut at every line boundary, %s, gives the one-thread result", (_name, extra) => {
    const options = optionsFor(extra);
    const expected = oneThread(bytes, options);
    for (const cut of boundaries(bytes)) expect(inRanges(bytes, [cut], options)).toEqual(expected);
  });

  test("a range per line, and two and three cuts at every spacing, give the one-thread result", () => {
    const options = optionsFor({ lock: lockContext(), limits: { maxStoredProblems: 12 } });
    const expected = oneThread(bytes, options);
    const all = boundaries(bytes);
    expect(inRanges(bytes, all, options)).toEqual(expected);
    for (let step = 1; step < 12; step++) {
      for (let i = 0; i + 2 * step < all.length; i += 3) expect(inRanges(bytes, [all[i]!, all[i + step]!, all[i + 2 * step]!], options)).toEqual(expected);
    }
  });

  test("a range that starts with a record lacking fields the record before the cut had (found by fast-check)", () => {
    const lines = toJsonl(fixtureRecords("privacy-act-1988")).split("\n");
    lines[4] = "not json";
    lines[5] = "{}";
    const text = encoder.encode(lines.join("\n"));
    const options = optionsFor({ limits: { maxStoredProblems: 2 } });
    const expected = oneThread(text, options);
    expect(expected.unstored.errors).toBeGreaterThan(0);
    for (const cut of boundaries(text).slice(0, 8)) expect(inRanges(text, [cut], options, 1)).toEqual(expected);
  });

  test("the cap on problems kept counts the dropped ones by severity, as in one thread", () => {
    const options = optionsFor({ limits: { maxStoredProblems: 3 }, ruleSettings: { "record-order": "warning", "text-digest": "warning" } });
    const expected = oneThread(bytes, options);
    expect(expected.unstored.errors + expected.unstored.warnings).toBeGreaterThan(10);
    for (const cut of boundaries(bytes)) expect(inRanges(bytes, [cut], options)).toEqual(expected);
  });

  test("every cross-record rule declares the fields it reads, and reads no other", () => {
    const options = optionsFor({ lock: lockContext() });
    const crossRecord = rules.filter((rule) => rule.scope === "dataset" || rule.scope === "manifest");
    for (const rule of crossRecord) {
      expect(rule.meta.reads, rule.id).toBeDefined();
      const read = new Set<string>();
      const handlers = rule.create!({
        fileName: "privacy-act-1988.jsonl",
        file: "privacy-act-1988.jsonl",
        manifestPath: undefined,
        lock: options.lock,
        schemaCheck,
        limits: { maxLineBytes: 1e9, maxDepth: 64, maxStoredProblems: 1e4 },
        report: () => {},
      });
      fixtureRecords("privacy-act-1988").forEach((record, i) => {
        const note = (key: string | symbol) => {
          if (typeof key === "string") read.add(key);
        };
        const watched = new Proxy(record, {
          get(target, key) {
            note(key);
            return Reflect.get(target, key);
          },
          has(target, key) {
            note(key);
            return Reflect.has(target, key);
          },
          getOwnPropertyDescriptor(target, key) {
            note(key);
            return Reflect.getOwnPropertyDescriptor(target, key);
          },
          ownKeys() {
            throw new Error(`${rule.id} lists the record's fields`);
          },
        });
        handlers.record?.({ record: watched, line: i + 1, schemaValid: true });
      });
      handlers.end?.();
      for (const field of read) expect(rule.meta.reads, `${rule.id} reads ${field}`).toContain(field);
    }
  });
});

describe("random damage, random cuts (fast-check)", () => {
  const base = toJsonl(fixtureRecords("privacy-act-1988")).split("\n").slice(0, -1);
  const damage: ((line: string, other: string) => string)[] = [
    () => "not json",
    () => "",
    () => "  ",
    (line) => `${line}\r`,
    (line) => `\ufeff${line}`,
    (line) => line.replace('{"', '{ "'),
    (line) => line.replace(/"documentOrder":\d+/, '"documentOrder":3'),
    (line) => line.replace(/"structuralPreorderIndex":\d+/, '"structuralPreorderIndex":1'),
    (line, other) => line.replace(/"citationAddress":"[^"]*"/, other.match(/"citationAddress":"[^"]*"/)?.[0] ?? ""),
    (line) => line.replace(/"textDigest":"[0-9a-f]/, '"textDigest":"x'),
    (line) => line.replace(/"slug":"[^"]*"/, '"slug":"other"'),
    (line) => line.replace(/"headingTrail":\[/, '"headingTrail":["X",'),
    (line) => line.replace(/"sourceArtifactBlockStartIndex":\d+/, '"sourceArtifactBlockStartIndex":1'),
    (line) => line.replace(/"artifactRelativePath":"[^"]*"/, '"artifactRelativePath":"part-i/elsewhere.md"'),
    () => "[]",
    () => "{}",
    (_line, other) => other,
  ];
  const arbitraryFile = fc
    .record({
      edits: fc.array(fc.record({ line: fc.nat(base.length - 1), kind: fc.nat(damage.length - 1), other: fc.nat(base.length - 1) }), { maxLength: 12 }),
      dropFinalNewline: fc.boolean(),
      cuts: fc.array(fc.nat(20_000), { maxLength: 6 }),
      chunk: fc.integer({ min: 1, max: 4096 }),
      cap: fc.constantFrom(2, 7, 10_000),
      lock: fc.boolean(),
    })
    .map(({ edits, dropFinalNewline, ...rest }) => {
      const lines = [...base];
      for (const edit of edits) lines[edit.line] = damage[edit.kind]!(lines[edit.line]!, base[edit.other]!);
      const text = lines.join("\n") + (dropFinalNewline ? "" : "\n");
      return { bytes: encoder.encode(text), ...rest };
    });

  test("any damage, any cuts, any chunk size: the one-thread result", () => {
    fc.assert(
      fc.property(arbitraryFile, ({ bytes, cuts, chunk, cap, lock }) => {
        const options = optionsFor({ limits: { maxStoredProblems: cap }, ...(lock ? { lock: lockContext(true) } : {}) });
        const scaled = cuts.map((cut) => Math.floor((cut / 20_000) * bytes.length));
        expect(inRanges(bytes, scaled, options, chunk)).toEqual(oneThread(bytes, options));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});
