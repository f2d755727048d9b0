/**
 * A law's other names for its lock manifest (README, "resolve"; docs/spec.md, section 8): the values of front matter
 * keys (`jurabk: BGB`) of the dataset's documents. When each document that gives any shares one with the first that
 * does, the dataset is one law and the first's are its `aliases`; when a document gives others (a statute book of
 * many laws kept as one dataset), each document's are its own, in `documentAliases` by its path, and the dataset has
 * no `aliases`: the first law's abbreviation would name the whole book.
 */
import { join } from "node:path";
import { TemplateError } from "../../core/lock/dataset-fields.js";
import { OperationalError } from "../errors.js";
import { readFrontMatter } from "./dataset-context.js";
import { rootParts } from "./dataset-root.js";

/** The aliases a run writes: the dataset's, or (a dataset of several laws) each document's. */
export interface LawAliases {
  aliases: string[];
  /** By artifact path, in path order; only documents whose front matter gives any. */
  documentAliases?: Record<string, string[]>;
}

/** The aliases of one front matter: for each key in order, its text or each text of its list; trimmed, each once. */
export function aliasesOfFront(front: Record<string, unknown> | undefined, keys: readonly string[]): string[] {
  const aliases: string[] = [];
  for (const key of keys) {
    const value = front?.[key];
    const texts = Array.isArray(value) ? value : [value];
    for (const text of texts) {
      if (typeof text !== "string") continue;
      const alias = text.replace(/\s+/g, " ").trim();
      if (alias !== "" && !aliases.includes(alias)) aliases.push(alias);
    }
  }
  return aliases;
}

/**
 * The aliases of a dataset (absolute `root`: its folder, or its one file) whose artifacts are `paths` (from the root,
 * POSIX, in document order), read from each artifact's front matter with `keys`. A key the front matter lacks gives none. An
 * OperationalError names a front matter that is not YAML, after `asked` (the option that reads them).
 */
export async function readAliases(
  root: string,
  keys: readonly string[],
  shownRoot: string,
  paths: readonly string[],
  asked = "--alias",
): Promise<LawAliases> {
  const { folder, file } = rootParts(root);
  const byDocument = new Map<string, string[]>();
  for (const path of file !== undefined ? [file] : paths) {
    let front: Record<string, unknown> | undefined;
    try {
      front = await readFrontMatter(
        join(folder, ...path.split("/")),
        file !== undefined ? shownRoot : `${shownRoot}/${path}`,
      );
    } catch (error) {
      if (error instanceof TemplateError) throw new OperationalError(`${asked}: ${error.message}`);
      throw error;
    }
    const aliases = aliasesOfFront(front, keys);
    if (aliases.length > 0) byDocument.set(path, aliases);
  }
  const lists = [...byDocument.values()];
  const first = lists[0] ?? [];
  if (lists.every((aliases) => aliases.some((alias) => first.includes(alias)))) return { aliases: first };
  const documentAliases: Record<string, string[]> = {};
  for (const path of [...byDocument.keys()].sort(comparePaths)) documentAliases[path] = byDocument.get(path)!;
  return { aliases: [], documentAliases };
}

/** Code-unit order of paths, the order `documentAliases` is written in (one order on every machine). */
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
