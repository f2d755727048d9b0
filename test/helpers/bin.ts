/** Runs the built bin as a child process, as a user would; resolves with its exit code and output (never rejects). */
import { execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./records.js";

const run = promisify(execFile);
export const bin = join(repoRoot, "bin/citation-targets.js");

export async function runBin(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCommand(process.execPath, [bin, ...args], cwd, env);
}

/** Any command, the same way (npm, git, pre-commit). */
export async function runCommand(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      maxBuffer: 256 * 2 ** 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * Root may read and write anywhere: as root, tests that need a folder's permissions to apply run the built bin as
 * nobody (setpriv).
 */
export const isRoot = process.getuid?.() === 0;
function hasSetpriv(): boolean {
  try {
    execFileSync("setpriv", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
/** True when the bin can run as a user whose permissions apply (not root, or root with setpriv). */
export const canDropRoot = !isRoot || hasSetpriv();
/** Runs the built bin as an ordinary user: as it is when not root, else as nobody through setpriv. */
export function runUnprivileged(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!isRoot) return runBin(args, cwd);
  return runCommand(
    "setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, bin, ...args],
    cwd,
  );
}

/**
 * Runs the command line in this process (no child, no build needed), collecting what it writes; resolves with its exit
 * code.
 */
export async function runMain(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import("../../src/cli/main.js");
  let stdout = "";
  let stderr = "";
  const code = await main({
    argv,
    cwd,
    env: {},
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}
