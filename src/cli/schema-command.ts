/** `citation-targets schema`: print or write the record JSON Schema. Registered on the program by `registerSchemaCommand`. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CommandIo, MainContext } from "./context.js";
import { parseHost } from "./options.js";

/** Adds the `schema` command to the program. */
export function registerSchemaCommand(program: Command, context: MainContext, { stdout, stderr }: CommandIo): void {
  program
    .command("schema")
    .summary("print or write the record JSON Schema")
    .description(
      "Print the citation-target record JSON Schema (2020-12) with the legislation host filled in, or write it to a file. The host: --legislation-host, else the config's legislationHost (the config validate reads), else www.legislation.gov.au. One host per schema: in a repository whose lock manifests name other hosts (legislationHost), it warns, naming them (a manifest that names none is on the config's host, else the default).",
    )
    .option(
      "--legislation-host <host>",
      "host sourceTextUrl must be on (default: the config's legislationHost, else www.legislation.gov.au)",
      parseHost,
    )
    .option("-o, --output <file>", "write the schema to FILE (atomically) instead of stdout")
    .option("--config <file>", "read legislationHost from this config file instead of the one found (as validate does)")
    .option("--no-config", "read no config file")
    .addHelpText(
      "after",
      "\nExit codes: 0 printed or written (a warning of other hosts changes nothing), 2 usage, configuration or I/O error.\n\nExamples:\n  citation-targets schema -o .tooling/schemas/citation-targets.schema.json\n  citation-targets schema --legislation-host www.fedlex.admin.ch",
    )
    .action(async (options: { legislationHost?: string; output?: string; config?: string | boolean }) => {
      const [{ hostSetting }, { buildRecordSchema, formatSchema }, { writeFileAtomic }] = await Promise.all([
        import("../node/config/config.js"),
        import("../core/schema/schema.js"),
        import("../node/writes/write.js"),
      ]);
      const { host, from } = await hostSetting(options.legislationHost, options.config, context.cwd);
      const text = formatSchema(buildRecordSchema(host));
      // One host per schema: in a repository whose lock manifests name others, say so (docs/spec.md, section 8).
      const { manifestHosts } = await import("../node/config/legislation-host.js");
      // A manifest that names no host is on the one in force for it: the config's, else the default (not the flag's).
      const inForce =
        options.legislationHost === undefined ? host : (await hostSetting(undefined, options.config, context.cwd)).host;
      const others = (await manifestHosts(context.cwd, inForce)).filter((other) => other !== host);
      if (others.length > 0)
        stderr.write(
          `warning: this schema accepts a sourceTextUrl on ${host} only, and lock manifests of this repository are on ${others.length === 1 ? "another legislation host" : `${others.length} other legislation hosts`} (${others.join(", ")}): as a schema file of the repository (or --schema), it would make validate reject their datasets' records; without one, validate checks each dataset against the schema of its own host\n`,
        );
      if (options.output) {
        await writeFileAtomic(resolve(context.cwd, options.output), text);
        stderr.write(`wrote ${options.output}: the record schema for legislation host ${host} (${from})\n`);
      } else stdout.write(text);
    });
}
