// generate's lines as bytes (src/node/generate/encoded-lines.ts): what the worker threads make from an artifact's source
// bytes (writeArtifactByteLines, batchEncoder) and the main thread joins (writeSteps) is byte for byte the UTF-8
// of the text lines made in one thread (generateLineBatchesFrom over linesInThread), with and without units.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { LockManifest, ManifestArtifact } from "../src/core/lock/manifest.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import {
  generateLineBatchesFrom,
  generateLineStepsFrom,
  type LineSource,
  lineStartsInBytes,
  linesInThread,
  sourceBytesOf,
  targetLineTemplate,
  Utf8Offsets,
  writeArtifactByteLines,
} from "../src/core/records/generate.js";
import { parseArtifactBytes } from "../src/core/records/parse-artifact.js";
import { batchEncoder, jsonBytesRoom, writeJsonBytes, writeSteps } from "../src/node/generate/encoded-lines.js";
import { lock } from "../src/node/dataset/lock.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { lineStartsInJson } from "./helpers/line-starts-in-json.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const fixture = (path: string) => readFileSync(join(repoRoot, "test/fixtures-units", path), "utf8");

/** Locks `files` as one dataset and reads its artifacts' bytes. */
async function dataset(files: Record<string, string | Uint8Array>, units: boolean) {
  const root = join(dir, `ds-${Math.random().toString(36).slice(2)}`);
  await writeTree(root, files);
  const output = join(root, "x.lock.json");
  await lock({
    dir: root,
    output,
    slug: "test-act",
    titleId: "T1",
    name: "Test Act \u00e4 \u201c\u201d",
    versionDate: "2024-01-01",
    sourceTextUrl: "https://www.legislation.gov.au/T1/text",
    ...(units ? { units: true } : {}),
  });
  const manifest = JSON.parse(await readFile(output, "utf8")) as LockManifest;
  const bytes = new Map<string, Uint8Array>();
  for (const artifact of manifest.artifacts) bytes.set(artifact.path, await readFile(join(root, artifact.path)));
  return { manifest, bytes, root };
}

/** The dataset's lines as text (one thread) and as bytes (as the workers make them, joined as the main thread does). */
async function bothWays(manifest: LockManifest, bytes: Map<string, Uint8Array>) {
  const units = manifest.units === true;
  const parsed = async (position: number) => {
    const artifact = manifest.artifacts[position]!;
    return parseArtifactBytes(artifact, bytes.get(artifact.path)!, {}, false, units);
  };
  let text = "";
  for await (const batch of generateLineBatchesFrom(manifest, linesInThread(manifest, parsed))) text += batch.join("");
  // As the workers make them: each line encoded as soon as it is made (writeArtifactByteLines), into a batch's buffers
  // (batchEncoder) after the lines of the artifact before it, so that each answer is a view of one or more of them.
  const encodeInto = async (encoder: ReturnType<typeof batchEncoder>, position: number) => {
    const artifact = manifest.artifacts[position]!;
    const { text: decoded, parsed: cut } = await parsed(position);
    const source = sourceBytesOf(decoded, bytes.get(artifact.path)!);
    return encoder.add(targetLineTemplate(manifest, artifact), (line) =>
      writeArtifactByteLines(manifest, artifact, cut, source, line),
    );
  };
  const encoded: LineSource = async (position) => {
    const encoder = batchEncoder();
    if (position > 0) await encodeInto(encoder, position - 1);
    const lines = await encodeInto(encoder, position);
    encoder.done();
    return lines;
  };
  const pieces: Uint8Array[] = [];
  const count = await writeSteps(generateLineStepsFrom(manifest, encoded), async (piece) => {
    pieces.push(Uint8Array.from(piece));
  });
  // The same encoded lines decoded to text (update compares a small dataset's lines as text), runs in other buffers too.
  let decoded = "";
  for await (const batch of generateLineBatchesFrom(manifest, encoded)) decoded += batch.join("");
  // The text lines themselves, each piece encoded by Buffer.from (not the workers' encoder), joined the same way.
  const plain: LineSource = async (position) => {
    const lines = await linesInThread(manifest, parsed)(position);
    if (!("targets" in lines)) return lines;
    const pieces: Buffer[] = [];
    const ends = new Uint32Array(4 * lines.targets.length);
    let at = 0;
    let k = 0;
    for (const { parts, ownTrail } of lines.targets)
      for (const piece of [parts[0]!, parts[1]!, parts[2]!, ownTrail]) {
        const encoded = Buffer.from(piece, "utf8");
        pieces.push(encoded);
        ends[k++] = at += encoded.length;
      }
    return {
      firstHeading: lines.firstHeading,
      bytes: Buffer.concat(pieces),
      more: undefined,
      ends,
      trails: lines.trails,
    };
  };
  const plainPieces: Uint8Array[] = [];
  await writeSteps(generateLineStepsFrom(manifest, plain), async (piece) => {
    plainPieces.push(Uint8Array.from(piece));
  });
  return {
    text,
    decoded,
    bytes: Buffer.concat(pieces),
    plain: Buffer.concat(plainPieces),
    count,
  };
}

