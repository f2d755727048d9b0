import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { generateRecords } from "../../src/core/records/parse-artifact.js";
import type { OutputRecord } from "../../src/core/records/record-line.js";
import type { LockManifest } from "../../src/core/lock/manifest.js";
import { lock, type LockOptions } from "../../src/node/dataset/lock.js";
import { repoRoot } from "./records.js";

/** A fresh temporary folder; removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "citation-targets-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Copies a fixture dataset into `dir/<name>` and returns its path. */
export async function copyFixture(name: "privacy-act-1988" | "mvfg", dir: string): Promise<string> {
  const target = join(dir, name);
  await cp(join(repoRoot, "fixtures/datasets", name), target, { recursive: true });
  return target;
}

/** Writes files (POSIX relative path → text) under root. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, ...path.split("/"));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** The committed manifest of a fixture. */
export async function fixtureManifest(slug: string): Promise<LockManifest> {
  return JSON.parse(
    await readFile(join(repoRoot, ".tooling/citation-targets", `${slug}.lock.json`), "utf8"),
  ) as LockManifest;
}

/** Locks a dataset directory with the fixture's metadata, then generates its records in memory. */
export async function lockAndGenerate(
  root: string,
  options: Partial<LockOptions> = {},
): Promise<{ manifest: LockManifest; records: OutputRecord[] }> {
  const result = await lock({
    dir: root,
    slug: "test-act",
    titleId: "T1",
    name: "Test Act",
    versionDate: "2024-01-01",
    sourceTextUrl: "https://www.legislation.gov.au/T1/text",
    ...options,
  });
  const records: OutputRecord[] = [];
  for await (const record of generateRecords(result.manifest, (path) => readFile(join(root, ...path.split("/")))))
    records.push(record);
  return { manifest: result.manifest, records };
}

/**
 * The `lock` flags that give the privacy-act-1988 fixture its committed manifest: the dataset fields and the kinds of
 * its document files.
 */
export const PRIVACY_ACT_LOCK_FLAGS = [
  "--slug",
  "privacy-act-1988",
  "--title-id",
  "C2004A03712",
  "--name",
  "Privacy Act 1988",
  "--version-date",
  "2024-06-10",
  "--source-text-url",
  "https://www.legislation.gov.au/C2004A03712/2024-06-10/text",
  "--kind",
  "front-matter.md=document-frontmatter",
  "--kind",
  "contents.md=document-contents",
  "--kind",
  "preamble.md=document-preamble",
];
