/**
 * The five dataset fields of a lock manifest (slug, titleId, name, versionDate, sourceTextUrl):
 * what each must be, told in plain words (docs/spec.md, "The lock manifest"), and the templates
 * that `adopt` and `update` fill them from (docs/spec.md, "Field templates").
 */
import { type ManifestDatasetField, SLUG_REGEXP } from "../model.js";

export type DatasetFields = Record<ManifestDatasetField, string>;

export interface FieldProblem {
  field: ManifestDatasetField;
  /** The value given: a string as it is; any other value as its JSON text (`json` then true). */
  value: string;
  /** Set when `value` is the JSON text of a value that is not a string (`5`, `null`): shown as it is, not quoted. */
  json?: true;
  /** What is wrong and what is expected, in plain words, without the field's name. */
  message: string;
}

/** A field's value as a message shows it: a string quoted, any other value as its JSON text (`titleId 5`). */
export function shownFieldValue(problem: FieldProblem): string {
  return problem.json ? problem.value : JSON.stringify(problem.value);
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** What is wrong with a version date, or undefined when it is a real calendar date written YYYY-MM-DD. */
export function dateProblem(value: string): string | undefined {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (!match) return "not a date written YYYY-MM-DD (e.g. 2024-03-31)";
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12) return `not a real calendar date: there is no month ${match[2]} (months are 01 to 12)`;
  const days = daysIn(year, month);
  if (day < 1 || day > days) return `not a real calendar date: ${MONTHS[month - 1]} ${year} has ${days} days`;
  return undefined;
}

/** What is wrong with a source text address, or undefined when it is https, a host, and a path after it. */
export function urlProblem(value: string): string | undefined {
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    return "an address may hold no spaces or control characters (percent-encode them, e.g. %20)";
  if (!value.startsWith("https://")) return "not an https address (it must start with https://)";
  const rest = value.slice("https://".length);
  const slash = rest.indexOf("/");
  const host = slash === -1 ? rest : rest.slice(0, slash);
  if (host === "") return "no host after https://";
  if (slash === -1 || slash === rest.length - 1)
    return `nothing after the host: give the address of this title's text, e.g. https://${host}/<path-of-the-title>`;
  return undefined;
}

/** Every problem of the dataset fields given (a field that is absent is not checked). */
export function checkDatasetFields(fields: Partial<Record<ManifestDatasetField, unknown>>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: ManifestDatasetField, value: unknown, message: string) =>
    problems.push(
      typeof value === "string"
        ? { field, value, message }
        : { field, value: String(JSON.stringify(value)), json: true, message },
    );
  for (const [field, value] of Object.entries(fields) as [ManifestDatasetField, unknown][]) {
    if (value === undefined) continue;
    if (typeof value !== "string") {
      const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
      add(field, value, `not a string (${kind === "a object" ? "an object" : kind})`);
      continue;
    }
    switch (field) {
      case "slug":
        if (!SLUG_REGEXP.test(value)) {
          const suggestion = datasetSlug(value);
          add(
            field,
            value,
            `a slug is lowercase letters a–z and digits, in groups joined by single hyphens${suggestion !== "" ? ` (e.g. ${suggestion})` : ""}`,
          );
        }
        break;
      case "titleId":
      case "name":
        if (value.trim() === "") add(field, value, "empty: it must hold at least one character that is not a space");
        break;
      case "versionDate": {
        const problem = dateProblem(value);
        if (problem) add(field, value, problem);
        break;
      }
      case "sourceTextUrl": {
        const problem = urlProblem(value);
        if (problem) add(field, value, problem);
        break;
      }
    }
  }
  return problems;
}

/**
 * A dataset slug made from any text: NFKD, `ß` as `ss`, combining marks dropped, lower case, and
 * every run of anything but `a-z0-9` one hyphen, none at either end. "" when nothing is left.
 */
