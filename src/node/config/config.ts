import { dirname, join, resolve, sep } from "node:path";
import type { RuleSetting } from "../../core/report/problem.js";
import { DEFAULT_LEGISLATION_HOST, NON_EMPTY_STRING } from "../../core/schema/schema.js";
import { ruleIds } from "../../rules/index.js";
import { OperationalError } from "../errors.js";
import { closest, unknownRuleMessage, valueAtPointer } from "../../core/text.js";
import { keyPosition } from "../../core/json/json-scan.js";
import type { ErrorObject } from "ajv/dist/2020.js";
import { LEGISLATION_HOST_PATTERN } from "../../core/model.js";
import { displayPath, foldersUpToRoot, statIfThere } from "../files/files.js";
import { readJsonText } from "../files/json-file.js";
import { describeAjvErrors, jsonFileValidator } from "./precompiled.js";

/** What a config file may set for `validate`; every member is optional, and command-line flags win. */
export interface Config {
  /** Files, directories or globs to validate when none are named, relative to the config file. */
  patterns?: string[];
  legislationHost?: string;
  /** A schema file, relative to the config file. */
  schema?: string;
  /** A lock manifest for every file (relative to the config file), or false to look for none. */
  lock?: string | false;
  /** false: do not check the lock manifests' artifacts (a sparse checkout); the same as `--no-artifacts`. */
  artifacts?: boolean;
  rules?: Partial<Record<string, RuleSetting>>;
  maxProblems?: number;
  /**
   * `adopt`'s dataset folders (globs, relative to the config file), a template per dataset field (docs/spec.md, "Field
   * templates") and the datasets' legislation host: one section, or an array of sections, each with its own.
   */
  adopt?: AdoptConfig | AdoptConfig[];
  /** `diff`'s settings. */
  diff?: { passEditorial?: boolean };
}

export interface AdoptConfig {
  datasets?: string[];
  slug?: string;
  titleId?: string;
  name?: string;
  versionDate?: string;
  sourceTextUrl?: string;
  /** Give the datasets adopted targets for the units below the heading (the manifest's `units`), as --units. */
  units?: boolean;
  /** Front matter keys whose values become each manifest's `aliases` (`--alias`; README, "resolve"). */
  aliases?: string[];
  /** The host the section's datasets' sourceTextUrl is on, when it is not the config's `legislationHost` (or the default). */
  legislationHost?: string;
}

/** The config's `adopt` as a list of sections (a single object is one section). */
export function adoptSections(config: Config | undefined): AdoptConfig[] {
  const adopt = config?.adopt;
  return adopt === undefined ? [] : Array.isArray(adopt) ? adopt : [adopt];
}

export interface LoadedConfig {
  /** Absolute path of the file the config came from. */
  path: string;
  config: Config;
}

/**
 * Where a config is looked for, in each folder from the working directory up to the repository root
 * (the folder holding `.git`): the first entry of this table that exists wins.
 */
export const CONFIG_FILES: readonly { name: string; key?: string }[] = [
  { name: ".citation-targets.json" },
  { name: "citation-targets.config.json" },
  { name: "package.json", key: "citation-targets" },
];

/** One section of the config's `adopt`. */
const ADOPT_SECTION = {
  type: "object",
  additionalProperties: false,
  description:
    "adopt: the dataset folders, a template per dataset field ({folder}, {path}, {front.KEY}, filters |slug |lower |upper |trim) and the datasets' legislation host",
  properties: {
    datasets: {
      type: "array",
      items: NON_EMPTY_STRING,
      minItems: 1,
      description: "dataset folders or markdown files, or globs of them, relative to the config file",
    },
    slug: {
      ...NON_EMPTY_STRING,
      description:
        "default: {front.slug|slug} when the front matter has a slug (and the folder's files agree on it), else {folder|slug}",
    },
    titleId: NON_EMPTY_STRING,
    name: NON_EMPTY_STRING,
    versionDate: NON_EMPTY_STRING,
    sourceTextUrl: NON_EMPTY_STRING,
    legislationHost: {
      type: "string",
      pattern: LEGISLATION_HOST_PATTERN,
      description:
        "the host these datasets' sourceTextUrl is on, when it is not the config's legislationHost (or the default): written in their lock manifests",
    },
    units: {
      type: "boolean",
      description:
        "true: these datasets get targets for the units below the heading (the manifest's units), as --units",
    },
    aliases: {
      type: "array",
      items: NON_EMPTY_STRING,
      description: "front matter keys (e.g. jurabk) whose values become each manifest's aliases, as --alias",
    },
  },
};

