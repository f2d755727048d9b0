import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { DatasetError } from "../core/errors.js";
import type { RuleSetting } from "../core/report/problem.js";
import { DEFAULT_MANIFEST_NAME, type ArtifactKind, type IndexKind } from "../core/lock/manifest.js";
import {
  buildRecordSchema,
  DEFAULT_LEGISLATION_HOST,
  formatSchema,
  isValidLegislationHost,
  MARKDOWN_ARTIFACT_KINDS,
  SOURCE_INDEX_KINDS,
} from "../core/schema/schema.js";
import { colorLevel, createColor } from "../formatters/color.js";
import { unknownRuleMessage } from "../core/text.js";
import { MANIFEST_DATASET_FIELDS } from "../core/model.js";
import { TEMPLATE_HELP } from "../core/lock/dataset-fields.js";
import { registerDiffCommand } from "./diff-command.js";
import { registerViewCommand } from "./view-command.js";
import { createProgressLine, progressEnabled, type Progress } from "./progress.js";
import { FORMAT_NAMES, formatters, type FormatName } from "../formatters/index.js";
import { plural } from "../formatters/types.js";
import { rules, ruleIds, type RuleId } from "../rules/index.js";
import { describeIoError, describeUnexpectedIoError, OperationalError } from "../node/errors.js";
import { shellQuote } from "../node/manifest-io.js";
import {
  adoptText,
  describeDatasetProblems,
  describeUpdates,
  generateCheckJson,
  generateCheckText,
  lockJson,
  lockText,
  updatesJson,
} from "./dataset-reports.js";
import type { DatasetUpdate } from "../node/update-dataset.js";
import {
  cwdInRepository,
  DEFAULT_MANIFEST_PATTERN,
  DEFAULT_PATTERN,
  displayPath,
  MANIFEST_FOLDER,
} from "../node/files.js";
import { publicRepositoryUrl } from "../formatters/sarif.js";
import { REPOSITORY_SCHEMA_PATH } from "../node/schema-source.js";
import { type CacheUse, exitCodeFor, onlyErrors, validate } from "../node/validate.js";
import { writeFileAtomic } from "../node/write.js";
import { maxJobs } from "../node/pool.js";
import { manifestsIn, skippedArtifactsNote, warnLeftovers, warnTwins } from "./validate-notes.js";

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A Node stream's `once`, for waiting on "drain" when `write` returns false. */
  once?(event: "drain", listener: () => void): unknown;
}

/** Writes to a stream and, when its buffer is full, waits until it drains (so a slow pipe does not fill memory). */
function writeAndDrain(stream: OutputStream, text: string): Promise<void> | undefined {
  if (stream.write(text) !== false || !stream.once) return undefined;
  return new Promise((resolve) => stream.once!("drain", resolve));
}

export interface MainContext {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Standard input, for `validate -` (the bin passes process.stdin). */
  stdin?: AsyncIterable<Uint8Array>;
}

const PREFIX = "citation-targets: ";

/** What --allow-outside-repository says on stderr, every time. */
const OUTSIDE_NOTE =
  "--allow-outside-repository: dataset folders and patterns may lead outside the repository; files there are read\n";

/** The note when a --jobs value was lowered to the cap (four threads per core). */
function noteJobs(jobs: number | undefined, stderr: OutputStream): void {
  const max = maxJobs();
  if (jobs !== undefined && Number.isInteger(jobs) && jobs > max)
    stderr.write(`--jobs ${jobs}: lowered to ${max} (four threads per core; more only costs memory)\n`);
}

/**
 * The commands that refuse to run while an interrupted update's journal is pending (update completes it, or refuses
 * with --check).
 */
const GATED_COMMANDS = new Set(["validate", "lock", "generate", "diff"]);

/**
 * Puts the program's name before every line of a message for stderr, as git and npm do, so that it stands out in a CI
 * log.
 */
export function prefixLines(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return `${body
    .split("\n")
    .map((line) => (line.startsWith(PREFIX) ? line : `${PREFIX}${line}`))
    .join("\n")}\n`;
}

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  repository?: unknown;
};

function parseCount(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError("expected a whole number, 0 or more");
  return Number(value);
}

function parsePositive(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError("expected a whole number, 1 or more");
  return Number(value);
}

function parseShard(value: string): { index: number; count: number } {
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(value);
  if (!match || Number(match[1]) > Number(match[2]))
    throw new InvalidArgumentError("expected i/n with 1 ≤ i ≤ n, e.g. 2/4");
  return { index: Number(match[1]), count: Number(match[2]) };
}

function parseHost(value: string): string {
  if (!isValidLegislationHost(value))
    throw new InvalidArgumentError(`expected a lowercase host name such as ${DEFAULT_LEGISLATION_HOST}`);
  return value;
}

function collectRule(
  value: string,
  previous: Partial<Record<RuleId, RuleSetting>> = {},
): Partial<Record<RuleId, RuleSetting>> {
  const match = /^([a-z0-9-]+)[=:](error|warning|off)$/.exec(value);
  if (!match)
    throw new InvalidArgumentError(
      'expected RULE=SEVERITY, e.g. "non-canonical=warning" (severity: error, warning or off)',
    );
  const id = match[1]!;
  if (!(ruleIds as readonly string[]).includes(id)) throw new InvalidArgumentError(unknownRuleMessage(id, ruleIds));
  return { ...previous, [id]: match[2] as RuleSetting };
}

/**
 * A sourceTextUrl that update or adopt wrote on another host than the legislation host in force
 * (the config's, else the default) is warned of: validate would reject every record of it. Not
 * when the repository has a schema file of its own (validate's message then says what to do).
 */
