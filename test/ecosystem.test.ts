/**
 * The package as users get it: the tarball `npm pack` makes, installed with --omit=dev into an
 * empty folder; and the hooks of .pre-commit-hooks.yaml under the real pre-commit framework
 * (installed by .ci/run; skipped, saying why, where it is not installed). Both reach the npm registry.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { lock } from "../src/node/dataset/lock.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { runCommand } from "./helpers/bin.js";
import { packCheckout } from "./helpers/pack.js";
import { repoRoot } from "./helpers/records.js";

const MINUTES = 60_000;

const sh = runCommand;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

describe("the npm tarball", () => {
  test(
    "installs with --omit=dev into an empty folder and runs with no build step and no dev dependency",
    async () => {
      const packed = await packCheckout(dir);
      expect(packed.code).toBe(0);
      const tarball = packed.stdout.trim().split("\n").at(-1)!;
      expect(tarball).toMatch(/^citation-targets-\d+\.\d+\.\d+\.tgz$/); // npm pack prints only the name (what pre-commit reads)
      const user = join(dir, "user");
      await mkdir(user);
      await writeFile(join(user, "package.json"), JSON.stringify({ name: "user-project", private: true }));
      const installed = await sh("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", join(dir, tarball)], user);
      expect(installed.code, installed.stderr).toBe(0);
      const modules = await readdir(join(user, "node_modules"));
      for (const dev of ["typescript", "vitest", "fast-check", "@biomejs"]) expect(modules).not.toContain(dev);
      await cp(join(repoRoot, ".tooling"), join(user, ".tooling"), { recursive: true });
      await cp(join(repoRoot, "fixtures"), join(user, "fixtures"), { recursive: true });
      const validated = await sh("npx", ["--no-install", "citation-targets", "validate"], user);
      expect(validated).toMatchObject({ code: 0, stdout: "✔ 2 files, 63 records: no problems\n" });
      const lib = await sh(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          'import("citation-targets").then((m) => console.log(typeof m.validate, typeof m.update, "main" in m))',
        ],
        user,
      );
      expect(lib.stdout.trim()).toBe("function function false");
    },
    5 * MINUTES,
  );
});

const preCommit = (() => {
  try {
    return execFileSync("pre-commit", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
})();
if (!preCommit)
  console.warn(
    "skipping the pre-commit test: the pre-commit framework is not installed here (.ci/run installs it with apt-get)",
  );

/** Laws beside the example datasets in the hooked repository. */
const LAWS = 40;

describe.skipIf(!preCommit)("the pre-commit hooks, with the real framework", () => {
  test(
    "a commit of a bad file is refused with the problem shown; the fixed file is accepted; a markdown change without update is refused",
    async () => {
      const head = (await sh("git", ["rev-parse", "HEAD"], repoRoot)).stdout.trim();
      const user = join(dir, "hooked");
      await mkdir(user);
      const env = {
        PRE_COMMIT_HOME: join(dir, "pre-commit-home"),
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.org",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.org",
      };
      const git = (...args: string[]) => sh("git", args, user, env);
      await git("init", "-q", ".");
      await cp(join(repoRoot, ".tooling"), join(user, ".tooling"), { recursive: true });
      await cp(join(repoRoot, "fixtures/datasets"), join(user, "fixtures/datasets"), { recursive: true });
      // Many datasets beside the two examples, one per law, as publishers keep them.
      const laws: Record<string, string> = {};
      for (let n = 1; n <= LAWS; n++)
        laws[`laws/law-${n}/index.md`] = `# Gesetz ${n}\n\n## § 1 Zweck\n\nText ${n}.\n\n## § 2 Geltung\n\nText.\n`;
      await writeTree(user, laws);
      for (let n = 1; n <= LAWS; n++) {
        await lock({
          dir: join(user, `laws/law-${n}`),
          cwd: user,
          output: join(user, `.tooling/citation-targets/law-${n}.lock.json`),
          slug: `law-${n}`,
          titleId: `G${n}`,
          name: `Gesetz ${n}`,
          versionDate: "2024-12-31",
          sourceTextUrl: `https://www.legislation.gov.au/G${n}/2024-12-31/text`,
        });
      }
      expect(
        (await sh(process.execPath, [join(repoRoot, "bin/citation-targets.js"), "update", "--no-cache"], user)).code,
      ).toBe(0);
      await writeFile(
        join(user, ".pre-commit-config.yaml"),
        `repos:\n  - repo: ${repoRoot}\n    rev: ${head}\n    hooks:\n      - id: citation-targets\n      - id: citation-targets-generate-check\n`,
      );
      expect((await sh("pre-commit", ["install"], user, env)).code).toBe(0);
      await git("add", ".");
      const first = await git("commit", "-q", "-m", "the example datasets");
      expect(first.code, first.stdout + first.stderr).toBe(0);

      const jsonl = join(user, ".tooling/citation-targets/privacy-act-1988.jsonl");
      const good = await readFile(jsonl, "utf8");
      await writeFile(jsonl, good.replace(/"textDigest":"[0-9a-f]{4}/, '"textDigest":"0000'));
      await git("add", ".");
      const refused = await git("commit", "-q", "-m", "a hand edit");
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toContain("citation-targets validate");
      expect(refused.stdout + refused.stderr).toContain("text-digest");

      await writeFile(jsonl, good);
      await git("add", ".");
      expect((await git("commit", "-q", "--allow-empty", "-m", "fixed")).code).toBe(0);

      await writeFile(
        join(user, "fixtures/datasets/privacy-act-1988/part-i/section-1.md"),
        "### 1 Short title\n\nAmended.\n",
      );
      await git("add", ".");
      const stale = await git("commit", "-q", "-m", "amend without update");
      expect(stale.code).not.toBe(0);
      expect(stale.stdout + stale.stderr).toContain("privacy-act-1988: not up to date");
      // Only the staged dataset was looked at: no other dataset is named, up to date or not.
      expect(stale.stdout + stale.stderr).not.toMatch(/mvfg|law-\d+/);
      expect((await sh("npx", ["--prefix", repoRoot, "citation-targets", "update"], user)).code).toBe(0);
      await git("add", ".");
      const updated = await git("commit", "-q", "-m", "amend with update");
      expect(updated.code, updated.stdout + updated.stderr).toBe(0);

      // A staged deletion of a published JSONL: pre-commit passes no deleted file, the generate-check hook asks git.
      await git("rm", "-q", ".tooling/citation-targets/law-3.jsonl");
      const deleted = await git("commit", "-q", "-m", "delete a published file");
      expect(deleted.code).not.toBe(0);
      expect(deleted.stdout + deleted.stderr).toContain("law-3: not up to date");
      expect(deleted.stdout + deleted.stderr).not.toMatch(/law-[124-9]|mvfg|privacy/);
    },
    8 * MINUTES,
  );
});
