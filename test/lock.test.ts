import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DatasetError } from "../src/core/errors.js";
import { compareNatural, comparePaths } from "../src/core/address/natural-sort.js";
import { computeDatasetDigest } from "../src/core/lock/manifest.js";
import { lock } from "../src/node/dataset/lock.js";
import { generate } from "../src/node/generate/generate.js";
import { OperationalError } from "../src/node/errors.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const META = {
  slug: "test-act",
  titleId: "T1",
  name: "Test Act",
  versionDate: "2024-01-01",
  sourceTextUrl: "https://www.legislation.gov.au/T1/text",
};

describe("ordering", () => {
  test("natural order: numbers by value, index.md then README.md first in their folder", () => {
    const paths = [
      "part-2/section-10.md",
      "part-10/index.md",
      "part-2/section-2.md",
      "part-2/README.md",
      "part-2/index.md",
      "contents.md",
      "part-2/section-2a.md",
      "Part-3/a.md",
    ];
    expect([...paths].sort(comparePaths)).toEqual([
      "contents.md",
      "part-2/index.md",
      "part-2/README.md",
      "part-2/section-2.md",
      "part-2/section-2a.md",
      "part-2/section-10.md",
      "Part-3/a.md",
      "part-10/index.md",
    ]);
    expect(compareNatural("s-007.md", "s-7.md")).toBeGreaterThan(0);
  });
});

describe("lock", () => {
  test("writes the manifest: order, digests, inferred kinds, datasetDigest", async () => {
    await writeTree(dir, {
      "part-1/index.md": "# Part 1\n",
      "part-1/section-10.md": "# 10 X\n",
      "part-1/section-9.md": "# 9 Y\n",
      "contents.md": "# Contents\n",
      ".hidden/x.md": "no",
      "node_modules/y.md": "no",
    });
    const result = await lock({ dir, ...META });
    expect(result.written).toBe(true);
    const manifest = JSON.parse(await readFile(join(dir, "citation-targets.lock.json"), "utf8"));
    expect(manifest.artifacts.map((a: { path: string; kind?: string }) => [a.path, a.kind])).toEqual([
      ["contents.md", undefined],
      ["part-1/index.md", "directory-index"],
      ["part-1/section-9.md", undefined],
      ["part-1/section-10.md", undefined],
    ]);
    expect(manifest.datasetDigest).toBe(computeDatasetDigest(manifest));
    expect(manifest.artifacts[0].sha256).toBe("acb10ba5a8654da7dc747b9bf48c2372db73817c2a6023f13ccea0357f8091fb"); // printf '# Contents\n' | sha256sum
  });

  test("refresh keeps hand-set kinds and order, updates digests, and places new files naturally", async () => {
    await writeTree(dir, { "a.md": "# A\n", "b.md": "# B\n", "c.md": "# C\n" });
    await lock({ dir, ...META, order: ["c.md", "a.md", "b.md"], kinds: { "c.md": "document-preamble" } });
    await writeTree(dir, { "a.md": "# A amended\n", "b2.md": "# B2\n" });
    const result = await lock({ dir });
    expect(result.manifest.artifacts.map((a) => a.path)).toEqual(["c.md", "a.md", "b.md", "b2.md"]);
    expect(result.manifest.artifacts[0]!.kind).toBe("document-preamble");
    expect(result.manifest.name).toBe("Test Act");
    const again = await lock({ dir, check: true });
    expect(again.changed).toBe(false);
  });

  test("--check writes nothing and says the manifest is stale", async () => {
    await writeTree(dir, { "a.md": "# A\n" });
    await lock({ dir, ...META });
    await writeTree(dir, { "a.md": "# A changed\n" });
    const before = await readFile(join(dir, "citation-targets.lock.json"), "utf8");
    const result = await lock({ dir, check: true });
    expect(result).toMatchObject({ changed: true, written: false });
    expect(await readFile(join(dir, "citation-targets.lock.json"), "utf8")).toBe(before);
  });

  test("refuses non-UTF-8 files and symbolic links out of the root, naming each", async () => {
    const root = join(dir, "dataset");
    await writeTree(root, { "a.md": "# A\n", "bad.md": new Uint8Array([0x23, 0x20, 0xff, 0x0a]) });
    await writeTree(dir, { "outside.md": "# Outside\n" });
    await symlink(join(dir, "outside.md"), join(root, "link.md"));
    const error = await lock({ dir: root, ...META }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).problems).toEqual([
      "bad.md: not valid UTF-8: line 1, byte 0xFF at byte 3 of the line (saved as Latin-1 or Windows-1252? save it as UTF-8)",
      expect.stringMatching(
        /^cannot read .*dataset\/link\.md: it is a symbolic link to .*outside\.md, outside the dataset root$/,
      ),
    ]);
    // The link is not read: the checkout is at fault, and the CLI says so by its exit code (2).
    expect((error as DatasetError).unreadable).toBe(true);
  });

  test("a folder whose artifacts are not contiguous in an explicit order is refused", async () => {
    await writeTree(dir, { "p/a.md": "# A\n", "p/b.md": "# B\n", "q.md": "# Q\n" });
    await expect(lock({ dir, ...META, order: ["p/a.md", "q.md", "p/b.md"] })).rejects.toThrow(
      /folder "p" is not contiguous/,
    );
  });

  test("an incomplete order list is refused", async () => {
    await writeTree(dir, { "a.md": "# A\n", "b.md": "# B\n" });
    await expect(lock({ dir, ...META, order: ["a.md"] })).rejects.toThrow(
      /b\.md: an artifact missing from the order list/,
    );
  });

  test("the first lock needs every dataset field", async () => {
    await writeTree(dir, { "a.md": "# A\n" });
    const error = await lock({ dir, slug: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationalError);
    expect((error as Error).message).toContain("--title-id, --name, --version-date, --source-text-url");
  });

  test("a manifest elsewhere records the way back to the dataset", async () => {
    await writeTree(dir, { "data/a.md": "# A\n" });
    await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
    const result = await lock({
      dir: join(dir, "data"),
      output: join(dir, ".tooling/citation-targets/test-act.lock.json"),
      ...META,
    });
    expect(result.manifest.datasetRoot).toBe("../../data");
    const inPlace = await lock({ dir: join(dir, "data"), ...META });
    expect(inPlace.manifest.datasetDigest).toBe(result.manifest.datasetDigest);
  });

  test("writes atomically: no temporary file is left behind", async () => {
    await writeTree(dir, { "a.md": "# A\n" });
    await lock({ dir, ...META });
    const { readdir } = await import("node:fs/promises");
    expect((await readdir(dir)).sort()).toEqual(["a.md", "citation-targets.lock.json"]);
    await writeFile(join(dir, "b.md"), "# B\n");
  });
});

