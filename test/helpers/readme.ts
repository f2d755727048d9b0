/** The README's sections, as the tests that run them read them, and run them. */
import { chmod, readFile } from "node:fs/promises";
import { join } from "node:path";
import { runCommand } from "./bin.js";
import { GIT_IDENTITY } from "./git.js";
import { writeTree } from "./datasets.js";
import { repoRoot } from "./records.js";

/**
 * The text of the README section under `## heading`, up to the next `## ` heading outside a code block (a heading in
 * a law's markdown, inside a heredoc, is not one), or the end; undefined when there is no such section.
 */
export function readmeSection(readme: string, heading: string): string | undefined {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) return undefined;
  const lines = readme.slice(start + 1).split("\n");
  let fenced = false;
  for (let i = 1; i < lines.length; i++) {
    if (/^```/.test(lines[i]!)) fenced = !fenced;
    else if (!fenced && lines[i]!.startsWith("## ")) return lines.slice(0, i).join("\n");
  }
  return lines.join("\n");
}

/** One `sh` block of a README section as run: its output (stdout and stderr), and the `text` block that follows it. */
export interface RanBlock {
  output: string;
  expected?: string;
}

/**
 * Runs the `sh` blocks of the README section under `## heading` as a user would, in order, with the built bin on PATH
 * as `citation-targets`: the first block in `dir` (it makes the repository `repository` and goes into it), the others in
 * `dir/repository`. Each block's output is paired with the `text` block that follows it, when one does.
 */
export async function runReadmeSection(heading: string, dir: string, repository: string): Promise<RanBlock[]> {
  const section = readmeSection(await readFile(join(repoRoot, "README.md"), "utf8"), heading);
  if (section === undefined) throw new Error(`README.md has no section "## ${heading}"`);
  const shims = join(dir, "bin");
  await writeTree(shims, {
    "citation-targets": `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, "bin/citation-targets.js")}" "$@"\n`,
  });
  await chmod(join(shims, "citation-targets"), 0o755);
  const env = { PATH: `${shims}:${process.env.PATH}`, ...GIT_IDENTITY, CI: "" };
  const ran: RanBlock[] = [];
  for (const [, kind, body] of section.matchAll(/```(sh|text)\n([\s\S]*?)```/g)) {
    if (kind === "sh") {
      const cwd = ran.length === 0 ? dir : join(dir, repository); // the first block makes the repository and goes into it
      const run = await runCommand("bash", ["-c", `exec 2>&1\n${body}`], cwd, env);
      ran.push({ output: run.stdout });
    } else if (ran.length > 0) ran.at(-1)!.expected = body;
  }
  return ran;
}
