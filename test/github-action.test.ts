/**
 * The GitHub Action (action.yml): its `run` steps, executed with bash as the runner would (the working directory, the
 * step's env with the inputs put in, the `if` conditions, the GITHUB_* variables), in a pull request's repository
 * with the tool on PATH from this checkout's bin.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { amendedRepository } from "./helpers/amended-repository.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const exec = promisify(execFile);
/** Each run executes the tool several times in a fresh process (a limit for a loaded machine, not a measure). */
const TIMEOUT = 3 * 60_000;

interface Step {
  name: string;
  if?: string;
  shell: string;
  "working-directory"?: string;
  env?: Record<string, string>;
  run: string;
}
interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(await readFile(join(repoRoot, "action.yml"), "utf8")) as Action;

/** `${{ inputs.name }}` put in, as the runner does for env and working-directory. */
function expand(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in inputs)) throw new Error(`action.yml names an undeclared input: ${name}`);
    return inputs[name] ?? "";
  });
}

/** The conditions action.yml uses: `always()`, `inputs.x == 'v'`, joined by `&&`; `failed` is whether a step failed. */
function condition(text: string | undefined, inputs: Record<string, string>, failed: boolean): boolean {
  if (text === undefined) return !failed;
  const inner = text.replace(/^\$\{\{\s*|\s*\}\}$/g, "");
  let always = false;
  const parts = inner.split("&&").map((part) => {
    const term = part.trim();
    if (term === "always()") {
      always = true;
      return true;
    }
    const compared = /^inputs\.([\w-]+) == '([^']*)'$/.exec(term);
    if (!compared) throw new Error(`a condition the test cannot read: ${term}`);
    return inputs[compared[1] as string] === compared[2];
  });
  return parts.every(Boolean) && (always || !failed);
}

interface StepRun {
  name: string;
  ran: boolean;
  code: number;
  stdout: string;
}

async function runAction(given: Record<string, string>, workspace: string, env: Record<string, string>) {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) inputs[name] = given[name] ?? input.default ?? "";
  const runs: StepRun[] = [];
  let failed = false;
  for (const step of action.runs.steps) {
    if (!condition(step.if, inputs, failed)) {
      runs.push({ name: step.name, ran: false, code: 0, stdout: "" });
      continue;
    }
    const stepEnv: Record<string, string> = {};
    for (const [key, value] of Object.entries(step.env ?? {})) stepEnv[key] = expand(value, inputs);
    const cwd = resolve(workspace, expand(step["working-directory"] ?? ".", inputs));
    const result = await exec("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], {
      cwd,
      env: { ...process.env, ...env, ...stepEnv },
    }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    if (result.code !== 0) failed = true;
    runs.push({ name: step.name, ran: true, ...result });
  }
  return runs;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** The amended repository as a pull request's checkout: origin/main is its base commit, the tool is installed. */
async function pullRequest(): Promise<{ repo: string; env: Record<string, string>; summary: string }> {
  const repo = await amendedRepository(dir);
  await exec("git", ["update-ref", "refs/remotes/origin/main", "HEAD"], { cwd: repo });
  await writeFile(join(repo, "package.json"), '{ "private": true }\n');
  await mkdir(join(repo, "node_modules/.bin"), { recursive: true });
  await symlink(join(repoRoot, "bin/citation-targets.js"), join(repo, "node_modules/.bin/citation-targets"));
  const summary = join(dir, "summary.md");
  await writeFile(summary, "");
  const env = {
    GITHUB_ACTIONS: "true",
    CI: "true",
    GITHUB_WORKSPACE: repo,
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_BASE_REF: "main",
    GITHUB_HEAD_REF: "amendment",
    GITHUB_REPOSITORY: "example/laws",
    GITHUB_STEP_SUMMARY: summary,
  };
  return { repo, env, summary };
}

describe("the GitHub Action", () => {
  test("is a composite action whose steps are bash and put no input into a script", () => {
    expect(action.runs.using).toBe("composite");
    for (const step of action.runs.steps) {
      expect(step.shell).toBe("bash");
      expect(step.run).not.toContain("${{"); // inputs reach the scripts through env only
    }
  });

  test(
    "in a pull request: validate and the freshness check pass, the gate fails on the unapproved breaking changes, with annotations and the job summary",
    async () => {
      const { repo, env, summary } = await pullRequest();
      const runs = await runAction({ install: "false", approvals: "approvals.json" }, repo, env);
      expect(runs.map((run) => [run.name, run.ran, run.code])).toEqual([
        ["install citation-targets", true, 0],
        ["citation-targets validate", true, 0],
        ["citation-targets update --check", true, 0],
        ["citation-targets diff (the gate)", true, 1],
      ]);
      const gate = runs[3]?.stdout ?? "";
      expect(gate).toMatch(
        /^::error file=\.tooling\/citation-targets\/privacy-act-1988\.jsonl,line=\d+,title=record-changed/m,
      );
      expect(gate).toMatch(
        /^::warning file=\.tooling\/citation-targets\/privacy-act-1988\.jsonl.*title=record-removed/m,
      ); // the approved repeal
      const written = await readFile(summary, "utf8");
      expect(written).toContain("citation-targets diff against `origin/main`");
      expect(written).toContain("fail the gate");
    },
    TIMEOUT,
  );

  test(
    "a stale dataset fails the freshness check, which still runs after validate fails; outside a pull request the gate is skipped",
    async () => {
      const { repo, env } = await pullRequest();
      const s1 = join(repo, "fixtures/datasets/privacy-act-1988/part-i/section-1.md");
      await writeFile(s1, `${await readFile(s1, "utf8")}\nAmended again.\n`);
      const push = Object.fromEntries(
        Object.entries({ ...env, GITHUB_EVENT_NAME: "push" }).filter(([name]) => name !== "GITHUB_BASE_REF"),
      );
      const runs = await runAction({ install: "false" }, repo, push);
      expect(runs.map((run) => [run.name, run.ran, run.code])).toEqual([
        ["install citation-targets", true, 0],
        ["citation-targets validate", true, 1],
        ["citation-targets update --check", true, 1],
        ["citation-targets diff (the gate)", true, 0],
      ]);
      expect(runs[1]?.stdout).toMatch(/^::error file=\.tooling\/citation-targets\/privacy-act-1988\.jsonl/m);
      expect(runs[2]?.stdout).toMatch(
        /^::error file=\.tooling\/citation-targets\/privacy-act-1988\.lock\.json,title=not up to date%3A privacy-act-1988::/m,
      );
      expect(runs[3]?.stdout).toContain("the gate is skipped");
      const skipped = await runAction({ install: "false", freshness: "false" }, repo, push);
      expect(skipped.map((run) => run.ran)).toEqual([true, true, false, true]);
    },
    TIMEOUT,
  );

  test(
    "without a package-lock.json or a version, the install step fails and says what to do",
    async () => {
      const runs = await runAction({}, dir, { GITHUB_ACTIONS: "true" });
      expect(runs[0]).toMatchObject({ ran: true, code: 1 });
      expect(runs[0]?.stdout).toContain("::error::citation-targets: no package-lock.json");
      expect(runs.slice(1, 3).map((run) => run.ran)).toEqual([false, true]);
    },
    TIMEOUT,
  );
});
