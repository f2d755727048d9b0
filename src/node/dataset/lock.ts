import { readdirSync, statSync } from "node:fs";
import { readRegularFileSync } from "../files/regular-file.js";
import { pinnedOnceLf } from "../files/crlf.js";
import { backToLf } from "../files/back-to-lf.js";
import { dirname, join, relative, resolve, sep } from "node:path";
import { checkDatasetFields } from "../../core/lock/dataset-fields.js";
import { planDataset } from "../../core/records/generate.js";
import { DatasetError } from "../../core/errors.js";
import { dirnameOf } from "../../core/paths.js";
import {
  computeDatasetDigest,
  DEFAULT_MANIFEST_NAME,
  formatManifest,
  LOCK_VERSION,
  type LockManifest,
  type ManifestArtifact,
} from "../../core/lock/manifest.js";
import { comparePaths } from "../../core/address/natural-sort.js";
import { type ArtifactKind, INDEX_FILE_NAMES, type IndexKind, MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { digestDatasetFiles } from "./dataset-files.js";
import { isFileRoot, rootAbsence, rootParts } from "./dataset-root.js";
import { DEFAULT_LEGISLATION_HOST, isValidLegislationHost } from "../../core/schema/schema.js";
import { OperationalError } from "../errors.js";
import { type FieldNames, FieldsError, FLAG } from "./fields-error.js";

export { FieldsError, FLAG } from "./fields-error.js";
import { datasetRootOf, displayPath, findRepositoryRoot, MANIFEST_FOLDER } from "../files/files.js";
import { type LoadedManifest, loadManifest } from "./manifest-io.js";
import { type ManifestOptions, optionalMembers } from "./manifest-options.js";
import { writeFileAtomic } from "../writes/write.js";
import { noteOf, withWriterLock } from "../writes/writer-lock.js";

/** How many artifacts that differ from their pins only in CR LF a refusal names one by one. */
const CRLF_NAMED = 5;

export interface LockOptions extends ManifestOptions {
  /** The dataset directory to walk. */
  dir: string;
  cwd?: string;
  /**
   * Where to write the manifest. Default (docs/spec.md, "Where a manifest lives"): a manifest already in
   * the dataset folder (`<dir>/citation-targets.lock.json`) is refreshed there; inside a git repository,
   * `.tooling/citation-targets/<slug>.lock.json` at its root (the one whose datasetRoot is this folder,
   * when no slug is given); outside one, `<dir>/citation-targets.lock.json`.
   */
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
  /** The largest artifact read, in bytes (default 64 MiB); a larger one is refused, named. */
  maxArtifactBytes?: number;
  /**
   * Keep the artifacts' bytes in the result (`contents`) when they add up to no more than this many bytes (update
   * generates from them).
   */
  keepContents?: number;
  /** Told of a writer lock taken over from a process that is gone, or of one git tracks; default: a process warning. */
  onNote?: (text: string) => void;
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
  /** What changed against the manifest that was there before (everything is `added` when there was none). */
  changes: ManifestChanges;
  /** The artifacts' total size in bytes. */
  bytes: number;
  /** The manifest that was there before, when there was one. */
  previous?: LockManifest;
  /** The bytes of each artifact, as digested (with `keepContents`, when they fit). */
  contents?: Map<string, Buffer>;
  /**
   * Set when kept artifacts differ from their pin only in line endings (CR LF: a Windows editor, or a checkout with
   * core.autocrlf=true), never pinned by a write: their paths, `only` when nothing else changed (the manifest is then
   * the one there, with their pins, and is not written), and what to do about them.
   */
  lineEndings?: { artifacts: string[]; only: boolean; advice: string };
}

/** The difference between two manifests of one dataset, artifact by artifact. */
export interface ManifestChanges {
  /** True when there was no manifest before. */
  created: boolean;
  /** Artifacts new in the manifest, in document order. */
  added: string[];
  /** Artifacts the manifest no longer lists. */
  removed: string[];
  /** Artifacts whose bytes changed (sha256). */
  changed: string[];
  /**
   * Kept artifacts that now stand elsewhere relative to each other, or whose kind, index kind or source document path
   * changed.
   */
  rearranged: string[];
  /** Dataset fields whose value changed (slug, titleId, name, versionDate, sourceTextUrl). */
  fields: string[];
  /** Set when the manifest's `units` was turned on (docs/spec.md, "Units below the heading"): absent otherwise. */
  units?: true;
  /** The manifest's aliases after the refresh, set when they changed (read again from the front matter): absent otherwise. */
  aliases?: string[];
  /** The manifest's documentAliases after the refresh (a dataset of several laws), set when they changed. */
  documentAliases?: Record<string, string[]>;
}

const METADATA = MANIFEST_DATASET_FIELDS;

/**
 * Walks a dataset directory and writes (or refreshes) its lock manifest; refuses escaping paths and non-UTF-8 files.
 * A dataset field that is wrong is a FieldsError naming it by `fieldNames`: the command line's flags, or the library's
 * options.
 */
export async function lock(
  options: LockOptions,
  preloaded?: LoadedManifest,
  fieldNames: FieldNames = FLAG,
): Promise<LockResult> {
  if (options.check) return lockUnder(options, preloaded, fieldNames);
  // One writer at a time (writer-lock.ts).
  return withWriterLock(options.cwd ?? process.cwd(), "lock", noteOf(options), () =>
    lockUnder(options, preloaded, fieldNames),
  );
}

async function lockUnder(
  options: LockOptions,
  preloaded: LoadedManifest | undefined,
  fieldNames: FieldNames,
): Promise<LockResult> {
  const cwd = options.cwd ?? process.cwd();
  // The dataset root: a folder, or one markdown file (dataset-root.ts), whose folder the artifact paths start from.
  const named = resolve(cwd, options.dir);
  const { folder: root, file } = rootParts(named);
  // Synchronous calls: update re-locks thousands of small datasets a run, and the promise API's per-call cost would
  // dominate.
  const absence = rootAbsence(named);
  if (file !== undefined) {
    if (absence !== undefined)
      throw new OperationalError(
        `dataset file ${options.dir} ${absence === "is not there" ? "does not exist" : absence} (a dataset root whose name ends in .md names one markdown file)`,
      );
    if ((options.ignore ?? []).length > 0)
      throw new OperationalError(
        `--ignore: the dataset ${options.dir} is one file: there is nothing else to leave out`,
      );
  } else if (absence !== undefined)
    throw new OperationalError(
      `dataset directory ${options.dir} ${absence === "is not there" ? "does not exist" : absence}: a dataset is a folder of markdown files, or one markdown file`,
    );
  if (options.legislationHost != null && !isValidLegislationHost(options.legislationHost))
    throw new OperationalError(
      `--legislation-host ${JSON.stringify(options.legislationHost)}: expected a lowercase host name such as ${DEFAULT_LEGISLATION_HOST}`,
    );
  // Refused at once, in plain words, before any artifact is read: a manifest every later command would reject is never
  // written (for a new dataset, the fields it lacks are said with them: absentFields).
  const given = Object.fromEntries(
    METADATA.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]),
  );
  const fieldProblems = checkDatasetFields(given);
  if (fieldProblems.length > 0)
    throw new FieldsError(
      fieldProblems,
      await absentFields(options, named, cwd, fieldProblems, fieldNames, preloaded),
      fieldNames,
    );
  const output =
    options.output !== undefined ? resolve(cwd, options.output) : await defaultManifestPath(named, cwd, options.slug);
  // `preloaded`: the manifest at `output`, already read and checked by the caller (update reads each once).
  const existing =
    preloaded?.path === output
      ? preloaded.manifest
      : statSync(output, { throwIfNoEntry: false })
        ? (await loadManifest(output, cwd, displayPath(output, cwd), { allowOutsideRepository: true })).manifest // its datasetRoot is rewritten, never followed
        : undefined;

  // --ignore globs are kept in the manifest, so that a refresh and validate leave the same files out.
  const ignore = file !== undefined ? [] : [...new Set([...(existing?.ignore ?? []), ...(options.ignore ?? [])])];
  const { digests, bytes, contents } = await digestDatasetFiles(
    root,
    ignore,
    options.maxArtifactBytes,
    options.keepContents,
    preloaded?.path === output && preloaded.root === root ? preloaded.realRoot : undefined,
    file,
    cwd,
  );
  const paths = [...digests.keys()];
  if (paths.length === 0) throw new OperationalError(`no markdown files under ${displayPath(named, cwd) || "."}`);
  const order = orderPaths(paths, existing, options.order);
  const previous = new Map(existing?.artifacts.map((a) => [a.path, a]) ?? []);
  const present = new Set(paths);
  for (const path of [
    ...Object.keys(options.kinds ?? {}),
    ...Object.keys(options.indexKinds ?? {}),
    ...Object.keys(options.sourceDocumentPaths ?? {}),
  ]) {
    if (!present.has(path))
      throw new OperationalError(`${path}: named by an option but not an artifact under ${options.dir}`);
  }

  const artifacts: ManifestArtifact[] = [];
  for (const path of order) {
    const before = previous.get(path);
    // A kept artifact keeps its kind, "file" included (which the manifest leaves unwritten); only a new one's is
    // inferred.
    const kind = options.kinds?.[path] ?? (before ? (before.kind ?? "file") : inferKind(path, present));
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
    if (value === undefined) missing.push(fieldNames[key]);
    else metadata[key] = value;
  }
  if (missing.length > 0)
    throw new OperationalError(`no manifest to refresh at ${displayPath(output, cwd)}: give ${missing.join(", ")}`);
  const datasetRootFromManifest = relative(dirname(output), named).split(sep).join("/");
  const optional = await optionalMembers(options, existing, async (keys, byDefault) =>
    // The YAML parser loads only then.
    (await import("./dataset-aliases.js")).readAliases(
      named,
      keys,
      displayPath(root, cwd) || ".",
      order,
      byDefault ? `--units (its aliases, read from the front matter's keys ${keys.join(", ")})` : "--alias",
    ),
  );
  const content: Omit<LockManifest, "datasetDigest"> = {
    lockVersion: LOCK_VERSION,
    ...metadata,
    ...(datasetRootFromManifest !== "" ? { datasetRoot: datasetRootFromManifest } : {}),
    ...(ignore.length > 0 ? { ignore } : {}),
    ...optional,
    artifacts,
  };
  const manifest: LockManifest = { ...content, datasetDigest: computeDatasetDigest(content) };
  const problems = planDataset(manifest);
  if (problems.length > 0) throw new DatasetError(problems);
  const text = formatManifest(manifest);
  let old: string | undefined;
  if (preloaded?.path === output) old = preloaded.text;
  else
    try {
      old = readRegularFileSync(output).toString("utf8");
    } catch {
      old = undefined;
    }
  // Kept artifacts whose bytes differ from their pin only in CR LF: not a change of the law, and never pinned (every
  // digest, and the JSONL generated from them, would follow the CR LF bytes), as update writes nothing for them.
  const crlf = existing === undefined ? [] : crlfOnlyArtifacts(artifacts, previous, root, contents);
  let lineEndings: LockResult["lineEndings"];
  if (crlf.length > 0) {
    const pins = new Map(crlf.map((path) => [path, previous.get(path)!.sha256]));
    const pinned = { ...content, artifacts: artifacts.map((a) => ({ ...a, sha256: pins.get(a.path) ?? a.sha256 })) };
    const kept: LockManifest = { ...pinned, datasetDigest: computeDatasetDigest(pinned) };
    const keptText = formatManifest(kept);
    const shownRoot = displayPath(root, cwd) || ".";
    const files = crlf.map((path) => displayPath(join(root, ...path.split("/")), cwd));
    // The manifest of a checkout with core.autocrlf=true has CR LF too: as the artifacts, not a change.
    if (old?.includes("\r\n")) files.push(displayPath(output, cwd));
    const advice = backToLf(files, shownRoot);
    if (keptText === old?.replaceAll("\r\n", "\n"))
      return {
        manifest: kept,
        path: output,
        text: keptText,
        changed: false,
        written: false,
        changes: compareManifests(existing, kept),
        bytes,
        previous: existing!,
        ...(contents ? { contents } : {}),
        lineEndings: { artifacts: crlf, only: true, advice },
      };
    if (!options.check)
      throw new DatasetError([
        ...crlf
          .slice(0, CRLF_NAMED)
          .map(
            (path) =>
              `${path}: differs from its pin only in line endings (CR LF): lock would pin the CR LF bytes, so nothing was written`,
          ),
        ...(crlf.length > CRLF_NAMED ? [`… and ${crlf.length - CRLF_NAMED} more artifacts that differ so`] : []),
        `hint: ${advice}; then run lock again`,
      ]);
    lineEndings = { artifacts: crlf, only: false, advice };
  }
  const changed = old !== text;
  if (changed && !options.check) await writeFileAtomic(output, text);
  return {
    manifest,
    path: output,
    text,
    changed,
    written: changed && !options.check,
    changes: compareManifests(existing, manifest),
    bytes,
    ...(existing ? { previous: existing } : {}),
    ...(contents ? { contents } : {}),
    ...(lineEndings ? { lineEndings } : {}),
  };
}

