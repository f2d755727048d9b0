/**
 * `citation-targets diff`: the change kinds between two versions, as a CI gate (docs/spec.md, section 12).
 * Registered on the program by `registerDiffCommand`; usage and I/O problems are OperationalErrors
 * (the program prints them and exits 2), the gate sets exit code 0 or 1.
 */
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { ADDITIVE_KINDS, BREAKING_KINDS, diffExitCode, FAIL_ON_LEVELS, type FailOn } from "../core/diff/diff.js";
import { DIFF_FORMAT_NAMES, type DiffFormatName } from "../formatters/diff-names.js";
import type { DiffReport } from "../core/diff/diff.js";
import { packageJson } from "./context.js";
import { parsePositive } from "./options.js";
import { nowMs } from "./clock.js";

export interface DiffCommandContext {
  cwd: string;
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
}

interface DiffCliOptions {
  allowOutsideRepository?: boolean;
  against?: string;
  schema?: boolean;
  approvals?: string;
  writeApprovals?: string;
  failOn: FailOn;
  passEditorial?: boolean;
  format: DiffFormatName;
  outputFile?: string;
  color?: boolean;
  verbose?: boolean;
  jobs?: number;
}

/** Adds the `diff` command to the program. */
export function registerDiffCommand(
  program: Command,
  context: DiffCommandContext,
  setExitCode: (code: number) => void,
): void {
  program
    .command("diff")
    .summary("report additive and breaking changes between two versions (a CI gate)")
    .description(
      "Compare two versions of citation-targets files, matching records by citationAddress, and report every change with its kind " +
        "and class (docs/spec.md, section 12). The old version is a file, a folder (files paired by name, <slug>.jsonl), or a git " +
        "revision (--against REV: the working tree's files against the same paths at REV, read with git; a shallow clone works " +
        "when REV is in it). --schema compares two record JSON Schemas.",
    )
    .argument(
      "[paths...]",
      "OLD NEW (files or folders), or REV1 REV2 (two git revisions, then paths after --); with --against, working-tree files or folders (default: .tooling/citation-targets/*.jsonl and the repository schema)",
    )
    .option("--against <rev>", "compare the working tree with the same paths at this git revision (e.g. origin/main)")
    .option("--schema", "the paths are record JSON Schemas (files ending in .schema.json are taken as schemas anyway)")
    .option(
      "--approvals <file>",
      'a reviewed JSON file approving breaking changes: {"approvals": [{"address": …, "reason": …}]}',
    )
    .option(
      "--write-approvals <file>",
      'write an approvals file for the breaking changes no approval covers yet, each with a placeholder reason ("TODO: …") that approves nothing until a reviewer replaces it; entries already in FILE are kept',
    )
    .addOption(
      new Option("--fail-on <level>", "which changes fail the run (exit 1)")
        .choices(FAIL_ON_LEVELS)
        .default("breaking"),
    )
    .option(
      "--pass-editorial",
      "let editorial changes pass the gate: a record whose text changed only in footnote references and definitions or in white space (config: diff.passEditorial)",
    )
    .addOption(new Option("-f, --format <format>", "output format").choices(DIFF_FORMAT_NAMES).default("stylish"))
    .option(
      "-o, --output-file <file>",
      "write the report in the chosen format to FILE (atomically); the terminal still gets the stylish report",
    )
    .option("--color", "force colour on")
    .option("--no-color", "force colour off")
    .option("--verbose", "say on stderr what was compared and how long it took")
    .option(
      "--allow-outside-repository",
      "read files that symbolic links lead to outside the repository (default: refused, named)",
    )
    .option(
      "--jobs <n>",
      "worker threads to compare the pairs on (default: one per core when 32+ pairs differ, else none: this thread; at most 4 per core); the report is the same",
      parsePositive,
    )
    .addHelpText(
      "after",
      `\nChange kinds. Breaking: ${BREAKING_KINDS.join(", ")}.\nAdditive: ${ADDITIVE_KINDS.join(", ")}.\n\n` +
        `Exit codes: 0 the gate passes, 1 it fails (--fail-on), 2 usage or I/O error (a missing file, a revision not in the clone).\n\n` +
        `Examples:\n  citation-targets diff old/privacy-act-1988.jsonl .tooling/citation-targets/privacy-act-1988.jsonl\n  citation-targets diff released/ .tooling/citation-targets/\n` +
        `  citation-targets diff HEAD~1 HEAD --approvals .tooling/citation-targets/approvals.json\n` +
        `  citation-targets diff --against origin/main --format github --approvals .tooling/citation-targets/approvals.json\n  citation-targets diff --schema old.schema.json schemas/citation-targets.schema.json\n  citation-targets diff --against origin/main --format html --output-file amendment.html`,
    )
    .action(async (operands: string[], options: DiffCliOptions, command: Command) => {
      const started = nowMs();
      // Loaded only when diff runs, so that the other commands start without it.
      const [{ diff }, { diffOperands, passEditorialSetting }, { cwdInRepository }, { diffHints, writeDiffOutput }] =
        await Promise.all([
          import("../node/diff/diff.js"),
          import("./diff-operands.js"),
          import("../node/files/files.js"),
          import("./diff-output.js"),
        ]);
      const read = await diffOperands(operands, command, options.against, context.cwd);
      const paths = read.paths;
      const report = await diff({
        cwd: context.cwd,
        paths,
        failOn: options.failOn,
        ...((await passEditorialSetting(options.passEditorial, context.cwd)) ? { passEditorial: true } : {}),
        ...("to" in read ? { against: read.against, to: read.to } : {}),
        ...(options.against !== undefined ? { against: options.against } : {}),
        ...(options.schema ? { schema: true } : {}),
        ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
        ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
        ...(options.allowOutsideRepository ? { allowOutsideRepository: true } : {}),
      });
      const where = await cwdInRepository(context.cwd);
      // Never over an input (--output-file, the job summary; listed only when there is one): a file compared (named,
      // or found by --against), the lock manifest beside it and the artifacts that pins, the approvals file.
      const placed = options.outputFile !== undefined || Boolean(context.env.GITHUB_STEP_SUMMARY);
      const inputs = placed ? await diffInputs(paths, report.pairs, options.approvals, context.cwd) : [];
      await writeDiffOutput(
        report,
        {
          format: options.format,
          inputs,
          ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
          ...(options.outputFile !== undefined ? { outputFile: options.outputFile } : {}),
          ...(options.color !== undefined ? { color: options.color } : {}),
        },
        context,
        { toolVersion: packageJson.version, ...(where !== undefined ? { cwdInRepository: where } : {}) },
      );
      // Hints are no part of the report: standard error, after it, whatever the format. Writing the approvals file
      // says the step left itself.
      if (options.writeApprovals !== undefined) await writeApprovalsFile(report, options.writeApprovals, context);
      else for (const hint of diffHints(report)) context.stderr.write(`${hint}\n`);
      if (options.verbose) {
        const against = report.against
          ? ` against ${report.against.revision} (${report.against.commit.slice(0, 12)})`
          : "";
        context.stderr.write(
          `citation-targets: compared ${report.pairs.length} ${report.pairs.length === 1 ? "pair" : "pairs"}${against} in ${Math.round(nowMs() - started)} ms\n`,
        );
      }
      setExitCode(diffExitCode(report));
    });
}

