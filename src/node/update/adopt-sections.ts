/**
 * What `adopt` takes (docs/spec.md, section 8, "Adopt"): dataset roots named as folders, markdown files or globs of
 * them, and the config's `adopt` sections, each with its own datasets, templates and legislation host. A dataset root
 * takes the section whose datasets name it.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { comparePaths } from "../../core/address/natural-sort.js";
import type { DatasetFields } from "../../core/lock/dataset-fields.js";
import { MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { type ManifestOptions, manifestOptionsOf } from "../dataset/manifest-options.js";
import type { AdoptConfig } from "../config/config.js";
import { OperationalError } from "../errors.js";
import { displayPath } from "../files/files.js";
import { fileKind } from "../files/regular-file.js";

/** One group of datasets adopted alike: their roots (or globs), templates, legislation host, units and alias keys. */
export interface AdoptSection extends Pick<ManifestOptions, "units" | "aliasKeys"> {
  datasets: string[];
  templates: Partial<DatasetFields>;
  legislationHost?: string;
}

/** A config section as an AdoptSection. */
export function sectionOf(config: AdoptConfig): AdoptSection {
  const templates = Object.fromEntries(
    MANIFEST_DATASET_FIELDS.filter((field) => config[field] !== undefined).map((field) => [field, config[field]]),
  ) as Partial<DatasetFields>;
  return {
    datasets: config.datasets ?? [],
    templates,
    ...(config.legislationHost !== undefined ? { legislationHost: config.legislationHost } : {}),
    // The config's `aliases` are front matter keys.
    ...(manifestOptionsOf({ units: config.units, aliasKeys: config.aliases }) as Pick<
      ManifestOptions,
      "units" | "aliasKeys"
    >),
  };
}

/**
 * The dataset roots the arguments name: folders and markdown files as they are; a glob ending in `.md` expanded to the
 * markdown files it matches (one dataset each), any other glob to the folders it matches; in natural order, each once.
 */
export async function datasetRoots(patterns: readonly string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  const { default: fg } = await import("fast-glob");
  for (const pattern of patterns) {
    const direct = resolve(cwd, pattern);
    const info = statSync(direct, { throwIfNoEntry: false });
    if (info?.isDirectory() || (info?.isFile() && direct.endsWith(".md"))) {
      found.add(direct);
      continue;
    }
    const files = pattern.endsWith(".md");
    // A FIFO, a device or a socket named as a markdown file is no dataset: said, not read (it would hang the read).
    if (files && info !== undefined && !info.isFile() && !info.isDirectory())
      throw new OperationalError(`${pattern}: ${fileKind(info)}, not a regular file: only regular files are read`);
    if (!fg.isDynamicPattern(pattern))
      throw new OperationalError(
        `${pattern}: no such dataset ${files ? "file" : "folder"}${info?.isFile() ? " (a file is a dataset when it is markdown, named *.md)" : ""}`,
      );
    // Markdown files: every entry matched, so that one that is not a regular file (a FIFO) is named, not left out.
    const matches = (
      await fg(pattern, {
        cwd,
        ...(files ? { onlyFiles: false } : { onlyDirectories: true }),
        absolute: true,
        dot: false,
        ignore: ["**/node_modules/**"],
      })
    ).filter((match) => !files || !statSync(match, { throwIfNoEntry: false })?.isDirectory());
    if (matches.length === 0)
      throw new OperationalError(`${pattern}: matches no ${files ? "markdown file" : "folder"}`);
    for (const match of matches) {
      const kind = files ? statSync(match, { throwIfNoEntry: false }) : undefined;
      if (kind !== undefined && !kind.isFile())
        throw new OperationalError(
          `${displayPath(match, cwd)}: ${fileKind(kind)}, not a regular file: only regular files are read`,
        );
      found.add(resolve(match));
    }
  }
  return [...found].sort(comparePaths);
}

/**
 * The section that covers a dataset root: the only one, when the config has one section (as it always did); else the
 * first whose datasets name it (each section's globs expanded once, by `expanded`).
 */
export async function coveringSection<T extends { datasets?: readonly string[] }>(
  sections: readonly T[],
  root: string,
  cwd: string,
  expanded: Map<T, Set<string>> = new Map(),
): Promise<T | undefined> {
  if (sections.length <= 1) return sections[0];
  for (const section of sections) {
    let roots = expanded.get(section);
    if (roots === undefined) {
      roots = new Set(await datasetRoots(section.datasets ?? [], cwd).catch(() => []));
      expanded.set(section, roots);
    }
    if (roots.has(root)) return section;
  }
  return undefined;
}
