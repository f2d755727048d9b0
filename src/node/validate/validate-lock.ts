import { isUtf8 } from "node:buffer";
import { type BigIntStats, closeSync, constants, openSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { computeDatasetDigest, formatManifest, type LockManifest } from "../../core/lock/manifest.js";
import type { LockContext } from "../../core/lock/lock-context.js";
import { sha256Hex } from "../../core/bytes.js";
import { bodyStartOfBytes } from "../../core/markdown/front-matter.js";
import { listDatasetFiles } from "../dataset/dataset-files.js";
import { pinnedOnceLf } from "../files/crlf.js";
import { describeIoError, OperationalError } from "../errors.js";
import { DatasetError } from "../../core/errors.js";
import { displayPath, openedPath } from "../files/files.js";
import { repeatedKey } from "../files/json-file.js";
import { shellQuote } from "../../core/text.js";
import { loadManifest, type ManifestReadOptions, resolveArtifact, rootOf } from "../dataset/manifest-io.js";
import { rootAbsence } from "../dataset/dataset-root.js";
import { openRegularSync, readRegularFileSync } from "../files/regular-file.js";
import { type DatasetPrints, fingerprintAt, fingerprintOf } from "../files/fingerprints.js";
import type { GeneratedProof } from "../cache/generated-proof.js";

/**
 * The bodies a dataset keeps as bytes for `lock-artifact-body` to compare with, in all (a publisher's
 * datasets are one law each, a few MiB at most); past it, the rest are digested, so a huge dataset holds no more.
 */
const KEEP_BODIES_UP_TO = 8 * 2 ** 20;

/** The causes named one by one when artifact checks could not run, before the rest are counted. */
const CAUSES_LISTED = 20;

/**
 * The lock context a file is checked against, with the facts about the artifact files in before the
 * file is read (each artifact read once and its file digested; the dataset folder walked). With
 * `keepBodies` (validate), an artifact's body is kept as bytes (`bodyBytes`, up to KEEP_BODIES_UP_TO a
 * dataset) instead of being digested: `lock-artifact-body` compares the targets' markdown with those
 * bytes and digests both only when they differ, so one SHA-256 pass over the artifacts is left of three,
 * with the same problems (docs/spec.md, section 14). Without (the library), every body is digested.
 * `ready` carries a failure to gather; the caller awaits it before ending the check.
 */
export async function openLockContext(
  manifestPath: string,
  shownPath: string,
  cwd = process.cwd(),
  options: ManifestReadOptions & {
    keepBodies?: boolean;
    prints?: DatasetPrints;
    artifacts?: boolean;
    proof?: GeneratedProof;
    parseHereBelow?: number;
    windowFrom?: number;
  } = {},
): Promise<LockContext> {
  const loaded = await loadManifest(manifestPath, cwd, shownPath, options);
  // A key named twice reads one way here (JSON.parse keeps the last) and may read another way to whoever else reads the
  // manifest: the file's error, as a manifest that is not JSON is (docs/spec.md, rule duplicate-key). The text as lock
  // writes it (nearly every manifest) names each key once, and is not scanned.
  const repeated = loaded.text === formatManifest(loaded.manifest) ? undefined : repeatedKey(loaded.text);
  if (repeated !== undefined)
    throw new OperationalError(
      `lock manifest ${shownPath} names a key twice: ${repeated}: JSON readers disagree on which one counts (this tool reads the last); delete the one that is wrong, or run \`citation-targets update ${shellQuote(shownPath)}\`, which writes the manifest again with the last`,
    );
  const context: LockContext = {
    manifest: loaded.manifest,
    manifestPath: shownPath,
    computedDigest: computeDatasetDigest(loaded.manifest),
    bodyDigests: new Map<string, string>(),
    ...(options.keepBodies ? { bodyBytes: new Map<string, Uint8Array>() } : {}),
    changedArtifacts: new Map<string, string>(),
    missingArtifacts: [],
    unlistedFiles: [],
  };
  if (options.artifacts === false) {
    // Asked for (a sparse checkout): said on standard error, never a silent pass (docs/spec.md, rule lock-dataset-files).
    context.artifactsSkipped = "--no-artifacts";
    return context;
  }
  const ready = gatherFacts(
    context,
    loaded.manifest,
    loaded.root,
    displayPath(rootOf(loaded), cwd),
    options.keepBodies ? KEEP_BODIES_UP_TO : 0,
    options.prints,
    loaded.file,
    options.proof?.bind(undefined, loaded.path, loaded.text),
    options.parseHereBelow,
    options.windowFrom,
  );
  context.ready = ready;
  await ready.catch(() => undefined); // a failure surfaces where the caller awaits `ready`
  return context;
}

/** The context the manifest rules check a file against, with every fact about the artifact files in. */
export async function loadLockContext(
  manifestPath: string,
  shownPath: string,
  cwd = process.cwd(),
  options: ManifestReadOptions = {},
): Promise<LockContext> {
  const context = await openLockContext(manifestPath, shownPath, cwd, options);
  await context.ready;
  return context;
}

/**
 * Reads every artifact of the manifest once: missing or not, its sha256 against the manifest's, and
 * its body kept (or digested: the bytes after the front matter, no markdown parse); then walks the
 * dataset folder for markdown files the manifest does not list. An artifact that cannot be read
 * (other than missing) or a folder that cannot be walked makes `artifactsFailed` say so, naming each.
 * With `prints` (validate's cache), the fingerprint of each file and folder read is taken before it is read. With
 * `parseHereBelow` (validate's main thread, whose heap has no cap), a dataset of that many bytes of markdown or more is
 * not parsed here: `elsewhereContexts` says so, and the file is checked in a capped worker (file-validator.ts). With
 * `windowFrom`, a dataset of that many bytes of markdown or more has its records made as the file is read (a window,
 * generated-window.ts), not all first: the caller reads the file with the window (validateFile).
 */
async function gatherFacts(
  context: LockContext,
  manifest: LockManifest,
  root: string,
  shownRoot: string,
  keepUpTo: number,
  prints?: DatasetPrints,
  file?: string,
  proof?: () => string | undefined,
  parseHereBelow = Number.POSITIVE_INFINITY,
  windowFrom = Number.POSITIVE_INFINITY,
): Promise<void> {
  if (prints) prints.root = root;
  const realRoot = realFolder(root, prints);
  if (
    realRoot === null ||
    (realRoot === undefined && !statSync(root, { throwIfNoEntry: false })?.isDirectory()) ||
    // A file root (dataset-root.ts): the file is the dataset, there or not.
    (file !== undefined && !statSync(join(root, file), { throwIfNoEntry: false })?.isFile())
  ) {
    context.datasetFolderMissing = shownRoot; // an error of lock-dataset-files, never a pass
    const absence = rootAbsence(file !== undefined ? join(root, file) : root);
    if (absence !== undefined && absence !== "is not there") context.datasetRootAbsence = absence;
    return;
  }
  if (realRoot !== undefined) realRoots.set(root, realRoot);
  else prints?.openedRoot(root, undefined);
  // Too much markdown for this thread, and update's cache proving nothing that would spare its parse: the file is
  // checked in a capped worker, which reads the artifacts itself; this thread reads none of them.
  if (
    parseHereBelow !== Number.POSITIVE_INFINITY &&
    context.computedDigest === manifest.datasetDigest &&
    proof?.() === undefined
  ) {
    const bytes = sizesUpTo(root, manifest, parseHereBelow);
    if (bytes >= parseHereBelow) {
      // All of it, which sizes the worker's heap (validateHeapMb), not only what decided that it goes there.
      elsewhereContexts.set(context, { bytes: sizesUpTo(root, manifest, Number.POSITIVE_INFINITY), root: shownRoot });
      return;
    }
  }
  const causes: string[] = [];
  let kept = 0;
  /**
   * The artifacts that match their pins, whole: what generate would read, for lock-generated. Those of a dataset whose
   * records are made as its file is read (`windowFrom`) are not kept once their bytes pass it (undefined): each is read
   * again as its records are made, and must match its pin again (rereadArtifact).
   */
  const matching = new Map<string, Uint8Array | undefined>();
  /** Their bytes in all: what generate would parse. */
  let matchingBytes = 0;
  /** Those of them that are not UTF-8 (generate refuses the dataset). */
  const notUtf8 = new Set<string>();
  // Synchronous: the files are small and many, and the promise API's per-call cost would dominate.
  for (const artifact of manifest.artifacts) {
    let bytes: Buffer;
    try {
      bytes = readInside(root, artifact.path, prints) ?? readOutsideShortcut(root, artifact.path, prints);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") context.missingArtifacts.push(artifact.path);
      else
        causes.push(
          error instanceof OperationalError
            ? error.message
            : // By its path from the working directory, as generate and update name it.
              describeIoError(error, "read", file !== undefined ? shownRoot : `${shownRoot}/${artifact.path}`),
        );
      continue;
    }
    const digest = sha256Hex(bytes);
    if (digest !== artifact.sha256) {
      context.changedArtifacts.set(artifact.path, digest);
      if (pinnedOnceLf(bytes, artifact.sha256)) {
        context.lineEndingsOnly ??= new Set();
        context.lineEndingsOnly.add(artifact.path);
      }
    } else {
      matchingBytes += bytes.length;
      if (matchingBytes < windowFrom) matching.set(artifact.path, bytes);
      else {
        // Past windowFrom: none is kept (a few bytes in memory while the file is read, not the dataset's markdown).
        if (matchingBytes - bytes.length < windowFrom)
          for (const path of matching.keys()) matching.set(path, undefined);
        matching.set(artifact.path, undefined);
      }
    }
    const utf8 = digest === artifact.sha256 && isUtf8(bytes);
    if (digest === artifact.sha256 && !utf8) notUtf8.add(artifact.path);
    if (utf8) {
      // Not UTF-8: generate refuses it; the body check is skipped.
      const body = bytes.subarray(bodyStartOfBytes(bytes));
      if (kept + body.length <= keepUpTo) {
        context.bodyBytes!.set(artifact.path, body);
        kept += body.length;
      } else context.bodyDigests.set(artifact.path, sha256Hex(body));
    }
  }
  const listed = new Set(manifest.artifacts.map((a) => a.path));
  try {
    const onFolder = prints ? prints.folder.bind(prints) : undefined;
    const repositories: string[] = [];
    // A file root's folder holds other files that are not this dataset's: only its one file is (not walked).
    const files = file !== undefined ? [file] : await listDatasetFiles(root, manifest.ignore, onFolder, repositories);
    for (const path of files) if (!listed.has(path)) context.unlistedFiles.push(path);
    if (repositories.length > 0) context.repositories = repositories;
  } catch (error) {
    causes.push(
      error instanceof OperationalError ? error.message : describeIoError(error, "walk the dataset folder", shownRoot),
    );
  }
  if (causes.length > 0) {
    const named = causes.slice(0, CAUSES_LISTED);
    if (causes.length > CAUSES_LISTED) named.push(`… and ${causes.length - CAUSES_LISTED} more`);
    context.artifactsFailed = `the artifact checks of ${context.manifestPath} (dataset folder ${shownRoot}) could not run: ${named.join("; ")}`;
    return;
  }
  context.datasetRoot = shownRoot;
  if (file !== undefined) context.datasetRootIsFile = true;
  // Every artifact there and as pinned: the records are compared with what generate writes (lock-generated). A stale
  // dataset (an artifact missing or changed) is said once by lock-dataset-files or lock-artifact-body instead.
  if (context.missingArtifacts.length === 0 && context.changedArtifacts.size === 0) {
    // Loaded here: generation brings the markdown parser, which a run without a lock manifest never needs. Too much
    // markdown for this thread (when generate would parse it: the manifest's digest right, every artifact UTF-8): the
    // records are made where the file is checked again, in a capped worker.
    const generate =
      matchingBytes >= parseHereBelow && notUtf8.size === 0 && context.computedDigest === manifest.datasetDigest
        ? async () => void elsewhereContexts.set(context, { bytes: matchingBytes, root: shownRoot })
        : async () =>
            (await import("../records/generated-records.js")).fillGenerated(
              context,
              manifest,
              matching,
              notUtf8,
              matchingBytes >= windowFrom
                ? (artifact: LockManifest["artifacts"][number]) => rereadArtifact(context, root, artifact)
                : undefined,
            );
    // update's cache may know what generate writes from these very bytes (generated-proof.ts): then the file checked is
    // compared with that digest, and the dataset generated only when it differs (file-validator.ts).
    const proven = notUtf8.size === 0 && context.computedDigest === manifest.datasetDigest ? proof?.() : undefined;
    if (proven !== undefined) provedContexts.set(context, { digest: proven, derive: generate });
    else await generate();
  }
}

/**
 * An artifact read again to make its records (a dataset whose records are made as its file is read, gatherFacts): the
 * bytes when they still match the pin they matched when first read. Changed since (an edit while validate ran): the
 * artifact checks could not run on one set of bytes, which is the file's error (`artifactsFailed`), and generate's
 * records are not made (DatasetError: lock-generated says why).
 */
function rereadArtifact(context: LockContext, root: string, artifact: LockManifest["artifacts"][number]): Uint8Array {
  const { path } = artifact;
  let bytes: Buffer;
  try {
    bytes = readInside(root, path) ?? readOutsideShortcut(root, path, undefined);
  } catch (error) {
    const cause = error instanceof OperationalError ? error.message : describeIoError(error, "read", path);
    context.artifactsFailed ??= `the artifact checks of ${context.manifestPath} could not run: ${cause}`;
    throw new DatasetError([`${path}: could not be read again to make its records`]);
  }
  if (sha256Hex(bytes) !== artifact.sha256) {
    const changed = `${path} changed while validate read it (its sha256 is no longer the one pinned): run validate again`;
    context.artifactsFailed ??= `the artifact checks of ${context.manifestPath} could not run: ${changed}`;
    throw new DatasetError([`${path}: changed while validate read it`]);
  }
  return bytes;
}

/**
 * The lock contexts whose records are not generated yet because update's cache proves what generate writes
 * (generated-proof.ts): the SHA-256 of the JSONL it writes, and how to generate them when the file checked has other
 * bytes (file-validator.ts checks the digest as it reads).
 */
export const provedContexts = new WeakMap<LockContext, { digest: string; derive: () => Promise<void> }>();

/** The artifacts' sizes added up (those there), until they reach `most`. */
function sizesUpTo(root: string, manifest: LockManifest, most: number): number {
  let bytes = 0;
  for (const artifact of manifest.artifacts) {
    bytes += statSync(join(root, ...artifact.path.split("/")), { throwIfNoEntry: false })?.size ?? 0;
    if (bytes >= most) break;
  }
  return bytes;
}

/**
 * The lock contexts opened in a thread that may not parse their datasets (`parseHereBelow`), with the bytes of
 * markdown generate would parse and the dataset folder as shown: their files are checked in a capped worker instead
 * (file-validator.ts).
 */
export const elsewhereContexts = new WeakMap<LockContext, { bytes: number; root: string }>();

/** The real path of each dataset root met in this thread (a realpath costs a system call per folder of the path). */
const realRoots = new Map<string, string>();

/**
 * A dataset folder's real path, from the folder opened (links followed) and where /proc/self/fd says it
 * is: three system calls where a stat and a realpath cost one per folder of the path. `null` when it is
 * not there (as the stat would say); undefined when that cannot be told this way (another error, not a
 * folder, no /proc): the caller then asks with a stat.
 */
function realFolder(root: string, prints?: DatasetPrints): string | null | undefined {
  let fd: number;
  try {
    fd = openSync(root, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
  try {
    const real = openedPath(fd);
    prints?.openedRoot(root, fd); // the folder's fingerprint, taken on the folder opened, before it is listed
    return real;
  } finally {
    closeSync(fd);
  }
}

/** An artifact read through its resolved path (where readInside cannot say), fingerprinted first when asked. */
function readOutsideShortcut(root: string, path: string, prints: DatasetPrints | undefined): Buffer {
  const absolute = resolveArtifact(root, path);
  prints?.artifact(path, fingerprintAt(join(root, ...path.split("/"))));
  return readRegularFileSync(absolute, path);
}

/**
 * An artifact's bytes when it is a regular file inside the dataset root: opened (links followed), then
 * checked where the system says the descriptor is (Linux: /proc/self/fd), one system call where the
 * path's realpath costs one per folder. Undefined when that cannot be said or anything is amiss (not
 * there, not regular, outside the root): the caller then resolves the path (resolveArtifact), which
 * says what is wrong.
 */
function readInside(root: string, path: string, prints?: DatasetPrints): Buffer | undefined {
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) {
    realRoot = realpathSync.native(root);
    realRoots.set(root, realRoot);
  }
  let opened: { fd: number; info: { size: number | bigint } };
  try {
    opened = prints
      ? openRegularSync(join(root, ...path.split("/")), false, true)
      : openRegularSync(join(root, ...path.split("/")));
  } catch {
    return undefined;
  }
  try {
    const real = openedPath(opened.fd);
    if (real === undefined || !real.startsWith(realRoot + sep)) return undefined;
    if (prints) prints.artifact(path, fingerprintOf(opened.info as BigIntStats)); // taken on the file opened, before it is read
    return readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
}
