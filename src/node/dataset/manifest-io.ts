import { closeSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { buildManifestSchema, type LockManifest } from "../../core/lock/manifest.js";
import { sha256Hex } from "../../core/bytes.js";
import { checkDatasetFields, shownFieldValue } from "../../core/lock/dataset-fields.js";
import { MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { describeIoError, OperationalError } from "../errors.js";
import { DEFAULT_MAX_ARTIFACT_BYTES, tooLarge } from "./dataset-files.js";
import { shellQuote } from "../../core/text.js";
import { ALLOW_OUTSIDE_FLAG, confinementRoot, displayPath, isInside, realPathOf } from "../files/files.js";
import { pinnedOnceLf } from "../files/crlf.js";
import { backToLf } from "../files/back-to-lf.js";
import { readJsonText } from "../files/json-file.js";
import { openRegularSync } from "../files/regular-file.js";
import { rootParts } from "./dataset-root.js";
import { describeAjvErrors, jsonFileValidator } from "../config/precompiled.js";

/** Changed artifacts named one by one before the rest are counted. */
const LISTED_AT_MOST = 20;

let validateManifest: ValidateFunction | undefined;

export interface LoadedManifest {
  manifest: LockManifest;
  /** Absolute path of the manifest file. */
  path: string;
  /**
   * Absolute path of the folder the artifact paths are relative to: the dataset folder, or the folder holding a file
   * root (dataset-root.ts).
   */
  root: string;
  /** The file's name when `datasetRoot` names one markdown file (the dataset's one artifact). */
  file?: string;
  /** The root's real path, when its confinement was checked (else undefined). */
  realRoot?: string;
  /** The manifest's text as read. */
  text: string;
}

/**
 * How a manifest is read: `allowOutsideRepository` lets its datasetRoot lead out of the repository that holds it
 * (SECURITY.md).
 */
export interface ManifestReadOptions {
  allowOutsideRepository?: boolean;
}

/**
 * Reads and checks a lock manifest against its schema; throws OperationalError naming what is wrong.
 * Its dataset folder must really be (symbolic links resolved) inside the repository that holds the
 * manifest, or the working directory outside a repository, unless `allowOutsideRepository`.
 */
export async function loadManifest(
  path: string,
  cwd = process.cwd(),
  shown = path,
  options: ManifestReadOptions = {},
): Promise<LoadedManifest> {
  const absolute = resolve(cwd, path);
  const { text, data } = await readJsonText(absolute, "lock manifest", shown);
  const details = (await manifestSchemaCheck())(data);
  if (details.length > 0)
    throw new OperationalError(`lock manifest ${shown} does not match its schema:\n${details.join("\n")}`);
  const manifest = data as LockManifest;
  const { folder: root, file } = rootParts(resolve(dirname(absolute), manifest.datasetRoot ?? "."));
  const base = { manifest, path: absolute, root, ...(file !== undefined ? { file } : {}), text };
  if (options.allowOutsideRepository) return base;
  const confined = await confinementRoot(dirname(absolute), cwd);
  const real = realPathOf(root);
  if (!isInside(confined, real))
    throw new OperationalError(
      `lock manifest ${shown}: its dataset folder (datasetRoot ${JSON.stringify(manifest.datasetRoot ?? ".")}) is ${real}, outside the repository ${confined}: datasets are confined to the repository (${ALLOW_OUTSIDE_FLAG} allows more)`,
    );
  return { ...base, realRoot: real };
}

/**
 * The lock manifest schema's check (its precompiled validator, loaded once): what is wrong with a parsed manifest, a
 * line each (indented), as loadManifest tells it; none when it matches.
 */
export async function manifestSchemaCheck(): Promise<(data: unknown) => string[]> {
  validateManifest ??= await jsonFileValidator("manifest", buildManifestSchema());
  const validate = validateManifest;
  return (data) => {
    if (validate(data)) return [];
    // The dataset fields are told in plain words (the patterns are not for people); the rest as the schema says.
    const record =
      data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    const fields = checkDatasetFields(
      Object.fromEntries(MANIFEST_DATASET_FIELDS.filter((key) => key in record).map((key) => [key, record[key]])),
    );
    const told = new Set(fields.map((p) => `/${p.field}`));
    // `units` is written only as true (docs/spec.md, section 8): another value is a hand edit, told with its fix.
    const units =
      "units" in record && record.units !== true
        ? [
            `  /units ${JSON.stringify(record.units)}: only true is written (the dataset has targets for the units below the heading); for a dataset without them, remove the member`,
          ]
        : [];
    if (units.length > 0) told.add("/units");
    return [
      ...fields.map((p) => `  /${p.field} ${shownFieldValue(p)}: ${p.message}`),
      ...units,
      ...describeAjvErrors((validate.errors ?? []).filter((e) => !told.has(e.instancePath))),
    ];
  };
}

/** The dataset root a loaded manifest names, absolute: its folder, or its one file. */
export function rootOf(loaded: Pick<LoadedManifest, "root" | "file">): string {
  return loaded.file === undefined ? loaded.root : join(loaded.root, loaded.file);
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
  if (real !== realRoot && !real.startsWith(realRoot + sep))
    throw new OperationalError(`${path}: resolves to ${real}, outside the dataset root ${realRoot}`);
  return real;
}

/**
 * Checks every artifact exists inside the root and matches its sha256; returns
 * one line per fault, each naming the artifact, then the fix, and the artifacts' total size. `unreadable`: an artifact
 * among them is there but could not be read (not a regular file, a link out of the root, permission denied, an I/O
 * error): the checkout is at fault, not the dataset (README, "Exit codes").
 */
export async function verifyArtifacts(
  loaded: LoadedManifest,
  shownManifest: string,
  cwd: string,
  maxArtifactBytes = DEFAULT_MAX_ARTIFACT_BYTES,
): Promise<{ problems: string[]; unreadable: boolean; bytes: number; sizes: number[] }> {
  const problems: string[] = [];
  const changed: string[] = [];
  /** Of the changed, those that match their pin once CR LF is read as LF: to be converted back, not updated. */
  const crlf: string[] = [];
  let bytes = 0;
  // One pass, synchronously: each file is small, and a sequential read of each beats the promise API's overhead.
  const sizes: number[] = [];
  const outcomes = loaded.manifest.artifacts.map(
    (
      artifact,
      position,
    ): { problem?: string; changed?: boolean; crlf?: boolean; missing?: boolean; unreadable?: boolean } => {
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
        if (sha256Hex(content) === artifact.sha256) return {};
        return { changed: true, crlf: pinnedOnceLf(content, artifact.sha256) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT")
          return {
            problem: `${artifact.path}: missing: the lock manifest lists it, but there is no such file under ${loaded.root}`,
            missing: true,
          };
        // Outside the root: already names the artifact.
        if (error instanceof OperationalError) return { problem: error.message, unreadable: true };
        const shown = displayPath(join(loaded.root, ...artifact.path.split("/")), cwd);
        return { problem: describeIoError(error, "read", shown), unreadable: true };
      }
    },
  );
  let missing = 0;
  let unreadable = false;
  outcomes.forEach((outcome, i) => {
    if (outcome.unreadable) unreadable = true;
    if (outcome.missing) {
      // Like the changed ones: the first few named, the rest counted (a manifest may list a million).
      if (++missing <= LISTED_AT_MOST) problems.push(outcome.problem!);
    } else if (outcome.problem !== undefined) problems.push(outcome.problem);
    if (outcome.crlf) crlf.push(loaded.manifest.artifacts[i]!.path);
    else if (outcome.changed) changed.push(loaded.manifest.artifacts[i]!.path);
  });
  if (missing > LISTED_AT_MOST) problems.push(`… and ${missing - LISTED_AT_MOST} more artifacts missing`);
  for (const path of crlf.slice(0, LISTED_AT_MOST))
    problems.push(
      `${path}: differs from its pin only in line endings (CR LF: a Windows editor, or core.autocrlf=true?)`,
    );
  if (crlf.length > LISTED_AT_MOST)
    problems.push(`… and ${crlf.length - LISTED_AT_MOST} more artifacts differ from their pins only in line endings`);
  for (const path of changed.slice(0, LISTED_AT_MOST))
    problems.push(`${path}: changed since the lock manifest was written (its sha256 is no longer the one pinned)`);
  if (changed.length > LISTED_AT_MOST)
    problems.push(
      `… and ${changed.length - LISTED_AT_MOST} more artifacts changed since the lock manifest was written`,
    );
  // Not lock or update for the CR LF ones: either would pin the CR LF bytes.
  const toLf =
    crlf.length > 0
      ? backToLf(
          crlf.map((path) => displayPath(join(loaded.root, ...path.split("/")), cwd)),
          displayPath(loaded.root, cwd) || ".",
        )
      : undefined;
  if (changed.length > 0 || missing > 0)
    problems.push(
      `hint: the lock manifest ${shownManifest} is out of date: ${toLf !== undefined ? `first ${toLf}; then ` : ""}run \`citation-targets update ${shellQuote(shownManifest)}\` to refresh it and regenerate`,
    );
  else if (toLf !== undefined) problems.push(`hint: lock or update would pin the CR LF bytes; instead ${toLf}`);
  return { problems, unreadable, bytes, sizes };
}
