/** The environment the tests' git commands run with: an identity for their commits, and no system config. */
export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.org",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.org",
  GIT_CONFIG_NOSYSTEM: "1",
};

/**
 * A git repository at `dir` holding the mvfg example dataset (its markdown, lock manifest and JSONL, as the repository
 * has them), committed: the start of the tests of a commit's hooks.
 */
export async function committedMvfg(dir: string): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  const { cp, mkdir } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { repoRoot } = await import("./records.js");
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.lock.json", "mvfg.jsonl"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: { ...process.env, ...GIT_IDENTITY } });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "law");
}
