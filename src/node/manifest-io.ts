import { isUtf8 } from "node:buffer";
import { closeSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { buildManifestSchema, computeDatasetDigest, type LockManifest } from "../core/manifest.js";
import type { LockContext } from "../core/lock-context.js";
import { sha256Hex } from "../core/digest.js";
import { checkDatasetFields } from "../core/dataset-fields.js";
import { MANIFEST_DATASET_FIELDS } from "../core/model.js";
import { describeIoError, OperationalError } from "./errors.js";
import { DEFAULT_MAX_ARTIFACT_BYTES, listDatasetFiles, tooLarge } from "./dataset-files.js";
import { bodyStartOfBytes } from "../core/front-matter.js";
import { shellQuote } from "../core/text.js";
import { ALLOW_OUTSIDE_FLAG, confinementRoot, displayPath, isInside, realPathOf } from "./files.js";
import { readJsonFile } from "./json-file.js";
import { openRegularSync, readRegularFileSync } from "./regular-file.js";
import { describeAjvErrors, jsonFileValidator } from "./precompiled.js";

/** Changed artifacts named one by one before the rest are counted. */
const LISTED_AT_MOST = 20;

let validateManifest: ValidateFunction | undefined;

export interface LoadedManifest {
  manifest: LockManifest;
  /** Absolute path of the manifest file. */
  path: string;
  /** Absolute path of the dataset root the artifact paths are relative to. */
  root: string;
}

/** How a manifest is read: `allowOutsideRepository` lets its datasetRoot lead out of the repository that holds it (SECURITY.md). */
export interface ManifestReadOptions {
  allowOutsideRepository?: boolean;
}

/**
 * Reads and checks a lock manifest against its schema; throws OperationalError naming what is wrong.
 * Its dataset folder must really be (symbolic links resolved) inside the repository that holds the
 * manifest, or the working directory outside a repository, unless `allowOutsideRepository`.
 */
export async function loadManifest(path: string, cwd = process.cwd(), shown = path, options: ManifestReadOptions = {}): Promise<LoadedManifest> {
  const absolute = resolve(cwd, path);
  const data = await readJsonFile(absolute, "lock manifest", shown);
  if (!validateManifest) {
    const schema = buildManifestSchema();
    validateManifest = await jsonFileValidator("manifest", schema);
  }
  if (!validateManifest(data)) {
    // The dataset fields are told in plain words (the patterns are not for people); the rest as the schema says.
    const record = data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    const fields = checkDatasetFields(Object.fromEntries(MANIFEST_DATASET_FIELDS.filter((key) => key in record).map((key) => [key, record[key]])));
    const told = new Set(fields.map((p) => `/${p.field}`));
    const details = [...fields.map((p) => `  /${p.field} ${JSON.stringify(p.value)}: ${p.message}`), ...describeAjvErrors((validateManifest.errors ?? []).filter((e) => !told.has(e.instancePath)))];
    throw new OperationalError(`lock manifest ${shown} does not match its schema:\n${details.join("\n")}`);
  }
  const manifest = data as LockManifest;
  const root = resolve(dirname(absolute), manifest.datasetRoot ?? ".");
  if (!options.allowOutsideRepository) {
    const confined = await confinementRoot(dirname(absolute), cwd);
    const real = realPathOf(root);
    if (!isInside(confined, real))
      throw new OperationalError(
        `lock manifest ${shown}: its dataset folder (datasetRoot ${JSON.stringify(manifest.datasetRoot ?? ".")}) is ${real}, outside the repository ${confined}: datasets are confined to the repository (${ALLOW_OUTSIDE_FLAG} allows more)`,
      );
  }
  return { manifest, path: absolute, root };
}

/** The real path of each dataset root, resolved once per run (a realpath costs several system calls). */
const realRoots = new Map<string, string>();

/**
 * The absolute path of an artifact, refusing one that leaves the root through a symbolic link.
 * Synchronous: it serves the passes over every artifact of a dataset, where thousands of small
 * files make the promise API's per-call cost (a FileHandle, several round trips) dominate.
 */
export function resolveArtifact(root: string, path: string): string {
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) {
    realRoot = realpathSync.native(root);
    realRoots.set(root, realRoot);
  }
  const real = realpathSync.native(join(root, ...path.split("/")));
  if (real !== realRoot && !real.startsWith(realRoot + sep)) throw new OperationalError(`${path}: resolves to ${real}, outside the dataset root ${realRoot}`);
  return real;
}

