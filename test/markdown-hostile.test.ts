/**
 * Hostile markdown (docs/spec.md, sections 5 and 13): every input completes in work linear in its
 * size, or is refused with a named cap, never an internal error or unbounded memory. Time is
 * measured in the benchmark (bench/RESULTS.md), not here: these tests count work (tokens and lines
 * held, pieces parsed) or scale a small input up.
 */

import { readdir } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseArtifact, readArtifact } from "../src/core/markdown/targets.js";
import {
  ArtifactError,
  DEFAULT_MAX_HEADING_LENGTH,
  DEFAULT_MAX_HEADINGS,
  MAX_BLOCK_LINES,
  MAX_BLOCK_TOKENS,
} from "../src/core/markdown/limits.js";
import { PIECE_LENGTH, scanTopLevelBlocks } from "../src/core/markdown/blocks.js";
import { lock } from "../src/node/dataset/lock.js";
import { runMain } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ArtifactError) return error.message;
    throw error;
  }
  return undefined;
};

describe("headings of emphasis markers (was quadratic)", () => {
  test("`*a_` repeated, scaled up to the heading length cap, completes with every marker as text", () => {
    for (const count of [1_000, 4_000, Math.floor(DEFAULT_MAX_HEADING_LENGTH / 3)]) {
      const content = "*a_".repeat(count);
      const parsed = parseArtifact(`# ${content}\n\nText.\n`);
      expect(parsed.targets).toHaveLength(1);
      expect(parsed.targets[0]!.heading!.text).toBe(content);
    }
  });

  test("a heading longer than the cap is refused, named, before its inline content is parsed", () => {
    const text = `# ${"*a_".repeat(400_000)}\n`; // 1.2 MB
    expect(refusal(() => parseArtifact(text))).toBe(
      `the heading at offset 0 is longer than ${DEFAULT_MAX_HEADING_LENGTH} characters, the cap on heading length (raise it with --max-heading-length)`,
    );
    expect(parseArtifact(text, "body-block", { maxHeadingLength: text.length }).targets).toHaveLength(1);
  });
});

