/**
 * `diff --against <rev>` on a temporary repository: the working tree against a branch, a commit and
 * HEAD, read with git itself; and in a shallow single-branch clone (`git clone --depth 1 file://…`),
 * where a missing revision is an error that gives the fetch command, which then makes it work.
 */
import { execFile, execFileSync } from "node:child_process";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerDiffCommand } from "../src/cli/diff-command.js";
import type { DiffReport } from "../src/core/diff/diff.js";
import { buildRecordSchema, formatSchema } from "../src/core/schema/schema.js";
import { diff } from "../src/node/diff/diff.js";
import { fetchCommand } from "../src/node/git/diff-git.js";
import { OperationalError } from "../src/node/errors.js";
import { update } from "../src/node/update/update.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";
import { GIT_IDENTITY } from "./helpers/git.js";

const exec = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  ...GIT_IDENTITY,
};
const git = async (cwd: string, ...args: string[]) => (await exec("git", args, { cwd, env: GIT_ENV })).stdout.trim();

let dir: string;
let cleanup: () => Promise<void>;
let origin: string;
let base: string;

/** What a report says, compactly: each pair's labels and its changes as `kind address-or-pointer`. */
const compact = (report: DiffReport) =>
  report.pairs.map((pair) => ({
    old: pair.old,
    new: pair.new,
    changes: pair.changes.map((c) => `${c.kind} ${c.address ?? c.pointer}`),
  }));

const EXPECTED_AGAINST_MAIN = (revision: string) => [
  { old: `${revision}:.tooling/citation-targets/mvfg.jsonl`, new: ".tooling/citation-targets/mvfg.jsonl", changes: [] },
  {
    old: `${revision}:.tooling/citation-targets/privacy-act-1988.jsonl`,
    new: ".tooling/citation-targets/privacy-act-1988.jsonl",
    changes: [
      "record-removed privacy-act-1988/part-iii/division-1/section-13a.md#13a",
      "record-added privacy-act-1988/part-i/section-7.md#7",
    ],
  },
  {
    old: `${revision}:.tooling/schemas/citation-targets.schema.json`,
    new: ".tooling/schemas/citation-targets.schema.json",
    changes: ["enum-value-added /$defs/markdownArtifact/properties/sourceArtifactKind/enum"],
  },
];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  // main: the example datasets, their manifests and JSONL, and a repository schema.
  origin = join(dir, "origin");
  await mkdir(join(origin, ".tooling/schemas"), { recursive: true });
  await cp(join(repoRoot, "fixtures/datasets"), join(origin, "fixtures/datasets"), { recursive: true });
  await cp(join(repoRoot, ".tooling/citation-targets"), join(origin, ".tooling/citation-targets"), { recursive: true });
  await writeFile(join(origin, ".tooling/schemas/citation-targets.schema.json"), formatSchema(buildRecordSchema()));
  await git(origin, "init", "-q", "-b", "main");
  await git(origin, "add", "-A");
  await git(origin, "commit", "-q", "-m", "base");
  base = await git(origin, "rev-parse", "HEAD");
  // feature: section 13A repealed, section 7 inserted, regenerated with update; the schema gains an enum value.
  await git(origin, "checkout", "-q", "-b", "feature");
  const data = join(origin, "fixtures/datasets/privacy-act-1988");
  await rm(join(data, "part-iii/division-1/section-13a.md"));
  await writeFile(
    join(data, "part-i/section-7.md"),
    "### 7 Acts and practices of agencies\n\n(1) This section applies to acts and practices of agencies.\n",
  );
  await update({ cwd: origin });
  const schema = buildRecordSchema() as {
    $defs: { markdownArtifact: { properties: { sourceArtifactKind: { enum: string[] } } } };
  };
  schema.$defs.markdownArtifact.properties.sourceArtifactKind.enum.push("document-appendix");
  await writeFile(join(origin, ".tooling/schemas/citation-targets.schema.json"), formatSchema(schema));
  await git(origin, "add", "-A");
  await git(origin, "commit", "-q", "-m", "amend");
});
afterAll(async () => cleanup());