/**
 * Checks every artifact exists inside the root and matches its sha256; returns
 * one line per fault, each naming the artifact, then the fix, and the artifacts' total size.
 */
export async function verifyArtifacts(loaded: LoadedManifest, shownManifest: string, maxArtifactBytes = DEFAULT_MAX_ARTIFACT_BYTES): Promise<{ problems: string[]; bytes: number; sizes: number[] }> {
  const problems: string[] = [];
  const changed: string[] = [];
  let bytes = 0;
  // One pass, synchronously: each file is small, and a sequential read of each beats the promise API's overhead.
  const sizes: number[] = [];
  const outcomes = loaded.manifest.artifacts.map((artifact, position): { problem?: string; changed?: boolean; missing?: boolean } => {
    try {
      const file = resolveArtifact(loaded.root, artifact.path);
      const { fd, info } = openRegularSync(file);
      let content: Buffer;
      try {
        if (info.size > maxArtifactBytes) return { problem: tooLarge(artifact.path, info.size, maxArtifactBytes) };
        content = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
      bytes += content.length;
      sizes[position] = content.length;
      return sha256Hex(content) !== artifact.sha256 ? { changed: true } : {};
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { problem: `${artifact.path}: missing: the lock manifest lists it, but there is no such file under ${loaded.root}`, missing: true };
      if (error instanceof OperationalError) return { problem: error.message }; // already names the artifact
      return { problem: `${artifact.path}: ${describeIoError(error, "read", artifact.path)}` };
    }
  });
  let missing = 0;
  outcomes.forEach((outcome, i) => {
    if (outcome.missing) {
      // Like the changed ones: the first few named, the rest counted (a manifest may list a million).
      if (++missing <= LISTED_AT_MOST) problems.push(outcome.problem!);
    } else if (outcome.problem !== undefined) problems.push(outcome.problem);
    if (outcome.changed) changed.push(loaded.manifest.artifacts[i]!.path);
  });
  if (missing > LISTED_AT_MOST) problems.push(`… and ${missing - LISTED_AT_MOST} more artifacts missing`);
  for (const path of changed.slice(0, LISTED_AT_MOST)) problems.push(`${path}: changed since the lock manifest was written (its sha256 is no longer the one pinned)`);
  if (changed.length > LISTED_AT_MOST) problems.push(`… and ${changed.length - LISTED_AT_MOST} more artifacts changed since the lock manifest was written`);
  if (changed.length > 0 || missing > 0)
    problems.push(`hint: the lock manifest ${shownManifest} is out of date: run \`citation-targets update ${shellQuote(shownManifest)}\` to refresh it and regenerate`);
  return { problems, bytes, sizes };
}

export { shellQuote } from "../core/text.js";

/** The context the manifest rules check a file against, with every fact about the artifact files in (see openLockContext). */
export async function loadLockContext(manifestPath: string, shownPath: string, cwd = process.cwd(), options: ManifestReadOptions = {}): Promise<LockContext> {
  const context = await openLockContext(manifestPath, shownPath, cwd, options);
  await context.ready;
  return context;
}

/**
 * The context the manifest rules check a file against, as soon as the manifest is read: the facts
 * about the artifact files (each present artifact read once, its file and body digested; the dataset
 * folder walked for markdown files the manifest does not list) are gathered in the same thread,
 * which is the thread that checks the file (a file and its dataset are one task of the pool);
 * `ready` settles when they are in, and the caller awaits it before ending the check.
 */
export async function openLockContext(manifestPath: string, shownPath: string, cwd = process.cwd(), options: ManifestReadOptions = {}): Promise<LockContext> {
  const loaded = await loadManifest(manifestPath, cwd, shownPath, options);
  const context: LockContext = {
    manifest: loaded.manifest,
    manifestPath: shownPath,
    computedDigest: computeDatasetDigest(loaded.manifest),
    bodyDigests: new Map<string, string>(),
    changedArtifacts: new Map<string, string>(),
    missingArtifacts: [],
    unlistedFiles: [],
  };
  context.ready = gatherArtifactFacts(context, loaded, cwd);
  context.ready.catch(() => undefined); // a failure surfaces where the caller awaits it
  return context;
}

/** What is known of a manifest's artifact files. */
export interface ArtifactFacts {
  skipped?: string;
  /** Why some of the artifact checks could not run (an artifact or a folder that cannot be read): an error on the file checked, never a pass. */
  failed?: string;
  datasetRoot?: string;
  missing: string[];
  changed: [string, string][];
  bodies: [string, string][];
  unlisted: string[];
}

/** The causes named one by one when artifact checks could not run, before the rest are counted. */
const CAUSES_LISTED = 20;

/**
 * Reads every artifact of the manifest once: missing or not, its sha256 against the manifest's,
 * and the digest of its body (the bytes after the front matter: no markdown parse); then walks
 * the dataset folder for markdown files the manifest does not list. Memory: a few artifacts.
 * An artifact that cannot be read (other than missing) or a folder that cannot be walked makes
 * `failed` say so, naming each: the check could not run, so it must not pass.
 */
export async function collectArtifactFacts(manifest: LockManifest, root: string, shownRoot: string, manifestPath: string): Promise<ArtifactFacts> {
  const facts: ArtifactFacts = { missing: [], changed: [], bodies: [], unlisted: [] };
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return { ...facts, skipped: `the dataset folder ${shownRoot} (datasetRoot of ${manifestPath}) is not there` };
  const causes: string[] = [];
  // One synchronous pass (the files are small and many; the promise API's per-call cost would dominate): each file is read once.
  const outcomes = manifest.artifacts.map((artifact) => {
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(resolveArtifact(root, artifact.path), artifact.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { missing: true } as const;
      causes.push(error instanceof OperationalError ? error.message : `${artifact.path}: ${describeIoError(error, "read", artifact.path)}`);
      return undefined;
    }
    const digest = sha256Hex(bytes);
    if (digest !== artifact.sha256) return { changed: digest };
    if (!isUtf8(bytes)) return undefined; // generate refuses it; the body check is skipped
    return { body: sha256Hex(bytes.subarray(bodyStartOfBytes(bytes))) };
  });
  manifest.artifacts.forEach((artifact, i) => {
    const outcome = outcomes[i];
    if (outcome === undefined) return;
    if ("missing" in outcome) facts.missing.push(artifact.path);
    else if (outcome.changed !== undefined) facts.changed.push([artifact.path, outcome.changed]);
    else if (outcome.body !== undefined) facts.bodies.push([artifact.path, outcome.body]);
  });
  const listed = new Set(manifest.artifacts.map((a) => a.path));
  try {
    facts.unlisted = (await listDatasetFiles(root, manifest.ignore)).filter((path) => !listed.has(path));
  } catch (error) {
    causes.push(error instanceof OperationalError ? error.message : describeIoError(error, "walk the dataset folder", shownRoot));
  }
  if (causes.length > 0) {
    const named = causes.slice(0, CAUSES_LISTED);
    if (causes.length > CAUSES_LISTED) named.push(`… and ${causes.length - CAUSES_LISTED} more`);
    return { ...facts, failed: `the artifact checks of ${manifestPath} (dataset folder ${shownRoot}) could not run: ${named.join("; ")}` };
  }
  return { ...facts, datasetRoot: shownRoot };
}

async function gatherArtifactFacts(context: LockContext, loaded: LoadedManifest, cwd: string): Promise<void> {
  const facts = await collectArtifactFacts(loaded.manifest, loaded.root, displayPath(loaded.root, cwd), context.manifestPath);
  if (facts.skipped !== undefined) context.artifactsSkipped = facts.skipped;
  if (facts.failed !== undefined) context.artifactsFailed = facts.failed;
  if (facts.datasetRoot !== undefined) context.datasetRoot = facts.datasetRoot;
  // Loops, not push(...list): a list of 100,000 paths spread into arguments overflows the stack.
  for (const path of facts.missing) context.missingArtifacts.push(path);
  for (const [path, digest] of facts.changed) context.changedArtifacts.set(path, digest);
  for (const [path, digest] of facts.bodies) context.bodyDigests.set(path, digest);
  for (const path of facts.unlisted) context.unlistedFiles.push(path);
}
