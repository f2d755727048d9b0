/**
 * What a user passes to name a dataset (`update`, `generate`, `validate`, `view`; README, "Naming datasets"): a
 * positional is tried, in this order, as an existing file (a lock manifest; a JSONL, which names the manifest beside
 * it; a markdown file, which names every dataset whose folder holds it), an existing folder (the tooling folder: every
 * dataset; a dataset folder, a folder inside one, or a folder holding dataset folders), then a slug of the repository
 * (`.tooling/citation-targets/<slug>.lock.json`). The manifests of the tooling folder are read once per resolver, and
 * only when an operand needs their dataset folders. An operand that names no dataset is an OperationalError (exit 2)
 * that says what was tried.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { DEFAULT_MANIFEST_NAME } from "../../core/lock/manifest.js";
import { OperationalError } from "../errors.js";
import { displayPath, findRepositoryRoot, isInside, MANIFEST_FOLDER } from "../files/files.js";
import { readRegularIfPresent } from "../files/regular-file.js";

/** How an operand was read. */
export type OperandKind = "manifest" | "jsonl" | "markdown" | "folder" | "tooling-folder" | "slug";

export interface ResolvedOperand {
  /** The operand as given. */
  operand: string;
  kind: OperandKind;
  /** Absolute paths of the lock manifests it names, sorted (one for a manifest, a JSONL or a slug). */
  manifests: string[];
}

const MARKDOWN = /\.(md|markdown)$/i;
const SLUG_LIKE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A manifest of the tooling folder and the dataset folder it pins (undefined when it cannot be read). */
interface IndexedManifest {
  path: string;
  datasetRoot: string | undefined;
}

/** Resolves dataset operands against one repository; reads the tooling folder's manifests at most once. */
export class DatasetOperands {
  private indexed: IndexedManifest[] | undefined;

  private constructor(
    readonly cwd: string,
    /** The repository's top folder (the working directory outside a repository). */
    readonly root: string,
  ) {}

  static async create(cwd: string): Promise<DatasetOperands> {
    return new DatasetOperands(cwd, (await findRepositoryRoot(cwd)) ?? cwd);
  }

  /** `.tooling/citation-targets` of the repository (absolute). */
  get toolingFolder(): string {
    return join(this.root, ...MANIFEST_FOLDER.split("/"));
  }

