/**
 * The library's `config` option (README, "Library"): `resolveConfig` finds or reads the config as the CLI does, and
 * each command's options are completed from it in the CLI's order (an option given wins, then the config, then the
 * default), so that `validate({ patterns, config: true })` gives what `citation-targets validate` gives.
 */
import { dirname, resolve } from "node:path";
import type { ValidateOptions } from "../validate/validate-options.js";
import type { UpdateOptions } from "../update/update.js";
import type { AdoptOptions, AdoptResult } from "../update/adopt.js";
import type { DiffOptions } from "../diff/diff.js";
import type { DatasetUpdate } from "../update/update-dataset.js";
import type { DatasetFields } from "../../core/lock/dataset-fields.js";
import { MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { DEFAULT_LEGISLATION_HOST } from "../../core/schema/schema.js";
import { displayPath } from "../files/files.js";
import { configOption, type LoadedConfig } from "./config.js";

/** `true`: the config found from `cwd` up to the repository root, as the CLI finds it; a path: that file; `false`: none. */
export type ConfigChoice = boolean | string;

/**
 * The config the CLI would read in `cwd` (default: the working directory): with `{ config: "<file>" }` that file, with
 * `{ config: false }` none; else the first `.citation-targets.json`, `citation-targets.config.json` or
 * `package.json#citation-targets` from `cwd` up to the repository root. Paths in it are absolute. Undefined when there
 * is none; an OperationalError naming the file when it is not valid.
 */
export async function resolveConfig(
  cwd: string = process.cwd(),
  { config = true }: { config?: ConfigChoice } = {},
): Promise<LoadedConfig | undefined> {
  return configOption(config, resolve(cwd));
}

const loadedFor = (config: ConfigChoice | undefined, cwd: string | undefined) =>
  config === undefined || config === false ? Promise.resolve(undefined) : resolveConfig(cwd, { config });

/** validate's options completed from the config: patterns (relative to the config), host, schema, lock, artifacts, rules. */
export async function validateWithConfig(
  options: ValidateOptions & { config?: ConfigChoice },
): Promise<ValidateOptions> {
  const { config: choice, ...given } = options;
  const loaded = await loadedFor(choice, given.cwd);
  if (!loaded) return given;
  const { config } = loaded;
  const fromConfig = (given.patterns === undefined || given.patterns.length === 0) && config.patterns !== undefined;
  return {
    ...given,
    ...(fromConfig ? { patterns: config.patterns, patternsCwd: dirname(loaded.path), confinePatterns: true } : {}),
    ...(given.legislationHost === undefined && config.legislationHost !== undefined
      ? { legislationHost: config.legislationHost }
      : {}),
    ...(given.schema === undefined && config.schema !== undefined ? { schema: config.schema } : {}),
    ...(given.lock === undefined && config.lock !== undefined ? { lock: config.lock } : {}),
    ...(given.artifacts === undefined && config.artifacts === false ? { artifacts: false } : {}),
    ...(config.rules !== undefined ? { rules: { ...config.rules, ...given.rules } as ValidateOptions["rules"] } : {}),
  };
}

/**
 * adopt run with its options completed from the config's `adopt` (its dataset folders when none are given, its
 * templates, the given ones winning), and the host warnings of the config.
 */
export async function adoptWithConfig(
  run: (options: AdoptOptions) => Promise<AdoptResult>,
  options: Omit<AdoptOptions, "datasets" | "templates"> & {
    datasets?: string[];
    templates?: Partial<DatasetFields>;
    config?: ConfigChoice;
  },
): Promise<AdoptResult> {
  const { config: choice, datasets, templates, ...given } = options;
  const loaded = await loadedFor(choice, given.cwd);
  const adopt = loaded?.config.adopt ?? {};
  const fromConfig = Object.fromEntries(
    MANIFEST_DATASET_FIELDS.filter((field) => adopt[field] !== undefined).map((field) => [field, adopt[field]]),
  ) as Partial<DatasetFields>;
  const result = await run({
    ...given,
    datasets: datasets !== undefined && datasets.length > 0 ? datasets : (adopt.datasets ?? []),
    templates: { ...fromConfig, ...templates },
  });
  if (choice !== undefined && choice !== false)
    await addHostWarnings(result.updates, resolve(given.cwd ?? "."), loaded);
  return result;
}

/** diff's options completed from the config: `diff.passEditorial`. */
export async function diffWithConfig(options: DiffOptions & { config?: ConfigChoice }): Promise<DiffOptions> {
  const { config: choice, ...given } = options;
  const loaded = await loadedFor(choice, given.cwd);
  return given.passEditorial === undefined && loaded?.config.diff?.passEditorial === true
    ? { ...given, passEditorial: true }
    : given;
}

/**
 * The warnings update and adopt add when a config is read (the CLI's, "update"): a sourceTextUrl written on another
 * host than the legislation host in force (the config's, else the default) makes validate reject every record of the
 * dataset. Not when the repository has a schema file of its own (validate's message then says what to do).
 */
export async function addHostWarnings(
  results: DatasetUpdate[],
  cwd: string,
  loaded: LoadedConfig | undefined,
): Promise<void> {
  const written = results.filter((r) => r.artifacts.created || r.fields.some((f) => f.field === "sourceTextUrl"));
  if (written.length === 0) return;
  const { findRepositorySchema } = await import("./schema-source.js");
  if ((await findRepositorySchema(cwd)) !== undefined) return;
  const host = loaded?.config.legislationHost ?? DEFAULT_LEGISLATION_HOST;
  const from =
    loaded?.config.legislationHost !== undefined
      ? `the config ${displayPath(loaded.path, cwd)}`
      : "the default; no config sets legislationHost";
  for (const result of written) {
    const own = /^https:\/\/([^/?#]+)\//.exec(result.sourceTextUrl)?.[1];
    if (own !== undefined && own !== host)
      result.warnings.push(
        `${result.slug}: sourceTextUrl ${result.sourceTextUrl} is on ${own}, not on the legislation host ${host} (${from}): validate will reject its records; if your legislation is published on ${own}, set "legislationHost": "${own}" in the config (one host for the repository)`,
      );
  }
}

/** update's results with the host warnings of the config, when one is read. */
export async function updateWithConfig(
  run: (options: UpdateOptions) => Promise<DatasetUpdate[]>,
  options: UpdateOptions & { config?: ConfigChoice },
): Promise<DatasetUpdate[]> {
  const { config: choice, ...given } = options;
  const loaded = await loadedFor(choice, given.cwd);
  const results = await run(given);
  if (choice !== undefined && choice !== false) await addHostWarnings(results, resolve(given.cwd ?? "."), loaded);
  return results;
}