/** JSON Schema (2020-12) of the config; shipped as schemas/citation-targets.config.schema.json. */
export function buildConfigSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "urn:citation-targets:schema:config:1",
    title: "citation-targets configuration",
    description:
      "Settings for `citation-targets validate`. Paths are relative to the config file. Command-line flags win over these.",
    type: "object",
    additionalProperties: false,
    properties: {
      $schema: { type: "string" },
      patterns: {
        type: "array",
        items: NON_EMPTY_STRING,
        minItems: 1,
        description: "files, directories or globs to validate when none are named",
      },
      legislationHost: {
        type: "string",
        pattern: LEGISLATION_HOST_PATTERN,
        description: "the host sourceTextUrl must be on (bundled schema)",
      },
      schema: { ...NON_EMPTY_STRING, description: "a JSON Schema file to validate records against" },
      lock: {
        oneOf: [NON_EMPTY_STRING, { const: false }],
        description: "a lock manifest for every file, or false to look for none",
      },
      artifacts: {
        type: "boolean",
        description:
          "false: do not check the lock manifests' artifacts (a checkout without the dataset folders), as --no-artifacts",
      },
      rules: {
        type: "object",
        propertyNames: { enum: [...ruleIds] },
        additionalProperties: { enum: ["error", "warning", "off"] },
        description: "severity per rule id",
      },
      maxProblems: { type: "integer", minimum: 0, description: "show at most this many problems per file" },
      adopt: {
        oneOf: [
          ADOPT_SECTION,
          {
            type: "array",
            items: ADOPT_SECTION,
            minItems: 1,
            description: "several sections, each with its own datasets, templates and legislation host",
          },
        ],
        description:
          "adopt: one section, or an array of sections (each with its own datasets, templates and legislationHost)",
      },
      diff: {
        type: "object",
        additionalProperties: false,
        description: "diff's settings",
        properties: {
          passEditorial: {
            type: "boolean",
            description:
              "let editorial changes pass the gate: a record whose text changed only in footnotes or white space (--pass-editorial)",
          },
        },
      },
    },
  };
}

/** A folder or glob relative to the config file, as a path or glob absolute (fast-glob takes forward slashes). */
function relativeGlob(base: string, pattern: string): string {
  return resolve(base, pattern).split(sep).join("/");
}

/** The config's `adopt` with each section's datasets made absolute; its shape (an object or an array) kept. */
function relativeSections(adopt: AdoptConfig | AdoptConfig[], base: string): AdoptConfig | AdoptConfig[] {
  const section = (one: AdoptConfig): AdoptConfig =>
    one.datasets !== undefined ? { ...one, datasets: one.datasets.map((d) => relativeGlob(base, d)) } : one;
  return Array.isArray(adopt) ? adopt.map(section) : section(adopt);
}

/** The config found from `cwd` up to the repository root, if any. */
export async function findConfig(cwd: string): Promise<LoadedConfig | undefined> {
  for (const folder of (await foldersUpToRoot(cwd)).folders) {
    for (const entry of CONFIG_FILES) {
      const path = join(folder, entry.name);
      const info = statIfThere(path); // sync: a run's start path
      if (info === undefined || info.isDirectory()) continue;
      // A FIFO, a device or a socket in a config's place (or a link to one) is read as every file is: refused by name,
      // never taken for no config.
      if (entry.key === undefined || !info.isFile()) return loadConfig(path);
      const { text, data } = await readJsonText(path, "config");
      if (data !== null && typeof data === "object" && entry.key in data)
        return checkConfig(path, (data as Record<string, unknown>)[entry.key], { text, within: `/${entry.key}` });
    }
  }
  return undefined;
}

