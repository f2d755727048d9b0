/**
 * What crosses to the workers with each batch of generate's artifacts (src/node/generate/generate-pool.ts): the
 * dataset fields the records need, not the whole manifest. A statute book kept as one dataset has `documentAliases`
 * for every law (hundreds of KB); sent with every batch, its structured clone cost as much as the units' records
 * (bench/RESULTS.md, "Units").
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { generateLineBatchesFrom, linesInThread } from "../src/core/records/generate.js";
import type { LockManifest } from "../src/core/lock/manifest.js";
import { parseArtifactBytes } from "../src/core/records/parse-artifact.js";
import { lock } from "../src/node/dataset/lock.js";
import { type ArtifactTasks, artifactBatch, poolLineSource } from "../src/node/generate/generate-pool.js";
import type { WorkPool } from "../src/node/pool/pool.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

test("each batch carries the record fields and units, never the aliases of the book's laws; the lines are the same", async () => {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 40; n++)
    files[`law-${n}/index.md`] =
      `---\ntitle: Gesetz ${n}\njurabk: G${n}\n---\n\n# Gesetz ${n}\n\n## § 1 Zweck\n\n(1) Erstens.\n\n(2) Zweitens:\n\n1. eins,\n2. zwei.\n`;
  await writeTree(join(dir, "book"), files);
  const output = join(dir, "book.lock.json");
  await lock({
    dir: join(dir, "book"),
    output,
    slug: "book",
    titleId: "BOOK",
    name: "Bundesrecht",
    versionDate: "2024-06-26",
    sourceTextUrl: "https://www.legislation.gov.au/book/text",
    units: true,
  });
  const manifest = JSON.parse(await readFile(output, "utf8")) as LockManifest;
  // The book's laws each have their own names (lock --units fills them from `jurabk`).
  expect(Object.keys(manifest.documentAliases ?? {})).toHaveLength(40);

  const sent: Record<string, unknown>[] = [];
  const pool = {
    threads: 2,
    workers: 2,
    capped: false,
    async run(_name: string, task: Parameters<typeof artifactBatch>[0]) {
      sent.push(task.fields as unknown as Record<string, unknown>);
      return artifactBatch(structuredClone(task));
    },
    async close() {},
  } as unknown as WorkPool<ArtifactTasks>;
  const root = join(dir, "book");
  const bytesOf = (position: number) => readFile(join(root, manifest.artifacts[position]!.path));
  const parsed = async (position: number) =>
    parseArtifactBytes(manifest.artifacts[position]!, await bytesOf(position), {}, false, true);
  const inThread = linesInThread(manifest, parsed);
  const sizes = manifest.artifacts.map(() => 200 * 1024); // two artifacts a batch: many batches
  let pooled = "";
  for await (const batch of generateLineBatchesFrom(manifest, poolLineSource(manifest, root, pool, sizes, inThread)))
    pooled += batch.join("");
  let own = "";
  for await (const batch of generateLineBatchesFrom(manifest, inThread)) own += batch.join("");

  expect(sent.length).toBeGreaterThan(10);
  for (const fields of sent) {
    expect(Object.keys(fields).sort()).toEqual(
      ["datasetDigest", "lockVersion", "name", "slug", "sourceTextUrl", "titleId", "units", "versionDate"].sort(),
    );
    expect(fields.units).toBe(true);
  }
  expect(pooled).toBe(own);
  expect(pooled.split("\n").length).toBeGreaterThan(40 * 4);
});
