/**
 * Documented caps (docs/spec.md, "Limits"): exceeding one is a problem on that line or file, never a crash or unbounded
 * memory.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFileCheck } from "../src/engine/check-file.js";
import { lock } from "../src/node/dataset/lock.js";
import { rules } from "../src/rules/index.js";
import { nestingDepth } from "../src/engine/read-records.js";
import { runBin, runMain } from "./helpers/bin.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import { headingTrailCap } from "../src/core/markdown/limits.js";
import { guardNestedQuotes, type NestedQuote } from "../src/core/markdown/quote-guard.js";
import MarkdownIt from "markdown-it";
import { sourceBytesOf, writeArtifactByteLines } from "../src/core/records/generate.js";
import { repoRoot } from "./helpers/records.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { fixtureRecords, schemaCheck } from "./helpers/records.js";

const cli = runMain;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const encoder = new TextEncoder();

const META = {
  slug: "t",
  titleId: "T",
  name: "T",
  versionDate: "2024-01-01",
  sourceTextUrl: "https://www.legislation.gov.au/T/text",
};

describe("line length", () => {
  test("a line over the cap is one problem, its bytes are never held, and the lines after it are read", () => {
    const check = createFileCheck({
      rules,
      file: "privacy-act-1988.jsonl",
      schemaCheck,
      limits: { maxLineBytes: 1000 },
    });
    const good = `${JSON.stringify(fixtureRecords("privacy-act-1988")[0]).length}`;
    expect(Number(good)).toBeGreaterThan(0);
    check.push(encoder.encode('{"a":"'));
    for (let i = 0; i < 50; i++) check.push(encoder.encode("x".repeat(100))); // 5,000 bytes in small chunks: more than the cap
    check.push(encoder.encode('"}\nnot json\n'));
    check.push(encoder.encode(`{"b":"${"y".repeat(2000)}"}\n`)); // over the cap inside one chunk
    const result = check.end();
    expect(result.problems.filter((p) => p.ruleId === "line-length").map((p) => [p.line, p.message])).toEqual([
      [
        1,
        "line is 5008 bytes long, more than the cap of 1000 bytes: it was skipped (raise the cap with --max-line-bytes)",
      ],
      [
        3,
        "line is 2008 bytes long, more than the cap of 1000 bytes: it was skipped (raise the cap with --max-line-bytes)",
      ],
    ]);
    expect(result.problems.some((p) => p.ruleId === "json-syntax" && p.line === 2)).toBe(true);
  });

  test("a last overlong line without a newline is reported too; --max-line-bytes sets the cap", async () => {
    await writeFile(join(dir, "x.jsonl"), `{"a":"${"z".repeat(300)}"}`);
    const result = await cli(["validate", "--no-lock", "--format", "json", "--max-line-bytes", "100", "x.jsonl"], dir);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).files[0].problems.map((p: { ruleId: string }) => p.ruleId)).toEqual([
      "line-length",
    ]);
  });
});

describe("nesting depth", () => {
  test("a value nested past the cap is one problem and is not handed to the rules that recurse", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    await writeFile(join(dir, "x.jsonl"), `{"a":${deep}}\n{"b":[[1]]}\n`);
    const result = await cli(["validate", "--no-lock", "--format", "json", "--rule", "schema=off", "x.jsonl"], dir);
    const problems = JSON.parse(result.stdout).files[0].problems as { line: number; ruleId: string; message: string }[];
    expect(problems.filter((p) => p.line === 1)).toEqual([
      expect.objectContaining({
        ruleId: "nesting-depth",
        message:
          "the value nests arrays and objects more than 64 deep: it was skipped (raise the cap with --max-depth)",
      }),
    ]);
    const lower = await cli(
      ["validate", "--no-lock", "--format", "json", "--rule", "schema=off", "--max-depth", "2", "x.jsonl"],
      dir,
    );
    expect(
      JSON.parse(lower.stdout)
        .files[0].problems.filter((p: { ruleId: string }) => p.ruleId === "nesting-depth")
        .map((p: { line: number }) => p.line),
    ).toEqual([1, 2]);
  });

  test("the depth is measured without recursion", () => {
    expect(nestingDepth({ a: [1, { b: 2 }] }, 64)).toBe(3);
    expect(nestingDepth("x", 64)).toBe(0);
    let value: unknown = 1;
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(nestingDepth(value, 64)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("problems kept per file", () => {
  test("--max-stored-problems keeps that many and counts the rest", async () => {
    await writeFile(join(dir, "x.jsonl"), "nope\n".repeat(30));
    const result = await cli(
      ["validate", "--no-lock", "--format", "json", "--max-stored-problems", "10", "x.jsonl"],
      dir,
    );
    const file = JSON.parse(result.stdout).files[0];
    expect(file.problems).toHaveLength(10);
    expect(file.problemsOmitted).toBe(20);
    expect(JSON.parse(result.stdout).summary.errors).toBe(30);
  });
});

describe("artifact size", () => {
  test("lock and generate refuse an artifact over the cap, naming it", async () => {
    await writeTree(dir, { "small.md": "# Small\n", "big.md": `# Big\n\n${"Text. ".repeat(400)}\n` });
    const meta = {
      slug: "t",
      titleId: "T",
      name: "T",
      versionDate: "2024-01-01",
      sourceTextUrl: "https://www.legislation.gov.au/T/text",
    };
    await expect(lock({ dir, ...meta, maxArtifactBytes: 1000 })).rejects.toThrow(
      "big.md: 2408 bytes, more than the cap of 1000 bytes for one artifact (raise it with --max-artifact-bytes)",
    );
    await lock({ dir, ...meta });
    const refused = await cli(["generate", "citation-targets.lock.json", "--max-artifact-bytes", "1000"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("big.md: 2408 bytes, more than the cap of 1000 bytes");
    expect((await cli(["generate", "citation-targets.lock.json"], dir)).code).toBe(0);
  });
});

describe("user schemas", () => {
  test("a catastrophic pattern runs in bounded time; one that needs backtracking features is refused clearly", async () => {
    const { buildRecordSchema } = await import("../src/core/schema/schema.js");
    const schema = buildRecordSchema() as Record<string, unknown>;
    const set = (value: unknown, pattern: string) => {
      if (value === null || typeof value !== "object") return;
      for (const [key, child] of Object.entries(value)) {
        if (key === "titleId" && child !== null && typeof child === "object" && !Array.isArray(child))
          (child as { pattern?: string }).pattern = pattern;
        else set(child, pattern);
      }
    };
    const evil = structuredClone(schema);
    set(evil, "^(a+)+$");
    await writeFile(join(dir, "evil.schema.json"), JSON.stringify(evil));
    const record = { ...fixtureRecords("privacy-act-1988")[1]!, titleId: `${"a".repeat(100_000)}!` };
    await writeFile(join(dir, "privacy-act-1988.jsonl"), `${JSON.stringify(record)}\n`);
    const started = performance.now();
    const result = await cli(
      [
        "validate",
        "--no-lock",
        "--format",
        "json",
        "--schema",
        "evil.schema.json",
        "--rule",
        "non-canonical=off",
        "privacy-act-1988.jsonl",
      ],
      dir,
    );
    expect(performance.now() - started).toBeLessThan(20_000); // a backtracking engine would not finish at all
    expect(JSON.parse(result.stdout).files[0].problems.map((p: { pointer: string }) => p.pointer)).toContain(
      "/titleId",
    );
    const lookaround = structuredClone(schema);
    set(lookaround, "^(?!x)\\\\w+$");
    await writeFile(join(dir, "lookaround.schema.json"), JSON.stringify(lookaround));
    const refused = await cli(
      ["validate", "--no-lock", "--schema", "lookaround.schema.json", "privacy-act-1988.jsonl"],
      dir,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("cannot be matched in bounded time");
    expect(refused.stderr).toContain("rewrite it without lookaround or backreferences");
  });
});

describe("YAML aliases in front matter", () => {
  test("an alias bomb is refused by count, never expanded; --max-yaml-aliases raises the cap", async () => {
    let yaml = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i <= 9; i++)
      yaml += `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(",")}]\n`; // 9^9 strings if expanded
    yaml += `many: [${Array(1200).fill("*a0").join(",")}]\n`;
    await writeTree(dir, { "gesetz/index.md": `---\n${yaml}---\n# Gesetz\n\n## § 1 Eins\n\nText.\n` });
    const meta = {
      slug: "t",
      titleId: "T",
      name: "T",
      versionDate: "2024-01-01",
      sourceTextUrl: "https://www.legislation.gov.au/T/text",
    };
    await lock({ dir, ...meta });
    const refused = await cli(["generate", "citation-targets.lock.json", "-o", "t.jsonl"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "gesetz/index.md: front matter has more than 1000 YAML aliases, the cap (raise it with --max-yaml-aliases)",
    );
    const raised = await cli(
      ["generate", "citation-targets.lock.json", "-o", "t.jsonl", "--max-yaml-aliases", "2000"],
      dir,
    );
    expect(raised.code, raised.stderr).toBe(0);
    expect((await cli(["validate", "--no-lock", "t.jsonl"], dir)).code).toBe(0);
  });
});

/** Flow-style YAML of about `bytes` bytes: one map of many keys, each a small nested collection (issue 32, item 7). */
function flowYaml(bytes: number): string {
  const parts: string[] = [];
  let size = 2;
  while (size < bytes) {
    const part = `k${parts.length}: [a, b, {c: d, e: [f, g]}]`;
    parts.push(part);
    size += part.length + 2;
  }
  return `{${parts.join(", ")}}`;
}

