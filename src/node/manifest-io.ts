import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { buildManifestSchema, computeDatasetDigest, type LockManifest } from "../core/manifest.js";
import type { LockContext } from "../core/lock-context.js";
import { sha256Hex } from "../core/digest.js";
import { describeIoError, OperationalError } from "./errors.js";
import { DEFAULT_MAX_ARTIFACT_BYTES, listDatasetFiles, tooLarge } from "./dataset-files.js";
import { mapWithLimit } from "./concurrency.js";
import { bodyStartOfBytes } from "../core/front-matter.js";
import { isUtf8 } from "node:buffer";
import { displayPath } from "./files.js";
import { readJsonFile } from "./json-file.js";
import { describeAjvErrors, jsonFileValidator } from "./precompiled.js";

/** Changed artifacts named one by one before the rest are counted. */
const LISTED_AT_MOST = 20;

/** Artifacts read at once by the lock checks of validate. */
const ARTIFACTS_AT_ONCE = 8;

let validateManifest: ValidateFunction | undefined;

export interface LoadedManifest {
  manifest: LockManifest;
  /** Absolute path of the manifest file. */
  path: string;
  /** Absolute path of the dataset root the artifact paths are relative to. */
  root: string;
}

/** Reads and checks a lock manifest against its schema; throws OperationalError naming what is wrong. */
export async function loadManifest(path: string, cwd = process.cwd(), shown = path): Promise<LoadedManifest> {
  const absolute = resolve(cwd, path);
  const data = await readJsonFile(absolute, "lock manifest", shown);
  if (!validateManifest) {
    const schema = buildManifestSchema();
    validateManifest = await jsonFileValidator("manifest", schema);
  }
  if (!validateManifest(data)) {
    const details = describeAjvErrors(validateManifest.errors ?? []);
    throw new OperationalError(`lock manifest ${shown} does not match its schema:\n${details.join("\n")}`);
  }
  const manifest = data as LockManifest;
  return { manifest, path: absolute, root: resolve(dirname(absolute), manifest.datasetRoot ?? ".") };
}

/** The real path of each dataset root, resolved once per run (a realpath costs several system calls). */
const realRoots = new Map<string, Promise<string>>();

/** The absolute path of an artifact, refusing one that leaves the root through a symbolic link. */
export async function resolveArtifact(root: string, path: string): Promise<string> {
  const absolute = join(root, ...path.split("/"));
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) {
    realRoot = realpath(root);
    realRoot.catch(() => realRoots.delete(root));
    realRoots.set(root, realRoot);
  }
  const [real, resolvedRoot] = await Promise.all([realpath(absolute), realRoot]);
  if (real !== resolvedRoot && !real.startsWith(resolvedRoot + sep)) throw new OperationalError(`${path}: resolves to ${real}, outside the dataset root ${resolvedRoot}`);
  return real;
}

/** sha256 and size of a file's bytes, streamed. */
export async function hashFile(path: string): Promise<{ digest: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { digest: hash.digest("hex"), size };
}

/**
 * Checks every artifact exists inside the root and matches its sha256 (8 files at a time); returns
 * one line per fault, each naming the artifact, then the fix, and the artifacts' total size.
 */
