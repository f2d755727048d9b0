/**
 * `view` writes the page a piece at a time (src/node/view/view.ts, renderDatasetPagePieces): a statute book's page of
 * 51 MB is never held whole. Its chunks of PAGE_CHUNK characters join into the page, and the page written to a file and to
 * standard output is the same.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PAGE_CHUNK, pageChunks, viewDataset } from "../src/node/view/view.js";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

/** 12,000 targets in 40 laws, headings nested three deep, umlauts and a § in every address: a page of several MiB. */
async function largeDataset(): Promise<string> {
  const lines: string[] = [];
  for (let law = 0; law < 40; law++)
    for (let k = 0; k < 300; k++) {
      const address = `buch/gesetz-${law}/index.md#§-${k}`;
      lines.push(
        JSON.stringify({
          artifactRelativePath: `gesetz-${law}/index.md`,
          citationAddress: address,
          headingText: `§ ${k} Vorschrift über Änderungen`,
          headingTrail: [`Gesetz ${law}`, `Abschnitt ${Math.floor(k / 30)}`],
          markdown: `## § ${k}\n\nDer „Text“ der Vorschrift ${k}.\n`,
          targetKind: "markdown-artifact",
        }),
      );
    }
  const path = join(dir, "buch.jsonl");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

test("the chunks of a page's pieces are its text, each of at least PAGE_CHUNK characters but the last", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 300_000 }), { maxLength: 30 }), (pieces) => {
      const chunks = [...pageChunks(pieces)];
      expect(chunks.join("")).toBe(pieces.join(""));
      for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(PAGE_CHUNK);
      if (pieces.length > 0) expect(chunks.length).toBeGreaterThan(0);
    }),
    { numRuns: 50 },
  );
});

test("a page of several MiB: written to a file and to standard output, the same bytes, every target in it", async () => {
  const path = await largeDataset();
  const { version } = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as { version: string };
  // The library's page, for its size and rows (the CLI's embeds its script from the bundle, spaced otherwise).
  const page = (await viewDataset({ path, cwd: dir, toolVersion: version })).html;
  expect(Buffer.byteLength(page)).toBeGreaterThan(3 * 2 ** 20);
  const written = await runBin(["view", "buch.jsonl", "-o", "buch.html"], dir);
  expect(written.code, written.stderr).toBe(0);
  const file = await readFile(join(dir, "buch.html"), "utf8");
  const printed = await runBin(["view", "buch.jsonl"], dir);
  expect(printed.code, printed.stderr).toBe(0);
  expect(printed.stdout).toBe(file);
  const rows = (text: string) => text.match(/<li data-i="\d+">/g)?.length;
  expect(rows(file)).toBe(12_000);
  expect(rows(file)).toBe(rows(page));
  // Up to the embedded script, the CLI's page is the library's, byte for byte.
  const scriptAt = (text: string) => text.indexOf("<script>");
  expect(file.slice(0, scriptAt(file))).toBe(page.slice(0, scriptAt(page)));
}, 60_000);
