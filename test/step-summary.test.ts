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
import { cell, SUMMARY_ROWS } from "../src/formatters/step-summary.js";
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
  test("--against HEAD: the verdict, the summary line, the first ten changes with the breaking ones first, how many more", async () => {
    const repo = await amendedRepository(dir, "diff-repo");
    const summary = join(dir, "diff.md");
    const result = await run(
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
    const rows = tableRows(markdown);
    expect(rows).toHaveLength(SUMMARY_ROWS);
    expect(rows.map((row) => row.split(" | ")[0])).toEqual([
      ...Array(8).fill("| breaking"),
      "| additive",
      "| additive",
    ]);
    expect(rows[0]).toBe(
      "| breaking | record-changed | `.tooling/citation-targets/mvfg.jsonl` | `mvfg/mvfg.md#§-1` | § 1 Anwendungsbereich | fails |",
    );
    expect(rows).toContain(
      "| breaking | record-removed | `.tooling/citation-targets/privacy-act-1988.jsonl` | `privacy-act-1988/part-iii/division-1/section-13a.md#13a` | 13A Interferences with privacy \\(repealed\\) | approved: Section 13A repealed by Act No\\. 1\\, 2025 |",
    );
    expect(markdown.endsWith("\n… and 3 more changes: the job's log has them all.\n\n")).toBe(true);
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
