/**
 * The amendment loop, end to end through the built CLI (a child process, as a maintainer runs it):
 * a copy of this repository's Australian-style example is amended step by step, and after each
 * step `validate` must name the stale file; after `update` (and after the manual `lock` +
 * `generate`) it must be clean, and only the affected citation addresses may have changed.
 */
import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "./helpers/datasets.js";
import { runBin } from "./helpers/bin.js";
import { repoRoot } from "./helpers/records.js";

const MANIFEST = ".tooling/citation-targets/privacy-act-1988.lock.json";
const JSONL = ".tooling/citation-targets/privacy-act-1988.jsonl";
const DATASET = "fixtures/datasets/privacy-act-1988";

const ct = (args: string[], cwd: string) => runBin(args, cwd, { CI: "true" });

interface JsonProblem {
  ruleId: string;
  message: string;
  line: number;
}

/** validate --format json of the copy: exit code and every problem of the privacy act's file. */
async function validateCopy(cwd: string): Promise<{ code: number; problems: JsonProblem[] }> {
  const result = await ct(["validate", "--format", "json"], cwd);
  const report = JSON.parse(result.stdout) as { files: { path: string; problems: JsonProblem[] }[] };
  return { code: result.code, problems: report.files.find((f) => f.path === JSONL)!.problems };
}

async function addresses(cwd: string): Promise<string[]> {
  const text = await readFile(join(cwd, JSONL), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => (JSON.parse(line) as { citationAddress: string }).citationAddress);
}

/**
 * A copy of the repository's example data, laid out as in a user's repository (with .git, so it is a repository root).
 */
async function makeRepository(dir: string): Promise<string> {
  const root = join(dir, "repo");
  await mkdir(join(root, ".git"), { recursive: true });
  await cp(join(repoRoot, "fixtures"), join(root, "fixtures"), { recursive: true });
  await cp(join(repoRoot, ".tooling"), join(root, ".tooling"), { recursive: true });
  return root;
}

const section = (n: string, title: string, text: string) => `### ${n} ${title}\n\n${text}\n`;

