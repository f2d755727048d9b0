/**
 * `citation-targets validate`: check citation-targets JSONL files (docs/spec.md). Registered on the
 * program by `registerValidateCommand`; usage and I/O problems are OperationalErrors (exit 2).
 */
import { dirname, resolve } from "node:path";
import { type Command, Option } from "commander";
import type { RuleSetting } from "../core/report/problem.js";
import { DEFAULT_LEGISLATION_HOST } from "../core/schema/schema.js";
import { FORMAT_NAMES, type FormatName } from "../formatters/format-names.js";
import type { Formatter } from "../formatters/types.js";
import { escapeControls, plural } from "../core/text.js";
import type { RuleId } from "../rules/index.js";
import { OperationalError } from "../node/errors.js";
import { DEFAULT_PATTERN } from "../node/files/tooling-paths.js";
import type { SettingSource } from "../node/config/config.js";
import type { CacheUse } from "../node/validate/validate-options.js";
import type { TwinFacts } from "../node/update/twin-datasets.js";
import {
  type CommandIo,
  configOf,
  type MainContext,
  noteJobs,
  OUTSIDE_NOTE,
  onRunEnd,
  packageJson,
  prefixLines,
} from "./context.js";
import { allowOutsideOption, collectRule, parseCount, parseHost, parsePositive, parseShard } from "./options.js";
import { createProgressLine, progressEnabled, type Progress } from "./progress.js";
import { ruleIdsLoaded } from "./rule-ids.js";
import { nowMs } from "./clock.js";

