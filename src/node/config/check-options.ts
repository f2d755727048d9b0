/**
 * The library's options, checked before any work: a JavaScript caller (or a TypeScript one with a
 * cast) gets an OperationalError naming the option and what it expects, never a TypeError from deep
 * inside, and never a misspelled rule or severity silently ignored. The CLI checks its own flags.
 */
import { FAIL_ON_LEVELS } from "../../core/diff/diff.js";
import { MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { MARKDOWN_ARTIFACT_KINDS, SOURCE_INDEX_KINDS } from "../../core/model.js";
import { unknownRuleMessage } from "../../core/text.js";
import { ruleIds } from "../../rules/index.js";
import { OperationalError } from "../errors.js";

/** Undefined when the value is right, else what is wrong with it ("expected …, got …"). */
type Check = (value: unknown) => string | undefined;

const got = (v: unknown) => (typeof v === "function" ? "a function" : (JSON.stringify(v) ?? typeof v));
const expect =
  (test: (v: unknown) => boolean, expected: string): Check =>
  (v) =>
    test(v) ? undefined : `expected ${expected}, got ${got(v)}`;
const string = expect((v) => typeof v === "string" && v !== "", "a non-empty string");
const positive = expect((v) => typeof v === "number" && Number.isInteger(v) && v >= 1, "a whole number, 1 or more");
const boolean = expect((v) => typeof v === "boolean", "true or false");
const func = expect((v) => typeof v === "function", "a function");
const strings: Check = (v) => {
  if (!Array.isArray(v)) return `expected an array of strings, got ${got(v)}`;
  const at = v.findIndex((s) => typeof s !== "string" || s === "");
  return at === -1 ? undefined : `expected an array of non-empty strings, got ${got(v[at])} at [${at}]`;
};
const oneOf = (...values: readonly unknown[]): Check =>
  expect((v) => values.includes(v), `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
const stringOrFalse = expect((v) => (typeof v === "string" && v !== "") || v === false, "a path or false");
const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const object =
  (shape: Record<string, Check>): Check =>
  (v) => {
    if (!plainObject(v)) return `expected an object, got ${got(v)}`;
    const problems = membersOf(v, shape, "member");
    return problems.length === 0 ? undefined : problems.join("; ");
  };

/** What is wrong with each member of an object, by its shape. */
function membersOf(value: Record<string, unknown>, shape: Record<string, Check>, word: string): string[] {
  return Object.entries(value).flatMap(([key, member]) => {
    // Own members only: `toString` or `constructor` is not an option because every object inherits one.
    if (!Object.hasOwn(shape, key)) return [`unknown ${word} "${key}" (${word}s: ${Object.keys(shape).join(", ")})`];
    const wrong = member === undefined ? undefined : shape[key]!(member);
    return wrong === undefined ? [] : [`${key}: ${wrong}`];
  });
}

const ruleSettings: Check = (v) => {
  if (!plainObject(v)) return `expected an object of rule ids to severities, got ${got(v)}`;
  const problems = Object.entries(v).flatMap(([id, severity]) => [
    ...(ruleIds.includes(id as never) ? [] : [unknownRuleMessage(id, ruleIds)]),
    ...(["error", "warning", "off"].includes(severity as string)
      ? []
      : [`rule "${id}": severity ${JSON.stringify(severity)} is not one of "error", "warning", "off"`]),
  ]);
  return problems.length === 0 ? undefined : problems.join("; ");
};

/** An object whose every member's value passes `value` (a map of paths to kinds, say). */
const recordOf =
  (value: Check, what: string): Check =>
  (v) => {
    if (!plainObject(v)) return `expected an object of ${what}, got ${got(v)}`;
    const problems = Object.entries(v).flatMap(([key, member]) => {
      const wrong = value(member);
      return wrong === undefined ? [] : [`"${key}": ${wrong}`];
    });
    return problems.length === 0 ? undefined : problems.join("; ");
  };

/** An array whose every item passes `item`. */
const arrayOf =
  (item: Check, what: string): Check =>
  (v) => {
    if (!Array.isArray(v)) return `expected an array of ${what}, got ${got(v)}`;
    const problems = v.flatMap((member, at) => {
      const wrong = item(member);
      return wrong === undefined ? [] : [`[${at}]: ${wrong}`];
    });
    return problems.length === 0 ? undefined : problems.join("; ");
  };

/** The five dataset fields (values or templates), each a string. */
const datasetFields = object(Object.fromEntries(MANIFEST_DATASET_FIELDS.map((field) => [field, string])));

/** Throws an OperationalError listing every option of `options` that is wrong for `what` ("validate", "generate"…). */
function check(what: string, options: unknown, shape: Record<string, Check>, required: readonly string[] = []): void {
  if (options === undefined && required.length === 0) return;
  if (!plainObject(options)) throw new OperationalError(`${what}: expected an options object, got ${got(options)}`);
  const problems = [
    ...required.filter((key) => options[key] === undefined).map((key) => `${key} is required`),
    ...membersOf(options, shape, "option"),
  ];
  if (problems.length > 0) throw new OperationalError(`${what}: ${problems.join("; ")}`);
}

const VALIDATE: Record<string, Check> = {
  patterns: strings,
  allowOutsideRepository: boolean,
  cwd: string,
  patternsCwd: string,
  schema: string,
  legislationHost: string,
  rules: ruleSettings,
  allowUnmatched: boolean,
  onProgress: func,
  jobs: positive,
  lock: stringOrFalse,
  artifacts: boolean,
  cache: stringOrFalse,
  onCache: func,
  limits: object({ maxLineBytes: positive, maxDepth: positive, maxStoredProblems: positive }),
  shard: object({ index: positive, count: positive }),
  stdin: object({
    stream: expect(
      (v) => typeof v === "object" && v !== null && Symbol.asyncIterator in v,
      "an async iterable of bytes",
    ),
    name: string,
  }),
};

const GENERATE: Record<string, Check> = {
  manifest: string,
  allowOutsideRepository: boolean,
  cwd: string,
  output: string,
  write: func,
  maxArtifactBytes: positive,
  maxYamlAliases: positive,
  maxHeadings: positive,
  maxHeadingLength: positive,
  maxFrontMatterBytes: positive,
  jobs: positive,
};

/** A dataset field: lock() checks it itself, so that every fault of one (empty, not a string) is a FieldsError. */
const datasetField: Check = () => undefined;

const LOCK: Record<string, Check> = {
  dir: string,
  cwd: string,
  output: string,
  ...Object.fromEntries(MANIFEST_DATASET_FIELDS.map((field) => [field, datasetField])),
  order: strings,
  kinds: recordOf(oneOf(...MARKDOWN_ARTIFACT_KINDS), "artifact paths to kinds"),
  indexKinds: recordOf(oneOf(...SOURCE_INDEX_KINDS), "artifact paths to index kinds"),
  sourceDocumentPaths: recordOf(string, "artifact paths to source document paths"),
  ignore: strings,
  legislationHost: expect((v) => v === null || typeof v === "string", "a host name, or null"),
  aliasKeys: strings,
  check: boolean,
  maxArtifactBytes: positive,
  keepContents: expect((v) => typeof v === "number" && Number.isInteger(v) && v >= 0, "a whole number, 0 or more"),
  units: boolean,
  onNote: func,
};

const UPDATE: Record<string, Check> = {
  manifests: strings,
  cwd: string,
  check: boolean,
  jobs: positive,
  maxArtifactBytes: positive,
  maxYamlAliases: positive,
  maxHeadings: positive,
  maxHeadingLength: positive,
  maxFrontMatterBytes: positive,
  allowOutsideRepository: boolean,
  cache: stringOrFalse,
  set: datasetFields,
  configTemplates: boolean,
  versionOnlyIfChanged: boolean,
  aliasKeys: strings,
  datasets: arrayOf((v) => {
    if (!plainObject(v)) return `expected an object of manifest, dir and fields, got ${got(v)}`;
    const problems = [
      ...["manifest", "dir"].filter((key) => v[key] === undefined).map((key) => `${key} is required`),
      ...membersOf(v, { manifest: string, dir: string, fields: datasetFields }, "member"),
    ];
    return problems.length === 0 ? undefined : problems.join("; ");
  }, "datasets to adopt"),
  onProgress: func,
  units: boolean,
  onNote: func,
  hostInForce: expect(
    (v) => plainObject(v) && typeof v.host === "string" && typeof v.from === "string",
    "an object with host and from (strings)",
  ),
};

/** The library's `config` option: true, false or a config file. */
const configChoice = expect(
  (v) => typeof v === "boolean" || (typeof v === "string" && v !== ""),
  "true, false or a path",
);

export function checkResolveConfigOptions(options: unknown): void {
  check("resolveConfig", options, { config: configChoice });
}

export function checkAdoptOptions(options: unknown): void {
  const { manifests: _m, datasets: _d, set: _s, ...shared } = UPDATE;
  check("adopt", options, {
    ...shared,
    datasets: strings,
    templates: datasetFields,
    legislationHost: string,
    move: boolean,
    onNote: func,
    config: configChoice,
  });
}

export function checkLockOptions(options: unknown): void {
  check("lock", options, LOCK, ["dir"]);
}

/** The options of `resolve` (the library's): the citations (an array of strings, empty ones allowed) are required. */
export function checkResolveOptions(options: unknown): void {
  const citations: Check = (v) =>
    Array.isArray(v) && v.every((c) => typeof c === "string")
      ? undefined
      : `expected an array of strings, got ${got(v)}`;
  check("resolve", options, { citations, cwd: string, datasets: strings, cache: stringOrFalse }, ["citations"]);
}

export function checkUpdateOptions(options: unknown): void {
  check("update", options, { ...UPDATE, config: configChoice });
}

/** Throws an OperationalError when a positional argument of `what` is not a non-empty string (undefined allowed when optional). */
export function checkPathArgument(what: string, name: string, value: unknown, optional = false): void {
  if (optional && value === undefined) return;
  const wrong = string(value);
  if (wrong !== undefined) throw new OperationalError(`${what}: ${name}: ${wrong}`);
}

export function checkValidateOptions(options: unknown): void {
  check("validate", options, { ...VALIDATE, config: configChoice });
}

export function checkGenerateOptions(options: unknown): void {
  check("generate", options, GENERATE, ["manifest"]);
}

export function checkCheckGeneratedOptions(options: unknown): void {
  check("checkGenerated", options, { ...GENERATE, check: string }, ["manifest", "check"]);
}

export function checkDiffOptions(options: unknown): void {
  check("diff", options, {
    config: configChoice,
    cwd: string,
    paths: strings,
    against: string,
    schema: boolean,
    approvals: string,
    failOn: oneOf(...FAIL_ON_LEVELS),
    jobs: positive,
    allowOutsideRepository: boolean,
    passEditorial: boolean,
    to: string,
  });
}
