/**
 * A new version's fields from the config (docs/spec.md, "Field templates"; README, "update"): when `update` finds a
 * dataset's markdown changed and no flag set versionDate or sourceTextUrl, each is filled from the `adopt` template of
 * the config that covers the dataset's folder (the one found from that folder up to the repository root), as adopt
 * filled it. A flag wins over the config, field by field.
 */
import type { DatasetFields } from "../../core/lock/dataset-fields.js";
import type { ManifestChanges } from "../dataset/lock.js";
import { rootParts } from "../dataset/dataset-root.js";
import { coveringSection } from "./adopt-sections.js";

/** The fields a new published version sets. */
export const VERSION_FIELDS = ["versionDate", "sourceTextUrl"] as const;

/**
 * The config's templates of the version fields no flag set, and the config's path; undefined when there are none.
 * `datasetFolder`: the dataset root (a folder, or a file root), absolute.
 */
export async function configVersionTemplates(
  datasetFolder: string,
  given: Partial<DatasetFields>,
): Promise<{ templates: Partial<DatasetFields>; config: string } | undefined> {
  const missing = VERSION_FIELDS.filter((field) => given[field] === undefined);
  if (missing.length === 0) return undefined;
  const { findConfig, adoptSections } = await import("../config/config.js");
  const loaded = await findConfig(rootParts(datasetFolder).folder);
  // The section whose datasets name this one (adopt-sections.ts); the only one when there is one.
  const adopt = await coveringSection(adoptSections(loaded?.config), datasetFolder, process.cwd());
  if (loaded === undefined || adopt === undefined) return undefined;
  const templates: Partial<DatasetFields> = {};
  for (const field of missing) if (adopt[field] !== undefined) templates[field] = adopt[field];
  return Object.keys(templates).length > 0 ? { templates, config: loaded.path } : undefined;
}

/** True when the dataset's markdown changed: an artifact added, removed or changed. */
export function markdownChanged(changes: ManifestChanges): boolean {
  return changes.added.length + changes.removed.length + changes.changed.length > 0;
}
