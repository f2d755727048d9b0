/**
 * The legislation host of each dataset (docs/spec.md, section 8, "A host per dataset"): the manifest's
 * `legislationHost` when it has one, else the host in force (the command line's, else the config's, else the default).
 * One check for lock, update and adopt: a `sourceTextUrl` written on another host than its dataset's is a record
 * validate rejects. update and adopt refuse it before anything is written; lock warns. Identical problems are said once,
 * with the count and the first datasets.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_LEGISLATION_HOST } from "../../core/schema/schema.js";
import { plural } from "../../core/text.js";
import { displayPath } from "../files/files.js";
import { readRegularFileSync } from "../files/regular-file.js";
import type { LoadedConfig } from "./config.js";

/** The host in force for a dataset whose manifest names none, where it comes from, and a schema file that overrides. */
export interface HostInForce {
  host: string;
  /** Where the host comes from, as said in messages. */
  from: string;
  /**
   * A schema file in force (the repository's, or the config's `schema`), as shown: it decides what validate accepts,
   * whatever the hosts, so nothing is checked here.
   */
  schemaFile?: string;
}

/**
 * The host in force in `cwd`: `flag` (said as `flagName`), else the config's `legislationHost`, else the default; and
 * the schema file in force, if any.
 */
export async function hostInForce(
  cwd: string,
  loaded: LoadedConfig | undefined,
  flag?: { host: string; name: string },
): Promise<HostInForce> {
  const { findRepositorySchema } = await import("./schema-source.js");
  const schemaFile = loaded?.config.schema ?? (await findRepositorySchema(cwd));
  const configHost = loaded?.config.legislationHost;
  const [host, from] =
    flag !== undefined
      ? [flag.host, flag.name]
      : configHost !== undefined
        ? [configHost, `the config ${displayPath(loaded!.path, cwd)}`]
        : [DEFAULT_LEGISLATION_HOST, "the default; no config in force sets legislationHost"];
  return { host, from, ...(schemaFile !== undefined ? { schemaFile: displayPath(schemaFile, cwd) } : {}) };
}

/** The host of an https address, or undefined. */
export function urlHost(url: string): string | undefined {
  return /^https:\/\/([^/?#]+)\//.exec(url)?.[1];
}

/** A dataset whose sourceTextUrl is written, and the host its manifest names, if any. */
export interface HostedDataset {
  slug: string;
  sourceTextUrl: string;
  legislationHost?: string;
}

/** Datasets named one by one in a grouped problem before the rest are counted. */
const NAMED_AT_MOST = 3;

/**
 * The datasets whose sourceTextUrl is not on their host (the manifest's, else the host in force), as problems: one line
 * for the datasets that share the wrong host and the host they should be on, with their count and the first few. None
 * when a schema file is in force.
 */
export function hostProblems(
  datasets: readonly HostedDataset[],
  inForce: HostInForce,
  command: "adopt" | "lock" = "adopt",
): string[] {
  if (inForce.schemaFile !== undefined) return [];
  const groups = new Map<string, { own: string; host: string; from: string; datasets: HostedDataset[] }>();
  for (const dataset of datasets) {
    const own = urlHost(dataset.sourceTextUrl);
    const host = dataset.legislationHost ?? inForce.host;
    if (own === undefined || own === host) continue;
    const from = dataset.legislationHost !== undefined ? "its lock manifest's legislationHost" : inForce.from;
    const key = `${own}\u0000${host}\u0000${from}`;
    const group = groups.get(key);
    if (group) group.datasets.push(dataset);
    else groups.set(key, { own, host, from, datasets: [dataset] });
  }
  return [...groups.values()].map(({ own, host, from, datasets: group }) => {
    const fix = `if ${group.length === 1 ? "it is" : "they are"} published on ${own}, give ${group.length === 1 ? "the dataset" : "them"} that host: ${command} --legislation-host ${own}${command === "adopt" ? `, or "legislationHost": "${own}" in the config's adopt section` : ""}`;
    if (group.length === 1) {
      const { slug, sourceTextUrl } = group[0]!;
      return `${slug}: sourceTextUrl ${sourceTextUrl} is on ${own}, not on the legislation host ${host} (${from}): validate would reject its records; ${fix}`;
    }
    const names = group.slice(0, NAMED_AT_MOST).map((d) => d.slug);
    const more = group.length > NAMED_AT_MOST ? `, … and ${group.length - NAMED_AT_MOST} more` : "";
    return `${plural(group.length, "dataset")} (${names.join(", ")}${more}): sourceTextUrl is on ${own}, not on the legislation host ${host} (${from}): validate would reject their records; ${fix}`;
  });
}

/**
 * The manifest's `legislationHost` for a dataset given `host`: the host, when it is not the one the config or the
 * default gives (written only then); else null (left out).
 */
export function manifestHost(host: string | undefined, inForce: HostInForce): string | null | undefined {
  if (host === undefined) return undefined;
  return host === inForce.host ? null : host;
}

/**
 * The legislation hosts the lock manifests of the repository's tooling folder name (their `legislationHost`), each
 * once, sorted; a manifest that names none counts as on `unnamed` when it is given (the host in force for it: the
 * config's, else the default).
 */
export async function manifestHosts(cwd: string, unnamed?: string): Promise<string[]> {
  const { findRepositoryRoot, MANIFEST_FOLDER } = await import("../files/files.js");
  const folder = join((await findRepositoryRoot(cwd)) ?? cwd, ...MANIFEST_FOLDER.split("/"));
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".lock.json"));
  } catch {
    return [];
  }
  const hosts = new Set<string>();
  for (const name of names) {
    try {
      // Read as every input is (regular-file.ts): a FIFO in a manifest's place is refused, not waited on for ever, and
      // a link out of the repository is not followed.
      const host = (
        JSON.parse(readRegularFileSync(join(folder, name)).toString("utf8")) as { legislationHost?: unknown }
      ).legislationHost;
      if (typeof host === "string") hosts.add(host);
      else if (unnamed !== undefined) hosts.add(unnamed);
    } catch {
      // an unreadable manifest is said where it is read
    }
  }
  return [...hosts].sort();
}
