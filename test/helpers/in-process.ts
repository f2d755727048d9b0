/** Runs the command line in this process (src/cli/main.ts), its output captured: faster than a child process. */
import { main } from "../../src/cli/main.js";

export async function runMain(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main({
    argv,
    cwd,
    env,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}