async function addHostWarnings(results: DatasetUpdate[], cwd: string): Promise<void> {
  const written = results.filter((r) => r.artifacts.created || r.fields.some((f) => f.field === "sourceTextUrl"));
  if (written.length === 0) return;
  const { findRepositorySchema } = await import("../node/schema-source.js");
  if ((await findRepositorySchema(cwd)) !== undefined) return;
  const { findConfig } = await import("../node/config.js");
  const config = await findConfig(cwd).catch(() => undefined);
  const host = config?.config.legislationHost ?? DEFAULT_LEGISLATION_HOST;
  const from =
    config?.config.legislationHost !== undefined
      ? `the config ${displayPath(config.path, cwd)}`
      : "the default; no config sets legislationHost";
  for (const result of written) {
    const own = /^https:\/\/([^/?#]+)\//.exec(result.sourceTextUrl)?.[1];
    if (own !== undefined && own !== host)
      result.warnings.push(
        `${result.slug}: sourceTextUrl ${result.sourceTextUrl} is on ${own}, not on the legislation host ${host} (${from}): validate will reject its records; if your legislation is published on ${own}, set "legislationHost": "${own}" in the config (one host for the repository)`,
      );
  }
}

/** Runs the CLI; resolves to the exit code. Only the bin touches `process`. */
export async function main(context: MainContext): Promise<number> {
  const { stdout } = context;
  /** Every line the program writes to stderr carries its name. */
  const stderr = { write: (text: string) => context.stderr.write(prefixLines(text)), isTTY: context.stderr.isTTY };
  let exitCode = 0;
  const program = new Command()
    .name("citation-targets")
    .description(
      "Validate, lock, adopt, generate, update, diff and view citation-targets JSONL datasets of published legislation.",
    )
    .version(packageJson.version, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s) });

  program
    .command("validate")
    .summary("check citation-targets JSONL files")
    .description(
      `Check citation-targets JSONL files: line form (UTF-8, LF, canonical JSON), the record schema, and every file-level and cross-record rule.\nWith no paths, checks ${DEFAULT_PATTERN}.`,
    )
    .argument("[paths...]", "files, directories (every *.jsonl below) or globs; - for standard input")
    .addOption(
      new Option(
        "-f, --format <format>",
        "output format (default: github when GITHUB_ACTIONS=true, else stylish)",
      ).choices(FORMAT_NAMES),
    )
    .option(
      "-o, --output-file <file>",
      "write the report in the chosen format to FILE (atomically); the terminal still gets the stylish report",
    )
    .option("--shard <i/n>", "check only shard i of n (split by a hash of each path), for a CI matrix", parseShard)
    .option(
      "--print-config",
      "print the effective settings and where each came from (default, config file, command line), then exit",
    )
    .option(
      "--config <file>",
      "read settings from this config file (default: .citation-targets.json, citation-targets.config.json or package.json#citation-targets, from here up to the repository root)",
    )
    .option("--no-config", "read no config file")
    .option("--schema <file>", "validate against this JSON Schema instead of the repository's or the bundled one")
    .option(
      "--legislation-host <host>",
      "host sourceTextUrl must be on (bundled schema)",
      parseHost,
      DEFAULT_LEGISLATION_HOST,
    )
    .option(
      "--lock <manifest>",
      "also check the files against this lock manifest (default: <name>.lock.json beside each <name>.jsonl, when present)",
    )
    .option("--no-lock", "do not look for a lock manifest beside each file")
    .option(
      "--no-artifacts",
      "do not check the lock manifests' artifacts (a checkout without the dataset folders); said on standard error",
    )
    .option("--max-problems <n>", "show at most N problems per file (all are still counted)", parseCount)
    .option("--rule <rule=severity>", "set a rule's severity: error, warning or off (repeatable)", collectRule)
    .option(
      "--jobs <n>",
      "worker threads to spread the files over (default: one per core for 200+ files or 32+ MiB in all, else none: this thread; at most 4 per core); the report is the same",
      parsePositive,
    )
    .option(
      "--staged",
      "check the JSONL files of the datasets that what git has staged belongs to (JSONL, lock manifests, markdown), for a pre-commit hook",
    )
    .option("--no-cache", "check every dataset's artifacts: do not use or write the cache of lock-side outcomes")
    .option(
      "--cache-location <file>",
      "the cache file (default node_modules/.cache/citation-targets/validate.json of the repository, when it has node_modules)",
    )
    .option("--stdin", "check standard input instead of files (the same as the path -)")
    .option(
      "--stdin-filename <path>",
      "the path standard input stands for: its name is checked against the slug, and <name>.lock.json beside it is used",
    )
    .option(
      "--max-line-bytes <n>",
      "the longest line kept, in bytes (default 67108864, 64 MiB); a longer one is a line-length problem, never held in memory",
      parsePositive,
    )
    .option("--max-depth <n>", "the deepest nesting of arrays and objects in a record (default 64)", parsePositive)
    .option("--max-stored-problems <n>", "problems kept per file (default 10000); the rest are counted", parsePositive)
    .option("--quiet", "report errors only, not warnings")
    .option("--no-error-on-unmatched-pattern", "do not fail when a pattern matches no file")
    .option("--color", "force colour on")
    .option("--no-color", "force colour off")
    .option("--verbose", "say which schema is used and how long the run took (stderr)")
    .option(
      "--allow-outside-repository",
      "let lock manifests' dataset folders (and, for validate, config patterns) lead outside the repository (default: confined to it, symbolic links resolved)",
    )
    .addHelpText(
      "after",
      `\nSchema: --schema FILE when given, else .tooling/schemas/citation-targets.schema.json found from the\n` +
        `working directory up to the repository root, else the bundled schema for --legislation-host.\n\n` +
        `Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage, configuration or I/O error.\n\n` +
        `Rules: ${rules.map((r) => r.id).join(", ")}\n\n` +
        `Examples:\n  citation-targets validate\n  citation-targets validate .tooling/citation-targets/*.jsonl --format json\n  citation-targets validate data/ --rule non-canonical=warning --max-problems 20\n  git show HEAD:.tooling/citation-targets/x.jsonl | citation-targets validate - --stdin-filename .tooling/citation-targets/x.jsonl`,
    )
    .action(async (paths: string[], options: ValidateCliOptions, command: Command) => {
      exitCode = await runValidate(paths, options, context, (name) => command.getOptionValueSource(name) === "cli");
    });

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
      const { hostSetting } = await import("../node/config.js");
      const { host, from } = await hostSetting(options.legislationHost, options.config, context.cwd);
      const text = formatSchema(buildRecordSchema(host));
      if (options.output) {
        await writeFileAtomic(resolve(context.cwd, options.output), text);
        stderr.write(`wrote ${options.output}: the record schema for legislation host ${host} (${from})\n`);
      } else stdout.write(text);
    });

  program
    .command("lock")
    .summary("write or refresh a dataset's lock manifest")
    .description(
      "Walk a dataset directory of markdown files and write its lock manifest: the dataset fields, every artifact in document order with the sha256 of its bytes, and datasetDigest. Rerun, it refreshes the digests and keeps kinds, index kinds and the order set before. Order: index.md (then README.md) first in each folder, then names in natural order; or --order FILE.",
    )
    .argument("<datasetDir>", "the dataset root")
    .option("--slug <slug>", "dataset slug (the JSONL is named <slug>.jsonl)")
    .option("--title-id <id>", "the legal title's identifier")
    .option("--name <name>", 'the title\'s name, e.g. "Privacy Act 1988"')
    .option("--version-date <date>", "the version's date, YYYY-MM-DD")
    .option("--source-text-url <url>", "https address of the published text")
    .option(
      "-o, --output <file>",
      `where to write the manifest (default: <datasetDir>/${DEFAULT_MANIFEST_NAME} when it is there; else, in a git repository, ${MANIFEST_FOLDER}/<slug>.lock.json at its root; else <datasetDir>/${DEFAULT_MANIFEST_NAME}); away from the dataset, datasetRoot records the way back`,
    )
    .option("--order <file>", "explicit document order: a text file with every artifact path, one per line")
    .option(
      "--kind <path=kind>",
      `an artifact's kind: ${MARKDOWN_ARTIFACT_KINDS.join(", ")} (repeatable)`,
      collectPair(MARKDOWN_ARTIFACT_KINDS),
    )
    .option(
      "--index-kind <path=kind>",
      `an artifact's index kind: ${SOURCE_INDEX_KINDS.join(", ")} (repeatable)`,
      collectPair(SOURCE_INDEX_KINDS),
    )
    .option("--source-document <path=source>", "an artifact's sourceDocumentPath (repeatable)", collectPair())
    .option("--ignore <glob>", "markdown files that are not artifacts (repeatable)", (v: string, p: string[] = []) => [
      ...p,
      v,
    ])
    .option("--check", "write nothing; exit 1 when the manifest is missing or not up to date")
    .addOption(
      new Option(
        "-f, --format <format>",
        "report format on stdout: text (default: on stderr) or json (docs/spec.md, section 15)",
      )
        .choices(["text", "json"])
        .default("text"),
    )
    .option(
      "--max-artifact-bytes <n>",
      "the largest markdown file read, in bytes (default 67108864, 64 MiB); a larger one is refused, named",
      parsePositive,
    )
    .addHelpText(
      "after",
      `\nFields: --slug lowercase a-z0-9 groups joined by hyphens; --version-date a real date YYYY-MM-DD; --source-text-url https://host/path (a path after the host); --title-id and --name not empty.\nFor a whole corpus at once, see \`citation-targets adopt --help\`.\n\nExamples:\n  citation-targets lock laws/privacy-act --slug privacy-act-1988 --title-id C2004A03712 --name "Privacy Act 1988" --version-date 2024-06-01 --source-text-url https://www.legislation.gov.au/C2004A03712/latest/text\n  citation-targets lock laws/privacy-act --check`,
    )
    .action(async (dir: string, options: LockCliOptions) => {
      const order = options.order ? await readOrderFile(resolve(context.cwd, options.order), options.order) : undefined;
      const { lock } = await import("../node/lock.js");
      const result = await lock({
        dir,
        cwd: context.cwd,
        kinds: (options.kind ?? {}) as Record<string, ArtifactKind>, // the repeatable options have no default, so that --help shows none
        indexKinds: (options.indexKind ?? {}) as Record<string, IndexKind>,
        sourceDocumentPaths: options.sourceDocument ?? {},
        ignore: options.ignore ?? [],
        ...(options.output ? { output: options.output } : {}),
        ...(order ? { order } : {}),
        ...(options.check ? { check: true } : {}),
        ...(options.maxArtifactBytes !== undefined ? { maxArtifactBytes: options.maxArtifactBytes } : {}),
        ...pick(options, [...MANIFEST_DATASET_FIELDS]),
      });
      const shown = displayPath(result.path, context.cwd);
      if (options.format === "json") {
        stdout.write(lockJson(result, shown, options.check === true, result.previous));
        if (options.check) exitCode = result.changed ? 1 : 0;
        return;
      }
      const refresh = ["citation-targets", ...context.argv.filter((arg) => arg !== "--check")]
        .map(shellQuote)
        .join(" ");
      stderr.write(lockText(result, shown, options.check === true, refresh));
      if (options.check) exitCode = result.changed ? 1 : 0;
    });

  program
    .command("generate")
    .summary("generate a dataset's JSONL from its lock manifest")
    .description(
      "Generate the citation-targets JSONL of a dataset from its lock manifest and the markdown artifacts it pins. Every artifact is verified against its sha256 before anything is written; the output is canonical and byte-identical on every run.",
    )
    .argument("<manifest>", "the lock manifest (citation-targets.lock.json)")
    .option(
      "-o, --output <file>",
      "write the JSONL to FILE (atomically: a temporary file, then a rename); default stdout",
    )
    .option(
      "--check <file>",
      "write nothing; exit 1 when FILE is not exactly what would be generated, saying why, what would change by address, and how to fix it",
    )
    .option(
      "--jobs <n>",
      "threads to parse the markdown in (default: one per core, at most 4, for 4 MB of markdown or more; else 1); the output is the same",
      parsePositive,
    )
    .addOption(capOption("maxArtifactBytes"))
    .addOption(capOption("maxYamlAliases"))
    .addOption(capOption("maxHeadings"))
    .addOption(capOption("maxHeadingLength"))
    .option("--verbose", "say how many threads parsed the markdown and how long it took (stderr)")
    .addOption(
      new Option(
        "-f, --format <format>",
        "the --check report: text (default: on stderr) or json (on stdout; docs/spec.md, section 15)",
      )
        .choices(["text", "json"])
        .default("text"),
    )
    .option(
      "--allow-outside-repository",
      "let lock manifests' dataset folders (and, for validate, config patterns) lead outside the repository (default: confined to it, symbolic links resolved)",
    )
    .action(
      async (
        manifest: string,
        options: {
          output?: string;
          format: "text" | "json";
          check?: string;
          jobs?: number;
          verbose?: boolean;
        } & ArtifactCapOptions,
      ) => {
        if (options.allowOutsideRepository) stderr.write(OUTSIDE_NOTE);
        noteJobs(options.jobs, stderr);
        const caps = artifactCaps(options);
        const started = performance.now();
        if (options.check && options.output) throw new OperationalError("--check and --output exclude each other");
        if (options.format === "json" && !options.check)
          throw new OperationalError("--format json is the report of --check (generate writes the JSONL itself)");
        const { checkGenerated, generate } = await import("../node/generate.js");
        if (options.check) {
          const result = await checkGenerated({
            manifest,
            cwd: context.cwd,
            check: options.check,
            ...caps,
            ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
          });
          if (options.format === "json") {
            stdout.write(generateCheckJson(result, options.check));
            exitCode = result.difference ? 1 : 0;
            return;
          }
          stderr.write(generateCheckText(result, options.check, manifest));
          if (result.difference) exitCode = 1;
          return;
        }
        const generateOptions = {
          manifest,
          cwd: context.cwd,
          write: (text: string) => writeAndDrain(stdout, text),
          ...caps,
          ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
        };
        const result = options.output
          ? await generate({ ...generateOptions, output: options.output })
          : await generate(generateOptions);
        if (result.output)
          stderr.write(`wrote ${displayPath(result.output, context.cwd)} (${plural(result.records, "record")})\n`);
        const threads = result.threads ?? 1;
        if (options.verbose)
          stderr.write(
            `generated in ${Math.round(performance.now() - started)} ms, markdown parsed in ${threads === 1 ? "this thread" : `${threads} threads (this one and ${plural(threads - 1, "worker thread")})`}\n`,
          );
      },
    );

  program
    .command("update")
    .summary("refresh lock manifests and regenerate their JSONL in one step")
    .description(
      `After amending the law: re-lock each dataset (new, renamed and deleted files, changed digests; kinds, order and ignores kept) and regenerate its JSONL (<name>.jsonl beside <name>.lock.json), then say what changed: artifacts, and records added, removed and changed by citation address. Atomic: on any error nothing is written. With no manifests, updates every ${DEFAULT_MANIFEST_PATTERN} of the repository.`,
    )
    .argument("[manifests...]", "lock manifests (<name>.lock.json)")
    .option("--check", "write no manifest or JSONL; exit 1 when anything would change (for CI)")
    .option(
      "--staged",
      "only the datasets that what git has staged belongs to (lock manifests, JSONL, markdown; deletions too), for a pre-commit hook",
    )
    .option(
      "--jobs <n>",
      "worker threads (default: one per core; at most 4 per core): many datasets are spread over them whole, a few large ones artifact by artifact",
      parsePositive,
    )
    .option("--no-cache", "regenerate every dataset: do not use or write the cache")
    .option(
      "--cache-location <file>",
      "the cache file (default node_modules/.cache/citation-targets/update.json of the repository, when it has node_modules)",
    )
    .addOption(capOption("maxArtifactBytes"))
    .addOption(capOption("maxYamlAliases"))
    .addOption(capOption("maxHeadings"))
    .addOption(capOption("maxHeadingLength"))
    .option(
      "--allow-outside-repository",
      "let lock manifests' dataset folders (and, for validate, config patterns) lead outside the repository (default: confined to it, symbolic links resolved)",
    )
    .option(
      "--recover",
      "only complete an update that was interrupted (its journal at the repository root): roll its renames forward, or back, then exit",
    )
    .option(
      "--version-date <date|template>",
      "a new version: set versionDate in every manifest updated (YYYY-MM-DD, or a template such as '{front.stand}')",
    )
    .option(
      "--source-text-url <url|template>",
      "a new version: set sourceTextUrl (one manifest; for several, a template such as 'https://host/{front.slug}/2024-06-01')",
    )
    .option("--name <name|template>", "set the title's name (a law renamed by the amendment)")
    .addOption(
      new Option("-f, --format <format>", "report format on stdout: text (default) or json (docs/spec.md, section 15)")
        .choices(["text", "json"])
        .default("text"),
    )
    .addHelpText(
      "after",
      `\nA new published version: set --version-date (and --source-text-url); update warns when the markdown changed and they did not. Templates: ${TEMPLATE_HELP}.\n\nExit codes: 0 up to date (or updated), 1 --check found changes or a dataset is at fault, 2 usage or I/O error.\n\nExamples:\n  citation-targets update\n  citation-targets update .tooling/citation-targets/privacy-act-1988.lock.json --version-date 2024-06-01 --source-text-url https://www.legislation.gov.au/C2004A03712/2024-06-01/text\n  citation-targets update --check`,
    )
    .action(
      async (
        named: string[],
        options: {
          check?: boolean;
          staged?: boolean;
          jobs?: number;
          cache: boolean;
          cacheLocation?: string;
          recover?: boolean;
          versionDate?: string;
          sourceTextUrl?: string;
          name?: string;
          format: "text" | "json";
        } & ArtifactCapOptions,
      ) => {
        if (options.allowOutsideRepository) stderr.write(OUTSIDE_NOTE);
        noteJobs(options.jobs, stderr);
        const { upToDate, update } = await import("../node/update.js");
        if (options.recover && (options.check || options.staged || named.length > 0))
          throw new OperationalError(
            "--recover only completes an interrupted update: name no manifests, --check or --staged with it",
          );
        if (!options.check) {
          const { journalPath, recoverJournal } = await import("../node/journal.js");
          const journal = await journalPath(context.cwd);
          const recovered = await recoverJournal(journal);
          if (recovered)
            stderr.write(
              `completed the interrupted update of ${displayPath(journal, context.cwd)}: ${plural(recovered.files, "file")} ${recovered.direction === "forward" ? "renamed into place (rolled forward)" : "restored as they were (rolled back)"}\n`,
            );
          else if (options.recover) stderr.write("no interrupted update to complete\n");
          if (options.recover) return;
        }
        let manifests = named;
        if (options.staged) {
          if (named.length > 0)
            throw new OperationalError("--staged chooses the datasets itself: name no manifests with it");
          const { stagedDatasets } = await import("../node/staged.js");
          manifests = (await stagedDatasets(context.cwd)).manifests.map((manifest) =>
            displayPath(manifest, context.cwd),
          );
          if (manifests.length === 0) {
            stderr.write("citation-targets: nothing staged belongs to a dataset: nothing to check\n");
            return;
          }
        }
        const set = pick(options, ["versionDate", "sourceTextUrl", "name"]);
        const progress = progressEnabled(context.env, context.stderr.isTTY)
          ? createProgressLine((text) => context.stderr.write(text))
          : undefined;
        const results = await update({
          manifests,
          ...(Object.keys(set).length > 0 ? { set } : {}),
          ...datasetProgress(progress, "updating"),
          ...(options.cache === false
            ? { cache: false as const }
            : options.cacheLocation !== undefined
              ? { cache: options.cacheLocation }
              : {}),
          cwd: context.cwd,
          ...(options.check ? { check: true } : {}),
          ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
          ...artifactCaps(options),
        });
        progress?.done();
        if (options.check)
          warnLeftovers(
            stderr,
            results.flatMap((r) => [r.manifest, r.output]),
            context.cwd,
          );
        await addHostWarnings(results, context.cwd);
        if (options.format === "json") stdout.write(updatesJson("update", results, options.check === true));
        else {
          stdout.write(`${describeUpdates(results, options.check === true).join("\n")}\n`);
          for (const warning of results.flatMap((r) => r.warnings)) stderr.write(`warning: ${warning}\n`);
        }
        if (options.check && results.some((r) => !upToDate(r))) {
          const stale =
            named.length > 0 || options.staged
              ? results.filter((r) => !upToDate(r)).map((r) => ` ${shellQuote(r.manifest)}`)
              : [];
          stderr.write(`not up to date: run \`citation-targets update${stale.join("")}\` to refresh and regenerate\n`);
          exitCode = 1;
        }
      },
    );

  program
    .command("adopt")
    .summary("lock and generate a whole corpus: one dataset per folder, fields from front matter")
    .description(
      `Bring many dataset folders under citation targets in one command: for each folder, its fields are filled from templates (the folder's name and path, and the front matter of its index.md), and its lock manifest and JSONL are written to ${MANIFEST_FOLDER}/<slug>.lock.json and <slug>.jsonl at the repository root. All or nothing: every fault of every folder is named, and then nothing is written. Rerun, it refreshes what it wrote (the same as update, with the fields filled again).`,
    )
    .argument(
      "[datasets...]",
      "dataset folders, or globs of them (e.g. 'laws/*'); default: adopt.datasets of the config",
    )
    .option("--slug <template>", "default: '{front.slug|slug}' when the front matter has a slug, else '{folder|slug}'")
    .option("--title-id <template>", "e.g. '{front.jurabk}'")
    .option("--name <template>", "e.g. '{front.Title}'")
    .option("--version-date <date|template>", "e.g. 2024-06-01 or '{front.stand}'")
    .option(
      "--source-text-url <template>",
      "e.g. 'https://www.gesetze-im-internet.de/{front.slug}/' (values are percent-encoded)",
    )
    .option("--check", "write nothing; exit 1 when anything would be written")
    .option(
      "--move",
      "the folders were moved (git mv): repoint the lock manifest each belongs to (its dataset folder gone, its artifacts here), keeping its slug and addresses",
    )
    .addOption(
      new Option("-f, --format <format>", "report format on stdout: text (default) or json (docs/spec.md, section 15)")
        .choices(["text", "json"])
        .default("text"),
    )
    .option("--config <file>", "read adopt's templates from this config file (default: the one validate finds)")
    .option("--no-config", "read no config file")
    .option("--jobs <n>", "worker threads (default: one per core)", parsePositive)
    .option("--no-cache", "do not use or write update's cache")
    .addOption(capOption("maxArtifactBytes"))
    .addOption(capOption("maxYamlAliases"))
    .addOption(capOption("maxHeadings"))
    .addOption(capOption("maxHeadingLength"))
    .addHelpText(
      "after",
      `\nTemplates: ${TEMPLATE_HELP}. A flag wins over the config's adopt.<field>.\n\nExit codes: 0 adopted (or, with --check, nothing to write), 1 --check found something to write or a folder is at fault, 2 usage or I/O error.\n\nExamples:\n  citation-targets adopt 'laws/*' --title-id '{front.jurabk}' --name '{front.Title}' --version-date 2024-06-01 --source-text-url 'https://www.gesetze-im-internet.de/{front.slug}/'\n  citation-targets adopt            (folders and templates from the config's "adopt")`,
    )
    .action(
      async (
        named: string[],
        options: {
          slug?: string;
          titleId?: string;
          name?: string;
          versionDate?: string;
          sourceTextUrl?: string;
          check?: boolean;
          move?: boolean;
          format: "text" | "json";
          config?: string | boolean;
          jobs?: number;
          cache: boolean;
        } & ArtifactCapOptions,
      ) => {
        noteJobs(options.jobs, stderr);
        const loaded = await configOf(options.config, context.cwd);
        const fromConfig = loaded?.config.adopt ?? {};
        const templates = {
          ...pick(fromConfig, [...MANIFEST_DATASET_FIELDS]),
          ...pick(options, [...MANIFEST_DATASET_FIELDS]),
        };
        const datasets = named.length > 0 ? named : (fromConfig.datasets ?? []);
        const { adopt } = await import("../node/adopt.js");
        const progress = progressEnabled(context.env, context.stderr.isTTY)
          ? createProgressLine((text) => context.stderr.write(text))
          : undefined;
        const result = await adopt({
          datasets,
          templates,
          cwd: context.cwd,
          ...(options.check ? { check: true } : {}),
          ...(options.move ? { move: true } : {}),
          ...(options.cache === false ? { cache: false as const } : {}),
          ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
          ...artifactCaps(options),
          ...datasetProgress(progress, "adopting"),
        });
        progress?.done();
        await addHostWarnings(result.updates, context.cwd);
        const changed = result.updates.filter((r) => r.manifestChanged || r.outputChanged);
        if (options.format === "json") stdout.write(updatesJson("adopt", result.updates, options.check === true));
        else {
          stdout.write(
            adoptText(result.updates, displayPath(result.folder, context.cwd) || ".", options.check === true),
          );
          for (const warning of result.updates.flatMap((r) => r.warnings)) stderr.write(`warning: ${warning}\n`);
        }
        if (!options.check) warnTwins(stderr, manifestsIn(result.folder), context.cwd);
        if (result.gitattributes.length > 0)
          stderr.write(
            `${options.check ? "would add" : "added"} ${plural(result.gitattributes.length, "line")} to .gitattributes (\`-text\`: git keeps the line endings of the pinned markdown and of the JSONL as committed, CR LF never)\n`,
          );
        if (options.check && changed.length > 0) exitCode = 1;
      },
    );

  registerDiffCommand(program, { cwd: context.cwd, stdout, stderr, env: context.env }, (code) => {
    exitCode = code;
  });
  registerViewCommand(program, { cwd: context.cwd, stdout, stderr });

  try {
    if (context.argv.length === 0) {
      stderr.write(
        `missing command: usage: citation-targets <validate|lock|adopt|generate|update|diff|view|schema> [options]\nrun \`citation-targets --help\` for the commands, \`citation-targets <command> --help\` for their options\n`,
      );
      return 2;
    }
    if (GATED_COMMANDS.has(context.argv[0] ?? "") && !context.argv.some((arg) => arg === "--help" || arg === "-h")) {
      // An interrupted update leaves datasets half renamed: every command says so, and what completes it, before it
      // reads any.
      const { pendingJournal } = await import("../node/journal.js");
      const pending = await pendingJournal(context.cwd);
      if (pending !== undefined) {
        stderr.write(`${pending}\n`);
        return 2;
      }
    }
    await program.parseAsync(context.argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
        ? 0
        : 2;
    }
    if (error instanceof DatasetError) {
      stderr.write(describeDatasetProblems(error.problems));
      return 1;
    }
    if (error instanceof OperationalError) {
      stderr.write(`${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    stderr.write(
      `${code ? describeUnexpectedIoError(error) : error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
}

interface LockCliOptions {
  slug?: string;
  titleId?: string;
  name?: string;
  versionDate?: string;
  sourceTextUrl?: string;
  output?: string;
  order?: string;
  kind?: Record<string, string>;
  indexKind?: Record<string, string>;
  sourceDocument?: Record<string, string>;
  ignore?: string[];
  check?: boolean;
  format: "text" | "json";
  maxArtifactBytes?: number;
}

/** An order file: one artifact path per line; blank lines and `#` comments ignored. */
async function readOrderFile(path: string, shown: string): Promise<string[]> {
  let text: string;
  try {
    const { readRegularFileSync } = await import("../node/regular-file.js");
    text = readRegularFileSync(path).toString("utf8");
  } catch (error) {
    throw new OperationalError(describeIoError(error, "read order file", shown));
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function dropUndefined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function pick<T extends object, K extends keyof T>(object: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]])) as Partial<
    Pick<T, K>
  >;
}

/** A repeatable PATH=VALUE option, VALUE checked against `allowed` when given. */
function collectPair(allowed?: readonly string[]) {
  return (value: string, previous: Record<string, string> = {}): Record<string, string> => {
    const at = value.lastIndexOf("=");
    if (at <= 0) throw new InvalidArgumentError("expected PATH=VALUE");
    const key = value.slice(0, at);
    const v = value.slice(at + 1);
    if (allowed && !allowed.includes(v)) throw new InvalidArgumentError(`"${v}" is not one of ${allowed.join(", ")}`);
    return { ...previous, [key]: v };
  };
}

/** The caps on reading artifacts that generate, update and adopt share (docs/spec.md, section 13): one text each. */
const CAP_OPTIONS = {
  maxArtifactBytes: [
    "--max-artifact-bytes <n>",
    "the largest markdown file read, in bytes (default 67108864, 64 MiB); a larger one is refused, named",
  ],
  maxYamlAliases: [
    "--max-yaml-aliases <n>",
    "the most YAML aliases a front matter may hold (default 1000); more is refused, named",
  ],
  maxHeadings: [
    "--max-headings <n>",
    "the most headings one markdown file may have (default 100000); more is refused, named",
  ],
  maxHeadingLength: [
    "--max-heading-length <n>",
    "the longest inline content of a heading, in UTF-16 code units (default 65536); longer is refused, named",
  ],
} as const;

/** A fresh option for one of the caps (an Option belongs to one command). */
function capOption(name: keyof typeof CAP_OPTIONS): Option {
  const [flags, description] = CAP_OPTIONS[name];
  return new Option(flags, description).argParser(parsePositive);
}

/** The caps on reading artifacts (and the confinement) that generate and update share, as given on the command line. */
interface ArtifactCapOptions {
  maxArtifactBytes?: number;
  maxYamlAliases?: number;
  maxHeadings?: number;
  maxHeadingLength?: number;
  allowOutsideRepository?: boolean;
}

/** The config a command reads (node/config.ts, configOption), its module loaded only then. */
async function configOf(option: string | boolean | undefined, cwd: string) {
  return option === false ? undefined : (await import("../node/config.js")).configOption(option, cwd);
}

/** The `onProgress` of update and adopt: datasets done of all, on the progress line when there is one. */
function datasetProgress(
  progress: ReturnType<typeof createProgressLine> | undefined,
  verb: string,
): { onProgress?: (done: number, total: number) => void } {
  if (!progress) return {};
  return {
    onProgress: (done, total) =>
      progress.update({ files: total, filesDone: done, bytes: 0, bytesDone: 0, verb, unit: "dataset" }),
  };
}

function artifactCaps(options: ArtifactCapOptions): ArtifactCapOptions {
  return {
    ...(options.allowOutsideRepository ? { allowOutsideRepository: true } : {}),
    ...(options.maxArtifactBytes !== undefined ? { maxArtifactBytes: options.maxArtifactBytes } : {}),
    ...(options.maxYamlAliases !== undefined ? { maxYamlAliases: options.maxYamlAliases } : {}),
    ...(options.maxHeadings !== undefined ? { maxHeadings: options.maxHeadings } : {}),
    ...(options.maxHeadingLength !== undefined ? { maxHeadingLength: options.maxHeadingLength } : {}),
  };
}

interface ValidateCliOptions {
  allowOutsideRepository?: boolean;
  format?: FormatName;
  outputFile?: string;
  shard?: { index: number; count: number };
  printConfig?: boolean;
  maxLineBytes?: number;
  maxDepth?: number;
  maxStoredProblems?: number;
  config?: string | boolean;
  jobs?: number;
  staged?: boolean;
  cache: boolean;
  cacheLocation?: string;
  lock?: string | boolean;
  artifacts: boolean;
  schema?: string;
  legislationHost: string;
  maxProblems?: number;
  rule?: Partial<Record<RuleId, RuleSetting>>;
  quiet?: boolean;
  stdin?: boolean;
  stdinFilename?: string;
  errorOnUnmatchedPattern: boolean;
  color?: boolean;
  verbose?: boolean;
}

async function runValidate(
  paths: string[],
  options: ValidateCliOptions,
  context: MainContext,
  given: (option: string) => boolean,
): Promise<number> {
  const started = performance.now();
  const loaded = await configOf(options.config, context.cwd);
  const config = loaded?.config ?? {};
  const fromConfig = paths.length === 0 && config.patterns !== undefined;
  const lock = options.lock !== undefined && options.lock !== true ? options.lock : config.lock;
  const artifacts = options.artifacts && config.artifacts !== false;
  const schema = options.schema ?? config.schema;
  const maxProblems = options.maxProblems ?? config.maxProblems;
  const fromStdin = options.stdin === true || paths.includes("-");
  if (fromStdin && paths.some((p) => p !== "-"))
    throw new OperationalError(
      "standard input (-, --stdin) cannot be checked together with files: name one or the other",
    );
  if (options.stdinFilename !== undefined && !fromStdin)
    throw new OperationalError("--stdin-filename names standard input: use it with - or --stdin");
  if (fromStdin && !context.stdin) throw new OperationalError("no standard input to read");
  const format: FormatName = options.format ?? (context.env.GITHUB_ACTIONS === "true" ? "github" : "stylish");
  if (options.printConfig) {
    const host = given("legislationHost")
      ? options.legislationHost
      : (config.legislationHost ?? options.legislationHost);
    const from = (cli: boolean, inConfig: boolean) =>
      cli ? "command line" : inConfig && loaded ? `config ${displayPath(loaded.path, context.cwd)}` : "default";
    const ruleSources = Object.fromEntries(
      rules.map((rule) => {
        const cli = options.rule?.[rule.id as RuleId];
        const fromFile = config.rules?.[rule.id];
        return [
          rule.id,
          {
            value: cli ?? fromFile ?? rule.meta.defaultSeverity,
            from: from(cli !== undefined, fromFile !== undefined),
          },
        ];
      }),
    );
    const settings = {
      config: loaded ? displayPath(loaded.path, context.cwd) : null,
      settings: {
        patterns: {
          value: fromStdin ? ["-"] : paths.length > 0 ? paths : (config.patterns ?? [DEFAULT_PATTERN]),
          from: fromStdin || paths.length > 0 ? "command line" : from(false, config.patterns !== undefined),
        },
        format: {
          value: format,
          from: options.format
            ? "command line"
            : context.env.GITHUB_ACTIONS === "true"
              ? "GITHUB_ACTIONS=true"
              : "default",
        },
        legislationHost: {
          value: host,
          from: from(given("legislationHost"), config.legislationHost !== undefined),
        },
        schema: await schemaInForce(
          schema,
          options.schema !== undefined,
          host,
          context.cwd,
          from(options.schema !== undefined, config.schema !== undefined),
        ),
        lock: {
          value: lock ?? "<name>.lock.json beside each <name>.jsonl, when present",
          from: from(options.lock !== undefined && options.lock !== true, config.lock !== undefined),
        },
        maxProblems: {
          value: maxProblems ?? null,
          from: from(options.maxProblems !== undefined, config.maxProblems !== undefined),
        },
        rules: ruleSources,
      },
    };
    context.stdout.write(`${JSON.stringify(settings, null, 2)}\n`);
    return 0;
  }
  let stagedFiles: string[] | undefined;
  let stagedManifests: string[] | undefined;
  if (options.staged) {
    if (fromStdin || paths.length > 0)
      throw new OperationalError("--staged chooses the files itself: name no paths with it");
    const { stagedDatasets } = await import("../node/staged.js");
    const { outputFor } = await import("../node/update-dataset.js");
    const found = await stagedDatasets(context.cwd);
    const { readFileSync } = await import("node:fs");
    const outputs = found.manifests.flatMap((manifest) => {
      try {
        const slug = (JSON.parse(readFileSync(manifest, "utf8")) as { slug?: unknown }).slug;
        return typeof slug === "string" ? [outputFor(manifest, slug)] : [];
      } catch {
        return [];
      }
    });
    const { existsSync } = await import("node:fs");
    stagedFiles = [...new Set([...found.jsonl, ...outputs.filter((path) => existsSync(path))])].sort();
    stagedManifests = found.manifests;
    if (stagedFiles.length === 0 && stagedManifests.length === 0) {
      context.stderr.write("citation-targets: nothing staged belongs to a dataset: nothing to check\n");
      return 0;
    }
  }
  if (options.allowOutsideRepository) context.stderr.write(prefixLines(OUTSIDE_NOTE));
  noteJobs(options.jobs, { write: (text: string) => context.stderr.write(prefixLines(text)) });
  const progress = progressEnabled(context.env, context.stderr.isTTY)
    ? createProgressLine((text) => context.stderr.write(text))
    : undefined;
  let cacheUse: CacheUse | undefined;
  const checked = await validate({
    ...(fromStdin
      ? {
          stdin: {
            stream: context.stdin!,
            ...(options.stdinFilename !== undefined ? { name: options.stdinFilename } : {}),
          },
        }
      : {}),
    ...(progress ? { onProgress: (p: Progress) => progress.update(p) } : {}),
    patterns: stagedFiles ?? (fromStdin ? [] : fromConfig ? config.patterns! : paths),
    ...(stagedManifests ? { manifests: stagedManifests } : {}),
    cwd: context.cwd,
    ...(fromConfig && !stagedFiles ? { patternsCwd: dirname(loaded!.path), confinePatterns: true } : {}),
    ...(options.allowOutsideRepository ? { allowOutsideRepository: true } : {}),
    legislationHost: given("legislationHost")
      ? options.legislationHost
      : (config.legislationHost ?? options.legislationHost),
    rules: { ...config.rules, ...options.rule },
    allowUnmatched: !options.errorOnUnmatchedPattern,
    ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
    ...(options.cache === false
      ? { cache: false as const }
      : options.cacheLocation !== undefined
        ? { cache: options.cacheLocation }
        : {}),
    ...(options.verbose ? { onCache: (use: CacheUse) => (cacheUse = use) } : {}),
    ...(lock !== undefined ? { lock } : {}),
    ...(artifacts ? {} : { artifacts: false }),
    ...(schema ? { schema } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    limits: {
      ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
      ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
      ...(options.maxStoredProblems !== undefined ? { maxStoredProblems: options.maxStoredProblems } : {}),
    },
  });
  progress?.done();
  const report = options.quiet ? onlyErrors(checked) : checked;
  if (!artifacts) context.stderr.write(skippedArtifactsNote(checked, options.artifacts ? "config" : "flag"));
  warnLeftovers(
    context.stderr,
    checked.files.map((file) => file.path),
    context.cwd,
  );
  warnTwins(
    context.stderr,
    checked.files.flatMap((file) => (file.lockManifest ? [file.lockManifest] : [])),
    context.cwd,
  );
  if (options.verbose) {
    if (loaded) context.stderr.write(`citation-targets: config: ${loaded.path}\n`);
    const source = report.schemaSource;
    const where =
      source.kind === "bundled"
        ? `bundled schema (legislation host ${source.legislationHost})`
        : `${source.kind === "option" ? "--schema" : "repository schema"} ${source.path}`;
    context.stderr.write(`citation-targets: schema: ${where}\n`);
    for (const file of report.files) {
      if (file.lockManifest)
        context.stderr.write(`citation-targets: ${file.path}: checked against lock manifest ${file.lockManifest}\n`);
      else if (lock === undefined && file.path.endsWith(".jsonl"))
        context.stderr.write(
          `citation-targets: ${file.path}: no lock manifest (looked for ${file.path.slice(0, -".jsonl".length)}.lock.json beside it; --lock FILE names one)\n`,
        );
    }
    for (const skipped of new Set(
      report.files.flatMap((f) => (f.artifactChecksSkipped ? [f.artifactChecksSkipped] : [])),
    )) {
      context.stderr.write(
        `citation-targets: artifact checks skipped: ${skipped} (the records are still checked against the manifest)\n`,
      );
    }
    if (cacheUse)
      context.stderr.write(
        `citation-targets: cache ${displayPath(cacheUse.path, context.cwd)}: the lock-side checks of ${cacheUse.reused} of ${plural(cacheUse.files, "file")} taken from it (their artifacts not read); ${plural(cacheUse.stored, "clean outcome")} stored\n`,
      );
  }
  const ciPaths = {
    cwdInRepository: await cwdInRepository(context.cwd),
    repositoryUrl: publicRepositoryUrl(packageJson.repository),
  }; // SARIF and GitHub annotations: paths from the repository root
  const formatContext = {
    toolVersion: packageJson.version,
    ...(maxProblems !== undefined ? { maxProblems } : {}),
    ...dropUndefined(ciPaths),
  };
  if (options.outputFile) {
    // Never over an input of the run: a file checked, its lock manifest, the schema or the config.
    const { refuseOverInputs } = await import("../node/write.js");
    const inputs = report.files.flatMap((file) => [
      { path: resolve(context.cwd, file.path), what: `the file checked ${file.path}` },
      ...(file.lockManifest
        ? [{ path: resolve(context.cwd, file.lockManifest), what: `the lock manifest ${file.lockManifest}` }]
        : []),
    ]);
    if (schema) inputs.push({ path: resolve(context.cwd, schema), what: "the schema" });
    if (loaded) inputs.push({ path: loaded.path, what: "the config" });
    refuseOverInputs(resolve(context.cwd, options.outputFile), inputs, options.outputFile);
    // The chosen report to the file; the terminal gets the stylish report all the same (first, so a file that cannot be
    // written does not hide it).
    context.stdout.write(
      formatters.stylish(report, {
        ...formatContext,
        color: createColor(colorLevel(context.env, context.stdout.isTTY, options.color)),
      }),
    );
    await writeFileAtomic(
      resolve(context.cwd, options.outputFile),
      formatters[format](report, { ...formatContext, color: createColor(0) }),
    );
  } else {
    const color = createColor(format === "stylish" ? colorLevel(context.env, context.stdout.isTTY, options.color) : 0);
    context.stdout.write(formatters[format](report, { ...formatContext, color }));
  }
  // In GitHub Actions: a short summary on the job's page (docs/spec.md, section 18).
  if (context.env.GITHUB_STEP_SUMMARY) {
    const [{ appendStepSummary }, { validateStepSummary }] = await Promise.all([
      import("../node/step-summary.js"),
      import("../formatters/step-summary.js"),
    ]);
    const warning = await appendStepSummary(context.env, () => validateStepSummary(report));
    if (warning !== undefined) context.stderr.write(prefixLines(`${warning}\n`));
  }
  if (options.verbose) {
    const threads = report.threads > 1 ? ` in ${report.threads} worker threads` : "";
    context.stderr.write(`citation-targets: checked in ${Math.round(performance.now() - started)} ms${threads}\n`);
  }
  return exitCodeFor(report);
}

/**
 * The schema validate will use, for --print-config: its file (as shown) or "bundled", where that came
 * from, and in words which it is (the order of loadSchema: --schema or the config's, else the
 * repository's, else the bundled schema for the legislation host, which applies to that one only).
 */
async function schemaInForce(
  schema: string | undefined,
  fromFlag: boolean,
  host: string,
  cwd: string,
  from: string,
): Promise<{ value: string; from: string; used: string }> {
  if (schema !== undefined) {
    const shown = displayPath(resolve(cwd, schema), cwd);
    return {
      value: shown,
      from,
      used: `${shown}, named by ${fromFlag ? "--schema" : 'the config\'s "schema"'} (legislationHost does not apply to it)`,
    };
  }
  const { findRepositorySchema } = await import("../node/schema-source.js");
  const repository = await findRepositorySchema(cwd);
  if (repository !== undefined) {
    const shown = displayPath(repository, cwd);
    return {
      value: shown,
      from: "repository",
      used: `the repository's schema ${shown} (found from here up to the repository root; legislationHost does not apply to it)`,
    };
  }
  return {
    value: "bundled",
    from: "default",
    used: `the bundled schema, built for legislation host ${host} (no ${REPOSITORY_SCHEMA_PATH} from here up to the repository root)`,
  };
}
