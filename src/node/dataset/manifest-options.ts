/**
 * The lock manifest's optional members that a run may set (docs/spec.md, section 8): `legislationHost`, `units` and
 * `aliases`. One shape carries them from the command line and the config's adopt sections down to `lock`, and one rule
 * writes them all: a member is written only when set, so that a manifest without them keeps its bytes (and, as none of
 * `legislationHost` and `aliases` is digested, its `datasetDigest`).
 */
import type { LockManifest } from "../../core/lock/manifest.js";
import type { LawAliases } from "./dataset-aliases.js";

/** What a run asks of a manifest's optional members; a member not given keeps what the manifest there has. */
export interface ManifestOptions {
  /** A host to write; `null` leaves it out (the host in force is the dataset's); undefined keeps the manifest's. */
  legislationHost?: string | null;
  /** Give the dataset targets for the units below the heading; once set it is kept by every refresh. */
  units?: boolean;
  /** Front matter keys whose values become the aliases, read again on each run that names them; none keeps the manifest's. */
  aliasKeys?: string[];
}

/** The front matter keys read for the aliases when `units` is turned on for a manifest that has none. */
export const DEFAULT_ALIAS_KEYS: readonly string[] = ["jurabk", "amtabk", "abbreviation", "shortTitle"];

/**
 * The members of `given` that ask for something (a host or `null`, `units: true`, a non-empty list of keys), and only
 * those, so that a spread of the result adds nothing for a member not given.
 */
export function manifestOptionsOf(
  given: { [K in keyof ManifestOptions]?: ManifestOptions[K] | undefined } | undefined,
): ManifestOptions {
  const options: ManifestOptions = {};
  if (given === undefined) return options;
  if (given.legislationHost !== undefined) options.legislationHost = given.legislationHost;
  if (given.units === true) options.units = true;
  if (given.aliasKeys !== undefined && given.aliasKeys.length > 0) options.aliasKeys = given.aliasKeys;
  return options;
}

/** Layers of options over each other: for each member, the first layer that asks for something wins. */
export function layerManifestOptions(...layers: ReadonlyArray<ManifestOptions | undefined>): ManifestOptions {
  const options: ManifestOptions = {};
  for (const layer of [...layers].reverse()) Object.assign(options, manifestOptionsOf(layer));
  return options;
}

/** The optional members as written in a manifest, in the order they are written (after `ignore`). */
export type OptionalMembers = Pick<LockManifest, "legislationHost" | "units" | "aliases" | "documentAliases">;

/**
 * The optional members of the manifest a run writes, from its options and the manifest there (`existing`): a given
 * member replaces the manifest's, an absent one keeps it. The aliases (the dataset's, or each document's in a dataset of
 * several laws: dataset-aliases.ts) are read with `readAliases` from the keys given, else, when `units` turns units on
 * for a manifest with no aliases yet, from the default keys (`byDefault`: for the words of an error).
 */
export async function optionalMembers(
  given: ManifestOptions,
  existing: OptionalMembers | undefined,
  readAliases: (keys: readonly string[], byDefault: boolean) => Promise<LawAliases>,
): Promise<OptionalMembers> {
  const options = manifestOptionsOf(given);
  const legislationHost =
    options.legislationHost === null ? undefined : (options.legislationHost ?? existing?.legislationHost);
  const unaliased = existing?.aliases === undefined && existing?.documentAliases === undefined;
  const keys = options.aliasKeys ?? (options.units === true && unaliased ? DEFAULT_ALIAS_KEYS : undefined);
  const { aliases, documentAliases } =
    keys !== undefined
      ? await readAliases(keys, options.aliasKeys === undefined)
      : { aliases: existing?.aliases ?? [], documentAliases: existing?.documentAliases };
  return {
    ...(legislationHost !== undefined ? { legislationHost } : {}),
    ...(options.units === true || existing?.units === true ? { units: true as const } : {}),
    ...(aliases.length > 0 ? { aliases } : {}),
    ...(documentAliases !== undefined && Object.keys(documentAliases).length > 0 ? { documentAliases } : {}),
  };
}
