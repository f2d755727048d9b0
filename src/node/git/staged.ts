/**
 * What is staged, mapped to the datasets it belongs to (`update --staged`, `validate --staged`; the
 * pre-commit hooks). Git is asked once for every staged path, deletions included (pre-commit passes no
 * deleted file, and skips a hook whose pattern matches nothing staged). A staged lock manifest is its
 * dataset; a staged JSONL (added, changed or deleted) belongs to the manifest beside it; a staged
 * markdown file, or a submodule (a gitlink), belongs to every dataset whose folder holds it (each manifest's datasetRoot). Only the
 * lock manifests of `.tooling/citation-targets/` count, as for `update` with no manifests named.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { runGit } from "./diff-git.js";
import { OperationalError } from "../errors.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { datasetRootOf, DEFAULT_FOLDER, findRepositoryRoot } from "../files/files.js";
import { listNames } from "../files/folder-listing.js";
import { openRootsCache } from "../cache/roots-cache.js";

/** The folder of the default pattern: `.tooling/citation-targets`. */

export interface StagedDatasets {
  /** The repository's top folder. */
  root: string;
  /** Every staged path (POSIX, relative to the top folder). */
  staged: string[];
  /** Absolute paths of the lock manifests of the datasets that staged paths belong to, sorted. */
  manifests: string[];
  /** Absolute paths of the staged JSONL files that are still in the working tree, sorted. */
  jsonl: string[];
}

/**
 * Asks git for the staged paths and maps them to datasets; an OperationalError outside a repository. `cache`: the
 * manifests' dataset folders may be taken from the repository's cache of them (roots-cache.ts); false reads every
 * manifest (`--no-cache`, `--cache-location`).
 */
export async function stagedDatasets(cwd: string, { cache = true }: { cache?: boolean } = {}): Promise<StagedDatasets> {
  const startedMs = Date.now();
  // Both questions at once (git's start-up is most of each): `diff --raw` names paths from the top folder wherever it
  // runs (diff.relative set false: a user's config cannot make them relative to the folder it runs in).
  const asked = Promise.all([
    runGit(["rev-parse", "--show-toplevel"], cwd),
    runGit(
      ["-c", "core.quotePath=false", "-c", "diff.relative=false", "diff", "--cached", "--raw", "--no-renames", "-z"],
      cwd,
    ),
  ]);
  // While git answers, in processes of its own, the manifests of the repository cwd is found in (its folder with .git,
  // by its real path, as git names it) are read: a staged markdown file is mapped by them, and a commit of an amended
  // law stages its markdown (bench/RESULTS.md, the hooks: the hook waited for git, then read them). Used when git names
  // that folder as the top one. The cost: a commit that stages no markdown reads them too, while git answers.
  asked.catch(() => undefined); // its failure is met below (git not found: said there, not as an unhandled rejection)
  const guess = await findRepositoryRoot(cwd);
  let early: { root: string; read: ManifestFolders } | undefined;
  if (guess !== undefined) {
    try {
      const real = realpathSync.native(guess);
      early = { root: real, read: manifestFolders(real, cache, startedMs) };
    } catch {
      early = undefined; // read after git answers, as before
    }
  }
  const [top, diff] = await asked;
  if (top.code !== 0)
    throw new OperationalError(
      `--staged: not in a git repository (${cwd}): it checks what is staged for the next commit`,
    );
  const root = top.stdout.trim();
  if (diff.code !== 0)
    throw new OperationalError(`--staged: git could not list the staged files: ${diff.stderr.trim()}`);
  // `--raw -z`: ":<old mode> <new mode> <old id> <new id> <status>" NUL "<path>" NUL, for each path.
  const fields = diff.stdout.split("\0");
  const staged: string[] = [];
  const gitlinks: string[] = [];
  const unmerged: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, , , status] = fields[i]!.slice(1).split(" ");
    const path = fields[i + 1]!;
    staged.push(path);
    if (status === "U") unmerged.push(path);
    if (oldMode === GITLINK || newMode === GITLINK) gitlinks.push(path);
  }
  // A merge or rebase stopped at a conflict: the index holds no one version of these files, so nothing staged can be
  // checked (git refuses the commit too). Said once, plainly, never passed as "nothing to check".
  if (unmerged.length > 0)
    throw new OperationalError(
      `--staged: the index holds unmerged paths (a merge or rebase stopped at a conflict): ${unmerged.slice(0, 5).join(", ")}${unmerged.length > 5 ? ` and ${unmerged.length - 5} more` : ""}: resolve the conflicts and stage the files (git add), then check again`,
    );
  const read = early !== undefined && early.root === resolve(root) ? early.read : undefined;
  const found = datasetsOf(root, staged, gitlinks, read, cache, startedMs);
  await Promise.all([early?.read.save(), read === undefined ? found.save() : undefined]);
  return { root, staged, manifests: found.manifests, jsonl: found.jsonl };
}

