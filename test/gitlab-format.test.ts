/** `--format gitlab`: GitLab's Code Quality report from validate, diff and update --check. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runMain } from "./helpers/in-process.js";
import { tempDir } from "./helpers/datasets.js";
import { amendedRepository } from "./helpers/amended-repository.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

interface Issue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number } };
}

/** Every issue has GitLab's fields, and no two share a fingerprint. */
function issuesOf(text: string): Issue[] {
  const issues = JSON.parse(text) as Issue[];
  expect(Array.isArray(issues)).toBe(true);
  for (const issue of issues) {
    expect(Object.keys(issue).sort()).toEqual(["check_name", "description", "fingerprint", "location", "severity"]);
    expect(issue.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(["info", "minor", "major", "critical", "blocker"]).toContain(issue.severity);
    expect(issue.location.lines.begin).toBeGreaterThanOrEqual(1);
  }
  expect(new Set(issues.map((issue) => issue.fingerprint)).size).toBe(issues.length);
  return issues;
}

describe("--format gitlab", () => {
  test("validate: one issue per problem with its rule, line and severity; the same input gives the same bytes", async () => {
    await writeFile(join(dir, "x.jsonl"), "not json\nalso not json\n");
    const result = await runMain(["validate", "--no-lock", "--format", "gitlab", "x.jsonl"], dir, {});
    expect(result.code).toBe(1);
    const issues = issuesOf(result.stdout);
    expect(
      issues.map((issue) => [issue.check_name, issue.location.path, issue.location.lines.begin, issue.severity]),
    ).toEqual([
      ["json-syntax", "x.jsonl", 1, "major"],
      ["json-syntax", "x.jsonl", 2, "major"],
    ]);
    expect((await runMain(["validate", "--no-lock", "--format", "gitlab", "x.jsonl"], dir, {})).stdout).toBe(
      result.stdout,
    );
    await writeFile(join(dir, "empty.jsonl"), "");
    const clean = await runMain(["validate", "--no-lock", "--format", "gitlab", "empty.jsonl"], dir, {});
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe("[]\n");
  });

  test("diff: one issue per change on the new file; a change failing the gate is major, an approved one minor", async () => {
    const repo = await amendedRepository(dir);
    const args = ["diff", "--against", "HEAD", "--format", "gitlab", "--approvals", "approvals.json"];
    const result = await runMain(args, repo, {});
    const issues = issuesOf(result.stdout);
    expect(issues.length).toBeGreaterThan(3);
    const repealed = issues.find((issue) => issue.description.includes("section-13a.md#13a"));
    expect(repealed).toMatchObject({ check_name: "record-removed", severity: "minor" });
    expect(repealed?.location.path).toBe(".tooling/citation-targets/privacy-act-1988.jsonl");
    expect(issues.some((issue) => issue.check_name === "record-added" && issue.severity === "info")).toBe(true);
    expect(issues.filter((issue) => issue.severity === "major").length > 0).toBe(result.code === 1);
    expect((await runMain(args, repo, {})).stdout).toBe(result.stdout);
  });

  test("update --check: a major issue at the manifest of each stale dataset, none when up to date", async () => {
    const repo = await amendedRepository(dir);
    const fresh = await runMain(["update", "--check", "--format", "gitlab"], repo, {});
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe("[]\n");
    const s1 = join(repo, "fixtures/datasets/privacy-act-1988/part-i/section-1.md");
    await writeFile(s1, `${await readFile(s1, "utf8")}\nAmended again.\n`);
    const stale = await runMain(["update", "--check", "--format", "gitlab"], repo, {});
    expect(stale.code).toBe(1);
    // The markdown changed without a new versionDate: update's warning is an issue too, minor (reviewing.test.ts).
    const all = issuesOf(stale.stdout);
    expect(all.map((issue) => [issue.check_name, issue.severity])).toEqual([
      ["not-up-to-date", "major"],
      ["update-warning", "minor"],
    ]);
    const issues = all.filter((issue) => issue.check_name === "not-up-to-date");
    expect(issues[0]).toMatchObject({
      check_name: "not-up-to-date",
      severity: "major",
      location: { path: ".tooling/citation-targets/privacy-act-1988.lock.json", lines: { begin: 1 } },
    });
    expect(issues[0]?.description).toContain("privacy-act-1988");
  });
});