/**
 * The kept artifacts whose bytes differ from their pin only in CR LF: with CR LF read as LF, they are what the previous
 * manifest pins. Only the changed ones are read again, when their bytes were not kept.
 */
function crlfOnlyArtifacts(
  artifacts: readonly ManifestArtifact[],
  previous: ReadonlyMap<string, ManifestArtifact>,
  root: string,
  contents: ReadonlyMap<string, Buffer> | undefined,
): string[] {
  const found: string[] = [];
  for (const artifact of artifacts) {
    const pinned = previous.get(artifact.path)?.sha256;
    if (pinned === undefined || pinned === artifact.sha256) continue;
    const bytes = contents?.get(artifact.path) ?? readRegularFileSync(join(root, ...artifact.path.split("/")));
    if (pinnedOnceLf(bytes, pinned)) found.push(artifact.path);
  }
  return found;
}

/**
 * For a new dataset given wrong fields, the fields it also lacks (no manifest to take them from), so that one run names
 * them all: undefined when a manifest is there to refresh, or where it would be cannot be told (a path that cannot be
 * worked out is said by the run once the fields are right).
 */
async function absentFields(
  options: LockOptions,
  named: string,
  cwd: string,
  problems: readonly { field: string }[],
  fieldNames: FieldNames,
  preloaded?: LoadedManifest,
): Promise<string | undefined> {
  const absent = METADATA.filter((key) => options[key] === undefined);
  if (absent.length === 0) return undefined;
  // A wrong slug names no file: the manifest is looked for as without one (in the folder, or by its datasetRoot).
  const slug = problems.some((problem) => problem.field === "slug") ? undefined : options.slug;
  let output: string;
  try {
    output = options.output !== undefined ? resolve(cwd, options.output) : await defaultManifestPath(named, cwd, slug);
  } catch {
    return undefined;
  }
  if (preloaded?.path === output || statSync(output, { throwIfNoEntry: false }) !== undefined) return undefined;
  return `no manifest to refresh at ${displayPath(output, cwd)}: give ${absent.map((key) => fieldNames[key]).join(", ")} too`;
}

