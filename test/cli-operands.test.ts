/**
 * A CLI that takes what users pass (issue 37): datasets named by manifest, JSONL, markdown file, folder or slug (one
 * resolver, src/node/dataset/dataset-operands.ts); update's versionDate and sourceTextUrl from the config's adopt
 * templates; `update --check --staged` checking what the commit holds, with the `git add` that fixes it; and the small
 * things (--dry-run, --help <command>, adopt --check with nothing to do, lock's host warning, validate's closing line of
 * stale datasets). The built CLI is run as a user would.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DatasetOperands } from "../src/node/dataset/dataset-operands.js";
import { OperationalError } from "../src/node/errors.js";
import { runBin } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { GIT_IDENTITY } from "./helpers/git.js";

const exec = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  ...GIT_IDENTITY,
};
const git = async (cwd: string, ...args: string[]) => (await exec("git", args, { cwd, env: GIT_ENV })).stdout;

const HOST = "www.fedlex.admin.ch";
const TOOLING = ".tooling/citation-targets";

const law = (slug: string, title: string, date: string, body: string) =>
  `---\nslug: ${slug}\ntitle: ${title}\nlast_updated: ${date}\n---\n\n${body}`;
const ZGB = (date: string, art2: string) =>
  law("cc-2006-218", "Zivilgesetzbuch", date, `# Art. 1\n\nEins.\n\n# Art. 2\n\n${art2}\n`);
const OR = (date: string, art1: string) => law("or", "Obligationenrecht", date, `# Art. 1\n\n${art1}\n`);

let dir: string;
let cleanup: () => Promise<void>;
let root: string;
const cli = (args: string[], cwd = root) => runBin(args, cwd);

/** A repository of two Swiss laws adopted from the config's templates (versionDate from the front matter), committed. */
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  root = join(dir, "repo");
  await writeTree(root, {
    "ch/cc-2006-218/index.md": ZGB("2024-01-01", "Zwei."),
    "ch/or/index.md": OR("2024-01-01", "Eins."),
    ".citation-targets.json": `${JSON.stringify({
      legislationHost: HOST,
      adopt: {
        datasets: ["ch/*"],
        titleId: "{front.slug}",
        name: "{front.title}",
        versionDate: "{front.last_updated}",
        sourceTextUrl: `https://${HOST}/eli/{front.slug}/{front.last_updated}/de`,
      },
    })}\n`,
  });
  await git(root, "init", "-q", "-b", "main");
  const adopted = await cli(["adopt"]);
  expect(adopted.code, adopted.stderr).toBe(0);
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "adopt");
});
afterEach(async () => cleanup());

const manifestOf = async (slug: string) =>
  JSON.parse(await readFile(join(root, TOOLING, `${slug}.lock.json`), "utf8")) as Record<string, unknown>;

describe("one resolver of dataset operands", () => {
  test("a manifest, its JSONL, a markdown file, a dataset folder, a folder in it or above it, the tooling folder, a slug", async () => {
    await writeTree(root, { "ch/or/anhang/a.md": "# Anhang\n" });
    const operands = await DatasetOperands.create(join(root, "ch"));
    const zgb = join(root, TOOLING, "cc-2006-218.lock.json");
    const or = join(root, TOOLING, "or.lock.json");
    const of = (operand: string) => {
      const { kind, manifests } = operands.resolve(operand);
      return { kind, manifests };
    };
    expect(of(`../${TOOLING}/or.lock.json`)).toEqual({ kind: "manifest", manifests: [or] });
    expect(of(`../${TOOLING}/or.jsonl`)).toEqual({ kind: "jsonl", manifests: [or] });
    expect(of("cc-2006-218/index.md")).toEqual({ kind: "markdown", manifests: [zgb] });
    expect(of("cc-2006-218")).toEqual({ kind: "folder", manifests: [zgb] });
    expect(of("or/anhang")).toEqual({ kind: "folder", manifests: [or] });
    expect(of(".")).toEqual({ kind: "folder", manifests: [zgb, or].sort() });
    expect(of(`../${TOOLING}`)).toEqual({ kind: "tooling-folder", manifests: [zgb, or].sort() });
    expect(of("or")).toEqual({ kind: "folder", manifests: [or] }); // the folder ch/or is there: a folder first
    expect(of("cc-2006-218.jsonl")).toEqual({ kind: "slug", manifests: [zgb] });
    expect(operands.resolveAll(["or", "or/index.md", "cc-2006-218"]).manifests).toEqual([or, zgb]);
    expect(operands.jsonlOf(or)).toBe(join(root, TOOLING, "or.jsonl"));
  });

  test("an operand that names no dataset is a usage error that says what was tried", async () => {
    await writeTree(root, { "notes/readme.md": "# Notes\n" });
    const operands = await DatasetOperands.create(root);
    expect(() => operands.resolve("nope")).toThrow(OperationalError);
    expect(() => operands.resolve("nope")).toThrow(
      "nope: no dataset by that name: tried a file and a folder (nope: no such file or folder) and a slug (.tooling/citation-targets/nope.lock.json: not there)",
    );
    expect(() => operands.resolve("notes")).toThrow(
      "notes: a folder, but no dataset's folder holds it or lies in it (read the 2 manifests of .tooling/citation-targets, and no citation-targets.lock.json in it)",
    );
    expect(() => operands.resolve("notes/readme.md")).toThrow(
      "notes/readme.md: a markdown file, but no dataset's folder holds it (read the 2 manifests of .tooling/citation-targets)",
    );
  });

  test("update, generate, validate and view take a folder, a slug or a markdown file; nothing found exits 2", async () => {
    await writeFile(join(root, "ch/cc-2006-218/index.md"), ZGB("2024-01-01", "Zwei, geändert."));
    for (const operand of [
      "ch/cc-2006-218",
      "cc-2006-218",
      "ch/cc-2006-218/index.md",
      `${TOOLING}/cc-2006-218.jsonl`,
    ]) {
      const checked = await cli(["update", "--check", operand]);
      expect(checked.code, operand).toBe(1);
      expect(checked.stdout, operand).toMatch(/^cc-2006-218: not up to date\n/);
      expect(checked.stdout, operand).not.toContain("or:");
    }
    // The tooling folder: every dataset.
    const all = await cli(["update", "--check", TOOLING]);
    expect(all.stdout).toContain("or: up to date");
    expect(all.stdout).toContain("cc-2006-218: not up to date");
    // generate by slug is generate by manifest, byte for byte.
    const bySlug = await cli(["generate", "or"]);
    const byManifest = await cli(["generate", `${TOOLING}/or.lock.json`]);
    expect(bySlug.code).toBe(0);
    expect(bySlug.stdout).toBe(byManifest.stdout);
    expect(bySlug.stdout).toBe(await readFile(join(root, TOOLING, "or.jsonl"), "utf8"));
    const several = await cli(["generate", "ch"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("citation-targets: ch: names 2 datasets (");
    // validate by slug, folder and markdown file: the dataset's JSONL.
    for (const operand of ["or", "ch/or", "ch/or/index.md"]) {
      const validated = await cli(["validate", operand, "--format", "json"]);
      expect(validated.code, validated.stderr).toBe(0);
      expect(JSON.parse(validated.stdout).files.map((f: { path: string }) => f.path)).toEqual([`${TOOLING}/or.jsonl`]);
    }
    // view by folder.
    const viewed = await cli(["view", "ch/or", "-o", "or.html"]);
    expect(viewed.code, viewed.stderr).toBe(0);
    expect(viewed.stderr).toBe("citation-targets: wrote or.html (1 target)\n");
    for (const command of ["update", "generate", "validate", "view"]) {
      const missing = await cli([command, "cc-2006-999"]);
      expect(missing.code, command).toBe(2);
      expect(missing.stderr, command).toContain(
        "cc-2006-999: no dataset by that name: tried a file and a folder (cc-2006-999: no such file or folder) and a slug (.tooling/citation-targets/cc-2006-999.lock.json: not there)",
      );
    }
  });

  test("a dataset folder with its own manifest: generate takes the folder, validate checks its JSONL with that manifest", async () => {
    // `lock DIR -o DIR/citation-targets.lock.json`: the manifest inside the folder; update writes <slug>.jsonl beside it.
    await writeTree(root, { "own/m2/index.md": "# Testgesetz\n\n## § 1 Zweck\n\nText.\n" });
    const locked = await cli([
      "lock",
      "own/m2",
      "--slug",
      "m2",
      "--title-id",
      "M2",
      "--name",
      "Gesetz m2",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      `https://${HOST}/m2/2024-01-01/text`,
      "--legislation-host",
      HOST,
      "-o",
      "own/m2/citation-targets.lock.json",
    ]);
    expect(locked.code, locked.stderr).toBe(0);
    const updated = await cli(["update", "own/m2"]);
    expect(updated.code, updated.stderr).toBe(0);
    const jsonl = await readFile(join(root, "own/m2/m2.jsonl"), "utf8");
    // generate by the folder is generate by its manifest (it said "it is a folder" before).
    const generated = await cli(["generate", "own/m2"]);
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stdout).toBe(jsonl);
    // A record edited by hand: validate of the folder, and of the file, finds it through the folder's manifest.
    await writeFile(
      join(root, "own/m2/m2.jsonl"),
      jsonl.replace('"headingText":"§ 1 Zweck"', '"headingText":"§ 1 Zweck!"'),
    );
    for (const operand of ["own/m2", "own/m2/m2.jsonl"]) {
      const validated = await cli(["validate", operand, "--no-cache", "--format", "json"]);
      expect(validated.code, operand).toBe(1);
      const [file] = JSON.parse(validated.stdout).files;
      expect(file.path).toBe("own/m2/m2.jsonl");
      expect(file.problems.map((p: { ruleId: string; line: number }) => [p.ruleId, p.line])).toEqual([
        ["lock-generated", 2],
      ]);
    }
    // Another dataset's folder manifest (its slug names another JSONL) is not this file's: no lock checks, as before.
    await writeFile(join(root, "own/m2/other.jsonl"), jsonl);
    const other = await cli(["validate", "own/m2/other.jsonl", "--no-cache", "--verbose"]);
    expect(other.stderr).toContain(
      "own/m2/other.jsonl: no lock manifest (looked for own/m2/other.lock.json beside it, and for a citation-targets.lock.json there whose slug names it;",
    );
  });
});