/** Markdown that takes every path of the escaping: quotes, backslashes, controls, CR, NUL, a BOM, 2-, 3- and 4-byte UTF-8. */
const TRICKY = [
  '\ufeff---\ntitle: "Gesetz \\u00fcber \u00c4nderungen"\n---\n',
  '# Gesetz \u00fcber die \u201eTests\u201c\n\nVorspann mit "Zitat" und \\Backslash\\ und \u0001\u001f.\r\n\r\n',
  '## \u00a7 1 Anwendungsbereich \ud83d\ude00\n\n(1) Dieses Gesetz gilt f\u00fcr \u00e4\u00f6\u00fc\u00df \u20ac.\n\n(2) Es gilt nicht:\n\n1. f\u00fcr "A",\n2. f\u00fcr B\u0000,\n   a) erstens\n   b) zweitens\n\n(2a) Eingef\u00fcgt.\r',
  "## \u00a7 2 (weggefallen)\n\n## \u00a7 3 Tabs\tund\fFormfeed\b\n\n> Zitat\n> (1) im Zitat\n",
  // An indented heading: its target starts after its line's start (its units' offsets are found by the walk over its
  // bytes, not by line numbers).
  '   ## \u00a7 4 Einger\u00fcckt\n\n(1) eins "a"\n\n(2) zwei\r\n',
].join("");

