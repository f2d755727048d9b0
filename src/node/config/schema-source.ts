import { join, resolve } from "node:path";
import { buildRecordSchema, DEFAULT_LEGISLATION_HOST, isValidLegislationHost } from "../../core/schema/schema.js";
import { recordCheckFrom, type RecordSchemaCheck } from "../../core/schema/schema-issues.js";
import { loadPrecompiled } from "./precompiled.js";
import { precompiledForHost } from "./precompiled-host.js";
import { OperationalError } from "../errors.js";
import { readJsonFile } from "../files/json-file.js";
import { displayPath, foldersUpToRoot, statIfThere } from "../files/files.js";
import { withHostFix } from "../../core/schema/host-hint.js";

/** Where a repository keeps its own copy of the schema (docs/spec.md, rule "schema"). */
export const REPOSITORY_SCHEMA_PATH = ".tooling/schemas/citation-targets.schema.json";

import type { SchemaSource } from "../../core/report/report.js";

export interface LoadedSchema {
  source: SchemaSource;
  check: RecordSchemaCheck;
}

const exists = async (path: string) => statIfThere(path)?.isFile() ?? false; // sync: statIfThere

/** The repository's schema file, looked for from `cwd` up to the repository root (the folder holding `.git`). */
export async function findRepositorySchema(cwd: string): Promise<string | undefined> {
  for (const folder of (await foldersUpToRoot(cwd)).folders) {
    const candidate = join(folder, REPOSITORY_SCHEMA_PATH);
    if (await exists(candidate)) return candidate;
  }
  return undefined;
}

/** Chooses and compiles the schema: `--schema` file, else the repository's, else the bundled one for the host. */
export async function loadSchema(options: {
  schemaPath?: string;
  legislationHost?: string;
  cwd: string;
}): Promise<LoadedSchema> {
  const host = options.legislationHost ?? DEFAULT_LEGISLATION_HOST;
  if (!isValidLegislationHost(host))
    throw new OperationalError(
      `invalid legislation host "${host}": expected a lowercase host name such as ${DEFAULT_LEGISLATION_HOST}`,
    );
  const path = options.schemaPath ? resolve(options.cwd, options.schemaPath) : await findRepositorySchema(options.cwd);
  const source: SchemaSource = options.schemaPath
    ? { kind: "option", path: path! }
    : path
      ? { kind: "repository", path }
      : { kind: "bundled", legislationHost: host };
  // A sourceTextUrl on another host gets the fix in its problem (the flag and config key, or the schema file to
  // rebuild).
  const fixed = (check: RecordSchemaCheck): LoadedSchema => ({
    source,
    check: withHostFix(check, source, path ? displayPath(path, options.cwd) : undefined),
  });
  let schema: unknown;
  if (path) {
    schema = await readJsonFile(path, "schema");
  } else {
    schema = buildRecordSchema(host);
    const precompiled =
      host === DEFAULT_LEGISLATION_HOST
        ? await loadPrecompiled("record", schema)
        : await precompiledForHost(host, schema); // the default host's, made that host's (precompiled-host.ts)
    if (precompiled) return fixed(recordCheckFrom(precompiled));
  }
  const { compileRecordSchema, SchemaCompileError } = await import("../../core/schema/schema-validator.js"); // Ajv loads only when a schema must be compiled
  try {
    return fixed(compileRecordSchema(schema));
  } catch (error) {
    if (error instanceof SchemaCompileError)
      throw new OperationalError(`${path ?? "bundled schema"}: ${error.message}`);
    throw error;
  }
}

/** The bundled schema of each legislation host a lock manifest names, compiled once per host in this thread. */
const manifestHostSchemas = new Map<string, Promise<LoadedSchema>>();

/**
 * The record check of a dataset whose lock manifest names its legislation host (docs/spec.md, section 8): the bundled
 * schema of that host, built and compiled once per host per thread, its host problems saying that the host is the
 * manifest's. `inForce`: the run's schema, used as it is when it is a file (the repository's or --schema: it wins for
 * every dataset) or already that host's.
 */
export async function schemaForHost(host: string | undefined, inForce: LoadedSchema): Promise<RecordSchemaCheck> {
  if (host === undefined || inForce.source.kind !== "bundled" || inForce.source.legislationHost === host)
    return inForce.check;
  let loaded = manifestHostSchemas.get(host);
  if (loaded === undefined) {
    loaded = (async () => {
      const source: SchemaSource = { kind: "bundled", legislationHost: host, fromManifest: true };
      const schema = buildRecordSchema(host);
      const precompiled = await precompiledForHost(host, schema);
      if (precompiled) return { source, check: withHostFix(recordCheckFrom(precompiled), source) };
      const { compileRecordSchema } = await import("../../core/schema/schema-validator.js");
      return { source, check: withHostFix(compileRecordSchema(schema), source) };
    })();
    manifestHostSchemas.set(host, loaded);
  }
  return (await loaded).check;
}
