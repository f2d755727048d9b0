/** Runs the built bin as a child process, as a user would; resolves with its exit code and output (never rejects). */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./records.js";

const run = promisify(execFile);
export const bin = join(repoRoot, "bin/citation-targets.js");

export async function runBin(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCommand(process.execPath, [bin, ...args], cwd, env);
}

/** Any command, the same way (npm, git, pre-commit). */
export async function runCommand(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, maxBuffer: 256 * 2 ** 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
