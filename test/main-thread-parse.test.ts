/**
 * generate of less than MAIN_THREAD_PARSE_BYTES of markdown in one thread parses in the main thread rather than start a
 * capped worker (src/node/pool/thread-limits.ts; docs/spec.md, section 13, "heap of the threads that parse markdown"):
 * the caps bound what such a parse holds. The hostile inputs of issue 32, item 7, cut down to fit under the budget, are
 * still refused, or parse within a small heap, in the main thread; the built bin runs them as a user does. validate,
 * which parses to compare a file with what generate writes (rule lock-generated), checks the file of a dataset over the
 * budget in a capped worker (src/node/validate/capped-checks.ts).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { lock } from "../src/node/dataset/lock.js";
import { MAIN_THREAD_PARSE_BYTES } from "../src/node/pool/thread-limits.js";
import { bin, runBin, runCommand } from "./helpers/bin.js";
import { validateHeapMb, WORKER_LIMITS } from "../src/node/pool/thread-limits.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const META = {
  slug: "t",
  titleId: "T",
  name: "T",
  versionDate: "2024-01-01",
  sourceTextUrl: "https://www.legislation.gov.au/T/text",
};

/** Locks one artifact of `text` as `d.lock.json`; its size, which must be under the budget. */
async function lockOne(text: string): Promise<number> {
  await writeTree(dir, { "d/index.md": text });
  await lock({ dir: join(dir, "d"), ...META, output: join(dir, "d.lock.json") });
  const bytes = Buffer.byteLength(text);
  expect(bytes).toBeLessThan(MAIN_THREAD_PARSE_BYTES);
  return bytes;
}

// The main thread's heap at 256 MiB (a V8 flag: the workers' too); or every worker's at 16 MiB
// (test/helpers/small-worker-heap.mjs).
const env = { NODE_OPTIONS: "--max-old-space-size=256" };
const small = join(repoRoot, "test/helpers/small-worker-heap.mjs");
const smallWorkers = { NODE_OPTIONS: `--import=${small}`, SMALL_WORKER_HEAP_MB: "16" };