describe("the amendment loop through the built CLI", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let repo: string;
  let original: string[];
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    repo = await makeRepository(dir);
    original = await addresses(repo);
  });
  afterAll(async () => cleanup());

  test("each amendment is reported naming the file; update makes it clean; only the affected addresses change", async () => {
    const data = join(repo, DATASET);
    expect((await validateCopy(repo)).code).toBe(0);

    // 1. A new section file in a folder.
    await writeFile(
      join(data, "part-i/section-7.md"),
      section("7", "Acts and practices of agencies", "(1) This section applies to acts and practices of agencies."),
    );
    let state = await validateCopy(repo);
    expect(state.code).toBe(1);
    expect(state.problems).toEqual([
      expect.objectContaining({
        ruleId: "lock-dataset-files",
        message: expect.stringContaining('markdown file "part-i/section-7.md"'),
      }),
    ]);
    expect(state.problems[0]!.message).toContain(`run \`citation-targets update ${MANIFEST}\``);
    // Or leave it out: the whole command, the folder and the manifest named (lock keeps the manifest's fields).
    expect(state.problems[0]!.message).toContain(
      `leave it out with \`citation-targets lock ${DATASET} --ignore part-i/section-7.md -o ${MANIFEST}\``,
    );

    // 2. A renamed section file: the old name is missing, the new one unlisted.
    await rename(join(data, "part-i/section-2a.md"), join(data, "part-i/section-2b.md"));
    state = await validateCopy(repo);
    expect(state.problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('artifact "part-i/section-2a.md" is in lock manifest'),
        expect.stringContaining('markdown file "part-i/section-2b.md"'),
      ]),
    );

    // 3. A deleted (repealed) section file.
    await rm(join(data, "part-iii/division-1/section-13a.md"));
    state = await validateCopy(repo);
    expect(
      state.problems.some((p) =>
        p.message.includes('artifact "part-iii/division-1/section-13a.md" is in lock manifest'),
      ),
    ).toBe(true);

    // 4. An amended section: its text changes.
    const s1 = join(data, "part-i/section-1.md");
    await writeFile(s1, `${await readFile(s1, "utf8")}\nThis section was amended.\n`);
    state = await validateCopy(repo);
    expect(
      state.problems.some(
        (p) =>
          p.ruleId === "lock-artifact-body" &&
          p.message.includes('artifact "part-i/section-1.md" has changed since the lock manifest was written'),
      ),
    ).toBe(true);

    // 5. A retitled section: its heading text changes, its designation does not.
    const s6 = join(data, "part-i/section-6.md");
    await writeFile(
      s6,
      (await readFile(s6, "utf8")).replace("### 6 Interpretation", "### 6 Definitions and interpretation"),
    );
    state = await validateCopy(repo);
    expect(state.problems.some((p) => p.message.includes('artifact "part-i/section-6.md" has changed'))).toBe(true);
    expect(state.problems).toHaveLength(6);

    // update --check says what would change and writes nothing.
    const before = await readFile(join(repo, MANIFEST), "utf8");
    const check = await ct(["update", "--check"], repo);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("privacy-act-1988: not up to date");
    expect(check.stdout).toContain("artifacts: 2 added, 2 removed, 2 changed");
    expect(check.stdout).toContain("records: 2 added, 2 removed, 2 changed (42 before, 42 after)");
    expect(await readFile(join(repo, MANIFEST), "utf8")).toBe(before);

    // update, run from a subfolder: it finds the repository's manifests, writes both files, and validate is clean.
    const updated = await ct(["update"], data);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain("mvfg: up to date");
    expect(updated.stdout).toContain("privacy-act-1988: updated");
    expect(await validateCopy(repo)).toEqual({ code: 0, problems: [] });
    expect((await ct(["update", "--check"], repo)).code).toBe(0);

    // Only the affected addresses changed: the new and renamed sections appear, the deleted and old name go.
    const now = await addresses(repo);
    const gone = original.filter((a) => !now.includes(a));
    const added = now.filter((a) => !original.includes(a));
    expect(gone).toEqual([
      "privacy-act-1988/part-i/section-2a.md#2a",
      "privacy-act-1988/part-iii/division-1/section-13a.md#13a",
    ]);
    expect(added).toEqual(["privacy-act-1988/part-i/section-2b.md#2a", "privacy-act-1988/part-i/section-7.md#7"]);
    // The amended and retitled sections keep their addresses, and the new section stands among its siblings.
    expect(now).toContain("privacy-act-1988/part-i/section-1.md#1");
    expect(now).toContain("privacy-act-1988/part-i/section-6.md#6");
    const partI = now
      .filter((a) => a.startsWith("privacy-act-1988/part-i/section-"))
      .map((a) => a.replace(/^privacy-act-1988\/part-i\//, "").replace(/#.*$/, ""));
    expect([...new Set(partI)]).toEqual([
      "section-1.md",
      "section-2.md",
      "section-2b.md",
      "section-6.md",
      "section-6aa.md",
      "section-7.md",
    ]);
  });

  test("the manual lock + generate gives the same bytes as update", async () => {
    const manual = join(dir, "manual");
    await cp(repo, manual, { recursive: true });
    // Undo the update in the copy by restoring the committed manifest and JSONL, then refresh by hand.
    await cp(join(repoRoot, MANIFEST), join(manual, MANIFEST));
    await cp(join(repoRoot, JSONL), join(manual, JSONL));
    expect((await ct(["lock", DATASET, "-o", MANIFEST], manual)).code).toBe(0);
    expect((await ct(["generate", MANIFEST, "-o", JSONL], manual)).code).toBe(0);
    expect(await validateCopy(manual)).toEqual({ code: 0, problems: [] });
    expect(await readFile(join(manual, JSONL), "utf8")).toBe(await readFile(join(repo, JSONL), "utf8"));
    expect(await readFile(join(manual, MANIFEST), "utf8")).toBe(await readFile(join(repo, MANIFEST), "utf8"));
    // No temporary file is left behind.
    expect((await readdir(join(manual, ".tooling/citation-targets"))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
