/**
 * The wrong kind of file given to a command: a markdown file, a lock manifest or a config file
 * handed to `validate`, a JSONL file handed to `update`. Said once, with what the command expects,
 * instead of a problem per line.
 */
import type { Problem } from "./problem.js";
import type { FileReport } from "./report.js";

/** The json-syntax problems still listed, one by one, of a file of the wrong kind. */
export const WRONG_KIND_LISTED = 3;

/** What a file looks like, from its name and (where known) its text; undefined when nothing stands out. */
export function looksLike(name: string, text?: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith(".lock.json")) return "a lock manifest (*.lock.json)";
  if (/\.(md|markdown)$/.test(lower)) return "markdown (*.md)";
  if (lower.endsWith(".schema.json")) return "a JSON Schema (*.schema.json)";
  if (/\.(ya?ml)$/.test(lower)) return "YAML";
  if (lower.endsWith(".jsonl")) return "JSON Lines (*.jsonl: a JSON value per line)";
  if (lower.endsWith(".json")) return "a JSON document (*.json)";
  if (text !== undefined) {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    if (lines.length > 1 && lines.every((line) => isJson(line))) return "JSON Lines (a JSON value per line)";
    if (/^(#{1,6} |---\n)/.test(text)) return "markdown";
  }
  return undefined;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file `validate` was given that is not JSON Lines at all (not named *.jsonl, no line a record, a
 * line that is not JSON): one problem of the whole file says what it looks like and
 * what validate expects, followed by the first few json-syntax problems; the rest (a problem per
 * line, and the blank lines a markdown file is full of) are not listed or counted.
 */
export function collapseWrongKind(file: FileReport): FileReport {
  if (file.error !== undefined || file.records > 0 || file.path === "-" || file.path.toLowerCase().endsWith(".jsonl"))
    return file; // "-": standard input, unnamed
  const syntax = file.problems.filter((p) => p.ruleId === "json-syntax");
  const total = file.problems.length + (file.unstored?.errors ?? 0) + (file.unstored?.warnings ?? 0);
  if (syntax.length === 0) return file;
  const first = syntax[0]!;
  const kind = looksLike(file.path) ?? "not JSON Lines";
  const summary: Problem = {
    ruleId: "json-syntax",
    messageId: "wrongKind",
    data: { kind },
    message:
      `this file looks like ${kind}, not a citation-targets JSONL file (one JSON record per line, named <slug>.jsonl, ` +
      `e.g. .tooling/citation-targets/*.jsonl): no line is a record; ${syntax.length > WRONG_KIND_LISTED ? `the first ${WRONG_KIND_LISTED} of its ${total} problems follow, the rest are not listed` : `its lines that are not JSON follow`}`,
    severity: first.severity,
    file: first.file,
    line: 0,
    pointer: "",
  };
  const { unstored: _unstored, ...rest } = file;
  return { ...rest, problems: [summary, ...syntax.slice(0, WRONG_KIND_LISTED)] };
}
