/**
 * `adopt --move NEW-FOLDER` (docs/spec.md, "Adopt"): a law's folder renamed with `git mv` leaves its
 * manifest pointing at a folder that is not there. Adopting the new folder as a new dataset would make
 * a second dataset (a new slug, new addresses) beside the orphaned one; this finds the orphaned
 * manifest the folder belongs to, so that it is repointed, its slug kept (and its addresses, unless
 * a one-file law's file was renamed: its name is in every address).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { sha256Hex } from "../../core/bytes.js";
import { datasetRootOf } from "../files/files.js";
import { readRegularIfPresent } from "../files/regular-file.js";
import { isFileRoot, rootPresent } from "../dataset/dataset-root.js";

/** A manifest of the tooling folder whose dataset root is not there, with the artifact paths it lists. */
export interface Orphan {
  manifest: string;
  artifacts: string[];
  /** The sha256 of each artifact, as the manifest pinned it (undefined where it has none). */
  digests: (string | undefined)[];
  /** Its datasetRoot named one markdown file. */
  fileRoot: boolean;
}

/** The manifest a moved dataset root belongs to; `renamed`: a one-file law's file, renamed too (its addresses change). */
export interface Owner {
  manifest: string;
  renamed?: { from: string; to?: string };
}

/** The manifests of the tooling folder whose dataset folder is not there, with the artifact paths they list. */
export function orphanedManifests(folder: string): Orphan[] {
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".lock.json"));
  } catch {
    return [];
  }
  const orphans: Orphan[] = [];
  for (const name of names.sort()) {
    const manifest = join(folder, name);
    const root = datasetRootOf(manifest);
    if (root === undefined || rootPresent(root)) continue;
    try {
      const data = JSON.parse(readFileSync(manifest, "utf8")) as { artifacts?: { path?: unknown; sha256?: unknown }[] };
      const listed = (data.artifacts ?? []).filter((a) => typeof a.path === "string");
      orphans.push({
        manifest,
        artifacts: listed.map((a) => a.path as string),
        digests: listed.map((a) => (typeof a.sha256 === "string" ? a.sha256 : undefined)),
        fileRoot: isFileRoot(root),
      });
    } catch {
      // unreadable: not a candidate (validate says what is wrong with it)
    }
  }
  return orphans;
}

/**
 * The orphaned manifests a moved dataset root may belong to. A folder: those whose every artifact is in it, at the same
 * place (a `git mv` of the folder keeps the paths inside it). A one-file law (docs/spec.md, "One-file datasets") moved
 * as a file, or into a folder of its own: the orphaned file roots whose file has its name there (its addresses kept);
 * failing those, the ones whose file was renamed on the way (`gg.md` to `gg/index.md`): its bytes unchanged (a `git mv`
 * keeps them), or the folder it went into named after it. The file's name is in every address, so those change.
 */
export function ownersOf(dir: string, orphans: readonly Orphan[]): Owner[] {
  const files = orphans.filter((o) => o.fileRoot && o.artifacts.length === 1);
  const name = (o: Orphan) => o.artifacts[0]!;
  if (isFileRoot(dir)) {
    const kept = files.filter((o) => name(o) === basename(dir));
    if (kept.length > 0) return kept.map((o) => ({ manifest: o.manifest }));
    const digest = digestOf(dir);
    return files
      .filter((o) => o.digests[0] === digest || `${basename(dirname(dir))}.md` === name(o))
      .map((o) => ({ manifest: o.manifest, renamed: { from: name(o), to: basename(dir) } }));
  }
  const kept: Owner[] = [
    ...orphans
      .filter(
        (o) =>
          !o.fileRoot &&
          o.artifacts.length > 0 &&
          o.artifacts.every((path) => existsSync(join(dir, ...path.split("/")))),
      )
      .map((o) => ({ manifest: o.manifest })),
    ...files.filter((o) => existsSync(join(dir, name(o)))).map((o) => ({ manifest: o.manifest })),
  ];
  if (kept.length > 0 || files.length === 0) return kept;
  // The markdown files at the top of the folder, by their bytes' digest: the one a renamed file became.
  const byDigest = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile() && entry.name.endsWith(".md")) {
      const digest = digestOf(join(dir, entry.name));
      if (digest !== undefined && !byDigest.has(digest)) byDigest.set(digest, entry.name);
    }
  const owners: Owner[] = [];
  for (const o of files) {
    const to = o.digests[0] === undefined ? undefined : byDigest.get(o.digests[0]);
    if (to !== undefined || `${basename(dir)}.md` === name(o))
      owners.push({ manifest: o.manifest, renamed: { from: name(o), ...(to !== undefined ? { to } : {}) } });
  }
  return owners;
}

/** The sha256 of a file's bytes, as a manifest pins an artifact's; undefined when it cannot be read. */
function digestOf(path: string): string | undefined {
  const bytes = readRegularIfPresent(path);
  return bytes === undefined ? undefined : sha256Hex(bytes);
}
