/**
 * `update --check --staged` compares what is staged (README, "pre-commit"): a commit holds the index, not the working
 * tree. A dataset none of whose files (its lock manifest, its JSONL, the markdown of its folder) differs between the
 * working tree and the index is checked in the working tree, as before (the cache helps; under the pre-commit
 * framework, which sets unstaged changes aside, that is every dataset). A dataset with such a difference (a plain git
 * hook, with `update` run but only the markdown staged) is checked in a copy of its staged files, written from the
 * index into a temporary folder by `git checkout-index`, so that a stale commit fails even when the working tree is
 * fresh; and when the working tree holds it regenerated, the advice is the `git add` that stages it.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { DatasetError } from "../../core/errors.js";
import { childProcess } from "../builtins.js";
import { OperationalError } from "../errors.js";
import { DatasetOperands } from "../dataset/dataset-operands.js";
import { CONFIG_FILES } from "../config/config.js";
import { datasetRootOf, displayPath } from "../files/files.js";
import { runGit } from "./diff-git.js";
import { datasetsOf } from "./staged.js";
import type { DatasetUpdate } from "../update/update-dataset.js";
import type { UpdateOptions } from "../update/update.js";
import { upToDate } from "../update/update-dataset.js";

/** Up to this many staged datasets, git is asked about their paths only; more, about the whole tree. */
const PATHSPECS_UP_TO = 64;

/**
 * The manifests (of `folders`: manifest → its dataset folder or file, undefined when it cannot be read) whose dataset
 * holds one of `files` (absolute): the file itself (a file root) or a folder above it. A manifest that cannot be read
 * counts whenever there is a file, as `datasetsOf` counts it (update names its fault).
 */
function holdingAny(
  root: string,
  folders: ReadonlyMap<string, string | undefined>,
  files: readonly string[],
): string[] {
  if (files.length === 0) return [];
  const found: string[] = [];
  for (const [manifest, folder] of folders) {
    if (folder === undefined) found.push(manifest);
    else if (files.some((file) => file === folder || isInside(root, folder, file))) found.push(manifest);
  }
  return found;
}

/** True when `file` is below `folder`, both inside the repository's top folder `root` (as manifestsHolding walks up). */
function isInside(root: string, folder: string, file: string): boolean {
  const down = relative(folder, file);
  return down !== "" && !leadsOut(down) && !leadsOut(relative(root, folder));
}

/** A relative path that leads out of the folder it is relative to (or an absolute one: another drive). */
const leadsOut = (path: string) => path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path);

/** What `update --check --staged` found for each dataset. */
export interface StagedCheck {
  /** One per manifest, in the order given. */
  results: DatasetUpdate[];
  /**
   * For each stale dataset (by its manifest as shown) whose working tree holds it regenerated: the paths to stage
   * (`git add`), as shown from the working directory.
   */
  stage: Map<string, string[]>;
}

/** `git` with `input` on its standard input. */
function gitWithInput(args: string[], cwd: string, input: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn("git", args, { cwd, stdio: ["pipe", "ignore", "pipe"] });
    const err: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end(input);
  });
}

/** NUL-separated paths git printed, the empty ones left out. */
const pathsOf = (stdout: string) => stdout.split("\0").filter((path) => path !== "");

/** Repository-relative POSIX path of an absolute path inside `root`. */
const inRepository = (root: string, path: string) => relative(root, path).split(sep).join("/");

/** A pathspec that names exactly this path (no glob, no magic). */
const literal = (path: string) => `:(literal)${path}`;

