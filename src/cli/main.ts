import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { RuleSetting } from "../core/problem.js";
import { buildRecordSchema, DEFAULT_LEGISLATION_HOST, formatSchema, isValidLegislationHost } from "../core/schema.js";
import { colorLevel, createColor } from "../formatters/color.js";
import { FORMAT_NAMES, formatters, type FormatName } from "../formatters/index.js";
import { rules, ruleIds, type RuleId } from "../rules/index.js";
import { OperationalError } from "../node/errors.js";
import { DEFAULT_PATTERN } from "../node/files.js";
import { exitCodeFor, validate } from "../node/validate.js";
import { writeFileAtomic } from "../node/write.js";

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface MainContext {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: OutputStream;
  stderr: OutputStream;
}

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

function parseCount(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError("expected a whole number, 0 or more");
  return Number(value);
}

function parseHost(value: string): string {
  if (!isValidLegislationHost(value)) throw new InvalidArgumentError(`expected a lowercase host name such as ${DEFAULT_LEGISLATION_HOST}`);
  return value;
}

function collectRule(value: string, previous: Partial<Record<RuleId, RuleSetting>>): Partial<Record<RuleId, RuleSetting>> {
  const match = /^([a-z0-9-]+)[=:](error|warning|off)$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected RULE=SEVERITY, e.g. "non-canonical=warning" (severity: error, warning or off)');
  const id = match[1]!;
  if (!(ruleIds as readonly string[]).includes(id)) throw new InvalidArgumentError(`unknown rule "${id}"; rules: ${ruleIds.join(", ")}`);
  return { ...previous, [id]: match[2] as RuleSetting };
}

/** Runs the CLI; resolves to the exit code. Only the bin touches `process`. */
export async function main(context: MainContext): Promise<number> {
  const { stdout, stderr } = context;
  let exitCode = 0;
  const program = new Command()
    .name("citation-targets")
    .description("Validate, generate, lock and diff citation-targets JSONL datasets of published legislation.")
    .version(packageJson.version, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s) });

  program
    .command("validate")
    .summary("check citation-targets JSONL files")
    .description(
      `Check citation-targets JSONL files: line form (UTF-8, LF, canonical JSON), the record schema, and every file-level and cross-record rule.\n` +
        `With no paths, checks ${DEFAULT_PATTERN}.`,
    )
    .argument("[paths...]", "files, directories (every *.jsonl below) or globs")
    .addOption(new Option("-f, --format <format>", "output format").choices(FORMAT_NAMES).default("stylish"))
    .option("--schema <file>", "validate against this JSON Schema instead of the repository's or the bundled one")
    .option("--legislation-host <host>", "host sourceTextUrl must be on (bundled schema)", parseHost, DEFAULT_LEGISLATION_HOST)
    .option("--max-problems <n>", "show at most N problems per file (all are still counted)", parseCount)
    .option("--rule <rule=severity>", "set a rule's severity: error, warning or off (repeatable)", collectRule, {})
    .option("--quiet", "report errors only, not warnings")
    .option("--no-error-on-unmatched-pattern", "do not fail when a pattern matches no file")
    .option("--color", "force colour on")
    .option("--no-color", "force colour off")
    .option("--verbose", "say which schema is used and how long the run took (stderr)")
    .addHelpText(
      "after",
      `\nSchema: --schema FILE when given, else .tooling/schemas/citation-targets.schema.json found from the\n` +
        `working directory up to the repository root, else the bundled schema for --legislation-host.\n\n` +
        `Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage, configuration or I/O error.\n\n` +
        `Rules: ${rules.map((r) => r.id).join(", ")}\n\n` +
        `Examples:\n  citation-targets validate\n  citation-targets validate .tooling/citation-targets/*.jsonl --format json\n  citation-targets validate data/ --rule non-canonical=warning --max-problems 20`,
    )
    .action(async (paths: string[], options: ValidateCliOptions) => {
      exitCode = await runValidate(paths, options, context);
    });

  program
    .command("schema")
    .summary("print or write the record JSON Schema")
    .description("Print the citation-target record JSON Schema (2020-12) with the legislation host filled in, or write it to a file.")
    .option("--legislation-host <host>", "host sourceTextUrl must be on", parseHost, DEFAULT_LEGISLATION_HOST)
    .option("-o, --output <file>", "write the schema to FILE (atomically) instead of stdout")
    .action(async (options: { legislationHost: string; output?: string }) => {
      const text = formatSchema(buildRecordSchema(options.legislationHost));
      if (options.output) await writeFileAtomic(resolve(context.cwd, options.output), text);
      else stdout.write(text);
    });

  try {
    if (context.argv.length === 0) {
      program.outputHelp();
      return 2;
    }
    await program.parseAsync(context.argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help" ? 0 : 2;
    }
    if (error instanceof OperationalError) {
      stderr.write(`citation-targets: ${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    stderr.write(`citation-targets: ${code ? `${code}: ` : ""}${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

interface ValidateCliOptions {
  format: FormatName;
  schema?: string;
  legislationHost: string;
  maxProblems?: number;
  rule: Partial<Record<RuleId, RuleSetting>>;
  quiet?: boolean;
  errorOnUnmatchedPattern: boolean;
  color?: boolean;
  verbose?: boolean;
}

async function runValidate(paths: string[], options: ValidateCliOptions, context: MainContext): Promise<number> {
  const started = performance.now();
  const report = await validate({
    patterns: paths,
    cwd: context.cwd,
    legislationHost: options.legislationHost,
    rules: options.rule,
    allowUnmatched: !options.errorOnUnmatchedPattern,
    ...(options.schema ? { schema: options.schema } : {}),
  });
  if (options.quiet) {
    for (const file of report.files) file.problems = file.problems.filter((p) => p.severity === "error");
    report.summary.warnings = 0;
  }
  if (options.verbose) {
    const source = report.schemaSource;
    const where = source.kind === "bundled" ? `bundled schema (legislation host ${source.legislationHost})` : `${source.kind === "option" ? "--schema" : "repository schema"} ${source.path}`;
    context.stderr.write(`citation-targets: schema: ${where}\n`);
  }
  const color = createColor(options.format === "stylish" ? colorLevel(context.env, context.stdout.isTTY, options.color) : 0);
  context.stdout.write(formatters[options.format](report, { color, ...(options.maxProblems !== undefined ? { maxProblems: options.maxProblems } : {}) }));
  if (options.verbose) context.stderr.write(`citation-targets: checked in ${Math.round(performance.now() - started)} ms\n`);
  return exitCodeFor(report);
}