/** Adds the `validate` command to the program. */
export function registerValidateCommand(program: Command, context: MainContext, { setExitCode }: CommandIo): void {
  program
    .command("validate")
    .summary("check citation-targets JSONL files")
    .description(
      `Check citation-targets JSONL files: line form (UTF-8, LF, canonical JSON), the record schema, and every file-level and cross-record rule.\nWith no paths, checks ${DEFAULT_PATTERN}.`,
    )
    .argument(
      "[paths...]",
      "JSONL files, folders (every *.jsonl below) or globs; a lock manifest, a markdown file or folder of a dataset, or a slug: its JSONL; - for standard input",
    )
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
      "threads to spread the files over: this one and n - 1 workers (default: one per core for 200+ files or 32+ MiB in all, 5,000+ or 64+ MiB with --no-lock or the cache's verdicts, else 1: this thread alone; at most 4 per core); the report is the same",
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
    .addOption(allowOutsideOption())
    .addHelpText(
      "after",
      () =>
        `\nSchema: --schema FILE when given, else .tooling/schemas/citation-targets.schema.json found from the\n` +
        `working directory up to the repository root, else the bundled schema for the legislation host: the\n` +
        `lock manifest's own legislationHost, else --legislation-host or the config's, else www.legislation.gov.au.\n\n` +
        `Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage, configuration or I/O error.\n\n` +
        `Rules: ${ruleIdsLoaded().join(", ")}\n\n` +
        `Examples:\n  citation-targets validate\n  citation-targets validate .tooling/citation-targets/*.jsonl --format json\n  citation-targets validate data/ --rule non-canonical=warning --max-problems 20\n  git show HEAD:.tooling/citation-targets/x.jsonl | citation-targets validate - --stdin-filename .tooling/citation-targets/x.jsonl`,
    )
    .action(async (paths: string[], options: ValidateCliOptions, command: Command) => {
      // validate writes nothing into the folders it lists (its report and cache go elsewhere): each listing is kept for
      // the run (folder-listing.ts).
      const { endListings, keepListings } = await import("../node/files/folder-listing.js");
      keepListings();
      onRunEnd(endListings);
      setExitCode(await runValidate(paths, options, context, (name) => command.getOptionValueSource(name) === "cli"));
    });
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
  const started = nowMs();
  // This command's own modules, loaded when it runs (not when the program starts: bench/RESULTS.md, start-up).
  const [
    { colorAt, colorLevel },
    { publicRepositoryUrl },
    { rules },
    { cwdInRepository, displayPath },
    { validate },
    { exitCodeFor, onlyErrors },
    { writeFileAtomic },
    { skippedArtifactsNote, warnLeftovers, warnTwins },
  ] = await Promise.all([
    import("../formatters/plain-color.js"),
    import("../formatters/sarif.js"),
    import("../rules/index.js"),
    import("../node/files/files.js"),
    import("../node/validate/validate.js"),
    import("../core/report/report.js"),
    import("../node/writes/write.js"),
    import("./validate-notes.js"),
  ]);
  const loaded = await configOf(options.config, context.cwd);
  const config = loaded?.config ?? {};
  const fromConfig = paths.length === 0 && config.patterns !== undefined;
  // Each setting: the command line's, else the config's, else the default.
  const { settingOf } = await import("../node/config/config.js");
  const hostSetting = settingOf(
    given("legislationHost") ? options.legislationHost : undefined,
    config.legislationHost,
    options.legislationHost, // the option's default
  );
  const host = hostSetting.value;
  const lockSetting = settingOf(options.lock !== true ? options.lock : undefined, config.lock, undefined);
  const lock = lockSetting.value;
  const artifacts = options.artifacts && config.artifacts !== false;
  const schemaSetting = settingOf(options.schema, config.schema, undefined);
  const schema = schemaSetting.value;
  const maxProblemsSetting = settingOf(options.maxProblems, config.maxProblems, undefined);
  const maxProblems = maxProblemsSetting.value;
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
    const from = (source: SettingSource) =>
      source === "config" && loaded ? `config ${displayPath(loaded.path, context.cwd)}` : source;
    const ruleSources = Object.fromEntries(
      rules.map((rule) => {
        const setting = settingOf(
          options.rule?.[rule.id as RuleId],
          config.rules?.[rule.id],
          rule.meta.defaultSeverity as RuleSetting,
        );
        return [rule.id, { value: setting.value, from: from(setting.from) }];
      }),
    );
    const settings = {
      config: loaded ? displayPath(loaded.path, context.cwd) : null,
      settings: {
        patterns: {
          value: fromStdin ? ["-"] : paths.length > 0 ? paths : (config.patterns ?? [DEFAULT_PATTERN]),
          from:
            fromStdin || paths.length > 0 ? "command line" : from(config.patterns !== undefined ? "config" : "default"),
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
          from: from(hostSetting.from),
        },
        schema: await schemaInForce(schema, options.schema !== undefined, host, context.cwd, from(schemaSetting.from)),
        lock: {
          value: lock ?? "<name>.lock.json beside each <name>.jsonl, when present",
          from: from(lockSetting.from),
        },
        maxProblems: {
          value: maxProblems ?? null,
          from: from(maxProblemsSetting.from),
        },
        rules: ruleSources,
      },
    };
    context.stdout.write(`${JSON.stringify(settings, null, 2)}\n`);
    return 0;
  }
  let stagedFiles: string[] | undefined;
  let stagedManifests: string[] | undefined;
  let stagedRoot: string | undefined;
  if (options.staged) {
    if (fromStdin || paths.length > 0)
      throw new OperationalError("--staged chooses the files itself: name no paths with it");
    const { stagedFiles: staged } = await import("../node/git/staged.js");
    ({
      files: stagedFiles,
      manifests: stagedManifests,
      root: stagedRoot,
    } = await staged(context.cwd, {
      cache: options.cache !== false && options.cacheLocation === undefined, // roots-cache.ts
    }));
    if (stagedFiles.length === 0 && stagedManifests.length === 0) {
      context.stderr.write("citation-targets: nothing staged belongs to a dataset: nothing to check\n");
      // The stylish report has nothing to say; any other format is one document however little is checked (a CI
      // parser, or --output-file, reads it): the run goes on, over no file.
      if (format === "stylish") return 0;
    }
  }
  // A dataset named by its manifest, a markdown file or folder of it, or its slug: its JSONL (dataset-operands.ts).
  const named =
    !fromStdin && !options.staged && paths.length > 0
      ? await (await import("../node/dataset/dataset-operands.js")).validateOperands(paths, context.cwd)
      : paths;
  if (options.allowOutsideRepository) context.stderr.write(prefixLines(OUTSIDE_NOTE));
  noteJobs(options.jobs, { write: (text: string) => context.stderr.write(prefixLines(text)) });
  const progress = progressEnabled(context.env, context.stderr.isTTY)
    ? createProgressLine((text) => context.stderr.write(text))
    : undefined;
  let cacheUse: CacheUse | undefined;
  /** What each lock manifest held for the warning about twin datasets, as the run read it (none read again). */
  let twinFacts: ReadonlyMap<string, TwinFacts> | undefined;
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
    patterns: stagedFiles ?? (fromStdin ? [] : fromConfig ? config.patterns! : named),
    ...(stagedManifests ? { manifests: stagedManifests } : {}),
    cwd: context.cwd,
    ...(fromConfig && !stagedFiles ? { patternsCwd: dirname(loaded!.path), confinePatterns: true } : {}),
    ...(options.allowOutsideRepository ? { allowOutsideRepository: true } : {}),
    legislationHost: host,
    rules: { ...config.rules, ...options.rule },
    allowUnmatched: !options.errorOnUnmatchedPattern,
    ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
    ...(options.cache === false
      ? { cache: false as const }
      : options.cacheLocation !== undefined
        ? { cache: options.cacheLocation }
        : {}),
    ...(options.verbose ? { onCache: (use: CacheUse) => (cacheUse = use) } : {}),
    onTwinFacts: (facts: ReadonlyMap<string, TwinFacts>) => (twinFacts = facts),
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
    twinFacts,
  );
  // --staged reads the working tree: what it found may be in edits the commit does not hold. Said when the report says
  // anything, of the datasets' files git sees unstaged or untracked (two more git processes, only then).
  if (
    stagedRoot !== undefined &&
    stagedManifests !== undefined &&
    stagedManifests.length > 0 &&
    report.summary.errors + report.summary.warnings > 0
  ) {
    const { unstagedOf } = await import("../node/git/staged.js");
    const unstaged = await unstagedOf(stagedRoot, stagedManifests);
    const shown = unstaged.paths.map((path) => escapeControls(displayPath(path, context.cwd)));
    if (shown.length > 0)
      context.stderr.write(
        `citation-targets: note: ${plural(shown.length, "file")} of these datasets ${shown.length === 1 ? "has" : "have"} changes that are not staged (${shown.slice(0, 3).join(", ")}${shown.length > 3 ? `, and ${shown.length - 3} more` : ""}): --staged checks the working tree, so what it found may be in them and not in the commit. Stage them, or set them aside (\`git stash --keep-index${unstaged.untracked ? " --include-untracked" : ""}\`) and check again; the pre-commit framework sets them aside itself\n`,
      );
  }
  if (options.verbose) {
    if (loaded) context.stderr.write(`citation-targets: config: ${loaded.path}\n`);
    const source = report.schemaSource;
    const where =
      source.kind === "bundled"
        ? `bundled schema (legislation host ${source.legislationHost}; a dataset whose lock manifest names its legislationHost: that host's)`
        : `${source.kind === "option" ? "--schema" : "repository schema"} ${source.path}`;
    context.stderr.write(`citation-targets: schema: ${where}\n`);
    for (const file of report.files) {
      if (file.lockManifest)
        context.stderr.write(`citation-targets: ${file.path}: checked against lock manifest ${file.lockManifest}\n`);
      else if (lock === undefined && file.path.endsWith(".jsonl"))
        context.stderr.write(
          `citation-targets: ${file.path}: no lock manifest (looked for ${file.path.slice(0, -".jsonl".length)}.lock.json beside it, and for a citation-targets.lock.json there whose slug names it; --lock FILE names one)\n`,
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
  // Never over an input of the run (--output-file, the job summary): a file checked, its lock manifest and the artifacts
  // that pins, the schema or the config. The manifests are read for it only when there is an output to place.
  const placed = options.outputFile !== undefined || Boolean(context.env.GITHUB_STEP_SUMMARY);
  const { manifestInputs } = placed ? await import("../node/writes/run-inputs.js") : { manifestInputs: undefined };
  const inputs = report.files.flatMap((file) => [
    { path: resolve(context.cwd, file.path), what: `the file checked ${file.path}` },
    ...(file.lockManifest && manifestInputs
      ? manifestInputs(resolve(context.cwd, file.lockManifest), file.lockManifest)
      : []),
  ]);
  if (schema) inputs.push({ path: resolve(context.cwd, schema), what: "the schema" });
  if (loaded) inputs.push({ path: loaded.path, what: "the config" });
  if (options.outputFile) {
    const { refuseOverInputs } = await import("../node/writes/write.js");
    refuseOverInputs(resolve(context.cwd, options.outputFile), inputs, options.outputFile);
    // The chosen report to the file; the terminal gets the stylish report all the same (first, so a file that cannot be
    // written does not hide it).
    context.stdout.write(
      (await formatterOf("stylish"))(report, {
        ...formatContext,
        color: await colorAt(colorLevel(context.env, context.stdout.isTTY, options.color)),
      }),
    );
    await writeFileAtomic(
      resolve(context.cwd, options.outputFile),
      (await formatterOf(format))(report, { ...formatContext, color: await colorAt(0) }),
    );
  } else {
    const color = await colorAt(
      format === "stylish" ? colorLevel(context.env, context.stdout.isTTY, options.color) : 0,
    );
    context.stdout.write((await formatterOf(format))(report, { ...formatContext, color }));
  }
  // In GitHub Actions: a short summary on the job's page (docs/spec.md, section 18).
  if (context.env.GITHUB_STEP_SUMMARY) {
    const [{ appendStepSummary }, { validateStepSummary }] = await Promise.all([
      import("../node/writes/step-summary.js"),
      import("../formatters/step-summary.js"),
    ]);
    const warning = await appendStepSummary(context.env, () => validateStepSummary(report), inputs);
    if (warning !== undefined) context.stderr.write(prefixLines(`${warning}\n`));
  }
  if (options.verbose) {
    const threads =
      report.threads > 1
        ? ` in ${report.threads} threads (this one and ${plural(report.threads - 1, "worker thread")})`
        : "";
    context.stderr.write(`citation-targets: checked in ${Math.round(nowMs() - started)} ms${threads}\n`);
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
  const { displayPath } = await import("../node/files/files.js");
  if (schema !== undefined) {
    const shown = displayPath(resolve(cwd, schema), cwd);
    return {
      value: shown,
      from,
      used: `${shown}, named by ${fromFlag ? "--schema" : 'the config\'s "schema"'} (legislationHost does not apply to it)`,
    };
  }
  const { findRepositorySchema, REPOSITORY_SCHEMA_PATH } = await import("../node/config/schema-source.js");
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
    used: `the bundled schema, built for legislation host ${host} (no ${REPOSITORY_SCHEMA_PATH} from here up to the repository root), or for the legislationHost a dataset's lock manifest names`,
  };
}

/**
 * A format's formatter: the stylish one (the default, and the terminal's beside --output-file) loaded alone, the others
 * from the registry (bench/RESULTS.md, start-up).
 */
async function formatterOf(format: FormatName): Promise<Formatter> {
  if (format === "stylish") return (await import("../formatters/stylish.js")).formatStylish;
  return (await import("../formatters/index.js")).formatters[format];
}

function dropUndefined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