  /** Every `*.lock.json` of the tooling folder, sorted (none when it is not there). */
  toolingManifests(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.toolingFolder).filter((name) => name.endsWith(".lock.json"));
    } catch {
      return [];
    }
    return names.sort().map((name) => join(this.toolingFolder, name));
  }

  /** The tooling folder's manifests with their dataset folders, read once. */
  private index(): IndexedManifest[] {
    this.indexed ??= this.toolingManifests().map((path) => ({ path, datasetRoot: datasetRootIn(path) }));
    return this.indexed;
  }

  /** The manifests whose dataset folder holds `path` (a file or a folder), or, with `below`, lies in the folder. */
  private holding(path: string, below: boolean): string[] {
    return this.index()
      .filter(
        ({ datasetRoot }) =>
          datasetRoot !== undefined && (isInside(datasetRoot, path) || (below && isInside(path, datasetRoot))),
      )
      .map(({ path: manifest }) => manifest);
  }

  /** One operand; an OperationalError naming what was tried when it names no dataset. */
  resolve(operand: string): ResolvedOperand {
    const absolute = resolve(this.cwd, operand);
    const shown = absolute === resolve(this.cwd) ? "." : displayPath(absolute, this.cwd);
    const info = statSync(absolute, { throwIfNoEntry: false });
    const found = (kind: OperandKind, manifests: string[]): ResolvedOperand => ({
      operand,
      kind,
      manifests: [...new Set(manifests)].sort(),
    });
    const read = () => {
      const count = this.index().length;
      const folder = displayPath(this.toolingFolder, this.cwd);
      return count === 0
        ? `no lock manifest in ${folder}`
        : `read the ${count === 1 ? "manifest" : `${count} manifests`} of ${folder}`;
    };
    if (info?.isDirectory()) {
      if (resolve(absolute) === resolve(this.toolingFolder)) return found("tooling-folder", this.toolingManifests());
      const manifests = this.holding(absolute, true);
      const own = join(absolute, DEFAULT_MANIFEST_NAME);
      // A dataset folder that holds its own manifest: a folder, naming that manifest (generate takes it: dataset-operand.ts).
      if (manifests.length === 0 && statSync(own, { throwIfNoEntry: false })?.isFile()) return found("folder", [own]);
      if (manifests.length === 0)
        throw new OperationalError(
          `${shown}: a folder, but no dataset's folder holds it or lies in it (${read()}, and no ${DEFAULT_MANIFEST_NAME} in it): name a lock manifest, a dataset's folder or its slug, or adopt the folder first (citation-targets adopt ${shown})`,
        );
      return found("folder", manifests);
    }
    if (info !== undefined && MARKDOWN.test(absolute)) {
      const manifests = this.holding(absolute, false);
      if (manifests.length === 0)
        throw new OperationalError(
          `${shown}: a markdown file, but no dataset's folder holds it (${read()}): name a lock manifest, a dataset's folder or its slug`,
        );
      return found("markdown", manifests);
    }
    if (absolute.endsWith(".jsonl")) {
      const beside = `${absolute.slice(0, -".jsonl".length)}.lock.json`;
      if (isFile(beside)) return found("jsonl", [beside]);
      const own = join(dirname(absolute), DEFAULT_MANIFEST_NAME);
      if (isFile(own)) return found("jsonl", [own]);
      if (info !== undefined)
        throw new OperationalError(
          `${shown}: a dataset file, but its lock manifest ${displayPath(beside, this.cwd)} is not there: write it with lock or adopt, or name the manifest`,
        );
    } else if (info !== undefined) return found("manifest", [absolute]); // read as a manifest: its reader names a fault
    // Not a file or a folder here: a slug of the repository (with or without its file name's ending).
    const slug = basename(operand).replace(/\.(lock\.json|jsonl)$/, "");
    if (!operand.includes("/") && !operand.includes(sep) && SLUG_LIKE.test(slug)) {
      const manifest = join(this.toolingFolder, `${slug}.lock.json`);
      if (isFile(manifest)) return found("slug", [manifest]);
    }
    throw new OperationalError(
      `${operand}: no dataset by that name: tried a file and a folder (${shown}: no such file or folder) and a slug (${displayPath(join(this.toolingFolder, `${slug}.lock.json`), this.cwd)}: not there): name a lock manifest, its JSONL, a markdown file or folder of its dataset, or its slug`,
    );
  }

  /** Every operand, in order; the lock manifests they name, each once. */
  resolveAll(operands: readonly string[]): { resolved: ResolvedOperand[]; manifests: string[] } {
    const resolved = operands.map((operand) => this.resolve(operand));
    return { resolved, manifests: [...new Set(resolved.flatMap((r) => r.manifests))] };
  }

  /** The dataset folder a manifest pins (its datasetRoot, absolute); undefined when it cannot be read. */
  datasetFolderOf(manifest: string): string | undefined {
    return datasetRootIn(manifest);
  }

  /** The JSONL a manifest generates (its slug read from it; `<name>.jsonl` beside `<name>.lock.json`). */
  jsonlOf(manifest: string): string {
    const name = basename(manifest);
    if (name !== DEFAULT_MANIFEST_NAME && name.endsWith(".lock.json"))
      return join(dirname(manifest), `${name.slice(0, -".lock.json".length)}.jsonl`);
    const slug = slugIn(manifest);
    if (slug === undefined)
      throw new OperationalError(
        `${displayPath(manifest, this.cwd)}: its slug cannot be read, so its JSONL is not known: name the JSONL`,
      );
    return join(dirname(manifest), `${slug}.jsonl`);
  }
}

