/**
 * The `.gitattributes` lines `adopt` writes (docs/spec.md, "Adopt"): git must never convert the line
 * endings of the JSONL and manifests, nor of the markdown, whose bytes the manifests pin by digest
 * (`eol=lf` is not enough: a checkout would still be converted back and forth). `-text` keeps every
 * byte as committed, on every platform (a Windows checkout with core.autocrlf=true included).
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { MANIFEST_FOLDER } from "../files/files.js";
import { writeFileAtomic } from "../writes/write.js";
import { isFileRoot } from "../dataset/dataset-root.js";

/** The lines for the tooling folder and each dataset root (absolute: a folder, or a file root's one file), in order. */
export function gitattributesLines(repository: string, datasetFolders: readonly string[]): string[] {
  const lines = [`${MANIFEST_FOLDER}/** -text`];
  for (const folder of datasetFolders) {
    const path = relative(repository, folder).split(sep).join("/");
    lines.push(path === "" ? "** -text" : `${attributesPattern(isFileRoot(folder) ? path : `${path}/**`)} -text`);
  }
  return [...new Set(lines)];
}

/**
 * A path as a `.gitattributes` pattern of that path alone: a glob character (and a `#` or `!`, which would start a
 * comment or a negation) escaped by a backslash, as fnmatch reads it; a path with white space, a `"` or a control
 * character is written in double quotes, C-style (git splits a line at white space, which a backslash does not
 * escape: `laws/my\ law/**` was read as two words, and git said so on every command after). `/**` ends a folder's.
 */
export function attributesPattern(path: string): string {
  const suffix = path.endsWith("/**") ? "/**" : "";
  const glob = `${path.slice(0, path.length - suffix.length).replace(/([\\*?[\]#!])/g, "\\$1")}${suffix}`;
  if (!/[\s"\u0000-\u001f\u007f]/.test(path)) return glob;
  const quoted = glob.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const named: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\t": "\\t", "\n": "\\n", "\r": "\\r" };
    return named[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`;
  });
  return `"${quoted}"`;
}

/**
 * Adds to the repository's `.gitattributes` those of `lines` it lacks (written atomically, the rest of the file kept as
 * it is); gives the lines added.
 */
export async function addGitattributes(repository: string, lines: readonly string[], check = false): Promise<string[]> {
  const file = join(repository, ".gitattributes");
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = lines.filter((line) => !present.has(line));
  if (missing.length === 0 || check) return missing;
  const joined = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  await writeFileAtomic(file, `${joined}${missing.join("\n")}\n`);
  return missing;
}

/**
 * Removes from the repository's `.gitattributes` the lines of `lines` it holds, exactly as written (the rest of the file
 * kept as it is, written atomically); gives the lines removed. `adopt --move`: the line of a dataset folder that is no
 * one's any more.
 */
export async function removeGitattributes(
  repository: string,
  lines: readonly string[],
  check = false,
): Promise<string[]> {
  const file = join(repository, ".gitattributes");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const stale = new Set(lines);
  const kept: string[] = [];
  const removed: string[] = [];
  for (const line of text.split("\n")) {
    if (stale.has(line.replace(/\r$/, "").trim())) removed.push(line.replace(/\r$/, "").trim());
    else kept.push(line);
  }
  if (removed.length > 0 && !check) await writeFileAtomic(file, kept.join("\n"));
  return [...new Set(removed)];
}
