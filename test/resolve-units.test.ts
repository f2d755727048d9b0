/**
 * resolve on a dataset generated with `--units` (README, "resolve" and "Citing below the heading"): `--units` without
 * `--alias` fills the manifest's `aliases` from the default front matter keys (`jurabk`, …), and a pinpoint citation
 * resolves to the unit itself, an Absatz's Satz to its Absatz.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { lock } from "../src/node/dataset/lock.js";
import { generate } from "../src/node/generate/generate.js";
import { resolveCitations } from "../src/node/resolve/resolve.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

let dir: string;
let cleanup: () => Promise<void>;
const LAW = `---
jurabk: BGB
title: Bürgerliches Gesetzbuch (Auszug)
---

# Bürgerliches Gesetzbuch

## § 823 Schadensersatzpflicht

(1) Wer vorsätzlich oder fahrlässig das Leben, den Körper, die Gesundheit, die Freiheit, das Eigentum oder ein sonstiges Recht eines anderen widerrechtlich verletzt, ist dem anderen zum Ersatz des daraus entstehenden Schadens verpflichtet. Ein zweiter Satz.

(2) Die gleiche Verpflichtung trifft denjenigen, welcher gegen ein den Schutz eines anderen bezweckendes Gesetz verstößt.

## § 309 Klauselverbote ohne Wertungsmöglichkeit

Auch soweit eine Abweichung zulässig ist, ist unwirksam

1.  (Kurzfristige Preiserhöhungen)

    eine Bestimmung, die die Erhöhung des Entgelts vorsieht;

2.  (Leistungsverweigerungsrechte)

    eine Bestimmung, durch die
`;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, { "bgb/index.md": LAW });
});
afterAll(async () => cleanup());

const fields = {
  slug: "bgb",
  titleId: "bgb",
  name: "Bürgerliches Gesetzbuch",
  versionDate: "2024-01-01",
  sourceTextUrl: "https://www.gesetze-im-internet.de/bgb/",
};

test("lock without --units or --alias writes no aliases; --units writes the default keys' values", async () => {
  const output = join(dir, "bgb.lock.json");
  await lock({ dir: join(dir, "bgb"), cwd: dir, output, ...fields });
  expect(JSON.parse(await readFile(output, "utf8")).aliases).toBeUndefined();
  await lock({ dir: join(dir, "bgb"), cwd: dir, output, units: true });
  const manifest = JSON.parse(await readFile(output, "utf8"));
  expect(manifest.units).toBe(true);
  expect(manifest.aliases).toEqual(["BGB"]);
  await generate({ manifest: output, cwd: dir, output: join(dir, "bgb.jsonl") });
});

test("pinpoint citations resolve to their units by the default alias", async () => {
  const { results } = await resolveCitations({
    citations: ["§ 823 Abs. 1 BGB", "§ 823 Abs. 1 S. 2 BGB", "§ 309 Nr. 2 BGB", "§ 823 II BGB"],
    datasets: [join(dir, "bgb.lock.json")],
    cwd: dir,
    cache: false,
  });
  expect(results.map((r) => [r.outcome, r.precision, r.citationAddress])).toEqual([
    ["match", "unit", "bgb/index.md#§-823/abs-1"],
    ["match", "enclosing", "bgb/index.md#§-823/abs-1"],
    ["match", "unit", "bgb/index.md#§-309/nr-2"],
    ["match", "unit", "bgb/index.md#§-823/abs-2"],
  ]);
});
