/**
 * What a dataset's field templates are filled from (docs/spec.md, "Field templates"): the dataset
 * folder's name and path from the repository root, and the front matter of its first document
 * (the root `index.md`, else the root `README.md`, else its first markdown file in document order).
 */
import { readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { parse } from "yaml";
import { type DatasetFields, fillTemplate, isTemplate, type TemplateContext, TemplateError } from "../core/dataset-fields.js";
import { findFrontMatter } from "../core/front-matter.js";
import { INDEX_FILE_NAMES, MANIFEST_DATASET_FIELDS } from "../core/model.js";
import { listDatasetFiles } from "./dataset-files.js";
import { findRepositoryRoot } from "./files.js";

/** The largest first document read for its front matter. */
const FRONT_DOCUMENT_BYTES = 16 * 2 ** 20;

/** The path (from the dataset root, POSIX) of the document whose front matter fills templates, or undefined when the folder has no markdown. */
export async function frontDocument(root: string): Promise<string | undefined> {
  for (const name of INDEX_FILE_NAMES) if (statSync(join(root, name), { throwIfNoEntry: false })?.isFile()) return name;
  return (await listDatasetFiles(root))[0];
}

/** The front matter of a markdown file as a map, undefined when it has none; throws TemplateError when it is not YAML or not a map. */
export function readFrontMatter(file: string, shown: string): Record<string, unknown> | undefined {
  const size = statSync(file).size;
  if (size > FRONT_DOCUMENT_BYTES) throw new TemplateError(`${shown} is larger than ${FRONT_DOCUMENT_BYTES} bytes: its front matter is not read for templates`);
  const found = findFrontMatter(readFileSync(file, "utf8"));
  if (found === undefined) return undefined;
  let value: unknown;
  try {
    value = parse(found.value, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    throw new TemplateError(`the front matter of ${shown} is not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new TemplateError(`the front matter of ${shown} is not a map of keys and values`);
  return value as Record<string, unknown>;
}

/** The template context of a dataset folder (absolute `root`); `repository` is where `{path}` starts (default: the repository holding it). */
export async function templateContext(root: string, repository?: string): Promise<TemplateContext> {
  const base = repository ?? (await findRepositoryRoot(root)) ?? root;
  const path = relative(base, root).split(sep).join("/");
  const document = await frontDocument(root);
  const shown = path === "" ? (document ?? "") : `${path}/${document ?? ""}`;
  return {
    folder: basename(root),
    path: path === "" ? "." : path,
    front: document === undefined ? undefined : readFrontMatter(join(root, ...document.split("/")), shown),
    frontSource: shown,
  };
}

/** Fills each field's template for one dataset; the front matter is read only when a template needs it. */
export async function fillFieldTemplates(templates: Partial<DatasetFields>, root: string, _cwd?: string, context?: TemplateContext): Promise<Partial<DatasetFields>> {
  const filled: Partial<DatasetFields> = {};
  let known = context;
  for (const field of MANIFEST_DATASET_FIELDS) {
    const template = templates[field];
    if (template === undefined) continue;
    if (!isTemplate(template)) {
      filled[field] = template.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
      continue;
    }
    known ??= await templateContext(root);
    filled[field] = fillTemplate(template, known, field === "sourceTextUrl");
  }
  return filled;
}
