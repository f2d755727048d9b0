/**
 * The cache of validate (src/node/cache/validate-cache.ts; README, "validate"): a dataset whose lock-side
 * checks found nothing is not checked against its artifacts again while every file they read keeps its
 * fingerprint, and the report is byte for byte the one a run without the cache gives. Anything that
 * changes what those checks would say (an artifact, a new markdown file, the manifest, the JSONL, a rule
 * setting) is checked again; an outcome with a problem, or of files changed just before the run, is
 * never kept; a cache that cannot be read or written is no error.
 */
import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createColor } from "../src/formatters/color.js";
import { formatters } from "../src/formatters/index.js";
import { lock } from "../src/node/dataset/lock.js";
import { update } from "../src/node/update/update.js";
import { validate } from "../src/node/validate/validate.js";
import type { CacheUse, ValidateOptions } from "../src/node/validate/validate-options.js";
import type { Report } from "../src/core/report/report.js";
import { runCommand } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

/** A small law: front matter, a title, sections. */
function law(n: number): string {
  const parts = [`---\ntitle: "Gesetz Nr. ${n}"\n---\n\n# Gesetz über Beispiele Nr. ${n}\n`];
  for (let s = 1; s <= 2 + (n % 3); s++)
    parts.push(`\n## § ${s} Regelung ${s}\n\n(1) Für die Zwecke dieses Gesetzes gilt Folgendes.\n`);
  return parts.join("");
}

const DATASETS = 5;
const slugOf = (n: number) => `law-${n}`;
const jsonlOf = (n: number) => `.tooling/citation-targets/${slugOf(n)}.jsonl`;
const manifestOf = (n: number) => `.tooling/citation-targets/${slugOf(n)}.lock.json`;
const CACHE = "node_modules/.cache/citation-targets/validate.json";

/**
 * A repository of DATASETS datasets with node_modules (so the cache has its default place): law-2 has a
 * subfolder, law-3 ignores its drafts/ folder (the manifest's ignore globs: the other walk).
 */
async function makeRepository(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const made = await tempDir();
  const { dir } = made;
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, "node_modules"));
  const files: Record<string, string> = {};
  for (let n = 1; n <= DATASETS; n++) files[`laws/${slugOf(n)}/index.md`] = law(n);
  files["laws/law-2/teil-2/index.md"] = "# Zweiter Teil\n\n## § 9 Schluss\n\nText.\n";
  files["laws/law-3/drafts/entwurf.md"] = "# Entwurf\n";
  await writeTree(dir, files);
  for (let n = 1; n <= DATASETS; n++) {
    await lock({
      dir: join(dir, "laws", slugOf(n)),
      cwd: dir,
      output: join(dir, manifestOf(n)),
      slug: slugOf(n),
      titleId: `G${n}`,
      name: `Gesetz Nr. ${n}`,
      versionDate: "2024-12-31",
      sourceTextUrl: `https://www.legislation.gov.au/G${n}/2024-12-31/text`,
      ...(n === 3 ? { ignore: ["drafts/**"] } : {}),
    });
  }
  await update({ cwd: dir, cache: false });
  return made;
}

/**
 * Waits past the clock's tick, so that files written before count as left alone before the run (with cacheSettleMs 0).
 */
const tick = () => new Promise((done) => setTimeout(done, 25));

/** The report as the json and stylish formats print it: what must be byte-identical with and without the cache. */
function printed(report: Report): string {
  const context = { toolVersion: "0", color: createColor(0) };
  return `${formatters.json(report, context)}\n${formatters.stylish(report, context)}`;
}