/** The mode of a gitlink: a submodule's entry in the index. */
const GITLINK = "160000";

/**
 * What `validate --staged` checks: the staged JSONL files still in the working tree, and the JSONL of every staged
 * dataset that exists (beside its manifest, named by the manifest's slug; a manifest that cannot be read names none),
 * sorted; and the datasets' lock manifests.
 */
export async function stagedFiles(
  cwd: string,
  options: { cache?: boolean } = {},
): Promise<{ files: string[]; manifests: string[]; root: string }> {
  const found = await stagedDatasets(cwd, options);
  const { outputFor } = await import("../update/update-dataset.js");
  const outputs = found.manifests.flatMap((manifest) => {
    // A manifest that cannot be read or names no slug (broken by hand, say): its JSONL by its own name, which is checked
    // with it beside, so that its fault is said, never a pass of no file.
    const beside = `${manifest.slice(0, -".lock.json".length)}.jsonl`;
    try {
      const slug = (JSON.parse(readRegularFileSync(manifest).toString("utf8")) as { slug?: unknown }).slug;
      return typeof slug === "string" ? [outputFor(manifest, slug)] : [beside];
    } catch {
      return [beside];
    }
  });
  return {
    files: [...new Set([...found.jsonl, ...outputs.filter((path) => existsSync(path))])].sort(),
    manifests: found.manifests,
    root: found.root,
  };
}

/**
 * The files of the datasets of these manifests (each one's manifest, the JSONL beside it and its dataset folder or
 * file) whose working tree differs from the index, untracked ones included: what `validate --staged` reads (it checks
 * the working tree) and the commit does not hold. Absolute paths, sorted, and whether any is untracked; none when git
 * cannot say.
 */
