import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { twinDatasetWarnings } from "../src/node/update/twin-datasets.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A manifest with the members the warning reads. */
function manifest(name: string, datasetRoot: string): string {
  const path = join(dir, `${name}.lock.json`);
  writeFileSync(path, JSON.stringify({ titleId: "101", versionDate: "2024-01-01", name: "Verfassung", datasetRoot }));
  return path;
}

describe("the warning about two datasets of one law (twin-datasets.ts)", () => {
  it("warns of two datasets with the same titleId, versionDate and name", () => {
    dir = mkdtempSync(join(tmpdir(), "ct-twins-"));
    mkdirSync(join(dir, "a"));
    mkdirSync(join(dir, "b"));
    const warnings = twinDatasetWarnings([manifest("a", "a"), manifest("b", "b")], dir);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("a.lock.json, b.lock.json look like one law twice");
  });

  it("takes what the caller read of a manifest (validate's reports) and does not read it again", () => {
    dir = mkdtempSync(join(tmpdir(), "ct-twins-"));
    mkdirSync(join(dir, "a"));
    mkdirSync(join(dir, "b"));
    const a = manifest("a", "a");
    const b = manifest("b", "b");
    const read = twinDatasetWarnings([a, b], dir);
    // b's file is gone: what the caller read of it stands for it, and the warning is the one reading it gave.
    rmSync(b);
    const known = new Map([[b, { titleId: "101", versionDate: "2024-01-01", name: "Verfassung", datasetRoot: "b" }]]);
    expect(twinDatasetWarnings([a, b], dir, known)).toEqual(read);
    expect(twinDatasetWarnings([a, b], dir)).toEqual([]);
    // Told another name, the pair is two editions: no warning.
    known.set(b, { ...known.get(b)!, name: "Constitution" });
    expect(twinDatasetWarnings([a, b], dir, known)).toEqual([]);
  });

  it("leaves out a dataset whose root cannot be asked about (a file on its path), without failing", () => {
    dir = mkdtempSync(join(tmpdir(), "ct-twins-"));
    mkdirSync(join(dir, "a"));
    writeFileSync(join(dir, "file"), "not a folder");
    // ENOTDIR from the stat of file/sub: the dataset is left out, so no pair is left to warn of.
    expect(twinDatasetWarnings([manifest("a", "a"), manifest("b", "file/sub")], dir)).toEqual([]);
    mkdirSync(join(dir, "c"));
    expect(twinDatasetWarnings([manifest("a", "a"), manifest("b", "file/sub"), manifest("c", "c")], dir)).toEqual([
      expect.stringContaining("a.lock.json, c.lock.json look like one law twice"),
    ]);
  });
});