/** Reads and checks one config file (a `package.json` is read for its "citation-targets" member). */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const absolute = resolve(path);
  const { text, data } = await readJsonText(absolute, "config");
  if (absolute.endsWith("package.json") && data !== null && typeof data === "object")
    return checkConfig(absolute, (data as Record<string, unknown>)["citation-targets"] ?? {}, {
      text,
      within: "/citation-targets",
    });
  return checkConfig(absolute, data, { text, within: "" });
}

/** `data`'s file: its text, and the pointer of `data` in it (a package.json's "citation-targets" member). */
interface ConfigSource {
  text: string;
  within: string;
}

async function checkConfig(path: string, data: unknown, source: ConfigSource): Promise<LoadedConfig> {
  // Misspelled rule ids get a suggestion: Ajv would only say that the property name is not in the enum.
  const rules = (data as { rules?: unknown } | null)?.rules;
  const unknownRules =
    rules !== null && typeof rules === "object" && !Array.isArray(rules)
      ? Object.keys(rules).filter((id) => !(ruleIds as readonly string[]).includes(id))
      : [];
  const ruleLines = unknownRules.map((id) => `  /rules: ${unknownRuleMessage(id, ruleIds)}`);
  const schema = buildConfigSchema();
  const check = await jsonFileValidator("config", schema);
  if (!check(data)) {
    const ajvErrors = (check.errors ?? []).filter(
      (e) =>
        !(
          unknownRules.length > 0 &&
          e.instancePath === "/rules" &&
          (e.keyword === "propertyNames" || e.propertyName !== undefined)
        ) && !(e.propertyName !== undefined && unknownRules.includes(e.propertyName)),
    );
    const details = [...ruleLines, ...describeConfigErrors(ajvErrors, schema, data, source)];
    throw new OperationalError(`config ${path} is not valid:\n${details.join("\n")}`);
  }
  const config = data as Config;
  const base = dirname(path);
  const relative = (p: string) => resolve(base, p);
  return {
    path,
    config: {
      ...config,
      ...(config.schema !== undefined ? { schema: relative(config.schema) } : {}),
      ...(typeof config.lock === "string" ? { lock: relative(config.lock) } : {}),
      ...(config.adopt !== undefined ? { adopt: relativeSections(config.adopt, base) } : {}),
    },
  };
}

/**
 * The schema's errors for a config, a line each, told as its author meant the value: of a `oneOf`, only the errors of
 * the branch the value's type selects (an array of adopt sections is not told that it must be an object), or one line
 * naming the types allowed when none is; a member not allowed, with the member meant when one is near ("did you mean";
 * else the members allowed); each with the line and column of its member in the file.
 */