describe("generate refuses a manifest that points outside its root", () => {
  test("a '..' path fails the manifest schema", async () => {
    await writeTree(dir, { "a.md": "# A\n" });
    const { manifest } = await lock({ dir, ...META });
    manifest.artifacts[0]!.path = "../a.md";
    await writeFile(join(dir, "bad.lock.json"), JSON.stringify(manifest));
    await expect(generate({ manifest: join(dir, "bad.lock.json") })).rejects.toThrow(
      /does not match its schema:\n {2}\/artifacts\/0\/path/,
    );
  });

  test("a hand-edited units, and a member of fixed choices, say the value they must have", async () => {
    await writeTree(dir, { "a.md": "# A\n" });
    const { manifest } = await lock({ dir, ...META });
    await writeFile(join(dir, "units.lock.json"), JSON.stringify({ ...manifest, units: false }));
    await expect(generate({ manifest: join(dir, "units.lock.json") })).rejects.toThrow(
      "/units false: only true is written (the dataset has targets for the units below the heading); for a dataset without them, remove the member",
    );
    await writeFile(join(dir, "version.lock.json"), JSON.stringify({ ...manifest, lockVersion: 7 }));
    await expect(generate({ manifest: join(dir, "version.lock.json") })).rejects.toThrow(/\/lockVersion must be \d/);
  });

  test("an artifact that is a symbolic link out of the root is named", async () => {
    const root = join(dir, "dataset");
    await writeTree(root, { "a.md": "# A\n" });
    const { manifest } = await lock({ dir: root, ...META });
    await writeTree(dir, { "outside.md": "# A\n" });
    const { rm } = await import("node:fs/promises");
    await rm(join(root, "a.md"));
    await symlink(join(dir, "outside.md"), join(root, "a.md"));
    const error = await generate({ manifest: join(root, "citation-targets.lock.json"), cwd: dir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).problems[0]).toMatch(/^a\.md: resolves to .*outside\.md, outside the dataset root/);
    expect(manifest.artifacts).toHaveLength(1);
  });
});