describe("the cache of validate (the library, in this thread)", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  afterEach(async () => cleanup());

  /**
   * A run with the cache (default place, trusting files left alone before it), its report printed and what it did with
   * the cache.
   */
  async function cached(
    options: Partial<ValidateOptions> = {},
  ): Promise<{ printed: string; use: CacheUse | undefined; report: Report }> {
    await tick();
    let use: CacheUse | undefined;
    const report = await validate({ cwd: dir, cacheSettleMs: 0, onCache: (u) => (use = u), ...options });
    return { printed: printed(report), use, report };
  }
  /** The same run without the cache. */
  async function uncached(options: Partial<ValidateOptions> = {}): Promise<string> {
    return printed(await validate({ cwd: dir, cache: false, ...options }));
  }

  test("a warm run reports byte for byte what a run without the cache reports, taking every clean dataset from it", async () => {
    ({ dir, cleanup } = await makeRepository());
    const without = await uncached();
    expect(without).toContain("no problems");
    const cold = await cached();
    expect(cold.use).toEqual({ path: join(dir, CACHE), files: DATASETS, reused: 0, stored: DATASETS });
    expect(cold.printed).toBe(without);
    const stored = JSON.parse(await readFile(join(dir, CACHE), "utf8")) as {
      version: number;
      key: string;
      entries: Record<string, { artifacts: Record<string, string>; folders: Record<string, string> }>;
    };
    expect(Object.keys(stored.entries)).toEqual([1, 2, 3, 4, 5].map((n) => `../../../${jsonlOf(n)}`));
    // Every file the checks read is fingerprinted: the artifacts, and every folder the walk listed (law-3's drafts/
    // too, which its ignore globs leave out).
    expect(Object.keys(stored.entries[`../../../${jsonlOf(2)}`]!.artifacts)).toEqual(["index.md", "teil-2/index.md"]);
    expect(Object.keys(stored.entries[`../../../${jsonlOf(2)}`]!.folders)).toEqual(["", "teil-2"]);
    expect(Object.keys(stored.entries[`../../../${jsonlOf(3)}`]!.folders)).toEqual(["", "drafts"]);
    const warm = await cached();
    expect(warm.use).toMatchObject({ reused: DATASETS, stored: 0 });
    expect(warm.printed).toBe(without);
    // Nothing changed: the cache is not written again.
    const written = (await stat(join(dir, CACHE))).mtimeMs;
    await cached();
    expect((await stat(join(dir, CACHE))).mtimeMs).toBe(written);
  }, 30_000);

  test("a run tells what the warning about twin datasets reads of each manifest, checked in full and from the cache", async () => {
    ({ dir, cleanup } = await makeRepository());
    const expected = new Map(
      [1, 2, 3, 4, 5].map((n) => {
        const { titleId, versionDate, name, datasetRoot } = JSON.parse(
          readFileSync(join(dir, manifestOf(n)), "utf8"),
        ) as Record<string, string>;
        return [manifestOf(n), { titleId, versionDate, name, datasetRoot }];
      }),
    );
    expect(expected.get(manifestOf(1))).toMatchObject({ titleId: "G1", datasetRoot: "../../laws/law-1" });
    let told: ReadonlyMap<string, unknown> | undefined;
    await cached({ onTwinFacts: (facts) => (told = facts) });
    expect(told).toEqual(expected);
    told = undefined;
    const warm = await cached({ onTwinFacts: (facts) => (told = facts) });
    expect(warm.use).toMatchObject({ reused: DATASETS });
    expect(told).toEqual(expected); // from the verdicts: the manifests were not read
  }, 30_000);

  test("with problems: a file whose lock-side checks are clean is kept and its other problems still reported; one with a lock-side problem is checked every time", async () => {
    ({ dir, cleanup } = await makeRepository());
    // law-1: a record's textDigest edited (text-digest; the manifest rules do not read it). law-4: its artifact changed
    // (lock-artifact-body).
    const edited = join(dir, jsonlOf(1));
    await writeFile(
      edited,
      (await readFile(edited, "utf8")).replace(/"textDigest":"[0-9a-f]{4}/, '"textDigest":"0000'),
    );
    await appendFile(join(dir, "laws/law-4/index.md"), "\nNeu.\n");
    const without = await uncached();
    expect(without).toContain("text-digest");
    expect(without).toContain("lock-artifact-body");
    const cold = await cached();
    expect(cold.printed).toBe(without);
    expect(cold.use).toMatchObject({ reused: 0, stored: DATASETS - 1 });
    const warm = await cached();
    expect(warm.printed).toBe(without);
    expect(warm.use).toMatchObject({ reused: DATASETS - 1, stored: 0 });
    const stored = JSON.parse(await readFile(join(dir, CACHE), "utf8")) as { entries: Record<string, unknown> };
    expect(Object.keys(stored.entries)).not.toContain(`../../../${jsonlOf(4)}`);
    expect(Object.keys(stored.entries)).toContain(`../../../${jsonlOf(1)}`);
  }, 30_000);

  test("every change that could change the lock-side checks is checked again, and reported", async () => {
    ({ dir, cleanup } = await makeRepository());
    const clean = await uncached();
    await cached();
    expect((await cached()).use).toMatchObject({ reused: DATASETS });

    // An artifact edited in place with the same size, its mtime put back: only its ctime tells.
    const artifact = join(dir, "laws/law-1/index.md");
    const before = await stat(artifact);
    const text = await readFile(artifact, "utf8");
    await writeFile(artifact, text.replace("Regelung 1", "Regelung X"));
    await utimes(artifact, before.atime, before.mtime);
    expect((await stat(artifact)).size).toBe(before.size);
    let run = await cached();
    expect(run.printed).toBe(await uncached());
    expect(run.report.files[0]!.problems.map((p) => p.ruleId)).toContain("lock-artifact-body");
    await writeFile(artifact, text); // put back: clean again

    // A markdown file added to a dataset's subfolder (the subfolder's entries change, not the dataset folder's).
    await writeFile(join(dir, "laws/law-2/teil-2/neu.md"), "# Neu\n");
    run = await cached();
    expect(run.printed).toBe(await uncached());
    expect(run.report.files[1]!.problems.map((p) => p.messageId)).toEqual(["unlisted"]);
    await rm(join(dir, "laws/law-2/teil-2/neu.md"));

    // A markdown file added to the dataset folder; and one to the folder its ignore globs leave out (checked again,
    // still clean).
    await writeFile(join(dir, "laws/law-5/neu.md"), "# Neu\n");
    await writeFile(join(dir, "laws/law-3/drafts/zweiter-entwurf.md"), "# Entwurf\n");
    run = await cached();
    expect(run.printed).toBe(await uncached());
    expect(run.report.files[4]!.problems.map((p) => p.messageId)).toEqual(["unlisted"]);
    expect(run.report.files[2]!.problems).toEqual([]);
    expect(run.use).toMatchObject({ reused: 2 }); // law-1 (cached again once put back) and law-4; law-2 (put back), law-3 (its drafts/ changed) and law-5 checked again
    await rm(join(dir, "laws/law-5/neu.md"));

    // An artifact removed.
    await rm(join(dir, "laws/law-2/teil-2/index.md"));
    run = await cached();
    expect(run.printed).toBe(await uncached());
    expect(run.report.files[1]!.problems.map((p) => p.messageId)).toContain("missing");
    await writeFile(join(dir, "laws/law-2/teil-2/index.md"), "# Zweiter Teil\n\n## § 9 Schluss\n\nText.\n");

    // The manifest touched (the same bytes), then edited.
    const manifest = join(dir, manifestOf(4));
    const future = new Date(Date.now() + 60_000);
    await utimes(manifest, future, future);
    run = await cached();
    expect(run.use).toMatchObject({ reused: 3 }); // law-2 (its artifact written anew) and law-4 checked again
    await writeFile(
      manifest,
      (await readFile(manifest, "utf8")).replace('"name": "Gesetz Nr. 4"', '"name": "Gesetz Nummer 4"'),
    );
    run = await cached();
    expect(run.printed).toBe(await uncached());
    expect(run.report.files[3]!.problems.map((p) => p.ruleId)).toContain("lock-dataset-fields");
    await writeFile(
      manifest,
      (await readFile(manifest, "utf8")).replace('"name": "Gesetz Nummer 4"', '"name": "Gesetz Nr. 4"'),
    );

    // Everything put back: clean, the same report as at first, and all of it cached again.
    run = await cached();
    expect(run.printed).toBe(clean);
    expect((await cached()).use).toMatchObject({ reused: DATASETS });

    // A rule setting changed: nothing is taken from the cache kept under the other settings.
    run = await cached({ rules: { "lock-dataset-files": "warning" } });
    expect(run.use).toMatchObject({ reused: 0, stored: DATASETS });
    expect(run.printed).toBe(await uncached({ rules: { "lock-dataset-files": "warning" } }));
    await writeFile(join(dir, "laws/law-5/neu.md"), "# Neu\n");
    run = await cached({ rules: { "lock-dataset-files": "warning" } });
    expect(run.report.files[4]!.problems.map((p) => `${p.ruleId} ${p.severity}`)).toEqual([
      "lock-dataset-files warning",
    ]);
    expect(run.printed).toBe(await uncached({ rules: { "lock-dataset-files": "warning" } }));
  }, 60_000);

  test("the JSONL edited: checked again in full", async () => {
    ({ dir, cleanup } = await makeRepository());
    await cached();
    const file = join(dir, jsonlOf(5));
    const text = await readFile(file, "utf8");
    // The same size: a record's markdown changed by one letter (lock-artifact-body: it no longer concatenates to the
    // artifact's body).
    await writeFile(file, text.replace("Für die Zwecke", "Für die Zwicke"));
    const run = await cached();
    expect(run.printed).toBe(await uncached());
    expect(run.report.files[4]!.problems.map((p) => p.ruleId)).toContain("lock-artifact-body");
    expect(run.use).toMatchObject({ reused: DATASETS - 1 });
  }, 30_000);

  test("the dataset folders moved out of the repository and linked back (their own fingerprints unchanged): refused as without the cache", async () => {
    ({ dir, cleanup } = await makeRepository());
    const outside = await tempDir();
    try {
      await cached();
      expect((await cached()).use).toMatchObject({ reused: DATASETS });
      const before = await stat(join(dir, "laws/law-1"), { bigint: true });
      await rename(join(dir, "laws"), join(outside.dir, "laws"));
      await symlink(join(outside.dir, "laws"), join(dir, "laws"));
      const after = await stat(join(dir, "laws/law-1"), { bigint: true });
      expect([after.ino, after.ctimeNs, after.mtimeNs]).toEqual([before.ino, before.ctimeNs, before.mtimeNs]); // only an ancestor changed
      const run = await cached();
      expect(run.printed).toBe(await uncached());
      expect(run.report.files.every((file) => file.error?.includes("outside the repository"))).toBe(true);
      expect(run.use).toMatchObject({ reused: 0, stored: 0 });
      // Allowed out, the same folders are the same datasets: taken from the cache kept under that setting.
      await cached({ allowOutsideRepository: true });
      const allowed = await cached({ allowOutsideRepository: true });
      expect(allowed.use).toMatchObject({ reused: DATASETS });
      expect(allowed.printed).toBe(await uncached({ allowOutsideRepository: true }));
    } finally {
      await outside.cleanup();
    }
  }, 30_000);

  test("a verdict that no longer holds, whose file earns no new one, is left in the cache unwritten and never trusted again", async () => {
    ({ dir, cleanup } = await makeRepository());
    await cached();
    const bytes = await readFile(join(dir, CACHE));
    const file = join(dir, jsonlOf(5));
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace("Für die Zwecke", "Für die Zwicke")); // a lock-side problem: no verdict earned
    const run = await cached();
    expect(run.use).toMatchObject({ reused: DATASETS - 1, stored: 0 });
    // The file is not written again to drop the old verdict (a hook after an amended law paid for that)…
    expect((await readFile(join(dir, CACHE))).equals(bytes)).toBe(true);
    // …and the old verdict is not taken for the edited file, this run or the next.
    expect(run.report.files[4]!.problems.map((p) => p.ruleId)).toContain("lock-artifact-body");
    const again = await cached();
    expect(again.use).toMatchObject({ reused: DATASETS - 1 });
    expect(again.printed).toBe(await uncached());
  }, 30_000);

  test("an outcome of files changed just before the run (racily clean) is not kept", async () => {
    ({ dir, cleanup } = await makeRepository());
    let use: CacheUse | undefined;
    const report = await validate({ cwd: dir, onCache: (u) => (use = u) }); // the default: files left alone for 2 s before the run
    expect(report.summary.errors).toBe(0);
    expect(use).toMatchObject({ reused: 0, stored: 0 });
    expect(existsSync(join(dir, CACHE))).toBe(false);
  }, 30_000);

  test("a cache that cannot be read, or was written under another key, is ignored; one that cannot be written is no error", async () => {
    ({ dir, cleanup } = await makeRepository());
    const without = await uncached();
    await mkdir(join(dir, "node_modules/.cache/citation-targets"), { recursive: true });
    for (const broken of [
      "{ not json",
      "[]",
      '{"version":1,"key":"0","entries":{}}',
      JSON.stringify({ version: 1, entries: { [`../../../${jsonlOf(1)}`]: { jsonl: 1 } } }),
    ]) {
      await writeFile(join(dir, CACHE), broken);
      const run = await cached();
      expect(run.printed).toBe(without);
      expect(run.use).toMatchObject({ reused: 0, stored: DATASETS });
    }
    // Entries of the right key but the wrong shape are not trusted either.
    const good = JSON.parse(await readFile(join(dir, CACHE), "utf8")) as { entries: Record<string, unknown> };
    for (const name of Object.keys(good.entries))
      good.entries[name] = { jsonl: "x", manifest: 2, root: ".", folders: {}, artifacts: [] };
    await writeFile(join(dir, CACHE), JSON.stringify(good));
    expect((await cached()).use).toMatchObject({ reused: 0, stored: DATASETS });
    // A cache that cannot be written (its folder would be under a file): the run is what it is without it.
    await writeFile(join(dir, "not-a-folder"), "");
    const unwritable = await cached({ cache: join(dir, "not-a-folder/validate.json") });
    expect(unwritable.printed).toBe(without);
    expect(unwritable.report.summary.errors).toBe(0);
  }, 30_000);

  test("with a lock manifest named (--lock), with none (--no-lock) and for standard input, the cache is neither read nor written", async () => {
    ({ dir, cleanup } = await makeRepository());
    const calls: CacheUse[] = [];
    await tick();
    await validate({
      cwd: dir,
      cacheSettleMs: 0,
      lock: manifestOf(1),
      patterns: [jsonlOf(1)],
      onCache: (u) => calls.push(u),
    });
    await validate({ cwd: dir, cacheSettleMs: 0, lock: false, onCache: (u) => calls.push(u) });
    const bytes = await readFile(join(dir, jsonlOf(2)));
    const stdin = (async function* () {
      yield new Uint8Array(bytes);
    })();
    const fromStdin = await validate({
      cwd: dir,
      cacheSettleMs: 0,
      stdin: { stream: stdin, name: jsonlOf(2) },
      onCache: (u) => calls.push(u),
    });
    expect(fromStdin.files[0]!.lockManifest).toBe(manifestOf(2));
    expect(calls).toEqual([]);
    expect(existsSync(join(dir, "node_modules/.cache"))).toBe(false);
  }, 30_000);
});

