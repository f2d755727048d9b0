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
import { adoptSections, configOption, type LoadedConfig } from "./config.js";
import { hostInForce } from "./legislation-host.js";
import { sectionOf } from "../update/adopt-sections.js";

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
 * adopt run with its options completed from the config's `adopt` (one section, or several: their dataset roots when
 * none are given, each root's templates and legislation host, the given ones winning) and the legislation host in force
 * (the config's, else the default), against which each dataset's host is checked before anything is written.
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
  return run({
    ...given,
    datasets: datasets ?? [],
    templates: templates ?? {},
    sections: adoptSections(loaded?.config).map(sectionOf),
    hostInForce: given.hostInForce ?? (await hostInForce(resolve(given.cwd ?? "."), loaded)),
  });
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
 * update run with the legislation host in force of the config, when one is read: a dataset whose sourceTextUrl it
 * writes on another host than its own is refused before anything is written (legislation-host.ts).
 */
export async function updateWithConfig(
  run: (options: UpdateOptions) => Promise<DatasetUpdate[]>,
  options: UpdateOptions & { config?: ConfigChoice },
): Promise<DatasetUpdate[]> {
  const { config: choice, ...given } = options;
  const loaded = await loadedFor(choice, given.cwd);
  return run({ ...given, hostInForce: given.hostInForce ?? (await hostInForce(resolve(given.cwd ?? "."), loaded)) });
}
