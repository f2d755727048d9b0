/**
 * resolve on a dataset generated with `--units` (README, "resolve" and "Citing below the heading"): `--units` without
 * `--alias` fills the manifest's `aliases` from the default front matter keys (`jurabk`, …), and a pinpoint citation
 * resolves to the unit itself, an Absatz's Satz to its Absatz.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, onTestFinished, test } from "vitest";
import { lock } from "../src/node/dataset/lock.js";
import { adopt } from "../src/node/update/adopt.js";
import { update } from "../src/node/update/update.js";
import { generate } from "../src/node/generate/generate.js";
import { resolveCitations } from "../src/node/resolve/resolve.js";
import { runBin } from "./helpers/bin.js";
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

test("--units without --alias names itself and the keys it reads when a front matter is not YAML (it said --alias)", async () => {
  const { dir: broken, cleanup: done } = await tempDir();
  onTestFinished(done);
  await writeTree(broken, { "x/index.md": "---\nk: [a\n---\n# X\n\n(1) a.\n" });
  const fields = ["--slug", "x", "--title-id", "x", "--name", "x", "--version-date", "2024-01-01"];
  const url = ["--source-text-url", "https://www.legislation.gov.au/x/text"];
  const run = await runBin(["lock", "x", "--units", ...fields, ...url], broken);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    "--units (its aliases, read from the front matter's keys jurabk, amtabk, abbreviation, shortTitle): the front matter of x/index.md is not valid YAML",
  );
  const asked = await runBin(["lock", "x", "--units", "--alias", "jurabk", ...fields, ...url], broken);
  expect(asked.code).toBe(2);
  expect(asked.stderr).toContain("--alias: the front matter of x/index.md is not valid YAML");
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

/** A law whose slug is not its abbreviation: only the alias finds it by "BGB". */
const LAW_ELSEWHERE = LAW.replace("jurabk: BGB", "jurabk: BGB\nslug: buergerliches-gesetzbuch");
const templates = {
  titleId: "{front.slug}",
  name: "{front.title}",
  versionDate: "2024-01-01",
  sourceTextUrl: "https://www.gesetze-im-internet.de/{front.slug}/",
};
const manifestOf = async (root: string) =>
  JSON.parse(await readFile(join(root, ".tooling/citation-targets/buergerliches-gesetzbuch.lock.json"), "utf8"));
const resolvesByAlias = async (root: string) =>
  (await resolveCitations({ citations: ["§ 823 Abs. 2 BGB"], cwd: root, cache: false })).results.map((r) => [
    r.outcome,
    r.citationAddress,
  ]);

/** A repository with the law adopted (`adopt 'laws/*'`, with units or not); removed when the test ends. */
async function adoptedRepository(units: boolean): Promise<string> {
  const { dir: root, cleanup: done } = await tempDir();
  onTestFinished(done);
  await writeTree(root, { "laws/bgb/index.md": LAW_ELSEWHERE });
  await adopt({
    cwd: root,
    datasets: ["laws/*"],
    templates,
    legislationHost: "www.gesetze-im-internet.de",
    units,
    cache: false,
  });
  return root;
}

test("adopt --units writes the default keys' values as aliases, and the alias finds a law whose slug differs", async () => {
  const root = await adoptedRepository(true);
  const manifest = await manifestOf(root);
  expect([manifest.units, manifest.aliases]).toEqual([true, ["BGB"]]);
  expect(await resolvesByAlias(root)).toEqual([["match", "buergerliches-gesetzbuch/index.md#§-823/abs-2"]]);
});

test("update --units gives a dataset without aliases the default keys' values; aliases already there are kept", async () => {
  const root = await adoptedRepository(false);
  expect((await manifestOf(root)).aliases).toBeUndefined();
  expect((await resolvesByAlias(root))[0]?.[0]).toBe("no-match");
  await update({ cwd: root, units: true, cache: false });
  expect((await manifestOf(root)).aliases).toEqual(["BGB"]);
  expect(await resolvesByAlias(root)).toEqual([["match", "buergerliches-gesetzbuch/index.md#§-823/abs-2"]]);
  // An alias given by hand (--alias on another key) is not replaced by the default keys on the next --units run.
  await writeTree(root, { "laws/bgb/index.md": LAW_ELSEWHERE.replace("jurabk: BGB", "jurabk: BGB\nkurz: BürgGB") });
  await update({ cwd: root, aliasKeys: ["kurz"], cache: false });
  await update({ cwd: root, units: true, cache: false });
  expect((await manifestOf(root)).aliases).toEqual(["BürgGB"]);
});

test("the built CLI: update --check --units names the aliases it would write, and its hint keeps --units", async () => {
  const root = await adoptedRepository(false);
  const checked = await runBin(["update", "--check", "--units", "--no-cache"], root);
  expect(checked.code).toBe(1);
  expect(checked.stdout).toContain('  aliases (resolve finds the law by them): "BGB"\n');
  expect(checked.stderr).toContain("run `citation-targets update --units` to refresh and regenerate");
  const aliased = await runBin(["update", "--alias", "jurabk", "--no-cache"], root);
  expect(aliased.code, aliased.stderr).toBe(0);
  expect(aliased.stdout).toContain("records: 0 added, 0 removed, 0 changed");
  expect((await manifestOf(root)).aliases).toEqual(["BGB"]);
});
