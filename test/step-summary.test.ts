/**
 * Issue 24: GitHub Actions job summaries. With GITHUB_STEP_SUMMARY pointing at a temporary file,
 * `validate` and `diff` append a short Markdown summary (the verdict, the counts, the first
 * problems or changes as a table, a note of how many more) after what is already there; a file
 * that cannot be written is a warning, and the command's exit code stands.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runMain } from "./helpers/in-process.js";
import { type DiffChange, type DiffPair, summarizeDiff } from "../src/core/diff/diff.js";
import { cell, diffStepSummary, SUMMARY_ROWS } from "../src/formatters/step-summary.js";
import { amendedRepository } from "./helpers/amended-repository.js";
import { runBin } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

async function run(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runMain(argv, cwd, env);
}

const tableRows = (markdown: string) =>
  markdown
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| file |") && !line.startsWith("| class |"));

describe("validate's job summary", () => {
  test("a clean run: the verdict and the counts, appended after what the step wrote before", async () => {
    const summary = join(dir, "clean.md");
    await writeFile(summary, "## Earlier step\n\n");
    const result = await run(["validate"], repoRoot, { GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(0);
    expect(await readFile(summary, "utf8")).toBe(
      "## Earlier step\n\n### citation-targets validate: ✔ no problems\n\n2 files, 63 records: 0 errors, 0 warnings.\n\n",
    );
  });

  test("problems: the first ten as a table, and how many more", async () => {
    const file = join(dir, "broken.jsonl");
    await writeFile(file, `${Array.from({ length: 14 }, (_, i) => `{"n": ${i} | broken`).join("\n")}\n`);
    const summary = join(dir, "problems.md");
    const result = await run(["validate", file, "--format", "json"], dir, { GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { summary: { errors: number; warnings: number } };
    const total = report.summary.errors + report.summary.warnings;
    expect(total).toBeGreaterThan(SUMMARY_ROWS);
    const markdown = await readFile(summary, "utf8");
    expect(markdown.split("\n")[0]).toBe(
      `### citation-targets validate: ✖ ${report.summary.errors} errors, ${report.summary.warnings} ${report.summary.warnings === 1 ? "warning" : "warnings"}`,
    );
    expect(markdown).toContain("| file | line | severity | rule | message |\n|---|---|---|---|---|\n");
    const rows = tableRows(markdown);
    expect(rows).toHaveLength(SUMMARY_ROWS);
    expect(rows[0]).toMatch(/^\| `broken\.jsonl` \| 1:[0-9]+ \| error \| `json-syntax` \| .* \|$/);
    // The record's own "|" is escaped, so that it does not split the cell.
    expect(rows.every((row) => row.split(/(?<!\\)\|/).length === 7)).toBe(true);
    expect(markdown.endsWith(`\n… and ${total - SUMMARY_ROWS} more problems: the job's log has them all.\n\n`)).toBe(
      true,
    );
  });

  test("through the built bin too; a summary file that cannot be written is a warning, and the exit code stands", async () => {
    const summary = join(dir, "bin.md");
    const result = await runBin(["validate"], repoRoot, { GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(0);
    expect(await readFile(summary, "utf8")).toContain("### citation-targets validate: ✔ no problems");
    const folder = join(dir, "a-folder");
    await mkdir(folder);
    const failed = await run(["validate"], repoRoot, { GITHUB_STEP_SUMMARY: folder });
    expect(failed.code).toBe(0);
    expect(failed.stderr).toBe(
      `citation-targets: cannot append the job summary to ${folder}: it is a folder, not a file (GITHUB_STEP_SUMMARY); the result above stands\n`,
    );
  });

  test("table cells: one line, | escaped, markup as text", () => {
    expect(cell("a | b\nc <script> & d")).toBe("a \\| b c &lt;script\\> &amp; d");
    // Issue 32, item 8: a value's Markdown is text (every ASCII punctuation character escaped).
    expect(cell("![x](https://e.example/p.png)")).toBe("\\!\\[x\\]\\(https\\:\\/\\/e\\.example\\/p\\.png\\)");
    expect(cell("x".repeat(300))).toBe(`${"x".repeat(199)}…`);
  });
});

describe("diff's job summary", () => {
  test("--against HEAD: the verdict, the summary line, then each file's changes under its heading, those failing the gate first, how many more", async () => {
    const repo = await amendedRepository(dir, "diff-repo");
    const summary = join(dir, "diff.md");
    // The built bin, as a workflow runs it.
    const result = await runBin(
      ["diff", "--against", "HEAD", "--approvals", "approvals.json", "--format", "github"],
      repo,
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(result.code).toBe(1);
    const markdown = await readFile(summary, "utf8");
    const lines = markdown.split("\n");
    expect(lines[0]).toMatch(/^### citation-targets diff against `HEAD` \([0-9a-f]{12}\): ✖ 7 changes fail the gate$/);
    expect(lines[2]).toBe(
      "✖ 13 changes (2 files, 63 → 63 records): 8 breaking (record-changed 3, record-removed 5), 5 additive (record-added 5); 1 approved; 7 fail the gate (--fail-on breaking)",
    );
    // No dataset was added, removed or given a new version: each file's name is its heading.
    expect(lines.filter((line) => line.startsWith("#### "))).toEqual([
      "#### `.tooling/citation-targets/mvfg.jsonl`",
      "#### `.tooling/citation-targets/privacy-act-1988.jsonl`",
    ]);
    expect(markdown).toContain(
      "#### `.tooling/citation-targets/mvfg.jsonl`\n\n1 change, 1 failing the gate\n\n| class | kind | address | heading | gate |\n|---|---|---|---|---|\n| breaking | record-changed | `mvfg/mvfg.md#§-1` | § 1 Anwendungsbereich | fails |\n\n#### `.tooling/citation-targets/privacy-act-1988.jsonl`\n\n12 changes, 6 failing the gate\n\n",
    );
    const rows = tableRows(markdown);
    expect(rows).toHaveLength(SUMMARY_ROWS);
    // What fails the gate is seen first: the seven failing changes, then the approved removal (breaking), then additions.
    expect(rows.map((row) => row.split(" | ").at(-1))).toEqual([
      ...Array(7).fill("fails |"),
      "approved: Section 13A repealed by Act No\\. 1\\, 2025 |",
      "passes |",
      "passes |",
    ]);
    expect(rows[7]).toBe(
      "| breaking | record-removed | `privacy-act-1988/part-iii/division-1/section-13a.md#13a` | 13A Interferences with privacy \\(repealed\\) | approved: Section 13A repealed by Act No\\. 1\\, 2025 |",
    );
    expect(rows[8]).toBe(
      "| additive | record-added | `privacy-act-1988/part-i/section-7.md#7` | 7 Acts and practices of agencies | passes |",
    );
    expect(markdown.endsWith("\n… and 3 more changes: the job's log has them all.\n\n")).toBe(true);
  });

  test("grouping: the datasets with failing changes first, within each the failing changes first; a dataset's line is its heading", () => {
    const change = (kind: DiffChange["kind"], address: string, approved?: string): DiffChange => ({
      kind,
      class: kind === "record-added" ? "additive" : "breaking",
      address,
      message: `${kind} ${address}`,
      headingText: `§ ${address.split("#")[1]}`,
      ...(approved !== undefined ? { approved: { reason: approved } } : {}),
    });
    const pair = (slug: string, changes: DiffChange[], extra: Partial<DiffPair> = {}): DiffPair => ({
      type: "records",
      old: `old/${slug}.jsonl`,
      new: `${slug}.jsonl`,
      dataset: { slug, versionDate: { before: "2024-01-01", after: "2024-01-01" } },
      records: { before: 2, after: 2 },
      changes,
      warnings: [],
      ...extra,
    });
    const pairs = [
      // Only additions (a dataset added): it passes, so it comes after the ones that fail.
      pair("aa", [change("record-added", "aa/index.md#a1"), change("record-added", "aa/index.md#a2")], {
        oldMissing: true,
        dataset: { slug: "aa", versionDate: { after: "2025-01-01" } },
        records: { before: 0, after: 2 },
      }),
      // A new version with no record change: a heading and no table.
      pair("bb", [], { dataset: { slug: "bb", versionDate: { before: "2024-01-01", after: "2025-01-01" } } }),
      pair("cc", [
        change("record-added", "cc/index.md#c1"),
        change("record-removed", "cc/index.md#c2", "repealed"),
        change("record-changed", "cc/index.md#c3"),
        change("record-removed", "cc/index.md#c4"),
      ]),
      // Nothing changed: not shown.
      pair("dd", []),
    ];
    const summary = summarizeDiff(pairs, "breaking");
    const markdown = diffStepSummary({ pairs, summary, warnings: [] });
    expect(markdown).toBe(
      [
        "### citation-targets diff: ✖ 2 changes fail the gate",
        "",
        "✖ 6 changes (4 files, 6 → 8 records): 3 breaking (record-changed 1, record-removed 2), 3 additive (record-added 3); 1 approved; 2 fail the gate (--fail-on breaking)",
        "",
        "#### `cc.jsonl`",
        "",
        "4 changes, 2 failing the gate",
        "",
        "| class | kind | address | heading | gate |",
        "|---|---|---|---|---|",
        "| breaking | record-changed | `cc/index.md#c3` | § c3 | fails |",
        "| breaking | record-removed | `cc/index.md#c4` | § c4 | fails |",
        "| breaking | record-removed | `cc/index.md#c2` | § c2 | approved: repealed |",
        "| additive | record-added | `cc/index.md#c1` | § c1 | passes |",
        "",
        "#### dataset aa added \\(version 2025\\-01\\-01\\, 2 records\\)",
        "",
        "`aa.jsonl`: 2 changes",
        "",
        "| class | kind | address | heading | gate |",
        "|---|---|---|---|---|",
        "| additive | record-added | `aa/index.md#a1` | § a1 | passes |",
        "| additive | record-added | `aa/index.md#a2` | § a2 | passes |",
        "",
        "#### dataset bb\\: new version 2024\\-01\\-01 → 2025\\-01\\-01 \\(2 → 2 records\\)",
        "",
        "`bb.jsonl`: no record changes",
        "",
        "",
      ].join("\n"),
    );
  });

  test("ten changes in all: the files past them are counted, not shown", () => {
    const pairs: DiffPair[] = Array.from({ length: 4 }, (_, i) => ({
      type: "records",
      old: `old/f${i}.jsonl`,
      new: `f${i}.jsonl`,
      records: { before: 4, after: 4 },
      changes: Array.from({ length: 4 }, (_, j) => ({
        kind: "record-changed",
        class: "breaking",
        address: `f${i}/index.md#s${j}`,
        message: "changed",
      })),
      warnings: [],
    }));
    const markdown = diffStepSummary({ pairs, summary: summarizeDiff(pairs, "breaking"), warnings: [] });
    expect(markdown.match(/^#### /gm)).toHaveLength(3);
    expect(tableRows(markdown)).toHaveLength(SUMMARY_ROWS);
    expect(markdown).toContain(
      "| breaking | record-changed | `f2/index.md#s1` |  | fails |\n\n… and 6 more changes, 1 more file not shown: the job's log has them all.\n\n",
    );
  });

  test("a heading's text is a value's: a hostile file name or slug cannot start a heading, a link or an image", () => {
    const pairs: DiffPair[] = [
      {
        type: "records",
        old: "old.jsonl",
        new: "a\n### injected <img src=x>.jsonl",
        oldMissing: true,
        dataset: { slug: "![x](https://evil.example/p.png)", versionDate: {} },
        records: { before: 0, after: 1 },
        changes: [{ kind: "record-added", class: "additive", address: "a/b.md#c", message: "added" }],
        warnings: [],
      },
      {
        type: "records",
        old: "old2.jsonl",
        new: "b`\n#### x [l](https://evil.example).jsonl",
        records: { before: 1, after: 1 },
        changes: [{ kind: "record-added", class: "additive", address: "b/b.md#c", message: "added" }],
        warnings: [],
      },
    ];
    const markdown = diffStepSummary({ pairs, summary: summarizeDiff(pairs, "breaking"), warnings: [] });
    expect(markdown.match(/^#+ /gm)).toEqual(["### ", "#### ", "#### "]);
    expect(markdown).not.toContain("![x](");
    expect(markdown).not.toContain("](https://");
    // Markup is text in a code span; outside one, none is left.
    expect(markdown.replace(/`[^`\n]*`/g, "")).not.toContain("<img");
    expect(markdown).toContain(
      "#### dataset \\!\\[x\\]\\(https\\:\\/\\/evil\\.example\\/p\\.png\\) added \\(1 record\\)\n",
    );
    expect(markdown).toContain("\n`a ### injected <img src=x>.jsonl`: 1 change\n");
    expect(markdown).toContain("\n#### b\\` \\#\\#\\#\\# x \\[l\\]\\(https\\:\\/\\/evil\\.example\\)\\.jsonl\n");
  });

  test("no changes: the gate passes, no table", async () => {
    const summary = join(dir, "same.md");
    const file = join(repoRoot, ".tooling/citation-targets/mvfg.jsonl");
    const result = await run(["diff", file, file], dir, { GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(0);
    expect(await readFile(summary, "utf8")).toBe(
      "### citation-targets diff: ✔ the gate passes\n\n✔ no changes (1 file, 21 → 21 records)\n\n",
    );
  });
});
