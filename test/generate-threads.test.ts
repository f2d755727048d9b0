/**
 * generate with worker threads: the markdown is parsed in parallel, the records built in document
 * order in one thread, so the output must be byte-identical to a one-thread run. Run through the
 * built bin, where the worker script exists.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { lock } from "../src/node/dataset/lock.js";
import { copyFixture, tempDir, writeTree } from "./helpers/datasets.js";
import { runBin } from "./helpers/bin.js";
import { repoRoot } from "./helpers/records.js";

const ct = (args: string[], cwd: string) => runBin(args, cwd);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** A German-style law: front matter, units, § sections with numbered paragraphs, a table, a footnote separator. */
function law(n: number, sections: number): string {
  const parts = [`---\ntitle: "Gesetz Nr. ${n}"\njurabk: G${n}\n---\n\n# Gesetz über Beispiele Nr. ${n}\n`];
  for (let s = 1; s <= sections; s++) {
    if (s % 7 === 1) parts.push(`\n## Abschnitt ${Math.ceil(s / 7)} - Allgemeines\n`);
    parts.push(
      `\n### § ${s} Regelung ${s}\n\n(1) Für die Zwecke dieses Gesetzes gilt Folgendes.\n\n(2) Es gelten:\n\n1. erstens,\n2. zweitens.\n`,
    );
    if (s % 5 === 0) parts.push(`\n| Gruppe | Betrag |\n|---|---|\n| A | ${s},00 € |\n\nFußnote zu § ${s}\n-----\n`);
  }
  return parts.join("");
}

/**
 * Writes `files` into `data/` and locks them in `order` to `manifest` (slug `slug`; `units`: with units below the
 * heading); the dataset root.
 */
async function lockTree(files: Record<string, string>, order: string[], manifest: string, slug: string, units = false) {
  const root = join(dir, "data");
  await writeTree(root, files);
  await lock({
    dir: root,
    output: join(dir, manifest),
    order,
    slug,
    titleId: slug.toUpperCase(),
    name: slug,
    versionDate: "2024-01-01",
    sourceTextUrl: `https://www.legislation.gov.au/${slug}/text`,
    ...(units ? { units: true as const } : {}),
  });
  return root;
}

