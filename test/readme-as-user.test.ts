/**
 * The README's "Adopting a corpus" and "Publishing a new version" run as a user runs them: in a fresh repository, with
 * the package installed as the README says (the tarball `npm pack` makes, packed once here), from npm's cache (offline:
 * the cache `npm ci` filled), and no citation-targets on PATH. Skipped, saying why, only when the cache lacks a package.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { packCheckout } from "./helpers/pack.js";
import { repoRoot } from "./helpers/records.js";
import { GIT_IDENTITY } from "./helpers/git.js";

const MINUTES = 60_000;
const { dir, cleanup } = await tempDir();
afterAll(async () => cleanup());

/** A user's environment: npm offline and quiet, git's identity, and no folder of this checkout's tools on PATH. */
const env = {
  PATH: (process.env.PATH ?? "")
    .split(delimiter)
    .filter((folder) => !folder.includes("node_modules"))
    .join(delimiter),
  npm_config_offline: "true",
  npm_config_update_notifier: "false",
  ...GIT_IDENTITY,
  CI: "",
  GITHUB_ACTIONS: "",
};

/** The tarball, packed once, and whether npm's cache holds what installing it needs (a probe install, offline). */
const packed = await packCheckout(dir);
const tarball = join(dir, packed.stdout.trim().split("\n").at(-1) ?? "");
const probe = join(dir, "probe");
const probed = await runCommand(
  "bash",
  [
    "-c",
    `mkdir -p "${probe}" && cd "${probe}" && npm init -y > /dev/null && npm install --no-audit --no-fund "${tarball}"`,
  ],
  dir,
  env,
);
const missing = /ENOTCACHED|cache mode is 'only-if-cached'/.test(probed.stderr + probed.stdout);
if (missing)
  console.warn(
    `skipping the README as a user runs it: npm's cache lacks a package the tarball needs (offline install failed: ${probed.stderr.split("\n").find((line) => /ENOTCACHED|only-if-cached/.test(line))})`,
  );

describe.skipIf(missing)("README: 'Adopting a corpus' and 'Publishing a new version', as a user runs them", () => {
  test("the tarball packs and installs offline", () => {
    expect(packed.code, packed.stderr).toBe(0);
    expect(probed.code, probed.stderr).toBe(0);
  });

  test(
    "every sh block runs in turn in a fresh repository with the package installed as a dev dependency, and prints the text block that follows it",
    async () => {
      const readme = await readFile(join(repoRoot, "README.md"), "utf8");
      const start = readme.indexOf("\n## Adopting a corpus\n");
      const end = readme.indexOf("\n## Reviewing an amendment\n");
      expect(start).toBeGreaterThan(0);
      expect(end).toBeGreaterThan(start);
      const blocks = [...readme.slice(start, end).matchAll(/```(sh|text)\n([\s\S]*?)```/g)].map((m) => ({
        kind: m[1] as string,
        body: m[2] as string,
      }));
      const scripts = blocks.filter((b) => b.kind === "sh").map((b) => b.body);
      expect(scripts).toHaveLength(4);
      // A dev dependency is not on PATH: every command runs it with npx.
      for (const script of scripts) expect(script).not.toMatch(/(?<![\w/.-]|npx )citation-targets /);
      expect(scripts[0]).toMatch(/npm install --save-dev .*path\/to\/citation-targets-[\d.]+\.tgz/);
      expect(await runCommand("bash", ["-c", "command -v citation-targets"], dir, env)).toMatchObject({ code: 1 });
      const user = join(dir, "user");
      await runCommand("mkdir", ["-p", user], dir);
      let output: string | undefined;
      for (const block of blocks) {
        if (block.kind === "sh") {
          // The first block makes my-laws and goes into it; the others run there. The tarball's path is this one's.
          const cwd = existsSync(join(user, "my-laws")) ? join(user, "my-laws") : user;
          const script = block.body.replace(/path\/to\/citation-targets-[\d.]+\.tgz/g, tarball);
          const run = await runCommand("bash", ["-c", `set -e\nexec 2>&1\n${script}`], cwd, env);
          output = run.stdout;
          if (block === blocks[0]) expect(run.code, run.stdout).toBe(0);
        } else {
          expect(output, "a text block follows an sh block").toBeDefined();
          expect(output?.trimEnd()).toBe(block.body.trimEnd());
          output = undefined;
        }
      }
      const repo = join(user, "my-laws");
      const tracked = (await runCommand("git", ["ls-files"], repo, env)).stdout.split("\n");
      expect(tracked).toContain(".gitignore");
      expect(tracked).toContain("package.json");
      expect(tracked.filter((path) => path.startsWith("node_modules/"))).toEqual([]);
      const manifest = JSON.parse(await readFile(join(repo, "package.json"), "utf8"));
      expect(Object.keys(manifest.devDependencies ?? {})).toEqual(["citation-targets"]);
    },
    5 * MINUTES,
  );
});
