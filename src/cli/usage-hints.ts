/**
 * What the command line is read as before commander parses it: `citation-targets --help <command>` is that
 * command's help, and an option users bring from other tools gets the option of ours that does what they meant.
 */

/** Options of other tools, by command, and ours that does what they mean. */
const MEANT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  update: { "--dry-run": "--check" },
  adopt: { "--dry-run": "--check" },
  lock: { "--dry-run": "--check" },
  generate: { "--dry-run": "--check <file>" },
};

/**
 * The argument list with `--help <command>` (or `-h <command>`) turned into `<command> --help`, when `command` is one
 * of the program's.
 */
export function helpFirst(argv: readonly string[], commands: readonly string[]): string[] {
  if (argv.length >= 2 && (argv[0] === "--help" || argv[0] === "-h") && commands.includes(argv[1]!))
    return [argv[1]!, "--help", ...argv.slice(2)];
  return [...argv];
}

/**
 * The error for an option of another tool given to a command ("unknown option '--dry-run' (did you mean --check?)"),
 * or undefined. Arguments after `--` are operands, never options.
 */
export function meantOption(argv: readonly string[]): string | undefined {
  const table = MEANT[argv[0] ?? ""];
  if (table === undefined) return undefined;
  const end = argv.indexOf("--");
  for (const arg of end === -1 ? argv.slice(1) : argv.slice(1, end)) {
    const flag = arg.split("=")[0]!;
    const ours = table[flag];
    if (ours !== undefined) return `error: unknown option '${flag}' (did you mean ${ours}?)`;
  }
  return undefined;
}