describe("generate's lines as bytes are the text lines' UTF-8, byte for byte", () => {
  for (const units of [false, true])
    test(`units ${units}: the fixtures of three legal systems and a text of every escape`, async () => {
      const { manifest, bytes } = await dataset(
        {
          "a/index.md": fixture("de/bgb.md"),
          "a/b.md": TRICKY,
          "c/bv.md": fixture("ch/bv.md"),
          "c/privacy.md": fixture("au/privacy.md"),
        },
        units,
      );
      const both = await bothWays(manifest, bytes);
      expect(both.count).toBeGreaterThan(manifest.artifacts.length);
      expect(both.bytes.equals(Buffer.from(both.text, "utf8"))).toBe(true);
      expect(both.plain.equals(Buffer.from(both.text, "utf8"))).toBe(true);
      expect(both.decoded).toBe(both.text);
    });

  for (const units of [false, true])
    test(`units ${units}: a heading's text of more than 64 KiB, every escape in it (its JSON text's room counted)`, async () => {
      const line = 'Satz mit "Zitat", \\Backslash, \tTab, \fFormfeed, \u0001, \u001f, \u007f und \u00e4\u20ac.\n';
      const { manifest, bytes } = await dataset(
        {
          "law/index.md": `# Gesetz\n\n## \u00a7 1 Lang\n\n${line.repeat(1600)}\n(1) Absatz\n\n## \u00a7 2 Kurz\n\nEnde.\n`,
        },
        units,
      );
      const both = await bothWays(manifest, bytes);
      expect(both.text.length).toBeGreaterThan(65536);
      expect(both.bytes.equals(Buffer.from(both.text, "utf8"))).toBe(true);
      expect(both.decoded).toBe(both.text);
    });

  test("paths and local coordinates of every kind of character; lines past a batch buffer's first MiB", async () => {
    // Local coordinates of letters of two and three bytes (Greek, CJK: written byte by byte and by utf8Write), paths
    // with quotes, spaces and non-ASCII letters (the template's texts), and two artifacts of about a MB of lines each in
    // one batch: the second starts in the first buffer and goes on in another (its lines in two runs, `more`).
    const big = (n: number) =>
      `# Gesetz ${n}\n\n${Array.from(
        { length: 700 },
        (_, i) =>
          `## \u00a7 ${i + 1} Titel\n\n(1) Absatz "eins" ${"x".repeat(200)}\n\n1. Nummer\n2. Nummer\n\n(2) Zwei\n\n`,
      ).join("")}`;
    for (const units of [false, true]) {
      const { manifest, bytes } = await dataset(
        {
          'd "q"/\u00e4 \u20ac.md':
            "# \u0386\u03c1\u03b8\u03c1\u03bf 1\n\ntext\n\n## \u7b2c1\u6761 \u76ee\u7684\n\n(1) \u4e00\n\n## \u0421\u0442\u0430\u0442\u044c\u044f 2\n\n1. \u0430\n",
          'd "q"/README.md': "# Ordner\n\n## \u00a7 1 A\n\n(1) B\n",
          "e/one.md": big(1),
          "e/two.md": big(2),
        },
        units,
      );
      const both = await bothWays(manifest, bytes);
      expect(both.bytes.length).toBeGreaterThan(1.5 * 2 ** 20);
      expect(both.bytes.equals(Buffer.from(both.text, "utf8"))).toBe(true);
      expect(both.decoded).toBe(both.text);
      const records = both.text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(records.some((r) => /[\u0800-\uffff]/.test(r.citationAddress ?? ""))).toBe(true);
      expect(records.some((r) => (r.citationAddress ?? "").includes("%22"))).toBe(true);
    }
  });

  test("the pool's buffers: an answer's runs in two buffers, two answers in one, each buffer sent back once all are written", async () => {
    // A pool that moves buffers as worker threads do (a buffer sent back too early, or still used, is detached here and
    // fails the run), its batches answered in a shuffled order, their spares taken back for the next batches.
    const { artifactBatch, poolLineSource } = await import("../src/node/generate/generate-pool.js");
    const big = (n: number) =>
      `# Gesetz ${n}\n\n${Array.from(
        { length: 240 },
        (_, i) => `## \u00a7 ${i + 1} Titel\n\n(1) Absatz ${"x".repeat(300)}\n\n1. Nummer\n2. Nummer\n\n(2) Zwei\n\n`,
      ).join("")}`;
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`g${String(i).padStart(2, "0")}/index.md`] = big(i);
    const { manifest, bytes, root } = await dataset(files, true);
    const parsed = async (position: number) => {
      const artifact = manifest.artifacts[position]!;
      return parseArtifactBytes(artifact, bytes.get(artifact.path)!, {}, false, true);
    };
    let text = "";
    for await (const batch of generateLineBatchesFrom(manifest, linesInThread(manifest, parsed)))
      text += batch.join("");
    const transfers = (results: unknown[]) => {
      const buffers = new Set<ArrayBuffer>();
      for (const result of results as {
        lines?: { bytes: Uint8Array; ends: Uint32Array; more?: { bytes: Uint8Array }[] };
      }[])
        if (result.lines !== undefined) {
          buffers.add(result.lines.bytes.buffer as ArrayBuffer).add(result.lines.ends.buffer as ArrayBuffer);
          for (const run of result.lines.more ?? []) buffers.add(run.bytes.buffer as ArrayBuffer);
        }
      return [...buffers];
    };
    let spanning = 0;
    let delay = 0;
    const pool = {
      threads: 2,
      workers: 2,
      capped: true,
      async run(_name: string, task: unknown, transfer?: ArrayBuffer[]) {
        const moved = structuredClone(task, { transfer: transfer ?? [] }) as Parameters<typeof artifactBatch>[0];
        delay = (delay + 7) % 5; // batches answered after 0 to 4 ms: out of order
        await new Promise((resolve) => setTimeout(resolve, delay));
        const results = await artifactBatch(moved);
        for (const result of results) if ("lines" in result && result.lines.more !== undefined) spanning++;
        return structuredClone(results, { transfer: transfers(results) });
      },
      async close() {},
    };
    const source = poolLineSource(
      manifest,
      root,
      pool as never,
      // Sizes that make batches of one and two artifacts, and keep a few batches ahead: buffers go back with later ones.
      manifest.artifacts.map((_, i) => (i % 3 === 0 ? 3 * 2 ** 20 : 100_000)),
      linesInThread(manifest, parsed),
    );
    const pieces: Uint8Array[] = [];
    await writeSteps(generateLineStepsFrom(manifest, source), async (piece) => {
      pieces.push(Uint8Array.from(piece));
    });
    expect(spanning).toBeGreaterThan(0);
    expect(Buffer.concat(pieces).equals(Buffer.from(text, "utf8"))).toBe(true);
  });

  test("any text of headings, units and escapes", async () => {
    const piece = fc.constantFrom(
      "# \u00a7 1 Titel\n\n",
      "## Art. 2 \u00c4nderung\n\n",
      "(1) Absatz \u00fc\n\n",
      "1. Nummer\n2. Nummer \u20ac\n\n",
      "   a) Buchstabe\n",
      '"',
      "\\",
      "\u0000",
      "\u0007",
      "\u007f",
      "\r\n",
      "\r",
      "\ud83d\ude00",
      "\u2028",
      "text ",
      "\n",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 60 }), fc.boolean(), async (pieces, units) => {
        const { manifest, bytes } = await dataset({ "law/index.md": `# Gesetz\n\n${pieces.join("")}` }, units);
        const both = await bothWays(manifest, bytes);
        expect(both.bytes.equals(Buffer.from(both.text, "utf8"))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});