describe("update takes a new version's fields from the config's adopt templates", () => {
  test("no flag: versionDate and sourceTextUrl from the templates when the markdown changed; a flag wins; the hint keeps the flags", async () => {
    await writeFile(join(root, "ch/cc-2006-218/index.md"), ZGB("2025-03-01", "Zwei, geändert."));
    const checked = await cli(["update", "--check"]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain("  versionDate: 2024-01-01 → 2025-03-01\n");
    expect(checked.stdout).toContain(
      `  sourceTextUrl: https://${HOST}/eli/cc-2006-218/2024-01-01/de → https://${HOST}/eli/cc-2006-218/2025-03-01/de\n`,
    );
    expect(checked.stdout).toContain("or: up to date");
    expect(checked.stderr).not.toContain("did not"); // no warning that versionDate did not change
    const flagged = await cli(["update", "--check", "cc-2006-218", "--version-date", "2025-02-02"]);
    expect(flagged.stdout).toContain("  versionDate: 2024-01-01 → 2025-02-02\n");
    expect(flagged.stdout).toContain(`→ https://${HOST}/eli/cc-2006-218/2025-03-01/de\n`);
    expect(flagged.stderr).toBe(
      `citation-targets: not up to date: run \`citation-targets update ${TOOLING}/cc-2006-218.lock.json --version-date 2025-02-02\` to refresh and regenerate\n`,
    );
    const updated = await cli(["update"]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(await manifestOf("cc-2006-218")).toMatchObject({
      versionDate: "2025-03-01",
      sourceTextUrl: `https://${HOST}/eli/cc-2006-218/2025-03-01/de`,
    });
    // The unchanged law keeps its fields.
    expect(await manifestOf("or")).toMatchObject({ versionDate: "2024-01-01" });
  });
});

describe("update --check --staged compares what the commit holds", () => {
  test("update run, only the markdown staged (a plain git hook): fails, and the advice is the git add of the regenerated files", async () => {
    await writeFile(join(root, "ch/cc-2006-218/index.md"), ZGB("2025-03-01", "Zwei, geändert."));
    expect((await cli(["update"])).code).toBe(0);
    await git(root, "add", "ch");
    const hook = await cli(["update", "--check", "--staged"]);
    expect(hook.code).toBe(1);
    expect(hook.stdout).toMatch(/^cc-2006-218: not up to date\n/);
    expect(hook.stderr).toBe(
      `citation-targets: not staged: the working tree holds this dataset regenerated, but the commit does not: stage it: \`git add ${TOOLING}/cc-2006-218.lock.json ${TOOLING}/cc-2006-218.jsonl\`\n`,
    );
    await git(root, "add", `${TOOLING}/cc-2006-218.lock.json`, `${TOOLING}/cc-2006-218.jsonl`);
    const staged = await cli(["update", "--check", "--staged"]);
    expect(staged.code, staged.stderr).toBe(0);
    expect(staged.stdout).toBe(
      `cc-2006-218: up to date (${TOOLING}/cc-2006-218.lock.json, ${TOOLING}/cc-2006-218.jsonl)\n`,
    );
  });

  test("a fresh working tree does not pass a stale commit; regenerated files staged over an unstaged markdown edit fail", async () => {
    // Staged: the regenerated files of an amendment; the working tree has the markdown edited again, and regenerated.
    await writeFile(join(root, "ch/or/index.md"), OR("2024-01-01", "Eins, neu."));
    expect((await cli(["update", "or"])).code).toBe(0);
    await git(root, "add", "-A");
    await writeFile(join(root, "ch/or/index.md"), OR("2024-01-01", "Eins, neuer."));
    expect((await cli(["update", "or"])).code).toBe(0);
    expect((await cli(["update", "--check", "or"])).code).toBe(0); // the working tree is fresh
    const fresh = await cli(["update", "--check", "--staged"]);
    expect(fresh.code, fresh.stderr).toBe(0); // the staged files agree with each other
    // Now stage only the markdown edit: the commit's manifest and JSONL are stale, the working tree's are not.
    await git(root, "add", "ch/or/index.md");
    const hook = await cli(["update", "--check", "--staged"]);
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain(`stage it: \`git add ${TOOLING}/or.lock.json ${TOOLING}/or.jsonl\``);
  });

  test("the working tree not regenerated either (as under the pre-commit framework): run update, then git add", async () => {
    await writeFile(join(root, "ch/or/index.md"), OR("2024-01-01", "Eins, neu."));
    await git(root, "add", "ch");
    const hook = await cli(["update", "--check", "--staged"]);
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain(
      `citation-targets: not up to date: run \`citation-targets update ${TOOLING}/or.lock.json\` to refresh and regenerate, then stage the files: \`git add ${TOOLING}/or.lock.json ${TOOLING}/or.jsonl\`\n`,
    );
  });
});

describe("small things users expect", () => {
  test("update --dry-run says --check", async () => {
    const result = await cli(["update", "--dry-run"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "citation-targets: error: unknown option '--dry-run' (did you mean --check?)\ncitation-targets: (run with --help for usage)\n",
    );
    expect(result.stdout).toBe("");
  });

  test("--help validate prints validate's help", async () => {
    const result = await cli(["--help", "validate"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe((await cli(["validate", "--help"])).stdout);
    expect(result.stdout).toMatch(/^Usage: citation-targets validate \[options\] \[paths\.\.\.\]\n/);
  });

  test("adopt --check with nothing to do says so", async () => {
    const result = await cli(["adopt", "--check"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "nothing to adopt: the 2 datasets it was given are adopted and up to date (their manifests in .tooling/citation-targets)\n",
    );
  });

  test("lock warns of a sourceTextUrl off the legislation host (adopt and update refuse it), in their words", async () => {
    await writeTree(root, { "ch/zgb-alt/index.md": ZGB("2024-01-01", "Zwei.") });
    const result = await cli([
      "lock",
      "ch/zgb-alt",
      "--slug",
      "zgb-alt",
      "--title-id",
      "ZGB",
      "--name",
      "ZGB",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.admin.ch/zgb/",
      "-o",
      `${TOOLING}/zgb-alt.lock.json`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `citation-targets: warning: zgb-alt: sourceTextUrl https://www.admin.ch/zgb/ is on www.admin.ch, not on the legislation host ${HOST} (the config .citation-targets.json): validate would reject its records; if it is published on www.admin.ch, give the dataset that host: lock --legislation-host www.admin.ch\n`,
    );
    // On the host: no warning.
    const onHost = await cli([
      "lock",
      "ch/zgb-alt",
      "--source-text-url",
      `https://${HOST}/zgb/`,
      "-o",
      `${TOOLING}/zgb-alt.lock.json`,
    ]);
    expect(onHost.code, onHost.stderr).toBe(0);
    expect(onHost.stderr).not.toContain("warning");
  });

  test("validate names the stale datasets in one closing line (stylish); json keeps one problem per file", async () => {
    await writeFile(join(root, "ch/cc-2006-218/index.md"), ZGB("2024-01-01", "Zwei, geändert."));
    await writeFile(join(root, "ch/or/index.md"), OR("2024-01-01", "Eins, geändert."));
    const stylish = await cli(["validate"]);
    expect(stylish.code).toBe(1);
    expect(stylish.stdout).toBe(
      `2 datasets are not up to date with their markdown: run \`citation-targets update ${TOOLING}/cc-2006-218.jsonl ${TOOLING}/or.jsonl\` to refresh the lock and regenerate\n\n✖ 2 problems (2 errors, 0 warnings) in 2 files, 3 records\n`,
    );
    expect(stylish.stdout).not.toMatch(/[0-9a-f]{64}/);
    const json = await cli(["validate", "--format", "json"]);
    const problems = JSON.parse(json.stdout).files.flatMap((f: { problems: { ruleId: string }[] }) => f.problems);
    expect(problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(["lock-artifact-body", "lock-artifact-body"]);
    // One stale dataset keeps its paragraph: it names the artifact that changed.
    expect((await cli(["update", "or"])).code).toBe(0);
    const one = await cli(["validate"]);
    expect(one.code).toBe(1);
    expect(one.stdout).toContain('artifact "index.md" has changed since the lock manifest was written');
    expect(one.stdout).not.toContain("datasets are not up to date");
  });
});
