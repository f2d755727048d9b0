/**
 * The warning of a sourceTextUrl written on another host than the legislation host in force (lock, update, adopt):
 * validate would reject every record of its dataset.
 */
import { DEFAULT_LEGISLATION_HOST } from "../core/schema/schema.js";
import { displayPath } from "../node/files/files.js";
import type { DatasetUpdate } from "../node/update/update-dataset.js";

/** The legislation host in force and where it comes from; undefined when the repository has a schema file of its own. */
async function hostInForce(cwd: string): Promise<{ host: string; from: string } | undefined> {
  const { findRepositorySchema } = await import("../node/config/schema-source.js");
  if ((await findRepositorySchema(cwd)) !== undefined) return undefined;
  const { findConfig } = await import("../node/config/config.js");
  const config = await findConfig(cwd).catch(() => undefined);
  return {
    host: config?.config.legislationHost ?? DEFAULT_LEGISLATION_HOST,
    from:
      config?.config.legislationHost !== undefined
        ? `the config ${displayPath(config.path, cwd)}`
        : "the default; no config sets legislationHost",
  };
}

/**
 * The warning for a sourceTextUrl written, when it is on another host than the legislation host in force (the
 * config's, else the default); none when the repository has a schema file of its own (validate's message then says
 * what to do).
 */
function hostWarning(slug: string, sourceTextUrl: string, inForce: { host: string; from: string }): string | undefined {
  const { host, from } = inForce;
  const own = /^https:\/\/([^/?#]+)\//.exec(sourceTextUrl)?.[1];
  if (own === undefined || own === host) return undefined;
  return `${slug}: sourceTextUrl ${sourceTextUrl} is on ${own}, not on the legislation host ${host} (${from}): validate will reject its records; if your legislation is published on ${own}, set "legislationHost": "${own}" in the config (one host for the repository)`;
}

/** The host warning of one manifest lock wrote (or would write). */
export async function lockHostWarning(slug: string, sourceTextUrl: string, cwd: string): Promise<string | undefined> {
  const inForce = await hostInForce(cwd);
  return inForce === undefined ? undefined : hostWarning(slug, sourceTextUrl, inForce);
}

/** Adds the host warning to each dataset update or adopt wrote a sourceTextUrl for. */
export async function addHostWarnings(results: DatasetUpdate[], cwd: string): Promise<void> {
  const written = results.filter((r) => r.artifacts.created || r.fields.some((f) => f.field === "sourceTextUrl"));
  if (written.length === 0) return;
  const inForce = await hostInForce(cwd);
  if (inForce === undefined) return;
  for (const result of written) {
    const warning = hostWarning(result.slug, result.sourceTextUrl, inForce);
    if (warning !== undefined) result.warnings.push(warning);
  }
}
