/**
 * The git baseline of `diff --against <rev>`: files are read with git itself (`git cat-file`),
 * streamed from its standard output, so no clone or checkout is made and a shallow CI checkout works
 * as long as the revision is in it. When it is not, the error says so and gives the fetch command.
 */
import type { ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { errorMessage } from "../../core/errors.js";
import { shellQuote } from "../../core/text.js";
import { childProcess, crypto } from "../builtins.js";
import { OperationalError } from "../errors.js";

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

function gitMissing(error: unknown): OperationalError {
  const code = (error as NodeJS.ErrnoException).code;
  return new OperationalError(
    code === "ENOENT"
      ? "git is not installed or not on the PATH (--against reads the baseline with git)"
      : `cannot run git: ${errorMessage(error)}`,
  );
}

/** Runs git to the end and collects its (small) output. */
export function runGit(args: string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(gitMissing(error)));
    child.on("close", (code) =>
      resolve({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/** The top folder of the working tree `cwd` is in; an OperationalError outside a repository. */
export async function gitTopLevel(cwd: string): Promise<string> {
  const result = await runGit(["rev-parse", "--show-toplevel"], cwd);
  if (result.code !== 0)
    throw new OperationalError(
      `not in a git repository (${cwd}): --against compares the working tree with a revision of its repository`,
    );
  return result.stdout.trim();
}

/**
 * The command that brings a missing revision into the clone, with every name quoted for the shell (a branch name may
 * hold `$(…)` or `;`).
 */
export function fetchCommand(revision: string, remotes: readonly string[], shallow: boolean): string {
  const remote = shellQuote(remotes.includes("origin") ? "origin" : (remotes[0] ?? "origin"));
  if (/^[0-9a-f]{7,40}$/i.test(revision)) return `git fetch --depth=1 ${remote} ${revision}`;
  const tracking = /^([^/]+)\/(.+)$/.exec(revision);
  if (tracking && remotes.includes(tracking[1]!))
    return `git fetch --depth=1 ${shellQuote(tracking[1]!)} ${shellQuote(`+refs/heads/${tracking[2]}:refs/remotes/${tracking[1]}/${tracking[2]}`)}`;
  const ancestry = /^(.*?)((?:[~^][0-9]*)+)$/.exec(revision);
  if (ancestry) {
    const steps = [...ancestry[2]!.matchAll(/([~^])([0-9]*)/g)].reduce(
      (sum, m) => sum + (m[1] === "~" ? Number(m[2] || 1) : 1),
      0,
    );
    return shallow ? `git fetch --deepen=${steps}` : `git fetch ${remote}`;
  }
  return `git fetch --depth=1 ${remote} ${shellQuote(`${revision}:${revision}`)}`;
}

/** The commit a revision names; when the clone does not have it, an OperationalError that says how to fetch it. */
export async function resolveRevision(root: string, revision: string): Promise<string> {
  if (revision.startsWith("-")) throw new OperationalError(`--against ${revision}: a revision cannot start with "-"`);
  const result = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`], root);
  if (result.code === 0) return result.stdout.trim();
  // A repository with no commit yet: no revision is there to compare with.
  if ((await runGit(["rev-parse", "--verify", "--quiet", "HEAD"], root)).code !== 0)
    throw new OperationalError(
      `revision ${revision} is not in this repository: it has no commits yet. Commit the datasets first (git add, git commit), then compare a later change with --against HEAD`,
    );
  const shallow = (await runGit(["rev-parse", "--is-shallow-repository"], root)).stdout.trim() === "true";
  const remotes = (await runGit(["remote"], root)).stdout.split("\n").filter((line) => line !== "");
  if (remotes.length === 0)
    // Nothing to fetch from: a fetch command would only send the user the wrong way.
    throw new OperationalError(
      `revision ${revision} is not in this repository: no branch, tag or commit of that name, and no remote to fetch it from. Check the name (git branch -a, git tag, git log --oneline)`,
    );
  const why = shallow
    ? "this clone is shallow (a CI checkout fetches only the commit it builds)"
    : "no branch, tag or commit of that name is in this repository";
  throw new OperationalError(
    `revision ${revision} is not in this clone: ${why}. Fetch it, then run again:\n  ${fetchCommand(revision, remotes, shallow)}`,
  );
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
  const child = childProcess().spawn("git", ["cat-file", "blob", `${commit}:${path}`], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  if (code !== 0)
    throw new OperationalError(
      `cannot read ${path} at ${commit.slice(0, 12)} with git: ${Buffer.concat(err).toString("utf8").trim() || `git exited with ${code}`}`,
    );
}

/** A file in a tree at a commit: its blob id and size. */
export interface TreeEntry {
  blob: string;
  size: number;
}

/**
 * Every file below `dir` at the commit (recursively, POSIX paths relative to the top folder), with its blob id and
 * size: one git process.
 */
export async function treeAt(root: string, commit: string, dir: string): Promise<Map<string, TreeEntry>> {
  const folder = dir.replace(/\/+$/, "");
  const result = await runGit(
    ["ls-tree", "-r", "-z", "--long", "--full-tree", commit, ...(folder === "" ? [] : ["--", `${folder}/`])],
    root,
  );
  const entries = new Map<string, TreeEntry>();
  if (result.code !== 0) return entries;
  for (const entry of result.stdout.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab === -1) continue;
    const [, type, blob, size] = entry.slice(0, tab).split(/ +/);
    if (type === "blob" && blob !== undefined) entries.set(entry.slice(tab + 1), { blob, size: Number(size) });
  }
  return entries;
}

/**
 * The id git gives a file's bytes as a blob (SHA-1 of "blob <size>\0" and the bytes; the repository's object format).
 */
export function blobId(bytes: Uint8Array, format: "sha1" | "sha256" = "sha1"): string {
  return crypto().createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/**
 * One `git cat-file --batch` process for a run: blobs are asked for one after another, by id, and
 * read whole (they are dataset files of a few megabytes; a larger one is streamed by gitBlob).
 */
export class BlobReader {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** What git wrote that is not taken yet, in the chunks it came in (joined only once, into each blob). */
  private chunks: Buffer[] = [];
  private length = 0;
  private waiting: (() => void) | undefined;
  private ended = false;
  private failure: Error | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(root: string) {
    this.child = childProcess().spawn("git", ["cat-file", "--batch"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    this.child.on("error", (error) => {
      this.failure = gitMissing(error);
      this.wake();
    });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.length += chunk.length;
      this.wake();
    });
    this.child.stdout.on("end", () => {
      this.ended = true;
      this.wake();
    });
    // Git gone: writing to it fails, and the answer that never comes says so (fill).
    this.child.stdin.on("error", () => undefined);
    this.child.stderr.resume();
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  /** Where the first line feed not taken is, or -1. */
  private lineEnd(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const at = chunk.indexOf(0x0a);
      if (at !== -1) return offset + at;
      offset += chunk.length;
    }
    return -1;
  }

  /** The first `count` bytes not taken, in a buffer of their own. */
  private take(count: number): Buffer {
    const bytes = Buffer.allocUnsafeSlow(count);
    let at = 0;
    while (at < count) {
      const chunk = this.chunks[0]!;
      const part = Math.min(chunk.length, count - at);
      chunk.copy(bytes, at, 0, part);
      at += part;
      if (part === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(part);
    }
    this.length -= count;
    return bytes;
  }

  /** Waits until at least `bytes` bytes are there not taken, or a line feed when `bytes` is undefined. */
  private async fill(bytes?: number): Promise<void> {
    while (bytes === undefined ? this.lineEnd() === -1 : this.length < bytes) {
      if (this.failure) throw this.failure;
      if (this.ended) throw new OperationalError("git cat-file --batch ended before its answer");
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  /**
   * The bytes of a blob, in a buffer of its own (it can be moved to a worker thread). The request is written
   * at once, so that git answers the blobs asked ahead one after another without waiting for each to be
   * taken (git answers in the order asked; the answers are taken in that order).
   */
  read(blob: string, label: string): Promise<Buffer> {
    this.child.stdin.write(`${blob}\n`);
    const next = this.queue.then(async () => {
      await this.fill();
      const header = this.take(this.lineEnd() + 1)
        .toString("utf8")
        .trimEnd();
      const [, type, size] = header.split(" ");
      if (type !== "blob") throw new OperationalError(`cannot read ${label} with git: ${header}`);
      const length = Number(size);
      await this.fill(length + 1);
      const bytes = this.take(length);
      this.take(1); // the line feed after the blob
      return bytes;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.child.stdin.end();
    if (this.child.exitCode === null) this.child.kill();
  }
}
