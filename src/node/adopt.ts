/**
 * `adopt`: a whole corpus under citation targets in one command (README, "Adopting a corpus";
 * docs/spec.md, "Field templates"). Each dataset folder's fields come from templates filled from
 * the folder and its front matter; every manifest and JSONL is written by `update`'s machinery
 * (one pool, all or nothing, every fault named) into `.tooling/citation-targets/`.
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkDatasetFields, type DatasetFields, fillTemplate, TEMPLATE_HELP, type TemplateContext, TemplateError } from "../core/dataset-fields.js";
import { DatasetError } from "../core/generate.js";
import { DEFAULT_MANIFEST_NAME } from "../core/manifest.js";
import { MANIFEST_DATASET_FIELDS, type ManifestDatasetField } from "../core/model.js";
import { comparePaths } from "../core/natural-sort.js";
import { templateContext } from "./dataset-context.js";
import { OperationalError } from "./errors.js";
import { displayPath, findRepositoryRoot, isInside } from "./files.js";
import { datasetRootOf, MANIFEST_FOLDER } from "./lock.js";
import { type DatasetUpdate, update, type UpdateOptions } from "./update.js";

export interface AdoptOptions extends Omit<UpdateOptions, "manifests" | "datasets" | "set"> {
  /** Dataset folders, or globs of them (relative to cwd). */
  datasets: string[];
  /** A template (or value) per field; slug defaults to the front matter's `slug`, else the folder name as a slug. */
  templates: Partial<DatasetFields>;
}

export interface AdoptResult {
  updates: DatasetUpdate[];
  /** Where the manifests and JSONL went. */
  folder: string;
}

const FLAG: Record<ManifestDatasetField, string> = { slug: "--slug", titleId: "--title-id", name: "--name", versionDate: "--version-date", sourceTextUrl: "--source-text-url" };

/** The default slug template: the front matter's `slug` when it has one, else the folder's name made a slug. */
function slugTemplate(context: TemplateContext): string {
  return context.front !== undefined && typeof context.front.slug === "string" ? "{front.slug|slug}" : "{folder|slug}";
}

/** The dataset folders the arguments name: folders as they are, globs expanded to the folders they match; in natural order, each once. */
async function datasetFolders(patterns: string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  const { default: fg } = await import("fast-glob");
  for (const pattern of patterns) {
    const direct = resolve(cwd, pattern);
    if (statSync(direct, { throwIfNoEntry: false })?.isDirectory()) {
      found.add(direct);
      continue;
    }
    if (!fg.isDynamicPattern(pattern)) throw new OperationalError(`${pattern}: no such dataset folder`);
    const matches = await fg(pattern, { cwd, onlyDirectories: true, absolute: true, dot: false, ignore: ["**/node_modules/**"] });
    if (matches.length === 0) throw new OperationalError(`${pattern}: matches no folder`);
    for (const match of matches) found.add(resolve(match));
  }
  return [...found].sort(comparePaths);
}

/** Writes (or, with `check`, computes) a manifest and a JSONL for every dataset folder named; all or nothing. */
export async function adopt(options: AdoptOptions): Promise<AdoptResult> {
  const cwd = options.cwd ?? process.cwd();
  const { datasets: patterns, templates, onProgress, ...rest } = options;
  if (patterns.length === 0) throw new OperationalError("no dataset folders: name them (e.g. 'laws/*'), or set adopt.datasets in the config");
  const missing = MANIFEST_DATASET_FIELDS.filter((field) => field !== "slug" && templates[field] === undefined);
  const folders = await datasetFolders(patterns, cwd);
  const repository = (await findRepositoryRoot(cwd)) ?? cwd;
  const folder = join(repository, ...MANIFEST_FOLDER.split("/"));
  if (missing.length > 0) {
    // Say what each law's front matter offers, from the first one, so that the fix can be written at once.
    const first = folders[0] !== undefined ? await templateContext(folders[0], repository).catch(() => undefined) : undefined;
    const keys = first?.front ? Object.keys(first.front) : [];
    throw new OperationalError(
      [
        `adopt needs a template (or a value) for each dataset field:`,
        ...missing.map((f) => `  ${f}: give ${FLAG[f]}, or adopt.${f} in the config`),
        ...(keys.length > 0 ? [`the front matter of ${first!.frontSource} offers ${keys.map((k) => `{front.${k}}`).join(", ")}`] : []),
        `templates: ${TEMPLATE_HELP}`,
        `e.g. citation-targets adopt 'laws/*' --title-id '{front.jurabk}' --name '{front.Title}' --version-date 2024-06-01 --source-text-url 'https://example.org/{front.slug}/'`,
      ].join("\n"),
    );
  }

  const problems: string[] = [];
  const adopted: { manifest: string; dir: string; fields: Partial<DatasetFields> }[] = [];
  const bySlug = new Map<string, string>();
  for (const [i, dir] of folders.entries()) {
    const shown = displayPath(dir, cwd) || ".";
    if (!isInside(repository, dir)) {
      problems.push(`${shown}: outside the repository ${repository}`);
      continue;
    }
    let fields: Partial<DatasetFields>;
    try {
      const context = await templateContext(dir, repository);
      fields = {};
      for (const field of MANIFEST_DATASET_FIELDS) {
        const template = templates[field] ?? (field === "slug" ? slugTemplate(context) : undefined);
        if (template !== undefined) fields[field] = fillTemplate(template, context, field === "sourceTextUrl");
      }
    } catch (error) {
      if (error instanceof TemplateError || error instanceof OperationalError) {
        problems.push(`${shown}: ${error.message}`);
        continue;
      }
      throw error;
    }
    const faults = checkDatasetFields(fields);
    if (faults.length > 0) {
      problems.push(...faults.map((f) => `${shown}: ${f.field} ${JSON.stringify(f.value)}: ${f.message}`));
      continue;
    }
    const slug = fields.slug!;
    const other = bySlug.get(slug);
    if (other !== undefined) {
      problems.push(`${shown}: slug ${JSON.stringify(slug)} is also the slug of ${other}: each dataset needs its own (set --slug to a template that tells them apart)`);
      continue;
    }
    bySlug.set(slug, shown);
    // A manifest already in the dataset folder is refreshed where it is; otherwise the dataset's goes into the tooling folder.
    const inFolder = join(dir, DEFAULT_MANIFEST_NAME);
    const manifest = statSync(inFolder, { throwIfNoEntry: false })?.isFile() ? inFolder : join(folder, `${slug}.lock.json`);
    if (manifest !== inFolder && statSync(manifest, { throwIfNoEntry: false })) {
      const root = datasetRootOf(manifest);
      if (root !== dir) {
        problems.push(`${shown}: ${displayPath(manifest, cwd)} already belongs to ${root === undefined ? "a manifest that cannot be read" : displayPath(root, cwd) || "."}: a slug names one dataset`);
        continue;
      }
    }
    adopted.push({ manifest, dir, fields });
  }
  if (problems.length > 0) throw new DatasetError(problems);
  const updates = await update({ ...rest, cwd, datasets: adopted, ...(onProgress ? { onProgress } : {}) });
  return { updates, folder };
}