describe("the cache of validate (the command, in worker threads)", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await makeRepository());
    await new Promise((done) => setTimeout(done, 2_100)); // the command trusts files left alone for 2 s
  }, 30_000);
  afterAll(async () => cleanup());

  const bin = join(repoRoot, "bin/citation-targets.js");
  const ct = (args: string[], env: Record<string, string> = {}) =>
    runCommand(process.execPath, [bin, ...args], dir, env);
  /** The markdown files the command's thread opened (run it with --jobs 1). */
  async function markdownOpened(args: string[]): Promise<{ opened: number; stdout: string }> {
    const out = join(dir, "opened.txt");
    const result = await runCommand(
      process.execPath,
      ["--import", join(repoRoot, "test/helpers/count-opens.mjs"), bin, ...args],
      dir,
      { COUNT_OPENS_FILE: out },
    );
    const opened = Number(await readFile(out, "utf8"));
    await rm(out);
    return { opened, stdout: result.stdout };
  }

  test("--no-cache writes nothing; by default the cache is node_modules/.cache/citation-targets/validate.json; a warm run reads no artifact and prints the same", async () => {
    const without = await ct(["validate", "--format", "json", "--no-cache"]);
    expect(without.code).toBe(0);
    expect(existsSync(join(dir, "node_modules/.cache"))).toBe(false);
    const cold = await ct(["validate", "--format", "json", "--verbose"]);
    expect(cold.stdout).toBe(without.stdout);
    expect(cold.stderr).toContain(
      `cache ${CACHE}: the lock-side checks of 0 of ${DATASETS} files taken from it (their artifacts not read); ${DATASETS} clean outcomes stored`,
    );
    expect(existsSync(join(dir, CACHE))).toBe(true);
    const warm = await ct(["validate", "--format", "json", "--verbose"]);
    expect(warm.stdout).toBe(without.stdout);
    expect(warm.stderr).toContain(`the lock-side checks of ${DATASETS} of ${DATASETS} files taken from it`);
    // The artifacts are not opened at all when the verdicts hold; without the cache, every one is.
    const opened = await markdownOpened(["validate", "--jobs", "1", "--format", "json"]);
    expect(opened.opened).toBe(0);
    expect(opened.stdout).toBe(without.stdout);
    expect(
      (await markdownOpened(["validate", "--jobs", "1", "--format", "json", "--no-cache"])).opened,
    ).toBeGreaterThanOrEqual(DATASETS + 1);
  }, 60_000);

  test("--jobs 1 and --jobs 2 give the same report and write the same cache, cold and warm", async () => {
    const one = join(dir, "caches/one.json");
    const two = join(dir, "caches/two.json");
    const cold1 = await ct(["validate", "--jobs", "1", "--cache-location", one]);
    const cold2 = await ct(["validate", "--jobs", "2", "--cache-location", two]);
    expect(cold2.stdout).toBe(cold1.stdout);
    expect(await readFile(two, "utf8")).toBe(await readFile(one, "utf8"));
    const warm1 = await ct(["validate", "--jobs", "1", "--cache-location", two, "--format", "json"]);
    const warm2 = await ct(["validate", "--jobs", "2", "--cache-location", one, "--format", "json"]);
    expect(warm2.stdout).toBe(warm1.stdout);
    expect(warm1.stdout).toBe((await ct(["validate", "--jobs", "2", "--no-cache", "--format", "json"])).stdout);
    // A dataset with a problem: the same with either number of threads, warm.
    await appendFile(join(dir, "laws/law-3/index.md"), "\nNeu.\n");
    const faulty1 = await ct(["validate", "--jobs", "1", "--cache-location", one]);
    const faulty2 = await ct(["validate", "--jobs", "2", "--cache-location", two]);
    expect(faulty1.code).toBe(1);
    expect(faulty2.stdout).toBe(faulty1.stdout);
    expect(faulty1.stdout).toBe((await ct(["validate", "--no-cache"])).stdout);
  }, 60_000);
});
