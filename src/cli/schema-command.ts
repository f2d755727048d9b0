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
      "Print the citation-target record JSON Schema (2020-12) with the legislation host filled in, or write it to a file. The host: --legislation-host, else the config's legislationHost (the config validate reads), else www.legislation.gov.au.",
    )
    .option(
      "--legislation-host <host>",
      "host sourceTextUrl must be on (default: the config's legislationHost, else www.legislation.gov.au)",
      parseHost,
    )
    .option("-o, --output <file>", "write the schema to FILE (atomically) instead of stdout")
    .option("--config <file>", "read legislationHost from this config file instead of the one found (as validate does)")
    .option("--no-config", "read no config file")
    .action(async (options: { legislationHost?: string; output?: string; config?: string | boolean }) => {
      const [{ hostSetting }, { buildRecordSchema, formatSchema }, { writeFileAtomic }] = await Promise.all([
        import("../node/config/config.js"),
        import("../core/schema/schema.js"),
        import("../node/writes/write.js"),
      ]);
      const { host, from } = await hostSetting(options.legislationHost, options.config, context.cwd);
      const text = formatSchema(buildRecordSchema(host));
      if (options.output) {
        await writeFileAtomic(resolve(context.cwd, options.output), text);
        stderr.write(`wrote ${options.output}: the record schema for legislation host ${host} (${from})\n`);
      } else stdout.write(text);
    });
}
