import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { buildManifestSchema, computeDatasetDigest, type LockManifest } from "../core/manifest.js";
import type { LockContext } from "../core/lock-context.js";
import { sha256Hex } from "../core/digest.js";
import { OperationalError } from "./errors.js";
import { readJsonFile } from "./json-file.js";
import { loadPrecompiled } from "./precompiled.js";
import { MANIFEST_AJV_OPTIONS } from "../core/ajv-options.js";

let validateManifest: ValidateFunction | undefined;

export interface LoadedManifest {
  manifest: LockManifest;
  /** Absolute path of the manifest file. */
  path: string;
  /** Absolute path of the dataset root the artifact paths are relative to. */
  root: string;
}

/** Reads and checks a lock manifest against its schema; throws OperationalError naming what is wrong. */
export async function loadManifest(path: string, cwd = process.cwd()): Promise<LoadedManifest> {
  const absolute = resolve(cwd, path);
  const data = await readJsonFile(absolute, "lock manifest", path);
  if (!validateManifest) {
    const schema = buildManifestSchema();
    validateManifest = (await loadPrecompiled("manifest", schema)) ?? (await import("../core/schema-validator.js")).compileSchema(schema, MANIFEST_AJV_OPTIONS);
  }
  if (!validateManifest(data)) {
    const details = (validateManifest.errors ?? []).slice(0, 10).map((e) => `  ${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`);
    throw new OperationalError(`lock manifest ${path} does not match its schema:\n${details.join("\n")}`);
  }
  const manifest = data as LockManifest;
  return { manifest, path: absolute, root: resolve(dirname(absolute), manifest.datasetRoot ?? ".") };
}

/** The absolute path of an artifact, refusing one that leaves the root through a symbolic link. */
export async function resolveArtifact(root: string, path: string): Promise<string> {
  const absolute = join(root, ...path.split("/"));
  const [real, realRoot] = await Promise.all([realpath(absolute), realpath(root)]);
  if (real !== realRoot && !real.startsWith(realRoot + sep)) throw new OperationalError(`${path}: resolves to ${real}, outside the dataset root ${realRoot}`);
  return real;
}

/** sha256 of a file's bytes, streamed. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Checks every artifact exists inside the root and matches its sha256; returns one line per fault. */
export async function verifyArtifacts(loaded: LoadedManifest): Promise<string[]> {
  const problems: string[] = [];
  for (const artifact of loaded.manifest.artifacts) {
    try {
      const file = await resolveArtifact(loaded.root, artifact.path);
      const digest = await hashFile(file);
      if (digest !== artifact.sha256) problems.push(`${artifact.path}: sha256 is ${digest} but the manifest pins ${artifact.sha256}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") problems.push(`${artifact.path}: missing (no such file under ${loaded.root})`);
      else if (error instanceof OperationalError) problems.push(error.message); // already names the artifact
      else problems.push(`${artifact.path}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
    }
  }
  return problems;
}

/**
 * The context the manifest rules check a file against. Each present artifact whose bytes match the
 * manifest is read once and reduced to the digest of its body, so memory stays at one artifact.
 */
export async function loadLockContext(manifestPath: string, shownPath: string): Promise<LockContext> {
  const loaded = await loadManifest(manifestPath);
  const { parseArtifact } = await import("../core/markdown.js"); // the markdown parser loads only when a manifest is in force
  const bodyDigests = new Map<string, string>();
  const changedArtifacts = new Map<string, string>();
  for (const artifact of loaded.manifest.artifacts) {
    try {
      const bytes = await readFile(await resolveArtifact(loaded.root, artifact.path));
      const digest = sha256Hex(bytes);
      if (digest !== artifact.sha256) {
        changedArtifacts.set(artifact.path, digest);
        continue;
      }
      const body = parseArtifact(new TextDecoder("utf-8", { fatal: true }).decode(bytes), artifact.indexKind ?? "body-block").body;
      bodyDigests.set(artifact.path, sha256Hex(body));
    } catch {
      // absent, unreadable or unparsable: the body check is skipped for it, the coverage checks still run
    }
  }
  return { manifest: loaded.manifest, manifestPath: shownPath, computedDigest: computeDatasetDigest(loaded.manifest), bodyDigests, changedArtifacts };
}