describe("diff --against in a full repository", () => {
  test("the working tree's datasets and schema against a branch, read with git", async () => {
    const report = await diff({ cwd: origin, against: "main" });
    expect(report.against).toEqual({ revision: "main", commit: base });
    expect(compact(report)).toEqual(EXPECTED_AGAINST_MAIN("main"));
    expect(report.summary).toMatchObject({ breaking: 1, additive: 2, passed: false });
  });

  test("from a subfolder, against a commit, with named paths (relative to where one is)", async () => {
    const report = await diff({
      cwd: join(origin, "fixtures"),
      against: base.slice(0, 10),
      paths: ["../.tooling/citation-targets/privacy-act-1988.jsonl"],
    });
    expect(compact(report)).toEqual([
      { ...EXPECTED_AGAINST_MAIN(base.slice(0, 10))[1]!, new: "../.tooling/citation-targets/privacy-act-1988.jsonl" },
    ]);
  });

  test("uncommitted changes against HEAD: a deleted dataset is all removed, a new one all added", async () => {
    const mvfg = join(origin, ".tooling/citation-targets/mvfg.jsonl");
    const text = await readFile(mvfg, "utf8");
    await rm(mvfg);
    await writeFile(join(origin, ".tooling/citation-targets/other.jsonl"), text.split("\n")[0]!.concat("\n"));
    try {
      const report = await diff({ cwd: origin, against: "HEAD" });
      expect(
        report.pairs.map((p) => [p.new, p.oldMissing ?? false, p.newMissing ?? false, p.records, p.changes.length]),
      ).toEqual([
        [".tooling/citation-targets/mvfg.jsonl", false, true, { before: 21, after: 0 }, 21],
        [".tooling/citation-targets/other.jsonl", true, false, { before: 0, after: 1 }, 1],
        [".tooling/citation-targets/privacy-act-1988.jsonl", false, false, { before: 42, after: 42 }, 0],
        [".tooling/schemas/citation-targets.schema.json", false, false, undefined, 0],
      ]);
    } finally {
      await rm(join(origin, ".tooling/citation-targets/other.jsonl"));
      await writeFile(mvfg, text);
    }
  });

  test("a revision that does not exist, a path that is nowhere, and no repository at all are usage errors", async () => {
    await expect(diff({ cwd: origin, against: "no-such-branch" })).rejects.toThrow(
      // this repository has no remote: there is nothing to fetch from, and no fetch command is suggested
      "revision no-such-branch is not in this repository: no branch, tag or commit of that name, and no remote to fetch it from. Check the name (git branch -a, git tag, git log --oneline)",
    );
    await expect(diff({ cwd: origin, against: "main", paths: ["nowhere.jsonl"] })).rejects.toThrow(
      "cannot read nowhere.jsonl: no such file or folder in the working tree or at main",
    );
    const outside = join(dir, "not-a-repository");
    await mkdir(outside);
    await expect(diff({ cwd: outside, against: "main" })).rejects.toThrow(/^not in a git repository/);
    // A repository with no commit yet: said so, with what to do, not as a name that is wrong.
    const fresh = join(dir, "no-commits");
    await mkdir(join(fresh, ".tooling/citation-targets"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: fresh });
    await writeFile(join(fresh, ".tooling/citation-targets/mvfg.jsonl"), "");
    await expect(diff({ cwd: fresh, against: "HEAD" })).rejects.toThrow(
      "revision HEAD is not in this repository: it has no commits yet. Commit the datasets first (git add, git commit), then compare a later change with --against HEAD",
    );
  });

  test("the command: exit 1 for the breaking change, 0 when it is approved", async () => {
    const run = async (argv: string[]) => {
      let stdout = "";
      let code: number | undefined;
      const program = new Command().exitOverride();
      registerDiffCommand(
        program,
        { cwd: origin, env: {}, stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => undefined } },
        (c) => (code = c),
      );
      await program.parseAsync(argv, { from: "user" });
      return { code, stdout };
    };
    const failed = await run(["diff", "--against", "main", "--format", "github"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(
      "::error file=.tooling/citation-targets/privacy-act-1988.jsonl,title=record-removed (breaking)::privacy-act-1988/part-iii/division-1/section-13a.md#13a removed\n",
    );
    await writeFile(
      join(dir, "approvals.json"),
      JSON.stringify({
        approvals: [
          {
            address: "privacy-act-1988/part-iii/division-1/section-13a.md#13a",
            kind: "record-removed",
            reason: "repealed by Act No. 1, 2025",
          },
        ],
      }),
    );
    expect((await run(["diff", "--against", "main", "--approvals", join(dir, "approvals.json")])).code).toBe(0);
  });
});

describe("diff --against in a shallow CI checkout", () => {
  let clone: string;
  beforeAll(async () => {
    clone = join(dir, "clone");
    await git(dir, "clone", "-q", "--depth", "1", "--branch", "feature", `file://${origin}`, clone);
    expect(await git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");
  });

  /** The fetch command a missing revision's error gives, run as CI would run it. */
  async function fetchAsTold(revision: string): Promise<string> {
    const error = await diff({ cwd: clone, against: revision }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OperationalError);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(`^revision ${revision.replace(/[~^]/g, "\\$&")} is not in this clone: this clone is shallow`),
    );
    const command = message.split("\n").pop()!.trim();
    const [program, ...args] = command.split(" ");
    expect(program).toBe("git");
    await git(clone, ...args);
    return command;
  }

  test("origin/main is not in a single-branch clone: the error gives the fetch command, and after it the diff works", async () => {
    expect(await fetchAsTold("origin/main")).toBe(
      "git fetch --depth=1 origin +refs/heads/main:refs/remotes/origin/main",
    );
    const report = await diff({ cwd: clone, against: "origin/main" });
    expect(compact(report)).toEqual(EXPECTED_AGAINST_MAIN("origin/main"));
  });

  test("a commit by its id, and HEAD~1 (deepen the history)", async () => {
    expect(await fetchAsTold("HEAD~1")).toBe("git fetch --deepen=1");
    expect((await diff({ cwd: clone, against: "HEAD~1" })).against?.commit).toBe(base);
    expect(fetchCommand(base, ["origin"], true)).toBe(`git fetch --depth=1 origin ${base}`);
  });
});

describe("fetch commands", () => {
  test.each([
    ["origin/main", ["origin"], true, "git fetch --depth=1 origin +refs/heads/main:refs/remotes/origin/main"],
    [
      "upstream/release/2025",
      ["origin", "upstream"],
      true,
      "git fetch --depth=1 upstream +refs/heads/release/2025:refs/remotes/upstream/release/2025",
    ],
    ["0123abcd", ["origin"], true, "git fetch --depth=1 origin 0123abcd"],
    ["HEAD~3", ["origin"], true, "git fetch --deepen=3"],
    ["HEAD^^", ["origin"], false, "git fetch origin"],
    ["v1.2.0", ["origin"], true, "git fetch --depth=1 origin v1.2.0:v1.2.0"],
    // a branch name may hold what a shell would run: every name is quoted
    ["x$(touch pwned);y", ["origin"], false, "git fetch --depth=1 origin 'x$(touch pwned);y:x$(touch pwned);y'"],
    ["origin/a;b", ["origin"], true, "git fetch --depth=1 origin '+refs/heads/a;b:refs/remotes/origin/a;b'"],
  ] as const)("%s", (revision, remotes, shallow, expected) => {
    expect(fetchCommand(revision, remotes, shallow)).toBe(expected);
  });
});

describe("a revision that is not there", () => {
  test("in a repository with no remote, diff says so and suggests no fetch", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      execFileSync("git", ["init", "-q"], { cwd: dir });
      execFileSync(
        "git",
        ["-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "empty"],
        { cwd: dir },
      );
      const error = await diff({ cwd: dir, against: "nosuchrev" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OperationalError);
      expect((error as Error).message).toBe(
        "revision nosuchrev is not in this repository: no branch, tag or commit of that name, and no remote to fetch it from. Check the name (git branch -a, git tag, git log --oneline)",
      );
    } finally {
      await cleanup();
    }
  });
});
