/**
 * The fix a wrong legislation host calls for, added to the schema problem of `sourceTextUrl`
 * (docs/spec.md, rule "schema"): a publisher outside Australia whose records point at their own
 * host is told the flag and the config key that set it, with the host their records have, or that
 * the schema in force is a file that --legislation-host does not change.
 */
import type { SchemaSource } from "../report/report.js";
import type { RecordSchemaCheck } from "./schema-issues.js";
import { isValidLegislationHost, sourceTextUrlPattern } from "./schema.js";
import { shellQuote } from "../text.js";

/**
 * The host of a `sourceTextUrl` when the bundled schema built for that host would accept it (https, a valid host, a
 * path); else undefined.
 */
export function legislationHostOf(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  const host = /^https:\/\/([^/?#]+)\//.exec(url)?.[1];
  if (host === undefined || !isValidLegislationHost(host)) return undefined;
  return new RegExp(sourceTextUrlPattern(host)).test(url) ? host : undefined;
}

/**
 * What to do about a `sourceTextUrl` on `host` that the schema in force refuses; `schemaShown` is the schema file as
 * shown (not for the bundled schema).
 */
export function hostFix(host: string, source: SchemaSource, schemaShown?: string): string | undefined {
  if (source.kind === "bundled") {
    if (host === source.legislationHost) return undefined;
    if (source.fromManifest)
      return `; its host ${host} is not the legislation host of its lock manifest (${source.legislationHost}): if the dataset's legislation is published on ${host}, adopt it again with --legislation-host ${host} (or set its legislationHost with \`citation-targets lock DATASET --legislation-host ${host}\`)`;
    return `; its host ${host} is not the legislation host in force (${source.legislationHost}): if your legislation is published there, pass --legislation-host ${host}, or set "legislationHost": "${host}" in the config file (.citation-targets.json)`;
  }
  const shown = schemaShown ?? source.path ?? "";
  if (source.kind === "repository")
    return `; the repository's schema ${shown} is used, and --legislation-host does not change it: if your legislation is published on ${host}, rebuild it with \`citation-targets schema --legislation-host ${host} -o ${shellQuote(shown)}\``;
  return `; the schema ${shown} is used (--schema or the config's "schema"), and --legislation-host does not change it: if your legislation is published on ${host}, that schema must accept it`;
}

/**
 * The check with the host's fix added to a `sourceTextUrl` problem whose value has a legislation host of its own (see
 * hostFix).
 */
export function withHostFix(check: RecordSchemaCheck, source: SchemaSource, schemaShown?: string): RecordSchemaCheck {
  return (record) => {
    const issues = check(record);
    if (issues.length === 0) return issues;
    const at = issues.findIndex((issue) => issue.pointer === "/sourceTextUrl" && issue.messageId === "invalid");
    if (at === -1) return issues;
    const host = legislationHostOf((record as Record<string, unknown>).sourceTextUrl);
    const fix = host === undefined ? undefined : hostFix(host, source, schemaShown);
    if (fix === undefined) return issues;
    const withFix = [...issues];
    withFix[at] = { ...issues[at]!, message: `${issues[at]!.message}${fix}` };
    return withFix;
  };
}
