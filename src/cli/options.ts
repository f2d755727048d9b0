/** The option parsers and options the commands share. */
import { type Command, InvalidArgumentError, Option } from "commander";
import type { RuleSetting } from "../core/report/problem.js";
import { DEFAULT_LEGISLATION_HOST, isValidLegislationHost } from "../core/schema/schema.js";
import { unknownRuleMessage } from "../core/text.js";
import type { ArtifactReadingOptions } from "../node/generate/generate-options.js";
import type { RuleId } from "../rules/index.js";
import { ruleIdsLoaded } from "./rule-ids.js";

export function parseCount(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError("expected a whole number, 0 or more");
  return Number(value);
}

export function parsePositive(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError("expected a whole number, 1 or more");
  return Number(value);
}

export function parseShard(value: string): { index: number; count: number } {
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(value);
  if (!match || Number(match[1]) > Number(match[2]))
    throw new InvalidArgumentError("expected i/n with 1 ≤ i ≤ n, e.g. 2/4");
  return { index: Number(match[1]), count: Number(match[2]) };
}

export function parseHost(value: string): string {
  if (!isValidLegislationHost(value))
    throw new InvalidArgumentError(`expected a lowercase host name such as ${DEFAULT_LEGISLATION_HOST}`);
  return value;
}

export function collectRule(
  value: string,
  previous: Partial<Record<RuleId, RuleSetting>> = {},
): Partial<Record<RuleId, RuleSetting>> {
  const match = /^([a-z0-9-]+)[=:](error|warning|off)$/.exec(value);
  if (!match)
    throw new InvalidArgumentError(
      'expected RULE=SEVERITY, e.g. "non-canonical=warning" (severity: error, warning or off)',
    );
  const id = match[1]!;
  const ruleIds = ruleIdsLoaded();
  if (!(ruleIds as readonly string[]).includes(id)) throw new InvalidArgumentError(unknownRuleMessage(id, ruleIds));
  return { ...previous, [id]: match[2] as RuleSetting };
}

export function pick<T extends object, K extends keyof T>(object: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]])) as Partial<
    Pick<T, K>
  >;
}

/** A repeatable PATH=VALUE option, VALUE checked against `allowed` when given. */
export function collectPair(allowed?: readonly string[]) {
  return (value: string, previous: Record<string, string> = {}): Record<string, string> => {
    const at = value.lastIndexOf("=");
    if (at <= 0) throw new InvalidArgumentError("expected PATH=VALUE");
    const key = value.slice(0, at);
    const v = value.slice(at + 1);
    if (allowed && !allowed.includes(v)) throw new InvalidArgumentError(`"${v}" is not one of ${allowed.join(", ")}`);
    return { ...previous, [key]: v };
  };
}

/** The caps on reading artifacts that lock (the first), generate, update and adopt share (docs/spec.md, section 13): one text each. */
export const CAP_OPTIONS = {
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
  maxFrontMatterBytes: [
    "--max-front-matter-bytes <n>",
    "the largest front matter of a markdown file, in bytes (default 1048576, 1 MiB); a larger one is refused, named",
  ],
} as const;

/** A fresh option for one of the caps (an Option belongs to one command). */
export function capOption(name: keyof typeof CAP_OPTIONS): Option {
  const [flags, description] = CAP_OPTIONS[name];
  return new Option(flags, description).argParser(parsePositive);
}

/** The caps on reading artifacts (and the confinement) as given on the command line: the library's options of the same names. */
export type ArtifactCapOptions = ArtifactReadingOptions;

/** Adds the four caps on reading artifacts to a command (generate, update, adopt), in one order. */
export function addCapOptions(command: Command): Command {
  for (const name of Object.keys(CAP_OPTIONS) as (keyof typeof CAP_OPTIONS)[]) command.addOption(capOption(name));
  return command;
}

/** A fresh --allow-outside-repository (validate, generate, update, adopt): one text. */
export function allowOutsideOption(): Option {
  return new Option(
    "--allow-outside-repository",
    "let lock manifests' dataset folders (and, for validate, config patterns) lead outside the repository, and read files that symbolic links lead to outside it (default: confined to it, symbolic links resolved; refused, named)",
  );
}

/** The caps (and the confinement) given on the command line, for the library's options. */
export function artifactCaps(options: ArtifactCapOptions): ArtifactCapOptions {
  return {
    ...(options.allowOutsideRepository ? { allowOutsideRepository: true } : {}),
    ...(options.maxArtifactBytes !== undefined ? { maxArtifactBytes: options.maxArtifactBytes } : {}),
    ...(options.maxYamlAliases !== undefined ? { maxYamlAliases: options.maxYamlAliases } : {}),
    ...(options.maxHeadings !== undefined ? { maxHeadings: options.maxHeadings } : {}),
    ...(options.maxHeadingLength !== undefined ? { maxHeadingLength: options.maxHeadingLength } : {}),
    ...(options.maxFrontMatterBytes !== undefined ? { maxFrontMatterBytes: options.maxFrontMatterBytes } : {}),
  };
}
