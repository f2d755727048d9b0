/**
 * How `diff` reads its operands (README, "diff"): with `--against`, paths; else two operands are two
 * paths or two git revisions (`diff REV1 REV2`, git-style, paths after `--`). And whether editorial
 * changes pass: `--pass-editorial`, else the config's `diff.passEditorial`.
 */
import type { Command } from "commander";
import { findConfig } from "../node/config/config.js";
import type { DiffArguments } from "../node/diff/diff-revisions.js";

/** The operands after `--` on the command line: always paths. */
function afterSeparator(operands: string[], command: Command): number {
  // Commander keeps the arguments as given on the program (not in its types).
  const raw = (command.parent as (Command & { rawArgs?: string[] }) | null)?.rawArgs ?? [];
  const at = raw.indexOf("--");
  return at === -1 ? 0 : Math.min(operands.length, raw.length - at - 1);
}

export async function diffOperands(
  operands: string[],
  command: Command,
  against: string | undefined,
  cwd: string,
): Promise<DiffArguments> {
  if (against !== undefined) return { paths: operands };
  const split = operands.length - afterSeparator(operands, command);
  const { resolveDiffArguments } = await import("../node/diff/diff-revisions.js");
  return resolveDiffArguments(operands.slice(0, split), operands.slice(split), cwd);
}

/** `--pass-editorial`, else `diff.passEditorial` of the config found from the working directory. */
export async function passEditorialSetting(flag: boolean | undefined, cwd: string): Promise<boolean> {
  if (flag) return true;
  return (await findConfig(cwd))?.config.diff?.passEditorial === true;
}