export function datasetSlug(text: string): string {
  return text
    .replace(/ß/g, "ss")
    .replace(/ẞ/g, "SS")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** What a template may refer to: the dataset folder's name and path, and its front matter's top-level keys. */
export interface TemplateContext {
  /** The dataset folder's own name. */
  folder: string;
  /** The dataset folder's path from the repository root (POSIX separators). */
  path: string;
  /**
   * The front matter of the dataset's first document (its root index.md or README.md, else its first artifact), or
   * undefined when it has none.
   */
  front: Record<string, unknown> | undefined;
  /** Where the front matter came from, for messages (e.g. "laws/gg/index.md"). */
  frontSource: string;
}

export class TemplateError extends Error {
  override name = "TemplateError";
}

const FILTERS: Record<string, (value: string) => string> = {
  slug: datasetSlug,
  lower: (value) => value.toLowerCase(),
  upper: (value) => value.toUpperCase(),
  trim: (value) => value.trim(),
};

/** The names a template may use, for messages and --help. */
export const TEMPLATE_HELP =
  "{folder}, {path}, {front.KEY}; filters |slug, |lower, |upper, |trim; {{ and }} for braces";

/** A front-matter value as text: strings as they are, numbers and booleans written out, dates as YYYY-MM-DD. */
function frontValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
  return undefined;
}

/** True when a template refers to anything (a text without placeholders is a literal). */
export function isTemplate(template: string): boolean {
  return /\{(?!\{)/.test(template.replace(/\{\{|\}\}/g, ""));
}

/**
 * Fills a template: `{folder}`, `{path}` and `{front.KEY}`, each optionally followed by filters
 * (`{front.jurabk|slug}`); `{{` and `}}` stand for braces. With `encode`, each value filled in is
 * percent-encoded as in a URL (spaces and non-ASCII letters; `/` kept). Throws TemplateError naming
 * the template and what is missing.
 */
export function fillTemplate(template: string, context: TemplateContext, encode = false): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if ((c === "{" || c === "}") && template[i + 1] === c) {
      out += c;
      i += 2;
      continue;
    }
    if (c === "}") throw new TemplateError(`template ${JSON.stringify(template)}: a lone "}" (write }} for a brace)`);
    if (c !== "{") {
      out += c;
      i++;
      continue;
    }
    const end = template.indexOf("}", i);
    if (end === -1)
      throw new TemplateError(`template ${JSON.stringify(template)}: "{" without its "}" (write {{ for a brace)`);
    const [reference = "", ...filters] = template
      .slice(i + 1, end)
      .split("|")
      .map((part) => part.trim());
    let value: string | undefined;
    if (reference === "folder") value = context.folder;
    else if (reference === "path") value = context.path;
    else if (reference.startsWith("front.") && reference.length > "front.".length) {
      const key = reference.slice("front.".length);
      if (context.front === undefined)
        throw new TemplateError(
          `template ${JSON.stringify(template)}: ${context.frontSource} has no front matter, so {${reference}} has no value`,
        );
      const raw = Object.hasOwn(context.front, key) ? context.front[key] : undefined;
      if (raw === undefined || raw === null) {
        const keys = Object.keys(context.front);
        throw new TemplateError(
          `template ${JSON.stringify(template)}: the front matter of ${context.frontSource} has no ${JSON.stringify(key)}${keys.length > 0 ? ` (it has ${keys.map((k) => JSON.stringify(k)).join(", ")})` : " (it is empty)"}`,
        );
      }
      value = frontValue(raw);
      if (value === undefined)
        throw new TemplateError(
          `template ${JSON.stringify(template)}: ${key} in the front matter of ${context.frontSource} is a list or a map, not a value`,
        );
    } else
      throw new TemplateError(
        `template ${JSON.stringify(template)}: unknown placeholder {${reference}} (use ${TEMPLATE_HELP})`,
      );
    for (const filter of filters) {
      const apply = FILTERS[filter];
      if (!apply)
        throw new TemplateError(
          `template ${JSON.stringify(template)}: unknown filter |${filter} (filters: ${Object.keys(FILTERS).join(", ")})`,
        );
      value = apply(value);
    }
    out += encode ? encodeURI(value) : value;
    i = end + 1;
  }
  return out;
}