describe("generate under MAIN_THREAD_PARSE_BYTES parses in the main thread, bounded by the caps", () => {
  test("2,000 nested > then 50,000 lines is refused by the cap on depth times lines, named", async () => {
    await lockOne(`# Q\n\n${">".repeat(2000)} a\n${"b\n".repeat(50_000)}`);
    const run = await runBin(["generate", "d.lock.json"], dir, env);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("index.md: block quotes nested");
    expect(run.stderr).toContain("their depth times lines is more than 2000000, the cap");
  });

  test("flow-style YAML front matter under the budget, its cap raised, parses within a main thread's heap of 256 MiB", async () => {
    await lockOne(`---\nk: [${"[a], ".repeat(20_000)}a]\n---\n# d\n\n## § 1 Eins\n\nText.\n`);
    const run = await runBin(["generate", "d.lock.json", "--max-front-matter-bytes", "4000000"], dir, env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(2);
  });

  test("130,000 stray brackets, a front matter of as many errors under the budget, are refused within a main thread's heap of 256 MiB", async () => {
    await lockOne(`---\nk: [${"]".repeat(130_000)}\n---\n# d\n\n## § 1 Eins\n`);
    const run = await runBin(["generate", "d.lock.json"], dir, env);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      'index.md: front matter is not valid YAML (line 2): Unexpected flow-seq-end token in YAML stream: "]" at line 1, column 6:',
    );
  });

  test("over the budget, such front matter goes to a capped worker, which runs out of memory and names the dataset", async () => {
    const text = `---\nk: [${"[a], ".repeat(50_000)}a]\n---\n# d\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAIN_THREAD_PARSE_BYTES);
    await writeTree(dir, { "d/index.md": text });
    await lock({ dir: join(dir, "d"), ...META, output: join(dir, "d.lock.json") });
    const run = await runBin(["generate", "d.lock.json", "--max-front-matter-bytes", "4000000"], dir, smallWorkers);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "d.lock.json: a worker thread ran out of memory while it parsed index.md (its heap is capped at",
    );
  });
});

/** A law of `sections` sections of a paragraph each, about 520 bytes a section. */
function law(sections: number): string {
  const parts = ["# Gesetz über die Prüfung\n"];
  for (let i = 1; i <= sections; i++)
    parts.push(
      `## § ${i} Pflichten der Prüfstelle ${i}\n\n(1) Die Prüfstelle hat die Unterlagen nach § ${i} Absatz 2 binnen drei Monaten zu prüfen und das Ergebnis dem Antragsteller schriftlich mitzuteilen. Die Frist kann einmal um einen Monat verlängert werden, wenn die Unterlagen unvollständig sind oder weitere Auskünfte eingeholt werden müssen; die Verlängerung ist zu begründen.\n\n(2) Das Nähere regelt die Rechtsverordnung nach § ${i + 1}.\n`,
    );
  return parts.join("\n");
}

/** The JSONL generate writes for `d.lock.json`, with one record's headingText edited by hand; the edited line. */
async function generatedThenEdited(): Promise<number> {
  const generated = await runBin(["generate", "d.lock.json", "-o", "d.jsonl"], dir);
  expect(generated.code, generated.stderr).toBe(0);
  const lines = (await readFile(join(dir, "d.jsonl"), "utf8")).split("\n");
  const at = lines.findIndex((line) => line.includes('"headingText":"§ 200 Pflichten der Prüfstelle 200"'));
  expect(at).toBeGreaterThan(0);
  lines[at] = lines[at]!.replace("Prüfstelle 200", "Prüfstelle 2OO");
  await writeFile(join(dir, "d.jsonl"), lines.join("\n"));
  return at + 1;
}

test("generate --verbose says where the markdown was parsed: this thread under the budget, a capped worker over it", async () => {
  await writeTree(dir, { "d/index.md": law(400), "e/index.md": law(3) });
  for (const [name, where] of [
    ["d", "markdown parsed in 1 capped worker thread"],
    ["e", "markdown parsed in this thread"],
  ] as const) {
    await lock({ dir: join(dir, name), ...META, slug: name, output: join(dir, `${name}.lock.json`) });
    const run = await runBin(["generate", `${name}.lock.json`, "--verbose", "--jobs", "1", "-o", `${name}.jsonl`], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(where);
  }
});

describe("validate of a dataset over MAIN_THREAD_PARSE_BYTES checks its file in a capped worker (issue 32, item 7)", () => {
  test("the heap of that worker is a worker's 1 GiB, and grows with a dataset over 25 MiB, linearly", () => {
    expect(validateHeapMb(MAIN_THREAD_PARSE_BYTES)).toBe(WORKER_LIMITS.maxOldGenerationSizeMb);
    expect(validateHeapMb(20 * 2 ** 20)).toBe(WORKER_LIMITS.maxOldGenerationSizeMb);
    expect(validateHeapMb(150 * 2 ** 20)).toBe(2 * validateHeapMb(75 * 2 ** 20));
  });

  test("a record edited by hand is found as before: one thread, several, standard input with --lock, and after update's cache", async () => {
    await writeTree(dir, { ".git/HEAD": "ref: refs/heads/main\n", "d/index.md": law(400) });
    await lock({ dir: join(dir, "d"), ...META, slug: "d", output: join(dir, "d.lock.json") });
    expect(Buffer.byteLength(law(400))).toBeGreaterThan(MAIN_THREAD_PARSE_BYTES);
    const line = await generatedThenEdited();
    const found = (run: { code: number; stdout: string; stderr: string }) => {
      expect(run.code, run.stderr).toBe(1);
      const problems = JSON.parse(run.stdout).files.flatMap((file: { problems: unknown[] }) => file.problems);
      expect(problems).toEqual([
        expect.objectContaining({
          ruleId: "lock-generated",
          line,
          pointer: "/headingText",
          message: expect.stringContaining(
            'headingText is "§ 200 Pflichten der Prüfstelle 2OO", generate writes "§ 200 Pflichten der Prüfstelle 200"',
          ),
        }),
      ]);
    };
    found(await runBin(["validate", "d.jsonl", "--jobs", "1", "--no-cache", "--format", "json"], dir));
    found(await runBin(["validate", "d.jsonl", "--jobs", "2", "--no-cache", "--format", "json"], dir));
    found(
      await runCommand(
        "sh",
        ["-c", `"${process.execPath}" "${bin}" validate - --lock d.lock.json --format json < d.jsonl`],
        dir,
      ),
    );
    // update's cache proves what generate writes from these bytes; the file has other bytes, so the records are made.
    await runBin(["generate", "d.lock.json", "-o", "d.jsonl"], dir);
    const updated = await runBin(["update", "d.lock.json"], dir);
    expect(updated.code, updated.stderr).toBe(0);
    await generatedThenEdited();
    found(await runBin(["validate", "d.jsonl", "--format", "json"], dir));
  });

  test("1,040,000 bytes of front matter, under its cap, in a machine's heap of 256 MB: named, exit 2 (it aborted with exit 134)", async () => {
    const text = `---\nk: [${"[a], ".repeat(207_990)}a]\n---\n# d\n\n## § 1 Eins\n\nText.\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(1_039_000);
    await writeTree(dir, { ".git/HEAD": "ref: refs/heads/main\n", "d/index.md": text });
    await lock({ dir: join(dir, "d"), ...META, slug: "d", output: join(dir, "d.lock.json") });
    expect((await runBin(["generate", "d.lock.json", "-o", "d.jsonl"], dir)).code).toBe(0);
    // The V8 flag holds for every thread: the worker runs out at 256 MiB, and says so.
    const run = await runBin(["validate", "d.jsonl", "--no-cache"], dir, env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain(
      "error  the dataset of d.lock.json (dataset folder d): a worker thread ran out of memory (its heap is capped at 256 MiB): lower the caps of docs/spec.md, section 13 (generate's and update's --max-front-matter-bytes, --max-artifact-bytes, …), or run Node with a larger --max-old-space-size",
    );
    expect(run.stderr).toBe("");
  });

  test("front matter that fills the worker's heap: the dataset is named, exit 2, and the other file of the run is reported", async () => {
    await writeTree(dir, {
      ".git/HEAD": "ref: refs/heads/main\n",
      "d/index.md": `---\nk: [${"[a], ".repeat(50_000)}a]\n---\n# d\n`,
      "e/index.md": law(3),
    });
    for (const name of ["d", "e"]) {
      await lock({ dir: join(dir, name), ...META, slug: name, output: join(dir, `${name}.lock.json`) });
      const generated = await runBin(["generate", `${name}.lock.json`, "-o", `${name}.jsonl`], dir, {
        ...smallWorkers,
        SMALL_WORKER_HEAP_MB: "256",
      });
      expect(generated.code, generated.stderr).toBe(0);
    }
    for (const jobs of ["1", "2"]) {
      const run = await runBin(["validate", "d.jsonl", "e.jsonl", "--jobs", jobs, "--no-cache"], dir, smallWorkers);
      expect(run.code, run.stdout).toBe(2);
      expect(run.stdout).toContain(
        "error  the dataset of d.lock.json (dataset folder d): a worker thread ran out of memory (its heap is capped at",
      );
      expect(run.stdout).toContain("✖ 1 of 2 files could not be read; no problems in the");
      expect(run.stdout).not.toContain("e.jsonl");
    }
    const stdin = await runCommand(
      "sh",
      ["-c", `"${process.execPath}" "${bin}" validate - --lock d.lock.json < d.jsonl`],
      dir,
      smallWorkers,
    );
    expect(stdin.code, stdin.stdout).toBe(2);
    expect(stdin.stdout).toContain(
      "<stdin>\n  error  the dataset of d.lock.json (dataset folder d): a worker thread ran out",
    );
  });
});

describe("a front matter read for templates or aliases over MAIN_THREAD_PARSE_BYTES is parsed in a capped worker (issue 32, item 7)", () => {
  const ADOPT = ["--slug", "{folder}", "--title-id", "{folder}", "--name", "{folder}", "--version-date", "2024-01-01"];
  const URL = "https://www.legislation.gov.au/{folder}/text";

  test("adopt, lock --alias and update with a front-matter template: one that fills the worker is refused, named", async () => {
    const big = `---\nk: [${"[a], ".repeat(50_000)}a]\n---\n# b\n\n## § 1 Eins\n`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAIN_THREAD_PARSE_BYTES);
    await writeTree(dir, {
      ".git/HEAD": "ref: refs/heads/main\n",
      "laws/a/index.md": "# a\n\n## § 1 Eins\n",
      "laws/big/index.md": big,
      "new/big2/index.md": big,
    });
    // With a worker's heap of 256 MiB, it parses; in one of 16 MiB, it is refused by name.
    const adopted = await runBin(["adopt", "laws/*", ...ADOPT, "--source-text-url", URL], dir, {
      ...smallWorkers,
      SMALL_WORKER_HEAP_MB: "256",
    });
    expect(adopted.code, adopted.stderr).toBe(0);
    const refused = "the front matter of laws/big/index.md could not be read: a worker thread ran out of memory";
    const templated = ["--source-text-url", "https://www.legislation.gov.au/{front.k|slug}/text"];
    const again = await runBin(["adopt", "new/big2", ...ADOPT, ...templated, "--check"], dir, smallWorkers);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain(`new/big2: ${refused.replace("laws/big/", "new/big2/")}`);
    const aliased = await runBin(
      [
        "lock",
        "laws/big",
        "--alias",
        "k",
        ...ADOPT.slice(2),
        "--slug",
        "big",
        "--source-text-url",
        URL,
        "-o",
        "x.lock.json",
      ],
      dir,
      smallWorkers,
    );
    expect(aliased.code, aliased.stderr).toBe(2);
    expect(aliased.stderr).toContain(`--alias: ${refused}`);
    await writeFile(
      join(dir, ".citation-targets.json"),
      JSON.stringify({
        adopt: { datasets: ["laws/*"], sourceTextUrl: "https://www.legislation.gov.au/{front.k|slug}/text" },
      }),
    );
    await writeFile(join(dir, "laws/big/index.md"), `${big}\n## § 2 Zwei\n`);
    const updated = await runBin(["update", ".tooling/citation-targets/big.lock.json"], dir, smallWorkers);
    expect(updated.code, updated.stderr).toBe(1);
    expect(updated.stderr).toContain(`.tooling/citation-targets/big.lock.json: ${refused}`);
  });
});