/** What differs between the manifest before and after a refresh. */
export function compareManifests(before: LockManifest | undefined, after: LockManifest): ManifestChanges {
  const old = new Map(before?.artifacts.map((a, i) => [a.path, { artifact: a, at: i }]) ?? []);
  const now = new Set(after.artifacts.map((a) => a.path));
  const added: string[] = [];
  const changed: string[] = [];
  const rearranged: string[] = [];
  let lastKept = -1;
  for (const artifact of after.artifacts) {
    const was = old.get(artifact.path);
    if (was === undefined) {
      added.push(artifact.path);
      continue;
    }
    if (was.artifact.sha256 !== artifact.sha256) changed.push(artifact.path);
    const moved = was.at < lastKept;
    lastKept = Math.max(lastKept, was.at);
    if (
      moved ||
      was.artifact.kind !== artifact.kind ||
      was.artifact.indexKind !== artifact.indexKind ||
      was.artifact.sourceDocumentPath !== artifact.sourceDocumentPath
    )
      rearranged.push(artifact.path);
  }
  const removed = (before?.artifacts ?? []).map((a) => a.path).filter((path) => !now.has(path));
  const fields = before ? METADATA.filter((key) => before[key] !== after[key]) : [];
  const units = before !== undefined && before.units !== true && after.units === true;
  const aliases =
    before !== undefined && (before.aliases ?? []).join("\n") !== (after.aliases ?? []).join("\n")
      ? { aliases: after.aliases ?? [] }
      : {};
  const documentAliases =
    before !== undefined && JSON.stringify(before.documentAliases ?? {}) !== JSON.stringify(after.documentAliases ?? {})
      ? { documentAliases: after.documentAliases ?? {} }
      : {};
  return {
    created: before === undefined,
    added,
    removed,
    changed,
    rearranged,
    fields,
    ...(units ? { units } : {}),
    ...aliases,
    ...documentAliases,
  };
}