export async function unstagedOf(
  root: string,
  manifests: readonly string[],
): Promise<{ paths: string[]; untracked: boolean }> {
  const options = ["-c", "core.quotePath=false", "-c", "diff.relative=false"];
  const [changed, others] = await Promise.all([
    runGit([...options, "diff", "--name-only", "--no-renames", "-z"], root),
    runGit([...options, "ls-files", "--others", "--exclude-standard", "--full-name", "-z"], root),
  ]);
  const datasets = manifests.map((manifest) => ({
    manifest,
    jsonl: `${manifest.slice(0, -".lock.json".length)}.jsonl`,
    folder: datasetRootOf(manifest),
  }));
  const belongs = (absolute: string) =>
    datasets.some(
      ({ manifest, jsonl, folder }) =>
        absolute === manifest ||
        absolute === jsonl ||
        (folder !== undefined && (absolute === folder || absolute.startsWith(`${folder}${sep}`))),
    );
  const of = (answer: { code: number; stdout: string }) =>
    answer.code !== 0
      ? []
      : answer.stdout
          .split("\0")
          .filter((path) => path !== "")
          .map((path) => join(root, ...path.split("/")))
          .filter(belongs);
  const untracked = of(others);
  return { paths: [...new Set([...of(changed), ...untracked])].sort(), untracked: untracked.length > 0 };
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** Maps repository-relative paths to the lock manifests of their datasets, and the JSONL files among them. */
export function datasetsOf(
  root: string,
  paths: string[],
  gitlinks: readonly string[] = [],
  read?: ManifestFolders,
  cache = true,
  startedMs = Date.now(),
): { manifests: string[]; jsonl: string[]; save(): Promise<void> } {
  const manifests = new Set<string>();
  const jsonl = new Set<string>();
  const markdown: string[] = [];
  for (const path of paths) {
    const absolute = join(root, ...path.split("/"));
    if (path.endsWith(".lock.json")) {
      if (isFile(absolute) && dirname(path) === DEFAULT_FOLDER) manifests.add(absolute);
    } else if (path.endsWith(".jsonl") && dirname(path) === DEFAULT_FOLDER) {
      const beside = `${absolute.slice(0, -".jsonl".length)}.lock.json`;
      if (isFile(beside)) manifests.add(beside);
      if (isFile(absolute)) jsonl.add(absolute);
    } else if (/\.(md|markdown)$/i.test(path)) markdown.push(absolute);
  }
  // A submodule added, changed or removed under a dataset folder belongs to that dataset, as a markdown file would
  // (lock and validate name it: it is not an artifact).
  for (const path of gitlinks) markdown.push(join(root, ...path.split("/")));
  // The manifests read here, when none were read before git answered: their cache written after.
  let folders = read;
  if (markdown.length > 0) {
    folders ??= manifestFolders(root, cache, startedMs);
    for (const manifest of manifestsHolding(root, markdown, folders)) manifests.add(manifest);
  }
  const save = folders !== undefined && folders !== read ? folders.save : async () => undefined;
  return { manifests: [...manifests].sort(), jsonl: [...jsonl].sort(), save };
}

/**
 * The manifests of the default folder (the ones `update` refreshes when none are named) by their dataset folders (their
 * datasetRoot resolved), and those that cannot be read.
 */
interface ManifestFolders {
  /** Dataset folder (absolute) → the manifests whose datasetRoot it is. */
  byFolder: Map<string, string[]>;
  /** Manifests that cannot be read: update names their fault. */
  unreadable: string[];
  /** Writes the cache of the dataset folders (roots-cache.ts) when it learnt any. */
  save(): Promise<void>;
}

/**
 * Reads every manifest of the default folder of the repository at `root` (ManifestFolders): from the repository's cache
 * of their dataset folders, when `cache` and it has one (roots-cache.ts), those unchanged since they were read.
 */
function manifestFolders(root: string, cache = true, startedMs = Date.now()): ManifestFolders {
  const byFolder = new Map<string, string[]>();
  const unreadable: string[] = [];
  const folder = join(root, ...DEFAULT_FOLDER.split("/"));
  let names: string[] = [];
  try {
    names = listNames(folder).filter((name) => name.endsWith(".lock.json"));
  } catch {
    // no default folder
  }
  const roots = cache && names.length > 0 ? openRootsCache(root, startedMs) : undefined;
  for (const name of names) {
    const manifest = join(folder, name);
    const dataset = roots !== undefined ? roots.rootOf(folder, name) : datasetRootOf(manifest);
    if (dataset === undefined) {
      unreadable.push(manifest);
      continue;
    }
    const held = byFolder.get(dataset);
    if (held === undefined) byFolder.set(dataset, [manifest]);
    else held.push(manifest);
  }
  return { byFolder, unreadable, save: async () => roots?.save() };
}

/**
 * The manifests of the default folder whose dataset folder (their datasetRoot) holds one of the files, or whose
 * datasetRoot is one of them (a file root); and those that cannot be read. `read`: the default folder's manifests read
 * already (ManifestFolders of this root).
 */
function manifestsHolding(root: string, files: string[], read: ManifestFolders): string[] {
  const { byFolder, unreadable } = read;
  const found = new Set<string>(unreadable);
  // Each folder above each file, up to the top folder, that is a dataset folder of one of those manifests.
  for (const file of files) {
    for (const manifest of byFolder.get(file) ?? []) found.add(manifest); // a dataset that is this one file
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      for (const manifest of byFolder.get(dir) ?? []) found.add(manifest);
      if (dir === root || dirname(dir) === dir || relative(root, dir).startsWith("..")) break;
    }
  }
  return [...found];
}
