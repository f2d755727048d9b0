/**
 * `adopt --move NEW-FOLDER` (docs/spec.md, "Adopt"): a law's folder renamed with `git mv` leaves its
 * manifest pointing at a folder that is not there. Adopting the new folder as a new dataset would make
 * a second dataset (a new slug, new addresses) beside the orphaned one; this finds the orphaned
 * manifest the folder belongs to, so that it is repointed, its slug and addresses kept.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { datasetRootOf } from "../files/files.js";
import { isFileRoot, rootPresent } from "../dataset/dataset-root.js";

/** A manifest of the tooling folder whose dataset root is not there, with the artifact paths it lists. */
export interface Orphan {
  manifest: string;
  artifacts: string[];
  /** Its datasetRoot named one markdown file. */
  fileRoot: boolean;
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
      const data = JSON.parse(readFileSync(manifest, "utf8")) as { artifacts?: { path?: unknown }[] };
      const artifacts = (data.artifacts ?? []).map((a) => a.path).filter((p): p is string => typeof p === "string");
      orphans.push({ manifest, artifacts, fileRoot: isFileRoot(root) });
    } catch {
      // unreadable: not a candidate (validate says what is wrong with it)
    }
  }
  return orphans;
}

/**
 * The orphaned manifests a moved folder may belong to: those whose every artifact is in the folder, at the same place
 * (a `git mv` of the folder keeps the paths inside it). A moved file (a file root, docs/spec.md "One-file datasets")
 * belongs to the orphaned file roots whose one artifact has its name (its addresses are kept).
 */
export function ownersOf(dir: string, orphans: readonly Orphan[]): string[] {
  if (isFileRoot(dir))
    return orphans
      .filter((o) => o.fileRoot && o.artifacts.length === 1 && o.artifacts[0] === basename(dir))
      .map((o) => o.manifest);
  return orphans
    .filter(
      (o) =>
        !o.fileRoot && o.artifacts.length > 0 && o.artifacts.every((path) => existsSync(join(dir, ...path.split("/")))),
    )
    .map((o) => o.manifest);
}