/** Where `lock` writes a manifest when no output is named (LockOptions.output). */
export async function defaultManifestPath(root: string, cwd: string, slug: string | undefined): Promise<string> {
  // A file root has no folder of its own to hold a manifest: the tooling folder, or -o.
  const fileRoot = isFileRoot(root);
  const inFolder = join(root, DEFAULT_MANIFEST_NAME);
  if (!fileRoot && statSync(inFolder, { throwIfNoEntry: false })?.isFile()) return inFolder;
  const repository = await findRepositoryRoot(fileRoot ? dirname(root) : root);
  if (repository === undefined) {
    if (fileRoot)
      throw new OperationalError(
        `${displayPath(root, cwd)} is one file outside a git repository: name its manifest with -o (e.g. -o ${displayPath(root, cwd).slice(0, -".md".length)}.lock.json)`,
      );
    return inFolder;
  }
  const folder = join(repository, ...MANIFEST_FOLDER.split("/"));
  if (slug !== undefined) {
    const path = join(folder, `${slug}.lock.json`);
    const other = statSync(path, { throwIfNoEntry: false }) ? datasetRootOf(path) : undefined;
    if (other !== undefined && other !== root)
      throw new OperationalError(
        `${displayPath(path, cwd)} already belongs to another dataset (${displayPath(other, cwd) || "."}): a slug names one dataset; choose another --slug, or name the manifest with -o`,
      );
    return path;
  }
  // No slug: the manifest whose datasetRoot is this folder, when there is one.
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".lock.json"));
  } catch {
    names = [];
  }
  for (const name of names.sort()) {
    const path = join(folder, name);
    if (datasetRootOf(path) === root) return path;
  }
  throw new OperationalError(
    `no manifest of ${displayPath(root, cwd) || "."} in ${displayPath(folder, cwd) || MANIFEST_FOLDER}${fileRoot ? "" : ` (nor ${displayPath(inFolder, cwd)})`}: give --slug (and the other fields) to write one, or -o to name it`,
  );
}

