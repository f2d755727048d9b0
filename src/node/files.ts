import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { compare } from "../core/problem.js";
import { OperationalError } from "./errors.js";

export const DEFAULT_PATTERN = ".tooling/citation-targets/*.jsonl";

/** Characters that make a pattern a glob (fast-glob's syntax); a path without them is a literal file. */
const GLOB_SYNTAX = /[*?[\]{}()!]/;

export interface InputFile {
  /** Absolute path for reading. */
  absolute: string;
  /** Path shown in output: relative to cwd with POSIX separators when inside it. */
  display: string;
}

/** The path as shown to users: relative to `cwd` with `/` separators when inside it, else absolute. */
export function displayPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  const shown = rel === "" || rel.startsWith("..") || isAbsolute(rel) ? absolute : rel;
  return shown.split(sep).join("/");
}

/**
 * Expands paths, directories and globs into a sorted, de-duplicated file list.
 * A literal path is used as it is (a missing one is reported when it is read); a directory means
 * every `*.jsonl` below it; a glob that matches nothing is an error unless `allowUnmatched`.
 */
export async function expandInputs(patterns: string[], cwd: string, allowUnmatched = false, base = cwd): Promise<InputFile[]> {
  const found = new Map<string, InputFile>();
  const add = (absolute: string) => found.set(absolute, { absolute, display: displayPath(absolute, cwd) });
  for (const pattern of patterns) {
    const absolute = resolve(base, pattern);
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isFile()) {
      add(absolute);
      continue;
    }
    const isDirectory = info?.isDirectory() ?? false;
    if (!isDirectory && !GLOB_SYNTAX.test(pattern)) {
      add(absolute); // reading it reports the problem with this very file
      continue;
    }
    const { default: fg } = await import("fast-glob"); // tens of ms of start-up: only when a pattern is expanded
    const glob = isDirectory ? `${fg.convertPathToPattern(pattern.replace(/[\\/]+$/, ""))}/**/*.jsonl` : pattern;
    let matches: string[];
    try {
      matches = await fg(glob, { cwd: base, absolute: true, onlyFiles: true, dot: true, followSymbolicLinks: true });
    } catch (error) {
      throw new OperationalError(`bad pattern "${pattern}": ${error instanceof Error ? error.message : String(error)}`);
    }
    if (matches.length === 0 && !allowUnmatched) {
      throw new OperationalError(`no files match "${pattern}" (relative to ${base})`);
    }
    for (const match of matches) add(resolve(match));
  }
  return [...found.values()].sort((a, b) => compare(a.display, b.display));
}
