/**
 * `adopt --move NEW-FOLDER` (docs/spec.md, "Adopt"): a law's folder renamed with `git mv` leaves its
 * manifest pointing at a folder that is not there. Adopting the new folder as a new dataset would make
 * a second dataset (a new slug, new addresses) beside the orphaned one; this finds the orphaned
 * manifest the folder belongs to, so that it is repointed, its slug and addresses kept.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { datasetRootOf } from "../files/files.js";

/** The manifests of the tooling folder whose dataset folder is not there, with the artifact paths they list. */
export function orphanedManifests(folder: string): { manifest: string; artifacts: string[] }[] {
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".lock.json"));
  } catch {
    return [];
  }
  const orphans: { manifest: string; artifacts: string[] }[] = [];
  for (const name of names.sort()) {
    const manifest = join(folder, name);
    const root = datasetRootOf(manifest);
    if (root === undefined || statSync(root, { throwIfNoEntry: false })?.isDirectory()) continue;
    try {
      const data = JSON.parse(readFileSync(manifest, "utf8")) as { artifacts?: { path?: unknown }[] };
      const artifacts = (data.artifacts ?? []).map((a) => a.path).filter((p): p is string => typeof p === "string");
      orphans.push({ manifest, artifacts });
    } catch {
      // unreadable: not a candidate (validate says what is wrong with it)
    }
  }
  return orphans;
}

/**
 * The orphaned manifests a moved folder may belong to: those whose every artifact is in the folder, at the same place
 * (a `git mv` of the folder keeps the paths inside it).
 */
export function ownersOf(dir: string, orphans: readonly { manifest: string; artifacts: string[] }[]): string[] {
  return orphans
    .filter((o) => o.artifacts.length > 0 && o.artifacts.every((path) => existsSync(join(dir, ...path.split("/")))))
    .map((o) => o.manifest);
}