const ADOPT_FLAGS = [
  "--slug",
  "{folder}",
  "--title-id",
  "{folder}",
  "--name",
  "{folder}",
  "--version-date",
  "2024-01-01",
  "--source-text-url",
  "https://www.legislation.gov.au/{folder}/text",
];

describe("front matter size (issue 32, item 7)", () => {
  test("16.6 MB of flow-style YAML front matter is refused by its size, named, before it is parsed; --max-front-matter-bytes sets the cap", async () => {
    const huge = flowYaml(16_600_000);
    await writeTree(dir, {
      ".git/HEAD": "ref: refs/heads/main\n",
      "laws/huge/index.md": `---\n${huge}\n---\n# Huge\n\n## § 1 Eins\n\nText.\n`,
      "laws/small/index.md": `---\n${flowYaml(300)}\n---\n# Small\n\n## § 1 Eins\n\nText.\n`,
    });
    const bytes = new TextEncoder().encode(huge).length;
    // adopt fills its templates from the front matter: refused there, by name.
    const adopted = await cli(
      ["adopt", "laws/huge", "--check", ...ADOPT_FLAGS.slice(2), "--slug", "{front.k0|slug}"],
      dir,
    );
    expect(adopted.code).toBe(1);
    expect(adopted.stderr).toContain(
      `laws/huge/index.md: front matter of ${bytes} bytes, more than 1048576, the cap (raise it with --max-front-matter-bytes)`,
    );
    // generate and update (and adopt's generation) refuse it too.
    await lock({ dir: join(dir, "laws/huge"), ...META, slug: "huge", output: join(dir, "huge.lock.json") });
    const generated = await cli(["generate", "huge.lock.json"], dir);
    expect(generated.code).toBe(1);
    expect(generated.stderr).toContain(
      `index.md: front matter of ${bytes} bytes, more than 1048576, the cap (raise it with --max-front-matter-bytes)`,
    );
    const updated = await cli(["update", "--check", "huge.lock.json"], dir);
    expect(updated.code).toBe(1);
    expect(updated.stderr).toContain(`front matter of ${bytes} bytes, more than 1048576, the cap`);
    // validate, which has no such flag, says which commands raise the cap.
    await writeFile(join(dir, "huge.jsonl"), "{}\n");
    const validated = await cli(["validate", "huge.jsonl"], dir);
    expect(validated.stdout).toContain(
      `front matter of ${bytes} bytes, more than 1048576, the cap (generate's default, which validate compares with; generate and update raise it with --max-front-matter-bytes)`,
    );
    // The flag lowers the cap (and raises it: the small one passes under its size, not under a smaller cap).
    await lock({ dir: join(dir, "laws/small"), ...META, slug: "small", output: join(dir, "small.lock.json") });
    expect((await cli(["generate", "small.lock.json"], dir)).code).toBe(0);
    const lowered = await cli(["generate", "small.lock.json", "--max-front-matter-bytes", "100"], dir);
    expect(lowered.code).toBe(1);
    expect(lowered.stderr).toMatch(/index\.md: front matter of 3\d\d bytes, more than 100, the cap/);
  });
});