describe("generate in worker threads", () => {
  test.each([1, 2, 3])("--jobs %i gives the committed bytes of both example datasets", async (jobs) => {
    for (const slug of ["privacy-act-1988", "mvfg"]) {
      const manifest = `.tooling/citation-targets/${slug}.lock.json`;
      const result = await ct(["generate", manifest, "--jobs", String(jobs), "--verbose"], repoRoot);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(await readFile(join(repoRoot, `.tooling/citation-targets/${slug}.jsonl`), "utf8"));
      const artifacts = (JSON.parse(await readFile(join(repoRoot, manifest), "utf8")) as { artifacts: unknown[] })
        .artifacts.length;
      const threads = Math.min(jobs, artifacts); // never more threads than artifacts
      // With several, every one is a capped worker: this thread parses none (docs/spec.md, section 13). With two, by
      // stage: one capped worker parses, this thread makes the lines (staged-parse.ts).
      expect(result.stderr).toContain(
        threads === 1
          ? "parsed in this thread"
          : threads === 2
            ? "parsed in 1 capped worker thread, its lines made in this one"
            : `parsed in ${threads} capped worker threads`,
      );
    }
  });

  test("a larger tree, with directory indexes placed last in their folders (read early for the folder headings): identical bytes in 1 and 2 threads", async () => {
    const files: Record<string, string> = {};
    const order: string[] = [];
    for (let p = 1; p <= 6; p++) {
      const folder = `teil-${p}`;
      for (let l = 1; l <= 8; l++) {
        files[`${folder}/gesetz-${l}.md`] = law(p * 100 + l, 3 + ((p * l) % 30));
        order.push(`${folder}/gesetz-${l}.md`);
      }
      files[`${folder}/index.md`] = `## Teil ${p} - Sammlung ${p}\n\nEinleitung.\n`;
      order.push(`${folder}/index.md`); // after its siblings: the record builder asks for it before its turn
    }
    await lockTree(files, order, "t.lock.json", "sammlung");
    const one = await ct(["generate", "t.lock.json", "--jobs", "1"], dir);
    const two = await ct(["generate", "t.lock.json", "--jobs", "2"], dir);
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(one.stdout.split("\n").length).toBeGreaterThan(500);
    // And what it generates is valid.
    await writeTree(dir, { "sammlung.jsonl": one.stdout });
    expect(await ct(["validate", "--no-lock", "sammlung.jsonl"], dir)).toMatchObject({ code: 0 });
  });

  test("units below the heading: identical bytes in 1, 2 (by stage) and 3 threads, directory indexes read early", async () => {
    const fixture = (path: string) => readFile(join(repoRoot, "test/fixtures-units", path), "utf8");
    const files: Record<string, string> = {
      "de/bgb.md": await fixture("de/bgb.md"),
      "ch/bv.md": await fixture("ch/bv.md"),
      "au/privacy.md": await fixture("au/privacy.md"),
    };
    const order: string[] = ["de/bgb.md", "ch/bv.md", "au/privacy.md"];
    for (let p = 1; p <= 3; p++) {
      for (let l = 1; l <= 5; l++) {
        files[`teil-${p}/gesetz-${l}.md`] = law(p * 100 + l, 4 + ((p * l) % 20));
        order.push(`teil-${p}/gesetz-${l}.md`);
      }
      files[`teil-${p}/index.md`] = `## Teil ${p}\n\n(1) Einleitung.\n\n(2) Mehr.\n`;
      order.push(`teil-${p}/index.md`);
    }
    await lockTree(files, order, "u.lock.json", "einheiten", true);
    const runs = [];
    for (const jobs of ["1", "2", "3"]) {
      const run = await ct(["generate", "u.lock.json", "--jobs", jobs, "--verbose"], dir);
      expect(run.code, run.stderr).toBe(0);
      runs.push(run);
    }
    expect(runs[1]!.stderr).toContain("parsed in 1 capped worker thread, its lines made in this one");
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
    expect(runs[2]!.stdout).toBe(runs[0]!.stdout);
    // Units were made: addresses below the headings.
    expect(runs[0]!.stdout).toMatch(/#[^"]*\/abs-2"/);
  });

  test("by stage, an artifact that cannot be read stops the run as with three threads, while batches of large files are queued", async () => {
    // Found in review: a batch of one large file (over 256 KiB) that cannot be read sent nothing to the worker and was
    // heard by no one; when the pool closed at the first error, its rejection ended the process with a stack trace.
    const large = (n: number) =>
      `# Gesetz ${n}\n\n${`## § 1 Regel\n\n${"Text des Gesetzes. ".repeat(60)}\n\n`.repeat(300)}`;
    const files: Record<string, string> = { "a.md": "# A\n\nText.\n" };
    for (const name of ["b", "c", "d", "e", "f", "g"]) files[`${name}.md`] = large(name.charCodeAt(0));
    const root = await lockTree(files, Object.keys(files), "t.lock.json", "gross");
    await rm(join(root, "a.md"));
    await mkdir(join(root, "a.md"));
    await writeFile(join(root, "g.md"), `${files["g.md"]}\nGeändert.\n`);
    const two = await ct(["generate", "t.lock.json", "-o", "o.jsonl", "--jobs", "2"], dir);
    const three = await ct(["generate", "t.lock.json", "-o", "o.jsonl", "--jobs", "3"], dir);
    expect(three.code, three.stderr).toBe(2);
    expect(two.code, two.stderr).toBe(2);
    expect(two.stderr).toBe(three.stderr);
    expect(two.stderr).toContain("a.md");
    expect(two.stderr).not.toMatch(/\n\s+at /);
    expect((await readdir(dir)).filter((name) => name.includes("o.jsonl"))).toEqual([]);
  });

  test("a changed artifact found by a worker stops the run, naming it, and nothing is written", async () => {
    const root = await copyFixture("privacy-act-1988", dir);
    const manifest = JSON.parse(
      await readFile(join(repoRoot, ".tooling/citation-targets/privacy-act-1988.lock.json"), "utf8"),
    );
    await writeTree(dir, { "m.lock.json": JSON.stringify({ ...manifest, datasetRoot: "privacy-act-1988" }) });
    await writeTree(root, { "part-iii/division-1/section-13.md": "### 13 Changed\n" });
    const result = await ct(["generate", "m.lock.json", "--jobs", "2", "-o", "out.jsonl"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("part-iii/division-1/section-13.md: changed since the lock manifest was written");
    await expect(readFile(join(dir, "out.jsonl"))).rejects.toThrow();
  });
});
