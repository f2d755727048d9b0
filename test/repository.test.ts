/**
 * A publisher's repository: many small datasets, one per law, each with its lock manifest in
 * `.tooling/citation-targets/` and its markdown in `laws/<law>/`. The reports must not depend on the
 * number of threads; update is all or nothing across datasets and names every fault; its cache
 * spares unchanged datasets and never trusts a changed file; `--staged` looks only at the datasets
 * of what git has staged; diff --against gives what a full comparison gives.
 */
import { execFileSync } from "node:child_process";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { availableParallelism } from "node:os";
import { lock } from "../src/node/dataset/lock.js";
import { runBin } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

const DATASETS = 240;

/** A small German-style law: front matter, sections with paragraphs, now and then a table and a list. */
function law(n: number): string {
  const parts = [`---\ntitle: "Gesetz Nr. ${n}"\njurabk: G${n}\n---\n\n# Gesetz über Beispiele Nr. ${n}\n`];
  const sections = 2 + (n % 9);
  for (let s = 1; s <= sections; s++) {
    parts.push(`\n## § ${s} Regelung ${s}\n\n(1) Für die Zwecke dieses Gesetzes gilt Folgendes.\n`);
    if ((n + s) % 4 === 0) parts.push(`\n| Gruppe | Betrag |\n|---|---|\n| A | ${s},00 € |\n`);
    if ((n + s) % 3 === 0) parts.push(`\n1. erstens,\n2. zweitens.\n`);
  }
  return parts.join("");
}

const slugOf = (n: number) => `law-${String(n).padStart(3, "0")}`;
let repo: string;
let cleanup: () => Promise<void>;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
const ct = (args: string[]) => runBin(args, repo);

beforeAll(async () => {
  ({ dir: repo, cleanup } = await tempDir());
  git("init", "-q");
  git("config", "user.email", "t@example.org");
  git("config", "user.name", "t");
  const files: Record<string, string> = {};
  for (let n = 1; n <= DATASETS; n++) files[`laws/${slugOf(n)}/index.md`] = law(n);
  await writeTree(repo, files);
  for (let n = 1; n <= DATASETS; n++) {
    const slug = slugOf(n);
    await lock({
      dir: join(repo, "laws", slug),
      cwd: repo,
      output: join(repo, ".tooling/citation-targets", `${slug}.lock.json`),
      slug,
      titleId: `G${n}`,
      name: `Gesetz Nr. ${n}`,
      versionDate: "2024-12-31",
      sourceTextUrl: `https://www.legislation.gov.au/G${n}/2024-12-31/text`,
    });
  }
  const first = await ct(["update", "--no-cache"]);
  expect(first.code, first.stderr).toBe(0);
  git("add", "-A");
  git("commit", "-q", "-m", "laws");
}, 120_000);
afterAll(async () => cleanup());

/** Puts the repository back to its commit. */
function reset() {
  git("reset", "-q", "--hard");
  git("clean", "-qfdx");
}

