import { isUtf8 } from "node:buffer";
import { lstat, readFile, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import fg from "fast-glob";
import { DatasetError, dirnameOf, planDataset } from "../core/generate.js";
import { computeDatasetDigest, DEFAULT_MANIFEST_NAME, formatManifest, LOCK_VERSION, type ArtifactKind, type IndexKind, type LockManifest, type ManifestArtifact } from "../core/manifest.js";
import { comparePaths } from "../core/natural-sort.js";
import { sha256Hex } from "../core/digest.js";
import { mapWithLimit } from "./concurrency.js";
import { OperationalError } from "./errors.js";
import { loadManifest } from "./manifest-io.js";
import { writeFileAtomic } from "./write.js";

export interface LockOptions {
  /** The dataset directory to walk. */
  dir: string;
  cwd?: string;
  /** Where to write the manifest; default `<dir>/citation-targets.lock.json`. */
  output?: string;
  slug?: string;
  titleId?: string;
  name?: string;
  versionDate?: string;
  sourceTextUrl?: string;
  /** An explicit document order: every artifact path, once each. */
  order?: string[];
  kinds?: Record<string, ArtifactKind>;
  indexKinds?: Record<string, IndexKind>;
  sourceDocumentPaths?: Record<string, string>;
  /** Globs (relative to dir) of markdown files that are not artifacts. */
  ignore?: string[];
  /** Compute only; write nothing. */
  check?: boolean;
}

export interface LockResult {
  manifest: LockManifest;
  /** Absolute path of the manifest. */
  path: string;
  /** The manifest's bytes. */
  text: string;
  /** False when the file already held exactly these bytes. */
  changed: boolean;
  written: boolean;
}

const METADATA = ["slug", "titleId", "name", "versionDate", "sourceTextUrl"] as const;
const FLAG: Record<(typeof METADATA)[number], string> = { slug: "--slug", titleId: "--title-id", name: "--name", versionDate: "--version-date", sourceTextUrl: "--source-text-url" };

/** Walks a dataset directory and writes (or refreshes) its lock manifest; refuses escaping paths and non-UTF-8 files. */
export async function lock(options: LockOptions): Promise<LockResult> {
  const cwd = options.cwd ?? process.cwd();
  const root = resolve(cwd, options.dir);
  if (!(await stat(root).catch(() => undefined))?.isDirectory()) throw new OperationalError(`dataset directory ${options.dir} does not exist or is not a directory`);
  const output = resolve(cwd, options.output ?? join(options.dir, DEFAULT_MANIFEST_NAME));
  const existing = (await stat(output).catch(() => undefined)) ? (await loadManifest(output)).manifest : undefined;

  const digests = await findArtifacts(root, options.ignore ?? []);
  const paths = [...digests.keys()];
  if (paths.length === 0) throw new OperationalError(`no markdown files under ${options.dir}`);
  const order = orderPaths(paths, existing, options.order);
  const previous = new Map(existing?.artifacts.map((a) => [a.path, a]) ?? []);
  const present = new Set(paths);
  for (const path of [...Object.keys(options.kinds ?? {}), ...Object.keys(options.indexKinds ?? {}), ...Object.keys(options.sourceDocumentPaths ?? {})]) {
    if (!present.has(path)) throw new OperationalError(`${path}: named by an option but not an artifact under ${options.dir}`);
  }

  const artifacts: ManifestArtifact[] = [];
  for (const path of order) {
    const before = previous.get(path);
    const kind = options.kinds?.[path] ?? before?.kind ?? inferKind(path, present);
    const indexKind = options.indexKinds?.[path] ?? before?.indexKind;
    const sourceDocumentPath = options.sourceDocumentPaths?.[path] ?? before?.sourceDocumentPath;
    artifacts.push({
      path,
      sha256: digests.get(path)!,
      ...(kind !== "file" ? { kind } : {}),
      ...(indexKind !== undefined && indexKind !== "body-block" ? { indexKind } : {}),
      ...(sourceDocumentPath !== undefined ? { sourceDocumentPath } : {}),
    });
  }

  const metadata = {} as Record<(typeof METADATA)[number], string>;
  const missing: string[] = [];
  for (const key of METADATA) {
    const value = options[key] ?? existing?.[key];
    if (value === undefined) missing.push(FLAG[key]);
    else metadata[key] = value;
  }
  if (missing.length > 0) throw new OperationalError(`no manifest to refresh at ${output}: give ${missing.join(", ")}`);
  const datasetRootFromManifest = relative(dirname(output), root).split(sep).join("/");
  const content: Omit<LockManifest, "datasetDigest"> = {
    lockVersion: LOCK_VERSION,
    ...metadata,
    ...(datasetRootFromManifest !== "" ? { datasetRoot: datasetRootFromManifest } : {}),
    artifacts,
  };
  const manifest: LockManifest = { ...content, datasetDigest: computeDatasetDigest(content) };
  const problems = planDataset(manifest);
  if (problems.length > 0) throw new DatasetError(problems);
  const text = formatManifest(manifest);
  const old = await readFile(output, "utf8").catch(() => undefined);
  const changed = old !== text;
  if (changed && !options.check) await writeFileAtomic(output, text);
  return { manifest, path: output, text, changed, written: changed && !options.check };
}

function inferKind(path: string, present: Set<string>): ArtifactKind {
  const folder = dirnameOf(path);
  if (folder === "") return "file";
  if (path === `${folder}/index.md`) return "directory-index";
  if (path === `${folder}/README.md` && !present.has(`${folder}/index.md`)) return "directory-index";
  return "file";
}

/**
 * Every `*.md` under root (dot folders, node_modules and ignored globs left out), in natural order,
 * with the sha256 of its bytes; each file is read once. Refuses escapes and non-UTF-8 files, naming each.
 */
async function findArtifacts(root: string, ignore: string[]): Promise<Map<string, string>> {
  const entries = await fg("**/*.md", { cwd: root, dot: false, onlyFiles: false, followSymbolicLinks: false, ignore: ["**/node_modules/**", ...ignore] });
  const realRoot = await realpath(root);
  const inspect = async (path: string): Promise<{ problem?: string; digest?: string }> => {
    if (/[\u0000\r\n\\]/.test(path)) return { problem: `${JSON.stringify(path)}: the name has a NUL, CR, LF or backslash` };
    const absolute = join(root, ...path.split("/"));
    const info = await lstat(absolute);
    if (info.isSymbolicLink()) {
      const target = await realpath(absolute).catch(() => undefined);
      if (target === undefined) return { problem: `${path}: a symbolic link to nothing` };
      if (!target.startsWith(realRoot + sep)) return { problem: `${path}: a symbolic link to ${target}, outside the dataset root` };
      if (!(await stat(target)).isFile()) return {};
    } else if (!info.isFile()) {
      return {};
    }
    const bytes = await readFile(absolute);
    return isUtf8(bytes) ? { digest: sha256Hex(bytes) } : { problem: `${path}: not valid UTF-8` };
  };
  const results = await mapWithLimit(entries.sort(comparePaths), 16, inspect);
  const problems = results.flatMap((r) => (r.problem ? [r.problem] : []));
  if (problems.length > 0) throw new DatasetError(problems);
  const digests = new Map<string, string>();
  entries.forEach((path, i) => {
    const digest = results[i]!.digest;
    if (digest !== undefined) digests.set(path, digest);
  });
  return digests;
}

/** The document order: explicit when given, else the previous manifest's order with new files put in their natural place. */
function orderPaths(paths: string[], existing: LockManifest | undefined, explicit: string[] | undefined): string[] {
  const present = new Set(paths);
  if (explicit) {
    const problems: string[] = [];
    const listed = new Set<string>();
    for (const path of explicit) {
      if (!present.has(path)) problems.push(`${path}: in the order list but not an artifact`);
      if (listed.has(path)) problems.push(`${path}: listed twice in the order list`);
      listed.add(path);
    }
    for (const path of paths) if (!listed.has(path)) problems.push(`${path}: an artifact missing from the order list`);
    if (problems.length > 0) throw new DatasetError(problems);
    return explicit;
  }
  if (!existing) return paths;
  const order = existing.artifacts.map((a) => a.path).filter((p) => present.has(p));
  const known = new Set(order);
  for (const path of paths) {
    if (known.has(path)) continue;
    // after the last kept path that sorts before it naturally
    let at = 0;
    for (let i = 0; i < order.length; i++) if (comparePaths(order[i]!, path) < 0) at = i + 1;
    order.splice(at, 0, path);
    known.add(path);
  }
  return order;
}