export async function verifyArtifacts(loaded: LoadedManifest, shownManifest: string, maxArtifactBytes = DEFAULT_MAX_ARTIFACT_BYTES): Promise<{ problems: string[]; bytes: number }> {
  const problems: string[] = [];
  const changed: string[] = [];
  let bytes = 0;
  const outcomes = await mapWithLimit(loaded.manifest.artifacts, ARTIFACTS_AT_ONCE, async (artifact) => {
    try {
      const file = await resolveArtifact(loaded.root, artifact.path);
      const length = (await stat(file)).size;
      if (length > maxArtifactBytes) return { problem: tooLarge(artifact.path, length, maxArtifactBytes) };
      const { digest, size } = await hashFile(file);
      bytes += size;
      return digest !== artifact.sha256 ? { changed: true } : {};
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { problem: `${artifact.path}: missing: the lock manifest lists it, but there is no such file under ${loaded.root}` };
      if (error instanceof OperationalError) return { problem: error.message }; // already names the artifact
      return { problem: `${artifact.path}: ${describeIoError(error, "read", artifact.path)}` };
    }
  });
  outcomes.forEach((outcome, i) => {
    if (outcome.problem !== undefined) problems.push(outcome.problem);
    if (outcome.changed) changed.push(loaded.manifest.artifacts[i]!.path);
  });
  for (const path of changed.slice(0, LISTED_AT_MOST)) problems.push(`${path}: changed since the lock manifest was written (its sha256 is no longer the one pinned)`);
  if (changed.length > LISTED_AT_MOST) problems.push(`… and ${changed.length - LISTED_AT_MOST} more artifacts changed since the lock manifest was written`);
  if (changed.length > 0 || problems.some((p) => p.includes(": missing: ")))
    problems.push(`the lock manifest ${shownManifest} is out of date: run \`citation-targets update ${shellQuote(shownManifest)}\` to refresh it and regenerate`);
  return { problems, bytes };
}

/** Quotes an argument for a POSIX shell when it needs it, so that printed commands can be pasted. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * The context the manifest rules check a file against. Each present artifact whose bytes match the
 * manifest is read once and reduced to the digest of its body, so memory stays at one artifact.
 * The dataset folder is walked for markdown files the manifest does not list.
 */
export async function loadLockContext(manifestPath: string, shownPath: string, cwd = process.cwd()): Promise<LockContext> {
  const loaded = await loadManifest(manifestPath, cwd, shownPath);
  const bodyDigests = new Map<string, string>();
  const changedArtifacts = new Map<string, string>();
  const missingArtifacts: string[] = [];
  const context = {
    manifest: loaded.manifest,
    manifestPath: shownPath,
    computedDigest: computeDatasetDigest(loaded.manifest),
    bodyDigests,
    changedArtifacts,
    missingArtifacts,
    unlistedFiles: [] as string[],
  };
  const shownRoot = displayPath(loaded.root, cwd);
  if (!(await stat(loaded.root).catch(() => undefined))?.isDirectory()) return { ...context, artifactsSkipped: `the dataset folder ${shownRoot} (datasetRoot of ${shownPath}) is not there` };
  // No markdown parse: the body is the bytes after the front matter, whose end a scan of its fences finds.
  // A few files are read at once, so reads overlap hashing; memory stays at a few artifacts.
  const outcomes = await mapWithLimit(loaded.manifest.artifacts, ARTIFACTS_AT_ONCE, async (artifact) => {
    let bytes: Buffer;
    try {
      bytes = await readFile(await resolveArtifact(loaded.root, artifact.path));
    } catch (error) {
      // unreadable or outside the root: the body check is skipped for it, the coverage checks still run
      return (error as NodeJS.ErrnoException).code === "ENOENT" ? ({ missing: true } as const) : undefined;
    }
    const digest = sha256Hex(bytes);
    if (digest !== artifact.sha256) return { changed: digest };
    if (!isUtf8(bytes)) return undefined; // generate refuses it; the body check is skipped
    return { body: sha256Hex(bytes.subarray(bodyStartOfBytes(bytes))) };
  });
  loaded.manifest.artifacts.forEach((artifact, i) => {
    const outcome = outcomes[i];
    if (outcome === undefined) return;
    if ("missing" in outcome) missingArtifacts.push(artifact.path);
    else if (outcome.changed !== undefined) changedArtifacts.set(artifact.path, outcome.changed);
    else if (outcome.body !== undefined) bodyDigests.set(artifact.path, outcome.body);
  });
  const listed = new Set(loaded.manifest.artifacts.map((a) => a.path));
  const unlistedFiles = (await listDatasetFiles(loaded.root, loaded.manifest.ignore)).filter((path) => !listed.has(path));
  return { ...context, unlistedFiles, datasetRoot: shownRoot };
}
