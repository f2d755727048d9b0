/**
 * A git repository holding both example datasets, committed, then amended in the working tree
 * (a section inserted, one repealed, a subdivision renumbered, a section amended, one retitled,
 * and in the German code a paragraph amended) and regenerated with the library: what
 * `diff --against HEAD` and the HTML pages are tested on. An approvals file approves the repeal. The
 * commit has fixed dates, so its id, and the screenshots that show it, are the same every run.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { update } from "../../src/node/update/update.js";
import { repoRoot } from "./records.js";
import { GIT_IDENTITY } from "./git.js";

const exec = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  ...GIT_IDENTITY,
  GIT_AUTHOR_DATE: "2025-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2025-01-01T00:00:00Z",
};
const git = async (cwd: string, ...args: string[]) => (await exec("git", args, { cwd, env: GIT_ENV })).stdout.trim();

export const SLUGS = ["mvfg", "privacy-act-1988"] as const;

/**
 * The sentence added to section 1 of the Privacy Act, and the words that replace "Musterbehörden" in § 1 (1) of the
 * MVfG.
 */
export const AMENDED_SENTENCE = "This section was amended by Act No. 1, 2025.";
export const MVFG_NEW_WORDS = "Bundes- und Landesbehörden";

/** Builds the repository under `dir/name`; returns its root. */
export async function amendedRepository(dir: string, name = "repo"): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, ".tooling/citation-targets"), { recursive: true });
  await cp(join(repoRoot, "fixtures/datasets"), join(root, "fixtures/datasets"), { recursive: true });
  for (const slug of SLUGS)
    for (const ext of [".lock.json", ".jsonl"])
      await cp(
        join(repoRoot, ".tooling/citation-targets", `${slug}${ext}`),
        join(root, ".tooling/citation-targets", `${slug}${ext}`),
      );
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "base");
  const data = join(root, "fixtures/datasets/privacy-act-1988");
  await writeFile(
    join(data, "part-i/section-7.md"),
    "### 7 Acts and practices of agencies\n\n(1) This section applies to acts and practices of agencies.\n",
  );
  await rm(join(data, "part-iii/division-1/section-13a.md"));
  await rename(join(data, "part-iiia/division-2/subdivision-a"), join(data, "part-iiia/division-2/subdivision-b"));
  await writeFile(
    join(data, "part-iiia/division-2/subdivision-b/index.md"),
    "#### Subdivision B—Introduction and definitions\n",
  );
  const s1 = join(data, "part-i/section-1.md");
  await writeFile(s1, `${await readFile(s1, "utf8")}\n${AMENDED_SENTENCE}\n`);
  const s6 = join(data, "part-i/section-6.md");
  await writeFile(
    s6,
    (await readFile(s6, "utf8")).replace("### 6 Interpretation", "### 6 Definitions and interpretation"),
  );
  const mvfg = join(root, "fixtures/datasets/mvfg/mvfg.md");
  await writeFile(
    mvfg,
    (await readFile(mvfg, "utf8")).replace(
      "Verwaltungstätigkeit der Musterbehörden.",
      `Verwaltungstätigkeit der ${MVFG_NEW_WORDS}.`,
    ),
  );
  await update({ cwd: root, manifests: SLUGS.map((slug) => `.tooling/citation-targets/${slug}.lock.json`) });
  await writeFile(
    join(root, "approvals.json"),
    `${JSON.stringify({ approvals: [{ address: "privacy-act-1988/part-iii/division-1/section-13a.md#13a", reason: "Section 13A repealed by Act No. 1, 2025" }] }, null, 2)}\n`,
  );
  return root;
}