describe("front matter keys (issue 32, item 7)", () => {
  test("a repeated key is still refused, with its line, now checked in linear time (and for adopt's templates)", async () => {
    expect(() => parseArtifact("---\na: 1\nb: {c: 1, c: 2}\n---\n# T\n")).toThrow(
      "front matter is not valid YAML (line 3): Map keys must be unique at line 2, column 11:",
    );
    expect(() => parseArtifact("---\na: 1\nb: 2\na: 3\n---\n# T\n")).toThrow(
      "front matter is not valid YAML (line 4): Map keys must be unique at line 3, column 1:",
    );
    expect(parseArtifact("---\na: 1\n'1': x\n1: y\nb: {a: 1}\n---\n# T\n").targets).toHaveLength(1); // "1" and 1 differ
    await writeTree(dir, { ".git/HEAD": "x\n", "laws/x/index.md": "---\nslug: x\nslug: y\n---\n# X\n" });
    const adopted = await cli(["adopt", "laws/x", "--check", ...ADOPT_FLAGS.slice(2)], dir);
    expect(adopted.code).toBe(1);
    expect(adopted.stderr).toContain(
      "the front matter of laws/x/index.md is not valid YAML (line 3): Map keys must be unique at line 2, column 1",
    );
    // Any YAML error of a template's front matter is said with the file's line, as the markdown parser says it.
    await writeTree(dir, { "laws/x/index.md": "---\nslug: x\nstand: [2021-06-18\n---\n# X\n" });
    const unclosed = await cli(["adopt", "laws/x", "--check", ...ADOPT_FLAGS.slice(2)], dir);
    expect(unclosed.code).toBe(1);
    expect(unclosed.stderr).toMatch(/the front matter of laws\/x\/index\.md is not valid YAML \(line 3\): /);
  });
});