function inferKind(path: string, present: Set<string>): ArtifactKind {
  const folder = dirnameOf(path);
  if (folder === "") return "file";
  const [index, readme] = INDEX_FILE_NAMES;
  if (path === `${folder}/${index}`) return "directory-index";
  if (path === `${folder}/${readme}` && !present.has(`${folder}/${index}`)) return "directory-index";
  return "file";
}

/**
 * The document order: explicit when given, else the previous manifest's order with new files put in their natural
 * place.
 */
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
  for (const path of paths) if (!known.has(path)) insertInPlace(order, path);
  return order;
}

/**
 * Puts a new path where it belongs in its folder: right after the run of its nearest preceding
 * sibling in natural order (a file, or a whole subfolder), else right before the run of its
 * nearest following sibling. A path whose folder has no kept files yet is placed the same way
 * one folder up, as a new subfolder among that folder's children. The explicit order of the rest
 * is kept as it is.
 */
export function insertInPlace(order: string[], path: string): void {
  if (order.length === 0) {
    order.push(path);
    return;
  }
  const segments = path.split("/");
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const prefix = depth === 0 ? "" : `${segments.slice(0, depth).join("/")}/`;
    // The children of this folder as they stand in the order: name → first and last position of its run.
    const runs = new Map<string, { first: number; last: number; key: string }>();
    order.forEach((other, i) => {
      if (!other.startsWith(prefix)) return;
      const rest = other.slice(prefix.length);
      const slash = rest.indexOf("/");
      const name = slash === -1 ? rest : rest.slice(0, slash);
      const run = runs.get(name);
      if (run) run.last = i;
      else runs.set(name, { first: i, last: i, key: slash === -1 ? other : `${prefix}${name}/_` });
    });
    if (runs.size === 0) continue;
    const own = depth === segments.length - 1 ? path : `${prefix}${segments[depth]}/_`;
    let before: { last: number; key: string } | undefined;
    let after: { first: number; key: string } | undefined;
    for (const run of runs.values()) {
      const side = comparePaths(run.key, own);
      if (side < 0 && (before === undefined || comparePaths(run.key, before.key) > 0)) before = run;
      if (side > 0 && (after === undefined || comparePaths(run.key, after.key) < 0)) after = run;
    }
    order.splice(before ? before.last + 1 : after!.first, 0, path);
    return;
  }
}