async function git(args: string[], root: string): Promise<string> {
  const result = await runGit(["-c", "core.quotePath=false", ...args], root);
  if (result.code !== 0)
    throw new OperationalError(`--staged: git ${args[0]} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  return result.stdout;
}

/**
 * Checks the staged datasets (their manifests, absolute) as the index holds them; `run` is update with the options
 * of the command (check mode).
 */
export async function checkStaged(
  root: string,
  manifests: readonly string[],
  cwd: string,
  options: UpdateOptions,
  run: (options: UpdateOptions) => Promise<DatasetUpdate[]>,
): Promise<StagedCheck> {
  // Each staged manifest's dataset folder (or file), from the manifest as it is in the working tree: only these datasets'
  // files are compared with the index, not the repository's (bench/RESULTS.md, "The pre-commit hooks").
  const folders = new Map(manifests.map((manifest) => [manifest, datasetRootOf(manifest)]));
  // Every path of those datasets whose working-tree file differs from the index (changed, deleted, or not in the index
  // at all): their manifests, their JSONL and their dataset folders; the whole tree when a manifest cannot be read (its
  // folder is unknown) or when many datasets are staged (a pathspec each would cost git more than the walk).
  const pathspecs =
    manifests.length <= PATHSPECS_UP_TO &&
    [...folders.values()].every((folder) => folder !== undefined && !leadsOut(relative(root, folder)))
      ? [
          ...new Set(
            manifests.flatMap((manifest) => {
              const named = inRepository(root, manifest);
              return [named, named.replace(/\.lock\.json$/, ".jsonl"), inRepository(root, folders.get(manifest)!)];
            }),
          ),
        ].map((path) => (path === "" ? ":/" : literal(path)))
      : [];
  // The two questions side by side: two git processes at once.
  const asked = Promise.all([
    git(["diff", "--name-only", "--no-renames", "-z", "--", ...pathspecs], root),
    git(["ls-files", "--others", "--exclude-standard", "-z", "--", ...pathspecs], root),
  ]);
  asked.catch(() => undefined); // a failure is met below, not as an unhandled rejection
  // While git answers, in processes of its own, the datasets are checked in the working tree: what the commit holds when
  // no file of theirs differs from the index, as for a commit of an amended law staged whole (the hook waited for git,
  // then checked: bench/RESULTS.md, the hooks). Used only when every dataset is checked in the tree; else each is
  // checked as below, after this check ended.
  const early = run({ ...options, manifests: [...manifests] });
  early.catch(() => undefined);
  const unstaged = (await asked).flatMap(pathsOf);
  // Manifests and JSONL map to their datasets by name; markdown to the staged datasets whose folder holds it.
  const isMarkdown = (path: string) => /\.(md|markdown)$/i.test(path);
  const markdownDiffers = new Set(
    holdingAny(
      root,
      folders,
      unstaged.filter(isMarkdown).map((path) => join(root, ...path.split("/"))),
    ),
  );
  const differing = new Set([
    ...markdownDiffers,
    ...datasetsOf(
      root,
      unstaged.filter((path) => !isMarkdown(path)),
    ).manifests,
  ]);
  const results: DatasetUpdate[] = new Array(manifests.length);
  const inTree = manifests.flatMap((manifest, i) => (differing.has(manifest) ? [] : [{ manifest, i }]));
  const fromIndex = manifests.flatMap((manifest, i) => (differing.has(manifest) ? [{ manifest, i }] : []));
  if (inTree.length === manifests.length) {
    const found = await early;
    for (const [k, { i }] of inTree.entries()) results[i] = found[k]!;
  } else {
    await early.catch(() => undefined); // its outcome not used: one check at a time
    if (inTree.length > 0) {
      const found = await run({ ...options, manifests: inTree.map((d) => d.manifest) });
      for (const [k, { i }] of inTree.entries()) results[i] = found[k]!;
    }
  }
  const stage = new Map<string, string[]>();
  if (fromIndex.length > 0) {
    const found = await inIndexCopy(
      root,
      cwd,
      fromIndex.map((d) => d.manifest),
      (copies, copyCwd) => run({ ...options, manifests: copies, cwd: copyCwd, cache: false }),
    );
    for (const [k, { i }] of fromIndex.entries()) results[i] = found[k]!;
    // The stale ones: does the working tree hold them regenerated?
    const stale = fromIndex.filter(({ i }) => !upToDate(results[i]!));
    if (stale.length > 0) {
      const tree = await run({ ...options, manifests: stale.map((d) => d.manifest) });
      const operands = await DatasetOperands.create(cwd);
      for (const [k, { manifest, i }] of stale.entries()) {
        if (!upToDate(tree[k]!)) continue;
        const paths = [displayPath(manifest, cwd), displayPath(operands.jsonlOf(manifest), cwd)];
        // Its markdown differs too: the commit must hold the markdown the regenerated files pin.
        if (markdownDiffers.has(manifest)) {
          const folder = operands.datasetFolderOf(manifest);
          if (folder !== undefined) paths.push(displayPath(folder, cwd) || ".");
        }
        stage.set(results[i]!.manifest, paths);
        // Regenerated already, only not staged: what the index's manifest warns of ("versionDate did not change", of a
        // manifest not staged yet) is not so of the commit to be; `update` said what it had to when it ran.
        results[i] = { ...results[i]!, warnings: [] };
      }
    }
  }
  return { results, stage };
}

/**
 * Writes the staged files the check needs (the lock manifests named, the JSONL beside each, the files of their dataset
 * folders as the staged manifests say, and the config files and repository schema) from the index into a temporary
 * folder laid out as the repository, runs `check` there (given the copies of the manifests and the working directory's
 * place in it), and removes the folder. Paths in what `check` says or throws are said of the repository.
 */
async function inIndexCopy(
  root: string,
  cwd: string,
  manifests: readonly string[],
  check: (copies: string[], copyCwd: string) => Promise<DatasetUpdate[]>,
): Promise<DatasetUpdate[]> {
  const copy = mkdtempSync(join(tmpdir(), "citation-targets-staged-"));
  const said = (text: string) => text.split(copy).join(root);
  try {
    mkdirSync(join(copy, ".git")); // the copy's top folder: the repository root of everything run in it
    const copyCwd = join(copy, relative(root, cwd));
    mkdirSync(copyCwd, { recursive: true });
    const checkout = async (pathspecs: string[]) => {
      if (pathspecs.length === 0) return;
      const paths = pathsOf(await git(["ls-files", "-z", "--", ...pathspecs], root));
      if (paths.length === 0) return;
      const result = await gitWithInput(
        ["checkout-index", "-z", "--stdin", `--prefix=${copy}${sep}`],
        root,
        `${paths.join("\0")}\0`,
      );
      if (result.code !== 0)
        throw new OperationalError(`--staged: git checkout-index failed: ${result.stderr.trim() || "no reason given"}`);
    };
    // First the manifests, their JSONL and the settings, as staged; then the folders the staged manifests pin.
    const named = manifests.map((manifest) => inRepository(root, manifest));
    await checkout([
      ...named.flatMap((m) => [literal(m), literal(m.replace(/\.lock\.json$/, ".jsonl"))]),
      ...CONFIG_FILES.map((entry) => `:(glob)**/${entry.name}`),
      literal(".tooling/schemas"),
    ]);
    const copies = named.map((m) => join(copy, ...m.split("/")));
    const inCopy = await DatasetOperands.create(copy);
    const folders = copies
      .map((manifest) => inCopy.datasetFolderOf(manifest))
      .filter((folder): folder is string => folder !== undefined && !relative(copy, folder).startsWith(".."))
      .map((folder) => literal(inRepository(copy, folder) || "."));
    await checkout([...new Set(folders)]);
    try {
      const results = await check(copies, copyCwd);
      for (const result of results) result.warnings = result.warnings.map(said);
      return results;
    } catch (error) {
      if (error instanceof DatasetError) throw error.reworded(said);
      if (error instanceof OperationalError) throw new OperationalError(said(error.message));
      throw error;
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