function describeConfigErrors(
  errors: readonly ErrorObject[],
  schema: Record<string, unknown>,
  data: unknown,
  source: ConfigSource,
): string[] {
  const place = (pointer: string) => {
    const at = keyPosition(source.text, `${source.within}${pointer}`);
    return at === undefined ? "" : ` (line ${at.line}, column ${at.column})`;
  };
  // Of each oneOf, the errors of the branches the value's type does not select are dropped, and the oneOf's own.
  const dropped = new Set<ErrorObject>();
  const said = new Map<ErrorObject, string>();
  for (const one of errors.filter((e) => e.keyword === "oneOf")) {
    const prefix = `${one.schemaPath}/`;
    const branches = schemaAt(schema, one.schemaPath) as Record<string, unknown>[];
    const value = valueAtPointer(data, one.instancePath);
    const selected = branches.flatMap((branch, i) => (selects(branch, value) ? [i] : []));
    const kept = selected.length === 1 ? `${prefix}${selected[0]}/` : undefined;
    for (const e of errors)
      if (e.schemaPath.startsWith(prefix) && (kept === undefined || !e.schemaPath.startsWith(kept))) dropped.add(e);
    if (selected.length === 1) dropped.add(one);
    else said.set(one, `must be ${branches.map(describeBranch).join(" or ")}`);
  }
  const lines: string[] = [];
  for (const e of errors) {
    if (dropped.has(e)) continue;
    const head = `  ${e.instancePath || "/"}`;
    if (e.keyword === "additionalProperties") {
      const member = String((e.params as { additionalProperty: string }).additionalProperty);
      const parent = schemaAt(schema, e.schemaPath.slice(0, e.schemaPath.lastIndexOf("/"))) as { properties?: object };
      const allowed = Object.keys(parent.properties ?? {});
      const near = closest(member, allowed);
      const pointer = `${e.instancePath}/${member.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      lines.push(
        `${head}: unknown member ${JSON.stringify(member)}${place(pointer)}: ${near !== undefined ? `did you mean ${JSON.stringify(near)}?` : `expected one of ${allowed.join(", ")}`}`,
      );
      continue;
    }
    const line = said.get(e) ?? describeAjvErrors([e])[0]!.slice(head.length + 1);
    lines.push(`${head}${place(e.instancePath)} ${line}`);
  }
  return lines.slice(0, 10);
}

/** The part of a schema an Ajv schemaPath (`#/properties/adopt/oneOf`) names. */
function schemaAt(schema: Record<string, unknown>, path: string): unknown {
  return valueAtPointer(schema, path.replace(/^#/, ""));
}

/** The JSON type of a value, as a schema's `type` names it (an integer is a number). */
function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/**
 * Whether a value is what a `oneOf` branch is about: of the branch's `type`, or its constant itself (`true` is not the
 * branch `false`, though both are booleans: it is told the branches, not "must be false").
 */
function selects(branch: Record<string, unknown>, value: unknown): boolean {
  if ("const" in branch) return branch.const === value;
  if (typeof branch.type !== "string") return false;
  return (branch.type === "integer" ? "number" : branch.type) === jsonType(value);
}

/** A `oneOf` branch in words: `an object`, `a string`, `false`. */
function describeBranch(branch: Record<string, unknown>): string {
  if ("const" in branch) return JSON.stringify(branch.const);
  const type = String(branch.type);
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/**
 * The config a command reads, by its `--config` option: none for `--no-config` (false), the file it names, else the
 * one found from `cwd`.
 */
export async function configOption(option: string | boolean | undefined, cwd: string) {
  if (option === false) return undefined;
  return typeof option === "string" ? loadConfig(resolve(cwd, option)) : findConfig(cwd);
}

/** Where a setting in force came from. */
export type SettingSource = "command line" | "config" | "default";

/**
 * A setting in force and where it came from: the value given on the command line, else the config's, else the default
 * (`undefined` for a setting that has none). One order for every setting of every command.
 */
export function settingOf<T>(
  flag: T | undefined,
  config: T | undefined,
  fallback: T,
): { value: T; from: SettingSource } {
  if (flag !== undefined) return { value: flag, from: "command line" };
  if (config !== undefined) return { value: config, from: "config" };
  return { value: fallback, from: "default" };
}

/**
 * The legislation host of `schema` and where it came from: the flag, else the config's
 * `legislationHost` (the config validate reads: `--config FILE`, none with `--no-config`, else the
 * one found; not read when the flag is given), else the default.
 */
export async function hostSetting(
  flag: string | undefined,
  config: string | boolean | undefined,
  cwd: string,
): Promise<{ host: string; from: string }> {
  const loaded = flag === undefined ? await configOption(config, cwd) : undefined;
  const { value, from } = settingOf(flag, loaded?.config.legislationHost, DEFAULT_LEGISLATION_HOST);
  const said = {
    "command line": "--legislation-host",
    config: `legislationHost of the config ${loaded ? displayPath(loaded.path, cwd) : ""}`,
    default: "the default",
  }[from];
  return { host: value, from: said };
}
