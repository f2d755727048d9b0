/**
 * The git baseline of `diff --against <rev>`: files are read with git itself (`git cat-file`),
 * streamed from its standard output, so no clone or checkout is made and a shallow CI checkout works
 * as long as the revision is in it. When it is not, the error says so and gives the fetch command.
 */
import { spawn } from "node:child_process";
import { OperationalError } from "./errors.js";

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

function gitMissing(error: unknown): OperationalError {
  const code = (error as NodeJS.ErrnoException).code;
  return new OperationalError(
    code === "ENOENT" ? "git is not installed or not on the PATH (--against reads the baseline with git)" : `cannot run git: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** Runs git to the end and collects its (small) output. */
export function runGit(args: string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(gitMissing(error)));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

/** The top folder of the working tree `cwd` is in; an OperationalError outside a repository. */
export async function gitTopLevel(cwd: string): Promise<string> {
  const result = await runGit(["rev-parse", "--show-toplevel"], cwd);
  if (result.code !== 0) throw new OperationalError(`not in a git repository (${cwd}): --against compares the working tree with a revision of its repository`);
  return result.stdout.trim();
}

/** The command that brings a missing revision into the clone. */
export function fetchCommand(revision: string, remotes: readonly string[], shallow: boolean): string {
  const remote = remotes.includes("origin") ? "origin" : (remotes[0] ?? "origin");
  if (/^[0-9a-f]{7,40}$/i.test(revision)) return `git fetch --depth=1 ${remote} ${revision}`;
  const tracking = /^([^/]+)\/(.+)$/.exec(revision);
  if (tracking && remotes.includes(tracking[1]!)) return `git fetch --depth=1 ${tracking[1]} +refs/heads/${tracking[2]}:refs/remotes/${tracking[1]}/${tracking[2]}`;
  const ancestry = /^(.*?)((?:[~^][0-9]*)+)$/.exec(revision);
  if (ancestry) {
    const steps = [...ancestry[2]!.matchAll(/([~^])([0-9]*)/g)].reduce((sum, m) => sum + (m[1] === "~" ? Number(m[2] || 1) : 1), 0);
    return shallow ? `git fetch --deepen=${steps}` : `git fetch ${remote}`;
  }
  return `git fetch --depth=1 ${remote} ${revision}:${revision}`;
}

/** The commit a revision names; when the clone does not have it, an OperationalError that says how to fetch it. */
export async function resolveRevision(root: string, revision: string): Promise<string> {
  if (revision.startsWith("-")) throw new OperationalError(`--against ${revision}: a revision cannot start with "-"`);
  const result = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`], root);
  if (result.code === 0) return result.stdout.trim();
  const shallow = (await runGit(["rev-parse", "--is-shallow-repository"], root)).stdout.trim() === "true";
  const remotes = (await runGit(["remote"], root)).stdout.split("\n").filter((line) => line !== "");
  const why = shallow ? "this clone is shallow (a CI checkout fetches only the commit it builds)" : "no branch, tag or commit of that name is in this repository";
  throw new OperationalError(`revision ${revision} is not in this clone: ${why}. Fetch it, then run again:\n  ${fetchCommand(revision, remotes, shallow)}`);
}

/** True when `path` (relative to the top folder, POSIX) is a file at the commit. */
export async function existsAt(root: string, commit: string, path: string): Promise<boolean> {
  const result = await runGit(["cat-file", "-t", `${commit}:${path}`], root);
  return result.code === 0 && result.stdout.trim() === "blob";
}

/** The files directly in folder `dir` at the commit (POSIX paths relative to the top folder). */
export async function filesAt(root: string, commit: string, dir: string): Promise<string[]> {
  const result = await runGit(["ls-tree", "-z", "--full-tree", `${commit}`, "--", `${dir.replace(/\/+$/, "")}/`], root);
  if (result.code !== 0) return [];
  return result.stdout
    .split("\0")
    .filter((entry) => entry !== "")
    .flatMap((entry) => {
      const tab = entry.indexOf("\t");
      return entry.slice(0, tab).split(" ")[1] === "blob" ? [entry.slice(tab + 1)] : [];
    });
}

/** The bytes of `path` at the commit, streamed from `git cat-file blob`; throws an OperationalError when git fails. */
export async function* gitBlob(root: string, commit: string, path: string): AsyncGenerator<Uint8Array> {
  const child = spawn("git", ["cat-file", "blob", `${commit}:${path}`], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const err: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const closed = new Promise<number>((resolve, reject) => {
    child.on("error", (error) => reject(gitMissing(error)));
    child.on("close", (code) => resolve(code ?? 1));
  });
  closed.catch(() => undefined); // awaited below; this only keeps an early exit from leaving it unhandled
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const code = await closed;
  if (code !== 0) throw new OperationalError(`cannot read ${path} at ${commit.slice(0, 12)} with git: ${Buffer.concat(err).toString("utf8").trim() || `git exited with ${code}`}`);
}
