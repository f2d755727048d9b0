/**
 * A new version's fields from the config (docs/spec.md, "Field templates"; README, "update"): when `update` finds a
 * dataset's markdown changed and no flag set versionDate or sourceTextUrl, each is filled from the `adopt` template of
 * the config that covers the dataset's folder (the one found from that folder up to the repository root), as adopt
 * filled it. A flag wins over the config, field by field.
 */
import type { DatasetFields } from "../../core/lock/dataset-fields.js";
import type { ManifestChanges } from "../dataset/lock.js";

/** The fields a new published version sets. */
export const VERSION_FIELDS = ["versionDate", "sourceTextUrl"] as const;

/** The config's templates of the version fields no flag set, and the config's path; undefined when there are none. */
export async function configVersionTemplates(
  datasetFolder: string,
  given: Partial<DatasetFields>,
): Promise<{ templates: Partial<DatasetFields>; config: string } | undefined> {
  const missing = VERSION_FIELDS.filter((field) => given[field] === undefined);
  if (missing.length === 0) return undefined;
  const { findConfig } = await import("../config/config.js");
  const loaded = await findConfig(datasetFolder);
  const adopt = loaded?.config.adopt;
  if (loaded === undefined || adopt === undefined) return undefined;
  const templates: Partial<DatasetFields> = {};
  for (const field of missing) if (adopt[field] !== undefined) templates[field] = adopt[field];
  return Object.keys(templates).length > 0 ? { templates, config: loaded.path } : undefined;
}

/** True when the dataset's markdown changed: an artifact added, removed or changed. */
export function markdownChanged(changes: ManifestChanges): boolean {
  return changes.added.length + changes.removed.length + changes.changed.length > 0;
}
