/**
 * `citation-targets generate`: a dataset's JSONL from its lock manifest. Registered on the program by
 * `registerGenerateCommand`.
 */
import { type Command, Option } from "commander";
import { plural } from "../core/text.js";
import { OperationalError } from "../node/errors.js";
import { type CommandIo, type MainContext, noteJobs, OUTSIDE_NOTE, packageJson, writeAndDrain } from "./context.js";
import { CHECK_FORMATS, isFreshnessFormat } from "./freshness-formats.js";
import { type ArtifactCapOptions, artifactCaps, addCapOptions, allowOutsideOption, parsePositive } from "./options.js";
import { nowMs } from "./clock.js";

/** Adds the `generate` command to the program. */
export function registerGenerateCommand(
  program: Command,
  context: MainContext,
  { stdout, stderr, setExitCode }: CommandIo,
): void {
  addCapOptions(
    program
      .command("generate")
      .summary("generate a dataset's JSONL from its lock manifest")
      .description(
        "Generate the citation-targets JSONL of a dataset from its lock manifest and the markdown artifacts it pins. Every artifact is verified against its sha256 before anything is written; the output is canonical and byte-identical on every run.",
      )
      .argument("<dataset>", "the dataset: its lock manifest, its JSONL, a markdown file or its folder, or its slug")
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
      ),
  )
    .option("--verbose", "say how many threads parsed the markdown and how long it took (stderr)")
    .addOption(
      new Option(
        "-f, --format <format>",
        "the --check report: text (default: on stderr), json (on stdout; docs/spec.md, section 15), or for CI github, sarif, junit, gitlab (on stdout)",
      )
        .choices(CHECK_FORMATS)
        .default("text"),
    )
    .addOption(allowOutsideOption())
    .addHelpText(
      "after",
      "\nExit codes: 0 generated (or, with --check, FILE is exactly what would be generated), 1 --check found differences or the dataset is at fault (an artifact changed since it was pinned, or gone), 2 usage or I/O error.\n\nExamples:\n  citation-targets generate .tooling/citation-targets/mvfg.lock.json -o .tooling/citation-targets/mvfg.jsonl\n  citation-targets generate mvfg --check .tooling/citation-targets/mvfg.jsonl",
    )
    .action(
      async (
        operand: string,
        options: {
          output?: string;
          format: (typeof CHECK_FORMATS)[number];
          check?: string;
          jobs?: number;
          verbose?: boolean;
        } & ArtifactCapOptions,
      ) => {
        if (options.allowOutsideRepository) stderr.write(OUTSIDE_NOTE);
        noteJobs(options.jobs, stderr);
        const caps = artifactCaps(options);
        const started = nowMs();
        if (options.check && options.output) throw new OperationalError("--check and --output exclude each other");
        if (options.format !== "text" && !options.check)
          throw new OperationalError(
            `--format ${options.format} is the report of --check (generate writes the JSONL itself)`,
          );
        const { datasetManifestOperand } = await import("./dataset-operand.js");
        const manifest = await datasetManifestOperand(operand, context.cwd);
        const { checkGenerated, generate } = await import("../node/generate/generate.js");
        if (options.check) {
          const { generateCheckJson, generateCheckText } = await import("./dataset-reports.js");
          const checking = checkGenerated({
            manifest,
            cwd: context.cwd,
            check: options.check,
            ...caps,
            ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
          });
          if (isFreshnessFormat(options.format)) {
            // A dataset at fault (an artifact changed since it was pinned, or gone) is reported in the CI format too, at
            // the manifest, besides the text on stderr: a CI job reads the report, and an empty one hides the failure.
            // A file that could not be read is no such issue (update is no fix for it): exit 2, as any I/O error.
            const { DatasetError } = await import("../core/errors.js");
            const faulted = await checking.catch((error: unknown) => {
              if (error instanceof DatasetError && !error.unreadable) return error;
              throw error;
            });
            if (faulted instanceof DatasetError) {
              const { generateFreshness } = await import("./freshness-output.js");
              stdout.write(
                await generateFreshness(
                  options.format,
                  { problems: faulted.problems },
                  options.check,
                  manifest,
                  context.cwd,
                  packageJson.version,
                ),
              );
              throw faulted; // said on stderr as ever, exit 1
            }
          }
          const result = await checking;
          if (isFreshnessFormat(options.format)) {
            const { generateFreshness } = await import("./freshness-output.js");
            stdout.write(
              await generateFreshness(
                options.format,
                result,
                options.check,
                manifest,
                context.cwd,
                packageJson.version,
              ),
            );
            setExitCode(result.difference ? 1 : 0);
            return;
          }
          if (options.format === "json") {
            stdout.write(generateCheckJson(result, options.check));
            setExitCode(result.difference ? 1 : 0);
            return;
          }
          stderr.write(generateCheckText(result, options.check, manifest));
          if (result.difference) setExitCode(1);
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
        const { displayPath } = await import("../node/files/files.js");
        if (result.output)
          stderr.write(`wrote ${displayPath(result.output, context.cwd)} (${plural(result.records, "record")})\n`);
        const threads = result.threads ?? 1;
        const parsedIn = result.staged
          ? `${plural(threads, "capped worker thread")}, its lines made in this one`
          : result.capped
            ? plural(threads, "capped worker thread")
            : threads === 1
              ? "this thread"
              : `${threads} threads (this one and ${plural(threads - 1, "worker thread")})`;
        if (options.verbose)
          stderr.write(`generated in ${Math.round(nowMs() - started)} ms, markdown parsed in ${parsedIn}\n`);
      },
    );
}