/**
 * --write-approvals: merges the entries the report needs into the file and says on stderr what it did and what the
 * reviewer must do.
 */
async function writeApprovalsFile(report: DiffReport, file: string, context: DiffCommandContext): Promise<void> {
  const { writeApprovals } = await import("../node/diff/approvals-file.js");
  const result = await writeApprovals(report, file, context.cwd);
  const kept = result.kept > 0 ? `; kept the ${result.kept === 1 ? "entry" : `${result.kept} entries`} it had` : "";
  if (!result.written) {
    context.stderr.write(
      `citation-targets: ${file}: nothing to add: every change that needs an approval is approved${result.kept > 0 ? " or named there" : ""} (${result.kept > 0 ? "left as it was" : "not written"})\n`,
    );
    return;
  }
  const count = result.added.length === 1 ? "1 approval" : `${result.added.length} approvals`;
  const { describeAddedApproval } = await import("../formatters/approvals-added.js");
  context.stderr.write(
    `citation-targets: wrote ${file}: ${count} to review${kept}\n` +
      result.covering.map((entry) => `citation-targets:   ${describeAddedApproval(entry)}\n`).join("") +
      `citation-targets: each new reason is a placeholder ("TODO: …") and approves nothing: replace it with why the change is right (e.g. "repealed by Act No. 12, 2025"), commit the file, and pass it with --approvals ${file}\n`,
  );
}

/** What diff read: every file compared, the lock manifest beside each and the artifacts it pins, the approvals file. */
async function diffInputs(
  paths: readonly string[],
  pairs: readonly { old: string; new: string }[],
  approvals: string | undefined,
  cwd: string,
): Promise<{ path: string; what: string }[]> {
  const { manifestBeside, manifestInputs } = await import("../node/writes/run-inputs.js");
  const compared = [...new Set([...paths, ...pairs.flatMap((pair) => [pair.old, pair.new])])];
  return [
    ...compared.map((path) => ({ path: resolve(cwd, path), what: `the compared ${path}` })),
    ...compared.flatMap((path) => {
      const manifest = manifestBeside(path);
      return manifest !== undefined ? manifestInputs(resolve(cwd, manifest), manifest) : [];
    }),
    ...(approvals !== undefined ? [{ path: resolve(cwd, approvals), what: "the approvals file" }] : []),
  ];
}