describe("block quotes nested over many lines (issue 32, item 7)", () => {
  test("2,000 nested > then 300,000 lines (604 KB) is refused, naming the cap on depth times lines", async () => {
    const text = `# Q\n\n${">".repeat(2000)} a\n${"b\n".repeat(300_000)}`;
    expect(() => parseArtifact(text)).toThrow(
      /^block quotes nested \d+ deep or more over 300001 lines, in a top-level block from line 3 of the body: their depth times lines is more than 2000000, the cap$/,
    );
    await writeTree(dir, { "q/index.md": text });
    await lock({ dir: join(dir, "q"), ...META, output: join(dir, "q.lock.json") });
    const refused = await cli(["generate", "q.lock.json"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("index.md: block quotes nested");
    expect(refused.stderr).toContain("their depth times lines is more than 2000000, the cap");
  });

  test("below the cap, nested quotes parse as before: 2,000 nested > over a few lines, and 10 deep over 100,000 lines", () => {
    const deep = parseArtifact(`# Q\n\n${">".repeat(2000)} a\nb\nc\n\n## Next\n`);
    expect(deep.targets.map((t) => t.heading?.text)).toEqual(["Q", "Next"]);
    const long = parseArtifact(`# Q\n\n${">".repeat(10)} a\n${"b\n".repeat(100_000)}\n## Next\n`);
    expect(long.targets.map((t) => t.heading?.text)).toEqual(["Q", "Next"]);
  });

  test("only a line that opens a quote counts: three nested over N lines (2N in all) pass a cap under 3N, four are refused as four", () => {
    // Each quote nested in another may span its parent's lines. The lines inside the third were counted as a fourth
    // level, so that three `>` over 800,000 lines were refused as "4 deep" under the cap of 2,000,000. The guard itself,
    // on a markdown-it of the same preset, with a cap of 100 for 41 lines.
    const refused: NestedQuote[] = [];
    const md = new MarkdownIt("commonmark");
    guardNestedQuotes(
      md,
      (quote) => {
        refused.push(quote);
        throw new Error("refused");
      },
      () => true,
      100,
    );
    const lines = "b\n".repeat(40);
    const three = md.render(`>>> a\n${lines}`);
    expect(refused).toEqual([]);
    expect(three).toBe(new MarkdownIt("commonmark").render(`>>> a\n${lines}`));
    expect(() => md.render(`>>>> a\n${lines}`)).toThrow("refused");
    expect(refused).toEqual([{ depth: 4, lines: 41, startLine: 0 }]);
  });
});

describe("heading trails (issue 32, item 7)", () => {
  // Every record repeats the headings above it: a long heading over many short ones multiplies (docs/spec.md, section
  // 13). The built bin in a 256 MiB heap, as the helper ran it: 131 KB made 552 MB of JSONL and aborted there.
  const env = { NODE_OPTIONS: "--max-old-space-size=256" };
  const refusal = (path: string, characters: number) =>
    `${path}: its records' heading trails add up to more than ${headingTrailCap(characters)} characters, the cap for a file of ${characters} characters`;
  const tooling = ".tooling/citation-targets";

  test("a heading of 65,000 characters over 8,388 `## N` (131 KB) is refused, named, by every command that generates", async () => {
    const text = `# ${"x".repeat(65_000)}\n\n${Array.from({ length: 8388 }, (_, i) => `## ${i}\n\n`).join("")}`;
    await writeTree(dir, { ".git/HEAD": "ref: refs/heads/main\n", "laws/ht/index.md": text });
    await lock({ dir: join(dir, "laws/ht"), ...META, slug: "ht", output: join(dir, tooling, "ht.lock.json") });
    const expected = refusal("index.md", text.length);
    for (const args of [
      ["generate", `${tooling}/ht.lock.json`, "-o", "ht.jsonl"],
      ["generate", `${tooling}/ht.lock.json`, "-o", "ht.jsonl", "--jobs", "2"],
      ["update"],
      ["update", "--check"],
      ["adopt", "laws/ht", "--check", ...ADOPT_FLAGS],
    ]) {
      const run = await runBin(args, dir, env);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(expected);
    }
    expect((await readdir(dir)).filter((name) => name.startsWith("ht"))).toEqual([]);
    // validate of a JSONL beside the manifest says why it could not compare it with what generate writes.
    await writeFile(join(dir, tooling, "ht.jsonl"), "{}\n");
    const validated = await runBin(["validate", `${tooling}/ht.jsonl`], dir, env);
    expect(validated.code, validated.stderr).toBe(1);
    expect(validated.stdout).toContain(`because generate refuses the dataset of ${tooling}/ht.lock.json: ${expected}`);
  });

  test("the thread that makes a file's lines stops at the record that passes the cap: it never makes them all", () => {
    const text = `# ${"x".repeat(65_000)}\n\n${Array.from({ length: 8388 }, (_, i) => `## ${i}\n\n`).join("")}`;
    const bytes = new TextEncoder().encode(text);
    const head = { ...META, datasetDigest: "0".repeat(64) };
    let lines = 0;
    let trail = 0;
    expect(() =>
      writeArtifactByteLines(
        head,
        { path: "index.md", sha256: "0".repeat(64) },
        parseArtifact(text),
        sourceBytesOf(text, bytes),
        ({ ownTrailJson: ownTrail }) => {
          lines++;
          trail += JSON.parse(ownTrail).join("").length;
        },
      ),
    ).toThrow(refusal("index.md", text.length));
    // 137 children of the heading fit under 64 × 139,386 + 4,096 characters; the next is refused before it is made.
    expect(trail).toBeLessThanOrEqual(headingTrailCap(text.length));
    expect(trail + 65_000).toBeGreaterThan(headingTrailCap(text.length));
    expect(lines).toBeLessThan(200);
  });

  test("under the budget of the main thread (87 KB), and for units below a heading, refused the same", async () => {
    const text = `# ${"x".repeat(30_000)}\n\n${Array.from({ length: 8000 }, (_, i) => `## ${i}\n\n`).join("")}`;
    const units = `# ${"u".repeat(20_000)}\n\n${Array.from({ length: 500 }, (_, i) => `(${i + 1}) a.\n\n`).join("")}`;
    await writeTree(dir, { "h/index.md": text, "u/index.md": units });
    await lock({ dir: join(dir, "h"), ...META, output: join(dir, "h.lock.json") });
    await lock({ dir: join(dir, "u"), ...META, units: true, output: join(dir, "u.lock.json") });
    const headings = await runBin(["generate", "h.lock.json", "-o", "h.jsonl"], dir, env);
    expect(headings.code, headings.stderr).toBe(1);
    expect(headings.stderr).toContain(refusal("index.md", text.length));
    const below = await runBin(["generate", "u.lock.json", "-o", "u.jsonl"], dir, env);
    expect(below.code, below.stderr).toBe(1);
    expect(below.stderr).toContain(refusal("index.md", units.length));
    // Without units, the same file is one heading over 500 paragraphs: nothing repeats.
    await lock({ dir: join(dir, "u"), ...META, output: join(dir, "plain.lock.json") });
    expect((await cli(["generate", "plain.lock.json", "-o", "plain.jsonl"], dir)).code).toBe(0);
  });

  test("a folder's heading counts in every record of the files below it: a tiny file under a long one is refused", async () => {
    const long = "y".repeat(20_000);
    await writeTree(dir, {
      "long/a/index.md": `# ${long}\n\nText.\n`,
      "long/a/s0.md": "# 0\n",
      "short/a/index.md": `# ${"z".repeat(300)}\n\nText.\n`,
      "short/a/s0.md": "# 0\n",
    });
    await lock({ dir: join(dir, "long"), ...META, output: join(dir, "long.lock.json") });
    await lock({ dir: join(dir, "short"), ...META, output: join(dir, "short.lock.json") });
    const refused = await cli(["generate", "long.lock.json", "-o", "long.jsonl"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(refusal("a/s0.md", 4));
    // A folder's heading of 300 characters over the same tiny file: well under the floor of 4,096.
    const passed = await cli(["generate", "short.lock.json", "-o", "short.jsonl"], dir);
    expect(passed.code, passed.stderr).toBe(0);
    const records = (await readFile(join(dir, "short.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.find((r) => r.artifactRelativePath === "a/s0.md").headingTrail).toEqual(["z".repeat(300)]);
    // validate, which makes the records in its own walk, refuses the same file.
    await writeFile(join(dir, "x.jsonl"), "{}\n");
    const validated = await cli(["validate", "x.jsonl", "--lock", "long.lock.json"], dir);
    expect(validated.stdout).toContain(
      `because generate refuses the dataset of long.lock.json: ${refusal("a/s0.md", 4)}`,
    );
  });

  test("a sub-folder's container record counts too: its trail is charged to the file that opens the folder", async () => {
    // a/b/index.md (4 characters, cap 4,352) repeats a's heading of 3,000 in its record, and opens b, whose container
    // record repeats it again: 6,000 in all.
    await writeTree(dir, {
      "d/a/index.md": `# ${"y".repeat(3000)}\n`,
      "d/a/b/index.md": "# B\n",
      "d/a/b/c.md": "# C\n",
    });
    await lock({ dir: join(dir, "d"), ...META, output: join(dir, "d.lock.json") });
    const refused = await cli(["generate", "d.lock.json", "-o", "d.jsonl"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(refusal("a/b/index.md", 4));
  });

  test("a folder's index that comes after other files of its folder is refused as the same file by one thread, workers and validate", async () => {
    // The index is read early, for its folder's heading, when the folder opens: a worker makes its lines then and
    // refuses its own trails; one thread and validate check them there too (helper-33's reproduction, 102 KB).
    const many = (heading: number, children: number) =>
      `# ${"x".repeat(heading)}\n\n${Array.from({ length: children }, (_, i) => `## ${i}\n\n`).join("")}`;
    await writeTree(dir, {
      "d/a/a.md": "# A\n\ntext\n",
      "d/a/b.md": many(20_000, 2000),
      "d/a/index.md": many(30_000, 4000),
    });
    const order = ["a/a.md", "a/b.md", "a/index.md"];
    await lock({ dir: join(dir, "d"), ...META, order, output: join(dir, "d.lock.json") });
    const index = (await readFile(join(dir, "d/a/index.md"), "utf8")).length;
    for (const jobs of ["1", "2"]) {
      const run = await runBin(["generate", "d.lock.json", "-o", "d.jsonl", "--jobs", jobs], dir);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(refusal("a/index.md", index));
    }
    await writeFile(join(dir, "x.jsonl"), "{}\n");
    const validated = await cli(["validate", "x.jsonl", "--lock", "d.lock.json"], dir);
    expect(validated.stdout).toContain(
      `because generate refuses the dataset of d.lock.json: ${refusal("a/index.md", index)}`,
    );
  });

  test("the cap is 64 characters a character of the file and 4,096: the longest heading that fits passes, one more is refused", async () => {
    const children = Array.from({ length: 100 }, (_, i) => `## ${i}\n`).join("");
    const textOf = (a: number) => `# ${"x".repeat(a)}\n${children}`;
    // Each of the 100 children repeats the heading of `a` characters; the heading itself has no trail.
    let a = 1;
    while (100 * (a + 1) <= headingTrailCap(textOf(a + 1).length)) a++;
    await writeTree(dir, { "fits/index.md": textOf(a), "over/index.md": textOf(a + 1) });
    await lock({ dir: join(dir, "fits"), ...META, output: join(dir, "fits.lock.json") });
    await lock({ dir: join(dir, "over"), ...META, output: join(dir, "over.lock.json") });
    const fits = await cli(["generate", "fits.lock.json", "-o", "fits.jsonl"], dir);
    expect(fits.code, fits.stderr).toBe(0);
    const trails = (await readFile(join(dir, "fits.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).headingTrail.join("").length);
    expect(trails.reduce((x, y) => x + y, 0)).toBe(100 * a);
    const over = await cli(["generate", "over.lock.json", "-o", "over.jsonl"], dir);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain(refusal("index.md", textOf(a + 1).length));
  });
});

describe("a worker that runs out of memory (issue 32, item 7)", () => {
  // The built bin with every worker's heap at 96 MiB (test/helpers/small-worker-heap.mjs): a front matter of 1.5 MB
  // with the cap raised (a flow sequence of 300,000 sequences) fills it.
  const small = join(repoRoot, "test/helpers/small-worker-heap.mjs");
  const runSmall = (args: string[]) =>
    runBin(args, dir, { NODE_OPTIONS: `--import=${small}`, SMALL_WORKER_HEAP_MB: "96" });

  test("update of many datasets: the one at fault is named, the others are still checked and reported, and no temporary file is left", async () => {
    const tree: Record<string, string> = { ".git/HEAD": "ref: refs/heads/main\n" };
    for (const name of ["a", "b", "c", "d", "e"]) tree[`laws/${name}/index.md`] = `# ${name}\n\n## § 1 Eins\n\nText.\n`;
    await writeTree(dir, tree);
    const adopted = await runBin(["adopt", "laws/*", ...ADOPT_FLAGS], dir);
    expect(adopted.code, adopted.stderr).toBe(0);
    // Now every dataset changes: d's front matter fills a worker's heap (its cap raised), e is at fault in its own way.
    for (const name of ["a", "b", "c"])
      await writeFile(join(dir, `laws/${name}/index.md`), `# ${name}\n\n## § 2 Zwei\n`);
    await writeFile(join(dir, "laws/d/index.md"), `---\nk: [${"[a], ".repeat(300_000)}a]\n---\n# d\n\n## § 1 Eins\n`);
    await writeFile(join(dir, "laws/e/index.md"), "---\nkey: [unclosed\n---\n# e\n");
    const run = await runSmall(["update", "--jobs", "2", "--max-front-matter-bytes", "4000000"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(".tooling/citation-targets/d.lock.json: a worker thread ran out of memory");
    expect(run.stderr).toContain("e.lock.json: index.md: front matter is not valid YAML");
    for (const name of ["a", "b", "c"]) expect(run.stderr).not.toContain(`${name}.lock.json`);
    expect(run.stderr).toContain("nothing was written");
    const left = await readdir(join(dir, ".tooling/citation-targets"));
    expect(left.filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(left.sort()).toEqual(["a", "b", "c", "d", "e"].flatMap((n) => [`${n}.jsonl`, `${n}.lock.json`]).sort());
  });

  test("generate with --jobs 1 parses in a capped worker too: the dataset is named", async () => {
    await writeTree(dir, { "d/index.md": `---\nk: [${"[a], ".repeat(300_000)}a]\n---\n# d\n\n## § 1 Eins\n\nText.\n` });
    await lock({ dir: join(dir, "d"), ...META, output: join(dir, "d.lock.json") });
    const run = await runSmall(["generate", "d.lock.json", "--jobs", "1", "--max-front-matter-bytes", "4000000"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "d.lock.json: a worker thread ran out of memory while it parsed index.md (its heap is capped at",
    );
  });
});
