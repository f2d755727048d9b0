/**
 * validate keeps the artifacts' bodies as bytes (src/node/validate/validate-lock.ts, `keepBodies`); the library
 * digests them. The facts must be the same both ways, fault for fault and word for word, the bodies
 * as the digests the rule compares with.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { sha256Hex } from "../src/core/bytes.js";
import type { LockContext } from "../src/core/lock/lock-context.js";
import { lock } from "../src/node/dataset/lock.js";
import { loadLockContext, openLockContext } from "../src/node/validate/validate-lock.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, ".git"));
});
afterEach(async () => cleanup());

const MANIFEST = ".tooling/citation-targets/test-act.lock.json";

/** The facts both ways, the bodies as the digests the rule compares with. */
async function factsBothWays(): Promise<[unknown, unknown]> {
  const shown = (context: LockContext) => ({
    missing: context.missingArtifacts,
    changed: [...context.changedArtifacts],
    unlisted: context.unlistedFiles,
    bodies: [
      ...context.bodyDigests,
      ...[...(context.bodyBytes ?? new Map<string, Uint8Array>())].map(
        ([path, bytes]) => [path, sha256Hex(bytes)] as const,
      ),
    ].sort(),
    datasetRoot: context.datasetRoot,
    skipped: context.artifactsSkipped,
    folderMissing: context.datasetFolderMissing,
    failed: context.artifactsFailed,
  });
  const theirs = await loadLockContext(join(dir, MANIFEST), MANIFEST, dir);
  const ours = await openLockContext(join(dir, MANIFEST), MANIFEST, dir, { keepBodies: true });
  await ours.ready?.catch(() => undefined);
  return [shown(ours), shown(theirs)];
}

async function lockDataset(files: Record<string, string>) {
  await writeTree(join(dir, "law"), files);
  await lock({
    dir: join(dir, "law"),
    cwd: dir,
    output: join(dir, MANIFEST),
    slug: "test-act",
    titleId: "T1",
    name: "Test Act",
    versionDate: "2024-01-01",
    sourceTextUrl: "https://www.legislation.gov.au/T1/text",
  });
}

test("a dataset as locked: every body kept, nothing else", async () => {
  await lockDataset({ "index.md": "---\ntitle: T\n---\n# Gesetz\n\nText.\n", "part-1/a.md": "# § 1 Eins\n\nä ö ü\n" });
  const [ours, theirs] = await factsBothWays();
  expect(ours).toEqual(theirs);
  expect(ours).toMatchObject({ missing: [], changed: [], unlisted: [], datasetRoot: "law" });
});

test("missing, changed, unlisted, linked inside, linked outside, a FIFO and a file that is not UTF-8: the same facts, in the same words", async () => {
  await lockDataset({
    "index.md": "# G\n",
    "a.md": "# A\n",
    "b.md": "# B\n",
    "c.md": "# C\n",
    "d.md": "# D\n",
    "e.md": "# E\n",
    "f.md": "# F\n",
    "inside/target.md": "# T\n",
  });
  await rm(join(dir, "law/a.md")); // missing
  await writeFile(join(dir, "law/b.md"), "# B changed\n"); // changed
  await writeFile(join(dir, "law/new.md"), "# New\n"); // unlisted
  await rm(join(dir, "law/c.md"));
  await symlink("inside/target.md", join(dir, "law/c.md")); // a link inside the root: changed (other bytes), read through the link
  await writeFile(join(dir, "outside.md"), "# D\n");
  await rm(join(dir, "law/d.md"));
  await symlink("../outside.md", join(dir, "law/d.md")); // a link out of the root: refused by name
  await rm(join(dir, "law/e.md"));
  execFileSync("mkfifo", [join(dir, "law/e.md")]); // not a regular file: refused by name, never read
  await writeFile(join(dir, "law/f.md"), Buffer.from([0x23, 0x20, 0xff, 0x0a])); // changed, and not UTF-8
  const [ours, theirs] = await factsBothWays();
  expect(ours).toEqual(theirs);
  expect(ours).toMatchObject({ missing: ["a.md"], unlisted: ["new.md"], datasetRoot: undefined });
  expect((ours as { failed: string }).failed).toContain("d.md: resolves to");
  expect((ours as { failed: string }).failed).toContain("e.md");
});

test("a dataset folder that is not there: said missing (an error of lock-dataset-files), the same words", async () => {
  await lockDataset({ "index.md": "# G\n" });
  await rm(join(dir, "law"), { recursive: true });
  const [ours, theirs] = await factsBothWays();
  expect(ours).toEqual(theirs);
  expect((ours as { folderMissing: string }).folderMissing).toBe("law");
});

test("a dataset folder that is a file, a link to nothing or a link to the folder: the same facts", async () => {
  await lockDataset({ "index.md": "# G\n", "a.md": "# A\n" });
  await rename(join(dir, "law"), join(dir, "real-law"));
  await symlink("real-law", join(dir, "law")); // a link to the folder: read through it
  let [ours, theirs] = await factsBothWays();
  expect(ours).toEqual(theirs);
  expect(ours).toMatchObject({ missing: [], changed: [], datasetRoot: "law" });
  await rm(join(dir, "law"));
  await symlink("nowhere", join(dir, "law")); // a link to nothing
  [ours, theirs] = await factsBothWays();
  expect(ours).toEqual(theirs);
  expect((ours as { folderMissing: string }).folderMissing).toBe("law");
  await rm(join(dir, "law"));
  await writeFile(join(dir, "law"), "not a folder\n"); // a file
  [ours, theirs] = await factsBothWays();
  expect(ours).toEqual(theirs);
  expect((ours as { folderMissing: string }).folderMissing).toBe("law");
});

test("a lock manifest that names a key twice is the file's error, naming both places and the fix; lock's own text passes", async () => {
  await lockDataset({ "index.md": "# G\n" });
  const path = join(dir, MANIFEST);
  const written = await readFile(path, "utf8");
  await expect(loadLockContext(path, MANIFEST, dir)).resolves.toBeDefined();
  // A hand edit that left an old value above the real one: JSON.parse keeps the last, other readers the first.
  await writeFile(path, written.replace('  "versionDate"', '  "versionDate": "2099-01-01",\n  "versionDate"'));
  const fix = `JSON readers disagree on which one counts (this tool reads the last); delete the one that is wrong, or run \`citation-targets update ${MANIFEST}\`, which writes the manifest again with the last`;
  await expect(openLockContext(path, MANIFEST, dir, { keepBodies: true })).rejects.toThrow(
    `lock manifest ${MANIFEST} names a key twice: line 7, column 3: duplicate key "versionDate" (first at line 6, column 3) at /versionDate: ${fix}`,
  );
  // Inside an artifact too, minified (one line), each repeat counted.
  const data = JSON.parse(written) as { artifacts: { sha256: string }[] };
  const sha = data.artifacts[0]!.sha256;
  const minified = JSON.stringify(data).replace(`"sha256":"${sha}"`, `"sha256":"${sha}","sha256":"${sha}"`);
  await writeFile(path, minified.replace('"slug":"test-act"', '"slug":"test-act","slug":"test-act"'));
  const message = await loadLockContext(path, MANIFEST, dir).catch((error: Error) => error.message);
  expect(message).toMatch(
    /names a key twice: line 1, column \d+: duplicate key "slug" \(first at line 1, column \d+\) at \/slug \(and 1 more repeated key\): /,
  );
});