/** The manifests named by operands (none: none), resolved from `cwd`. */
export async function resolveDatasetOperands(operands: readonly string[], cwd: string): Promise<string[]> {
  if (operands.length === 0) return [];
  return (await DatasetOperands.create(cwd)).resolveAll(operands).manifests;
}

/**
 * Exactly one dataset's manifest (generate, view): an OperationalError naming the datasets when the operand names
 * several.
 */
export async function resolveOneDataset(operand: string, cwd: string): Promise<{ manifest: string; jsonl: string }> {
  const operands = await DatasetOperands.create(cwd);
  const { manifests } = operands.resolve(operand);
  if (manifests.length !== 1)
    throw new OperationalError(
      `${operand}: names ${manifests.length} datasets (${manifests
        .slice(0, 5)
        .map((m) => displayPath(m, cwd))
        .join(", ")}${manifests.length > 5 ? ", …" : ""}): name one`,
    );
  return { manifest: manifests[0]!, jsonl: operands.jsonlOf(manifests[0]!) };
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** A manifest's JSON (regular files only: a FIFO is never opened), or undefined. */
function manifestData(path: string): Record<string, unknown> | undefined {
  try {
    const data = JSON.parse(readRegularIfPresent(path)?.toString("utf8") ?? "null") as unknown;
    return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function datasetRootIn(path: string): string | undefined {
  const data = manifestData(path);
  if (data === undefined) return undefined;
  return resolve(dirname(path), typeof data.datasetRoot === "string" ? data.datasetRoot : ".");
}

function slugIn(path: string): string | undefined {
  const slug = manifestData(path)?.slug;
  return typeof slug === "string" ? slug : undefined;
}

/** Characters that make a pattern a glob (as `expandInputs` reads them). */
const GLOB_SYNTAX = /[*?[\]{}()!]/;

/**
 * validate's paths: a JSONL file, a glob, `-`, and a folder that is (or holds) the tooling folder keep their meaning
 * (a folder: every `*.jsonl` below it); a lock manifest, a markdown file, a dataset's folder (or one inside it, or one
 * holding dataset folders) and a slug stand for their datasets' JSONL. What is neither is left for the reader to name.
 */
export async function validateOperands(paths: readonly string[], cwd: string): Promise<string[]> {
  let operands: DatasetOperands | undefined;
  const out: string[] = [];
  for (const path of paths) {
    if (path === "-" || GLOB_SYNTAX.test(path)) {
      out.push(path);
      continue;
    }
    const absolute = resolve(cwd, path);
    const info = statSync(absolute, { throwIfNoEntry: false });
    const isDataset =
      info === undefined
        ? !absolute.endsWith(".jsonl")
        : info.isDirectory()
          ? true
          : MARKDOWN.test(absolute) || absolute.endsWith(".lock.json");
    if (!isDataset) {
      out.push(path);
      continue;
    }
    operands ??= await DatasetOperands.create(cwd);
    const resolver = operands;
    if (info?.isDirectory() && isInside(absolute, resolver.toolingFolder)) {
      out.push(path);
      continue;
    }
    let manifests: string[];
    try {
      manifests = resolver.resolve(path).manifests;
    } catch (error) {
      // A folder no dataset is in keeps its meaning (every *.jsonl below it; none is an error of its own), and a file
      // of no dataset is read as what it is (the report says once that it is not JSONL).
      if (info !== undefined) {
        out.push(path);
        continue;
      }
      throw error;
    }
    // A `.lock.json` whose JSONL is not there is read as what it is (the report says once that it is not JSONL).
    const jsonl = manifests.flatMap((manifest) => {
      try {
        return [resolver.jsonlOf(manifest)];
      } catch {
        return [];
      }
    });
    if (absolute.endsWith(".lock.json") && !jsonl.some((path) => statSync(path, { throwIfNoEntry: false }))) {
      out.push(path);
      continue;
    }
    for (const path of jsonl) out.push(displayPath(path, cwd));
  }
  return out;
}