describe("a repository of many datasets", () => {
  test("validate, update --check and diff give byte-identical reports with --jobs 1 and --jobs 2", async () => {
    reset();
    // Faults in several datasets: a stale artifact, a hand-edited record, a broken line.
    await writeFile(join(repo, "laws", slugOf(7), "index.md"), `${law(7)}\nNeu.\n`);
    const edited = join(repo, ".tooling/citation-targets", `${slugOf(30)}.jsonl`);
    await writeFile(
      edited,
      (await readFile(edited, "utf8")).replace(/"textDigest":"[0-9a-f]{4}/, '"textDigest":"0000'),
    );
    const broken = join(repo, ".tooling/citation-targets", `${slugOf(200)}.jsonl`);
    await writeFile(broken, `${await readFile(broken, "utf8")}{not json\n`);
    for (const args of [
      ["validate", "--format", "json"],
      ["validate", "--no-lock", "--format", "json"],
      ["update", "--check", "--no-cache"],
    ]) {
      const one = await ct([...args, "--jobs", "1"]);
      const two = await ct([...args, "--jobs", "2"]);
      expect(one.code, args.join(" ")).toBe(1);
      expect(two.stdout, args.join(" ")).toBe(one.stdout);
      expect(two.stderr, args.join(" ")).toBe(one.stderr);
    }
    // diff: every dataset changed (its last record dropped), so that every pair is compared, over the pool with --jobs
    // 2.
    reset();
    for (const name of (await readdir(join(repo, ".tooling/citation-targets"))).filter((n) => n.endsWith(".jsonl"))) {
      const path = join(repo, ".tooling/citation-targets", name);
      const text = await readFile(path, "utf8");
      await writeFile(path, text.slice(0, text.lastIndexOf("\n", text.length - 2) + 1));
    }
    for (const format of ["json", "stylish"]) {
      const one = await ct(["diff", "--against", "HEAD", "--format", format, "--jobs", "1"]);
      const two = await ct(["diff", "--against", "HEAD", "--format", format, "--jobs", "2"]);
      expect(one.code).toBe(1);
      expect(two.stdout).toBe(one.stdout);
      expect(two.stderr).toBe(one.stderr);
    }
    const compared = JSON.parse(
      (await ct(["diff", "--against", "HEAD", "--format", "json", "--jobs", "2"])).stdout,
    ) as { pairs: { changes: { kind: string }[] }[] };
    expect(
      compared.pairs.filter((pair) => pair.changes.some((change) => change.kind === "record-removed")),
    ).toHaveLength(DATASETS);
    // Two files that are no JSONL: the run stops with the first one's error, in input order, whatever the threads.
    await writeFile(join(repo, ".tooling/citation-targets", `${slugOf(120)}.jsonl`), "just text\n");
    await writeFile(join(repo, ".tooling/citation-targets", `${slugOf(60)}.jsonl`), "other text\n");
    const stopped = [
      await ct(["diff", "--against", "HEAD", "--jobs", "1"]),
      await ct(["diff", "--against", "HEAD", "--jobs", "2"]),
    ];
    // What each run said, should a code differ (a run that crashed says how).
    expect(
      stopped.map((result) => result.code),
      stopped.map((result) => result.stderr).join("\n---\n"),
    ).toEqual([2, 2]);
    expect(stopped[1]!.stderr).toBe(stopped[0]!.stderr);
    expect(stopped[0]!.stderr).toContain(`${slugOf(60)}.jsonl is not a citation-targets JSONL file`);
    reset();
    await writeFile(join(repo, "laws", slugOf(7), "index.md"), `${law(7)}\nNeu.\n`);
    await writeFile(
      edited,
      (await readFile(edited, "utf8")).replace(/"textDigest":"[0-9a-f]{4}/, '"textDigest":"0000'),
    );
    await writeFile(broken, `${await readFile(broken, "utf8")}{not json\n`);
    const validated = JSON.parse((await ct(["validate", "--format", "json", "--jobs", "2"])).stdout) as {
      summary: { files: number };
      files: { path: string; problems: { ruleId: string }[] }[];
    };
    expect(validated.summary.files).toBe(DATASETS);
    const faulty = validated.files.filter((file) => file.problems.length > 0).map((file) => file.path);
    expect(faulty).toEqual([
      `.tooling/citation-targets/${slugOf(7)}.jsonl`,
      `.tooling/citation-targets/${slugOf(30)}.jsonl`,
      `.tooling/citation-targets/${slugOf(200)}.jsonl`,
    ]);
    const checked = await ct(["update", "--check", "--no-cache", "--jobs", "2"]);
    expect(checked.stdout).toContain(`${slugOf(7)}: not up to date`);
    expect(checked.stdout).toContain(`${slugOf(30)}: not up to date`);
    expect(checked.stdout.split("\n").filter((line) => line.endsWith(": not up to date"))).toHaveLength(3);
  }, 120_000);

  test("the threads of validate: from 200 files with their lock-side checks; one when the cache holds them, or without locks", async () => {
    reset();
    const cache = join(repo, "..", `${repo.split("/").pop()}-validate-cache.json`);
    const threadsOf = (stderr: string) => Number(/ in (\d+) threads/.exec(stderr)?.[1] ?? 1);
    const two = Math.min(availableParallelism(), 240);
    try {
      // Cold: every dataset's artifacts read and digested, 240 files: the workers pay off.
      const cold = await ct(["validate", "--no-cache", "--verbose", "--format", "json"]);
      expect(cold.code, cold.stderr).toBe(0);
      expect(threadsOf(cold.stderr)).toBe(two);
      // The cache filled (its files left alone past the 2 s a fingerprint must be settled), then taken: each file is
      // checked with its lock-side verdict, less work, on one thread.
      await new Promise((settled) => setTimeout(settled, 2_100));
      const filling = await ct(["validate", "--cache-location", cache, "--verbose", "--format", "json"]);
      expect(threadsOf(filling.stderr)).toBe(two);
      expect(filling.stderr).toMatch(/240 clean outcomes stored/);
      const warm = await ct(["validate", "--cache-location", cache, "--verbose", "--format", "json"]);
      expect(warm.stderr).toMatch(/the lock-side checks of 240 of 240 files taken from it/);
      expect(threadsOf(warm.stderr)).toBe(1);
      expect(warm.stdout).toBe(cold.stdout);
      // Without lock manifests, likewise: 5,000 files or 64 MiB before threads.
      expect(threadsOf((await ct(["validate", "--no-lock", "--verbose"])).stderr)).toBe(1);
      expect(threadsOf((await ct(["validate", "--no-lock", "--verbose", "--jobs", "2"])).stderr)).toBe(2);
    } finally {
      await rm(cache, { force: true });
    }
  });

  test("diff --against HEAD reports what comparing the two folders in full reports", async () => {
    reset();
    await writeFile(join(repo, "laws", slugOf(12), "index.md"), law(12).replace("Regelung 1\n", "Regelung eins\n"));
    expect((await ct(["update", "--no-cache"])).code).toBe(0);
    const against = await ct(["diff", "--against", "HEAD", "--format", "json"]);
    // The old folder as it is at HEAD, compared file by file with no shortcut.
    const old = join(repo, "old");
    execFileSync("sh", ["-c", `mkdir -p old && git archive HEAD .tooling/citation-targets | tar -x -C old`], {
      cwd: repo,
    });
    const full = await ct(["diff", "old/.tooling/citation-targets", ".tooling/citation-targets", "--format", "json"]);
    expect(against.code).toBe(full.code);
    const changes = (stdout: string) =>
      (JSON.parse(stdout) as { pairs: { changes: unknown[]; records: unknown }[] }).pairs.map((pair) => [
        pair.changes,
        pair.records,
      ]);
    expect(changes(against.stdout)).toEqual(changes(full.stdout));
    expect(changes(against.stdout).filter(([c]) => (c as unknown[]).length > 0)).toHaveLength(1);
    await rm(old, { recursive: true });
  }, 60_000);

  test("update names every fault of every dataset and then writes nothing at all", async () => {
    reset();
    await writeFile(join(repo, "laws", slugOf(3), "index.md"), `${law(3)}\nGeändert.\n`); // would be written
    await writeFile(join(repo, ".tooling/citation-targets", `${slugOf(50)}.lock.json`), "{ not json"); // unreadable manifest
    await writeFile(join(repo, "laws", slugOf(90), "index.md"), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a])); // not UTF-8
    const before = await snapshot();
    for (const jobs of ["1", "2"]) {
      const result = await ct(["update", "--no-cache", "--jobs", jobs]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${slugOf(50)}.lock.json`);
      expect(result.stderr).toContain(`${slugOf(90)}.lock.json: index.md: not valid UTF-8`);
      expect(result.stderr).toContain("nothing was written");
      expect(await snapshot()).toEqual(before);
    }
  }, 60_000);

  test("the cache: an unchanged dataset is not regenerated; a changed artifact or an edited JSONL is never taken from it", async () => {
    reset();
    await writeTree(repo, { "node_modules/.keep": "" });
    const cold = await ct(["update", "--check"]);
    expect(cold.code).toBe(0);
    const cacheFile = join(repo, "node_modules/.cache/citation-targets/update.json");
    const cache = JSON.parse(await readFile(cacheFile, "utf8")) as { entries: Record<string, unknown> };
    expect(Object.keys(cache.entries)).toHaveLength(DATASETS);
    // An edited JSONL misses the cache: it is regenerated and the edit reported.
    const edited = join(repo, ".tooling/citation-targets", `${slugOf(5)}.jsonl`);
    await writeFile(
      edited,
      (await readFile(edited, "utf8")).replace(/"textDigest":"[0-9a-f]{4}/, '"textDigest":"0000'),
    );
    const amended = join(repo, "laws", slugOf(6), "index.md");
    await writeFile(amended, `${law(6)}\nNeu.\n`);
    const warm = await ct(["update", "--check"]);
    expect(warm.code).toBe(1);
    expect(warm.stdout).toContain(`${slugOf(5)}: not up to date`);
    expect(warm.stdout).toContain(`${slugOf(6)}: not up to date`);
    const noCache = await ct(["update", "--check", "--no-cache"]);
    expect(warm.stdout).toBe(noCache.stdout);
    expect((await ct(["update"])).code).toBe(0);
    expect((await ct(["update", "--check", "--no-cache"])).code).toBe(0);
    expect((await ct(["validate"])).code).toBe(0);
  }, 60_000);

  test("--staged looks only at the datasets of what is staged, deletions included", async () => {
    reset();
    const nothing = await ct(["update", "--check", "--staged"]);
    expect(nothing.code).toBe(0);
    expect(nothing.stderr).toContain("nothing staged belongs to a dataset");
    expect(nothing.stdout).toBe("");
    // A machine format is one document even then: a CI parser, or a report file, reads it.
    const none = await ct(["update", "--check", "--staged", "--format", "json"]);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ command: "update", check: true, datasets: [] });
    expect(JSON.parse((await ct(["update", "--check", "--staged", "--format", "gitlab"])).stdout)).toEqual([]);
    const validatedNone = await ct(["validate", "--staged", "--format", "json"]);
    expect(validatedNone.code).toBe(0);
    expect(JSON.parse(validatedNone.stdout)).toMatchObject({ files: [], summary: { files: 0, records: 0 } });
    expect(JSON.parse((await ct(["validate", "--staged", "--format", "gitlab"])).stdout)).toEqual([]);
    expect((await ct(["validate", "--staged"])).stdout).toBe("");
    await writeFile(join(repo, "laws", slugOf(8), "index.md"), `${law(8)}\nNeu.\n`);
    git("add", "-A");
    const stale = await ct(["update", "--check", "--staged"]);
    expect(stale.code).toBe(1);
    expect(stale.stdout.trim().split("\n")[0]).toBe(`${slugOf(8)}: not up to date`);
    expect(stale.stdout).not.toContain(slugOf(9));
    const validated = await ct(["validate", "--staged", "--format", "json"]);
    expect(validated.code).toBe(1);
    expect((JSON.parse(validated.stdout) as { files: { path: string }[] }).files.map((f) => f.path)).toEqual([
      `.tooling/citation-targets/${slugOf(8)}.jsonl`,
    ]);
    // From a folder of the repository, with git told to name paths from the folder it runs in: the same datasets.
    git("config", "diff.relative", "true");
    try {
      const below = await runBin(["update", "--check", "--staged"], join(repo, "laws", slugOf(9)));
      expect(below.code).toBe(1);
      // Paths are shown from the folder it runs in.
      expect(below.stdout).toBe(stale.stdout.replaceAll(".tooling/", "../../.tooling/"));
    } finally {
      git("config", "--unset", "diff.relative");
    }
    reset();
    git("rm", "-q", `.tooling/citation-targets/${slugOf(11)}.jsonl`);
    const deleted = await ct(["update", "--check", "--staged"]);
    expect(deleted.code).toBe(1);
    expect(deleted.stdout).toContain(`${slugOf(11)}: not up to date`);
    expect(deleted.stdout).toContain(`would write .tooling/citation-targets/${slugOf(11)}.jsonl`);
    reset();
  }, 60_000);
});

/** Every file of the repository's tooling folder and its laws, with its bytes. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const folder of [
    ".tooling/citation-targets",
    ...(await readdir(join(repo, "laws"))).map((name) => `laws/${name}`),
  ]) {
    for (const name of (await readdir(join(repo, folder))).sort())
      out[`${folder}/${name}`] = (await readFile(join(repo, folder, name))).toString("base64");
  }
  return out;
}
