/**
 * A law's other names for its lock manifest's `aliases` (README, "resolve"; docs/spec.md, section 8): the values of
 * front matter keys (`jurabk: BGB`) of the dataset's first document, the one whose front matter fills the field
 * templates (dataset-context.ts).
 */
import { join } from "node:path";
import { TemplateError } from "../../core/lock/dataset-fields.js";
import { OperationalError } from "../errors.js";
import { frontDocument, readFrontMatter } from "./dataset-context.js";
import { rootParts } from "./dataset-root.js";

/**
 * The aliases of a dataset (absolute `root`: its folder, or its one file): for each key in order, its value when it is a text, or each text
 * of a list; trimmed, empty ones left out, each once. A key the front matter lacks gives none. An OperationalError
 * names a front matter that is not YAML.
 */
export async function readAliases(root: string, keys: readonly string[], shownRoot: string): Promise<string[]> {
  const document = await frontDocument(root);
  if (document === undefined) return [];
  let front: Record<string, unknown> | undefined;
  try {
    front = await readFrontMatter(join(rootParts(root).folder, ...document.split("/")), `${shownRoot}/${document}`);
  } catch (error) {
    if (error instanceof TemplateError) throw new OperationalError(`--alias: ${error.message}`);
    throw error;
  }
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
