import { readFile } from "node:fs/promises";
import { OperationalError } from "./errors.js";

/** Reads and parses a JSON file; `what` names it in the OperationalError for an unreadable file or bad JSON ("lock manifest", "schema", "config"). */
export async function readJsonFile(path: string, what: string, shown: string = path): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new OperationalError(`cannot read ${what} ${shown}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OperationalError(`${what} ${shown} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
