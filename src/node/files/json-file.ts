import { conflictMarkerLines, conflictMessage } from "../../core/lines.js";
import { errorMessage } from "../../core/errors.js";
import { scanJson } from "../../core/json/json-scan.js";
import { plural } from "../../core/text.js";
import { looksLike } from "../../core/report/file-kind.js";
import { describeIoError, OperationalError } from "../errors.js";
import { readRegularFileSync } from "./regular-file.js";

/**
 * Reads and parses a JSON file; `what` names it in the OperationalError for an unreadable file or bad JSON ("lock
 * manifest", "schema", "config").
 */
export async function readJsonFile(path: string, what: string, shown: string = path): Promise<unknown> {
  return (await readJsonText(path, what, shown)).data;
}

/** readJsonFile, with the text as read. */
export async function readJsonText(
  path: string,
  what: string,
  shown: string = path,
): Promise<{ text: string; data: unknown }> {
  let text: string;
  try {
    text = readRegularFileSync(path).toString("utf8"); // small files, read in one call: the promise API costs more than the read (thousands of manifests a run)
  } catch (error) {
    throw new OperationalError(describeIoError(error, `read ${what}`, shown));
  }
  try {
    return { text, data: JSON.parse(text) };
  } catch (error) {
    const kind = looksLike(shown, text);
    if (kind !== undefined && !shown.toLowerCase().endsWith(".json")) {
      // The wrong kind of file (a JSONL file where a manifest belongs): say so, not where its second line breaks JSON.
      const sibling =
        what === "lock manifest" && shown.endsWith(".jsonl")
          ? `; the lock manifest of ${shown} is ${shown.replace(/\.jsonl$/, ".lock.json")}`
          : "";
      throw new OperationalError(
        `${shown} is not a ${what}: it looks like ${kind}, and a ${what} is one JSON document${sibling}`,
      );
    }
    const markers = conflictMarkerLines(text);
    if (markers.length > 0)
      throw new OperationalError(
        conflictMessage(`${what} ${shown}`, `markers on lines ${markers.join(", ")}`, what === "lock manifest"),
      );
    throw new OperationalError(`${what} ${shown} is not valid JSON: ${describeJsonError(text, error)}`);
  }
}

/**
 * JSON.parse's complaint with its "at position N" turned into line:column (1-based). Every reader of a JSON file (lock
 * manifest, config, schema, approvals file) says its faults in these words.
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = errorMessage(error).replace(/^JSON\.parse: /, "");
  const match = /^(.*?)(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?$/s.exec(message);
  if (text.trim() === "") return "the file is empty";
  // Saved by an editor that marks UTF-8 (Notepad's "UTF-8 with BOM"): invisible, and JSON.parse would quote it unseen.
  if (text.startsWith("\uFEFF"))
    return 'line 1, column 1: the file starts with a byte order mark (U+FEFF), which JSON does not allow: save it as UTF-8 without a BOM (in Notepad, encoding "UTF-8", not "UTF-8 with BOM")';
  if (!match) {
    if (/end of JSON input/.test(message)) return `${where(text, text.length)}: the file ends in the middle of a value`;
    // "Unexpected token" says no position and quotes the text around it, lines and all: the scanner says where.
    const syntax = /^Unexpected token /.test(message) ? scanJson(text).syntaxError : undefined;
    return syntax !== undefined ? `${where(text, syntax.index)}: ${syntax.message}` : message.replace(/ in JSON$/, "");
  }
  return `${where(text, Number(match[2]))}: ${match[1]!.replace(/ in JSON$/, "")}`;
}

/**
 * The first key named twice in one object of a JSON text, where it is and where it was first ("line 7, column 3:
 * duplicate key "versionDate" (first at line 6, column 3) at /versionDate"), and how many more there are; undefined
 * when every key is named once. JSON.parse keeps the last silently; other parsers keep the first or refuse.
 */
export function repeatedKey(text: string): string | undefined {
  const { duplicates } = scanJson(text);
  const first = duplicates[0];
  if (first === undefined) return undefined;
  const more = duplicates.length > 1 ? ` (and ${plural(duplicates.length - 1, "more repeated key")})` : "";
  return `${where(text, first.index)}: duplicate key ${JSON.stringify(first.key)} (first at ${where(text, first.firstIndex)}) at ${first.pointer}${more}`;
}

function where(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return `line ${line}, column ${column}`;
}
