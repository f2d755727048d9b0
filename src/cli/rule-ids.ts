/**
 * The rule ids that validate's `--rule` accepts and its help lists, from the rule registry. Only validate's run needs
 * the registry, which loads every rule: main.ts loads it before the program parses a validate command line (or
 * `help`), so that no other command's start-up pays for it (bench/RESULTS.md, start-up).
 */
import type { RuleId } from "../rules/index.js";

let loaded: readonly RuleId[] | undefined;

/** Loads the rule registry's ids (once). */
export async function loadRuleIds(): Promise<readonly RuleId[]> {
  loaded ??= (await import("../rules/index.js")).ruleIds;
  return loaded;
}

/** The rule ids, once loadRuleIds has run: asked before, it is a mistake of the program, said as such. */
export function ruleIdsLoaded(): readonly RuleId[] {
  if (loaded === undefined) throw new Error("internal: the rule ids were read before main.ts loaded them");
  return loaded;
}