describe("Utf8Offsets", () => {
  test("gives the UTF-8 offset of every UTF-16 offset between characters, asked in any order", () => {
    const text = "a\u00e4\u20ac\ud83d\ude00b\u00a7 1\n\u00fc".repeat(7);
    const expected = (offset: number) => Buffer.byteLength(text.slice(0, offset), "utf8");
    // Offsets between characters (generation's are line and block starts), not inside a surrogate pair.
    const between = fc
      .integer({ min: 0, max: text.length })
      .filter((offset) => !/[\ud800-\udbff]/.test(text.charAt(offset - 1)));
    fc.assert(
      fc.property(fc.array(between, { minLength: 1, maxLength: 40 }), (asked) => {
        const offsets = new Utf8Offsets(text);
        for (const offset of asked) expect(offsets.byteOf(offset)).toBe(expected(offset));
      }),
    );
  });
});

describe("a heading's JSON text written from its bytes (writeJsonBytes) is JSON.stringify's of them read as Latin-1", () => {
  const check = (bytes: Uint8Array, from: number, to: number) => {
    const expected = Buffer.from(
      JSON.stringify(Buffer.from(bytes.subarray(from, to)).toString("latin1")).slice(1, -1),
      "latin1",
    );
    const room = jsonBytesRoom(bytes, from, to);
    const out = Buffer.alloc(room + 8, 0xee);
    const end = writeJsonBytes(out, 3, bytes, from, to);
    expect(out.subarray(3, end).equals(expected)).toBe(true);
    expect(end - 3).toBeLessThanOrEqual(room);
  };

  test("every byte, alone and in runs; short and long texts (the room counted past 64 KiB)", () => {
    const every = Uint8Array.from({ length: 256 }, (_, b) => b);
    check(every, 0, 256);
    check(every, 10, 40);
    // Each byte at each place of a word of plain bytes (the writer takes four bytes at once where none is escaped).
    for (let b = 0; b < 256; b++)
      for (let place = 0; place < 8; place++) {
        const text = new Uint8Array(12).fill(0x61);
        text[place] = b;
        check(text, 0, 12);
        check(text, 1, 11);
      }
    for (const fill of [0x01, 0x0a, 0x22, 0x41, 0xc3]) check(new Uint8Array(70_000).fill(fill), 5, 69_999);
  });

  test("any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const from = bytes.length === 0 ? 0 : a % bytes.length;
        const to = from + (bytes.length === 0 ? 0 : b % (bytes.length - from + 1));
        check(bytes, from, to);
      }),
      { numRuns: 500 },
    );
  });
});

describe("lineStartsInBytes reads off the bytes what lineStartsInJson reads off their JSON text", () => {
  test("any text and any lines asked for", () => {
    // Runs of plain bytes long and short (read four at a time), escapes at every place in a word.
    const piece = fc.constantFrom(
      "a",
      "ä",
      "\n",
      "\r",
      "\r\n",
      '"',
      "\\",
      "\t",
      "\u0001",
      "\u007f",
      "€ ",
      "§ 1\n",
      "Text der Norm ",
      "\u00dcberschrift des Absatzes",
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.nat(12), { maxLength: 6 }),
        fc.nat(4),
        fc.boolean(),
        (pieces, asked, pad, tail) => {
          const bytes = Buffer.concat([
            Buffer.alloc(pad, 0x78),
            Buffer.from(pieces.join(""), "utf8"),
            Buffer.from(tail ? '\n"' : ""), // past `to`: never read as the text's (or none: `to` at the end)
          ]);
          const from = pad;
          const to = bytes.length - (tail ? 2 : 0);
          const lines = [...asked].sort((a, b) => a - b);
          const json = JSON.stringify(bytes.subarray(from, to).toString("latin1"));
          const expected = lineStartsInJson(json, lines);
          const got = lineStartsInBytes(bytes, from, to, lines);
          if (expected === undefined) expect(got).toBeUndefined();
          else expect(got).toEqual({ ...expected, end: json.length - 1 });
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("parseArtifactBytes searches the bytes for CR and NUL, not each piece of the text", () => {
  test("any text with or without them: the parse of the text searched piece by piece", () => {
    const piece = fc.constantFrom(
      "# \u00a7 1 Titel\n\n",
      "## Art. 2\r\n\r\nText\r\n",
      "\r## \u00a7 3 Nach CR\r",
      "Absatz\n",
      "\u00dcberschrift\r===\r",
      "\u0000",
      "## a\u0000b\n",
      "T\u0000\n===\n",
      "\u2028",
      "\n",
    );
    const artifact = { path: "law/index.md", sha256: "0".repeat(64), kind: "markdown" } as unknown as ManifestArtifact;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = `# Gesetz\n\n${pieces.join("")}`;
        const { parsed } = parseArtifactBytes(artifact, Buffer.from(text, "utf8"), {}, true);
        expect(parsed).toEqual(parseArtifact(text));
      }),
      { numRuns: 300 },
    );
  });
});
