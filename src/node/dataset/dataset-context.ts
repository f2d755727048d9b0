/**
 * What a dataset's field templates are filled from (docs/spec.md, "Field templates"): the dataset
 * folder's name and path from the repository root, and the front matter of its first document
 * (the root `index.md`, else the root `README.md`, else its first markdown file in document order).
 */
import { closeSync, readFileSync, readSync, type Stats, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import {
  type DatasetFields,
  fillTemplate,
  isTemplate,
  type TemplateContext,
  TemplateError,
} from "../../core/lock/dataset-fields.js";
import { findFrontMatter } from "../../core/markdown/front-matter.js";
import { INDEX_FILE_NAMES, MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { decodeUtf8Lenient } from "../../core/bytes.js";
import { listDatasetFiles } from "./dataset-files.js";
import { isFileRoot, rootParts } from "./dataset-root.js";
import { ioError } from "../errors.js";
import { findRepositoryRoot } from "../files/files.js";
import { openRegularSync } from "../files/regular-file.js";

/** The largest first document read for its front matter. */
const FRONT_DOCUMENT_BYTES = 16 * 2 ** 20;

/**
 * The path (from the dataset root, POSIX) of the document whose front matter fills templates, or undefined when the
 * folder has no markdown.
 */
export async function frontDocument(root: string): Promise<string | undefined> {
  if (isFileRoot(root)) return statSync(root, { throwIfNoEntry: false })?.isFile() ? basename(root) : undefined;
  for (const name of INDEX_FILE_NAMES) if (statSync(join(root, name), { throwIfNoEntry: false })?.isFile()) return name;
  return (await listDatasetFiles(root))[0];
}

/**
 * The front matter of a markdown file as a map, undefined when it has none; throws TemplateError when it is not YAML or
 * not a map. The YAML parser (and the markdown module that checks it) are loaded only when there is one to read, so
 * that a run that fills no template starts without them (bench/RESULTS.md, start-up). A front matter of
 * MAIN_THREAD_PARSE_BYTES or more is parsed in a capped worker, not in this thread, whose heap has no cap (the parser
 * holds some 650 bytes a byte of flow sequences: docs/spec.md, section 13); one that fills the worker is refused, named.
 */
export async function readFrontMatter(
  file: string,
  shown: string,
  maxFrontMatterBytes?: number,
): Promise<Record<string, unknown> | undefined> {
  const found = findFrontMatter(headOf(file, shown));
  if (found === undefined) return undefined;
  const { MAIN_THREAD_PARSE_BYTES } = await import("../pool/thread-limits.js");
  const task = { text: found.value, shown, ...(maxFrontMatterBytes !== undefined ? { maxFrontMatterBytes } : {}) };
  const parsed =
    Buffer.byteLength(found.value) < MAIN_THREAD_PARSE_BYTES
      ? await frontMatter(task)
      : await frontMatterInWorker(task);
  if ("refused" in parsed) throw new TemplateError(parsed.refused);
  return parsed.map;
}

/** A front matter's text to parse, for whom it is shown; what it is (plain data: it may come from a worker). */
export type FrontMatterTask = { text: string; shown: string; maxFrontMatterBytes?: number };
export type FrontMatterResult = { map: Record<string, unknown> | undefined } | { refused: string };

/** A front matter parsed in a capped worker of its own (pool.ts), closed when it is done. */
async function frontMatterInWorker(task: FrontMatterTask): Promise<FrontMatterResult> {
  const { createPool, WorkerMemoryError } = await import("../pool/pool.js");
  const pool = await createPool(1, FRONT_MATTER_TASKS, { capped: true, warm: "frontMatter" });
  try {
    return await pool.run("frontMatter", task);
  } catch (error) {
    if (!(error instanceof WorkerMemoryError)) throw error;
    return { refused: `the front matter of ${task.shown} could not be read: ${error.message}` };
  } finally {
    await pool.close();
  }
}

/** A front matter as a map (undefined when empty), or why it is refused: the size cap, not YAML, not a map. */
export async function frontMatter({ text, shown, maxFrontMatterBytes }: FrontMatterTask): Promise<FrontMatterResult> {
  const [
    { LineCounter, parseDocument },
    { checkFrontMatterSize, duplicateKey, firstErrorMessage, withoutStackTraces },
  ] = await Promise.all([import("yaml"), import("../../core/markdown/targets.js")]);
  try {
    checkFrontMatterSize(text, maxFrontMatterBytes);
  } catch (error) {
    return { refused: `${shown}: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    // The failsafe schema: every value as it is written (`172.010` stays `172.010`, a date stays its text), never a
    // number or a date.
    // Keys checked unique in linear time (duplicateKey), not by the parser's check, which compares every pair of keys.
    const lines = new LineCounter();
    const document = withoutStackTraces(() =>
      parseDocument(text, { prettyErrors: false, schema: "failsafe", uniqueKeys: false, lineCounter: lines }),
    );
    // Said as the markdown parser says it (targets.ts): the file's line (+1 for the opening "---"), then the parser's
    // words, where it counts lines of the front matter.
    const error =
      document.errors.length > 0 ? firstErrorMessage(document.errors[0]!, text, lines) : duplicateKey(document, text);
    if (error !== undefined)
      return { refused: `the front matter of ${shown} is not valid YAML (line ${error.line + 1}): ${error.message}` };
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { refused: `the front matter of ${shown} is not valid YAML: ${(error as Error).message.split("\n")[0]}` };
  }
  if (value === null || value === undefined) return { map: {} };
  if (typeof value !== "object" || Array.isArray(value))
    return { refused: `the front matter of ${shown} is not a map of keys and values` };
  return { map: value as Record<string, unknown> };
}

/** The kind of task of a front matter's worker (worker.ts). */
export const FRONT_MATTER_TASKS = { frontMatter };

/** The first bytes read of a document for its front matter: enough for any front matter seen in real law. */
const HEAD_BYTES = 64 * 1024;

/**
 * The start of a document, as text, holding its front matter when it has one: its first 64 KiB, or
 * all of it when a front matter opens there and does not close (a corpus of thousands of laws is not
 * read whole to fill templates). A partial last character is left out.
 */
function headOf(file: string, shown: string): string {
  let opened: { fd: number; info: Stats };
  try {
    opened = openRegularSync(file);
  } catch (error) {
    // A FIFO or device among the markdown files is named as lock names it, not read (it would block or never end): a
    // file that cannot be read, no fault of its text (exit 2, README "Exit codes").
    throw ioError(error, "read", shown);
  }
  const { fd } = opened;
  try {
    const size = opened.info.size;
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const read = readSync(fd, head, 0, head.length, 0);
    const text = decodeUtf8Lenient(head.subarray(0, read)).replace(/\uFFFD$/, "");
    if (read === size || !/^\uFEFF?---[ \t]*\r?\n/.test(text) || findFrontMatter(text) !== undefined) return text;
    if (size > FRONT_DOCUMENT_BYTES)
      throw new TemplateError(
        `${shown} is larger than ${FRONT_DOCUMENT_BYTES} bytes and its front matter does not close in its first ${HEAD_BYTES}: it is not read for templates`,
      );
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * The template context of a dataset folder (absolute `root`); `repository` is where `{path}` starts (default: the
 * repository holding it).
 */
export async function templateContext(
  root: string,
  repository?: string,
  maxFrontMatterBytes?: number,
): Promise<TemplateContext> {
  // A file root (dataset-root.ts): `{folder}` is the file's name without `.md`, `{path}` the file's path, and the front
  // matter its own.
  const { folder, file } = rootParts(root);
  const base = repository ?? (await findRepositoryRoot(folder)) ?? folder;
  const path = relative(base, root).split(sep).join("/");
  const document = await frontDocument(root);
  const shown = file !== undefined ? path : path === "" ? (document ?? "") : `${path}/${document ?? ""}`;
  return {
    folder: file !== undefined ? file.slice(0, -".md".length) : basename(root),
    path: path === "" ? "." : path,
    front:
      document === undefined
        ? undefined
        : await readFrontMatter(join(folder, ...document.split("/")), shown, maxFrontMatterBytes),
    frontSource: shown,
  };
}

/**
 * A copy of a string that shares no memory with the text it was cut from: a value sliced out of a
 * law's first 64 KiB would otherwise keep all of it alive (V8 keeps the parent of a sliced string),
 * and `adopt` holds the fields of thousands of laws at once.
 */
export function detached(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** Fills each field's template for one dataset; the front matter is read only when a template needs it. */
export async function fillFieldTemplates(
  templates: Partial<DatasetFields>,
  root: string,
  _cwd?: string,
  context?: TemplateContext,
  maxFrontMatterBytes?: number,
): Promise<Partial<DatasetFields>> {
  const filled: Partial<DatasetFields> = {};
  let known = context;
  for (const field of MANIFEST_DATASET_FIELDS) {
    const template = templates[field];
    if (template === undefined) continue;
    if (!isTemplate(template)) {
      filled[field] = template.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
      continue;
    }
    known ??= await templateContext(root, undefined, maxFrontMatterBytes);
    filled[field] = detached(fillTemplate(template, known, field === "sourceTextUrl"));
  }
  return filled;
}
