import { Command, CommanderError } from "commander";
import { DatasetError, errorMessage } from "../core/errors.js";
import { describeUnexpectedIoError, OperationalError } from "../node/errors.js";
import { endRun, type MainContext, packageJson, prefixLines } from "./context.js";
import { registerDiffCommand } from "./diff-command.js";
import { registerGenerateCommand } from "./generate-command.js";
import { registerLockCommand } from "./lock-command.js";
import { registerResolveCommand } from "./resolve-command.js";
import { registerSchemaCommand } from "./schema-command.js";
import { registerAdoptCommand, registerUpdateCommand } from "./update-command.js";
import { registerValidateCommand } from "./validate-command.js";
import { loadRuleIds } from "./rule-ids.js";
import { helpFirst, meantOption } from "./usage-hints.js";
import { registerViewCommand } from "./view-command.js";

/**
 * The commands that refuse to run while an interrupted update's journal is pending (update completes it, or refuses
 * with --check).
 */
const GATED_COMMANDS = new Set(["validate", "lock", "generate", "diff"]);

/** The commands, in the order `--help` lists them. */
const COMMAND_NAMES = ["validate", "schema", "lock", "generate", "update", "adopt", "diff", "view", "resolve"] as const;

/** Runs the CLI; resolves to the exit code. Only the bin touches `process`. */
export async function main(context: MainContext): Promise<number> {
  const { stdout } = context;
  /** Every line the program writes to stderr carries its name. */
  const stderr = {
    write: (text: string) => context.stderr.write(prefixLines(text)),
    // Asked when needed only: the bin's answer may cost a module load (bin/citation-targets.js).
    get isTTY() {
      return context.stderr.isTTY;
    },
  };
  let exitCode = 0;
  const program = new Command()
    .name("citation-targets")
    .description(
      "Validate, lock, adopt, generate, update, diff, view and resolve citation-targets JSONL datasets of published legislation.",
    )
    .version(packageJson.version, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s) });

  const io = { stdout, stderr, setExitCode: (code: number) => (exitCode = code) };
  const registrations: Record<(typeof COMMAND_NAMES)[number], () => void> = {
    validate: () => registerValidateCommand(program, context, io),
    schema: () => registerSchemaCommand(program, context, io),
    lock: () => registerLockCommand(program, context, io),
    generate: () => registerGenerateCommand(program, context, io),
    update: () => registerUpdateCommand(program, context, io),
    adopt: () => registerAdoptCommand(program, context, io),
    diff: () =>
      registerDiffCommand(program, { cwd: context.cwd, stdout, stderr, env: context.env }, (code) => {
        exitCode = code;
      }),
    view: () => registerViewCommand(program, { cwd: context.cwd, stdout, stderr }),
    resolve: () => registerResolveCommand(program, context, io),
  };
  const argv = helpFirst(context.argv, COMMAND_NAMES);
  // Start-up: a run of one command registers that command only (its options are commander objects, dozens a command),
  // `--version` none; anything else (help, a mistyped command) all of them, in this order.
  const named = COMMAND_NAMES.find((name) => name === argv[0]);
  const version = argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V");
  for (const name of named !== undefined ? [named] : version ? [] : COMMAND_NAMES) registrations[name]();
  try {
    if (argv.length === 0) {
      stderr.write(
        `missing command: usage: citation-targets <validate|lock|adopt|generate|update|diff|view|resolve|schema> [options]\nrun \`citation-targets --help\` for the commands, \`citation-targets <command> --help\` for their options\n`,
      );
      return 2;
    }
    const meant = meantOption(argv);
    if (meant !== undefined && !argv.some((arg) => arg === "--help" || arg === "-h")) {
      stderr.write(`${meant}\n(run with --help for usage)\n`);
      return 2;
    }
    if (GATED_COMMANDS.has(argv[0] ?? "") && !argv.some((arg) => arg === "--help" || arg === "-h")) {
      // An interrupted update leaves datasets half renamed: every command says so, and what completes it, before it
      // reads any.
      const { pendingJournal } = await import("../node/writes/journal.js");
      const pending = await pendingJournal(context.cwd);
      if (pending !== undefined) {
        stderr.write(`${pending}\n`);
        return 2;
      }
    }
    // validate's --rule and help name the rules: their registry is loaded for validate (and help) only (rule-ids.ts).
    if (argv[0] === "validate" || argv[0] === "help") await loadRuleIds();
    try {
      await program.parseAsync(argv, { from: "user" });
    } finally {
      endRun(); // what the command keeps for its run ends with it (context.ts)
    }
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
      const { describeDatasetProblems } = await import("./dataset-reports.js");
      stderr.write(describeDatasetProblems(error.problems, error.closing));
      return error.unreadable ? 2 : 1;
    }
    if (error instanceof OperationalError) {
      stderr.write(`${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    stderr.write(`${code ? describeUnexpectedIoError(error) : errorMessage(error)}\n`);
    return 2;
  }
}