describe("many headings in one artifact", () => {
  test("a million `# N Section N` headings are refused at the headings cap, named", () => {
    const text = Array.from({ length: 1_000_000 }, (_, i) => `# ${i} Section ${i}\n`).join("");
    expect(refusal(() => parseArtifact(text))).toBe(
      `the body has more than ${DEFAULT_MAX_HEADINGS} headings, the cap on headings per artifact (raise it with --max-headings)`,
    );
  });

  test("the cap counts targets: at the cap the artifact is read, one more is refused", () => {
    const headings = (n: number) => Array.from({ length: n }, (_, i) => `## § ${i}\n\nText ${i}.\n`).join("");
    expect(parseArtifact(headings(1000), "body-block", { maxHeadings: 1000 }).targets).toHaveLength(1000);
    expect(refusal(() => parseArtifact(headings(1001), "body-block", { maxHeadings: 1000 }))).toContain(
      "more than 1000 headings",
    );
  });

  test("`x` then a million `=` lines (2 MB of setext underlines) is refused at the headings cap", () => {
    const text = `x\n${"=\n".repeat(1_000_000)}`;
    expect(refusal(() => parseArtifact(text))).toContain(`more than ${DEFAULT_MAX_HEADINGS} headings`);
    // below the cap, every other line is a heading (`x`, then `=` under `=`)
    const small = `x\n${"=\n".repeat(20_000)}`;
    expect(parseArtifact(small).targets).toHaveLength(10_000);
  });

  test("generate refuses such an artifact naming it, and leaves no temporary file", async () => {
    await writeTree(dir, {
      "gesetz/index.md": "# Gesetz\n\nText.\n",
      "gesetz/anlage.md": `x\n${"=\n".repeat(300_000)}`,
    });
    await lock({
      dir,
      slug: "t",
      titleId: "T",
      name: "T",
      versionDate: "2024-01-01",
      sourceTextUrl: "https://www.legislation.gov.au/T/text",
    });
    const refused = await cli(["generate", "citation-targets.lock.json", "-o", "t.jsonl"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `gesetz/anlage.md: the body has more than ${DEFAULT_MAX_HEADINGS} headings, the cap on headings per artifact (raise it with --max-headings)`,
    );
    expect((await readdir(dir)).sort()).toEqual(["citation-targets.lock.json", "gesetz"]);
  });

  test("generate and update take the caps from --max-headings and --max-heading-length", async () => {
    await writeTree(dir, { "gesetz/index.md": "# Gesetz\n\n## § 1 Zweck\n\nText.\n\n## § 2 Geltung\n\nText.\n" });
    await lock({
      dir,
      slug: "t",
      titleId: "T",
      name: "T",
      versionDate: "2024-01-01",
      sourceTextUrl: "https://www.legislation.gov.au/T/text",
    });
    const few = await cli(["generate", "citation-targets.lock.json", "--max-headings", "2"], dir);
    expect(few.code).toBe(1);
    expect(few.stderr).toContain(
      "gesetz/index.md: the body has more than 2 headings, the cap on headings per artifact (raise it with --max-headings)",
    );
    expect((await cli(["generate", "citation-targets.lock.json", "--max-headings", "3"], dir)).code).toBe(0);
    const short = await cli(["generate", "citation-targets.lock.json", "--max-heading-length", "5"], dir);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("the cap on heading length (raise it with --max-heading-length)");
    const updated = await cli(
      ["update", "citation-targets.lock.json", "--check", "--no-cache", "--max-headings", "2"],
      dir,
    );
    expect(updated.code).toBe(1);
    expect(updated.stderr).toContain("the cap on headings per artifact (raise it with --max-headings)");
  });
});

describe("memory: the body is parsed a piece at a time", () => {
  test("tokens and lines held stay those of one piece, however long the body", () => {
    for (const paragraphs of [10_000, 80_000]) {
      const body = "Absatz.\n\n".repeat(paragraphs);
      let blocks = 0;
      const scan = scanTopLevelBlocks(body, 0, true, () => blocks++, 4096);
      expect(blocks).toBe(paragraphs);
      expect(scan.peakTokens).toBe(3); // one paragraph's
      expect(scan.peakLines).toBeLessThanOrEqual((4096 / 9) * 2 + 4);
      expect(scan.pieces).toBeGreaterThanOrEqual(body.length / 4096 - 1);
    }
  });

  test("a block longer than a piece is parsed whole, in pieces doubled in length", () => {
    const fence = `\`\`\`\n${"code\n".repeat(200_000)}\`\`\`\n\n# After\n`;
    const scan = scanTopLevelBlocks(fence, 0, true, () => {}, PIECE_LENGTH);
    expect(scan.pieces).toBeLessThanOrEqual(4);
    expect(parseArtifact(fence).targets.map((t) => t.heading?.text)).toEqual([undefined, "After"]);
  });

  test(`a top-level block of more than ${MAX_BLOCK_LINES} lines is refused, named`, () => {
    const text = `\`\`\`\n${"a\n".repeat(MAX_BLOCK_LINES + 1)}`;
    expect(refusal(() => readArtifact(text))).toBe(
      `a top-level block from line 1 of the body has more than ${MAX_BLOCK_LINES} lines, the cap`,
    );
  });

  test(`a top-level block of more than ${MAX_BLOCK_TOKENS} block tokens is refused, named`, () => {
    const text = `# H\n\n${"- a\n".repeat(MAX_BLOCK_TOKENS / 4)}`;
    expect(refusal(() => readArtifact(text))).toBe(
      `a top-level block from line 3 of the body has more than ${MAX_BLOCK_TOKENS} block tokens, the cap`,
    );
  });
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const cli = runMain;
