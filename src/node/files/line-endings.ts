/**
 * A Windows checkout (`core.autocrlf=true`) turns every LF of the markdown and of the JSONL into CR LF:
 * every artifact then misses its pin, and `update --check` would call every law changed and advise an
 * `update` that rewrites every digest over CR LF. This tells that case apart (docs/spec.md, "Update"):
 * the dataset is what its manifest pins once CR LF is read as LF.
 */
import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { LockManifest } from "../../core/lock/manifest.js";
import { sha256Hex, sha256Stream } from "../../core/bytes.js";
import { DatasetError } from "../../core/errors.js";
import { generateLinesFrom, linesInThread } from "../../core/records/generate.js";
import { readRegularIfPresent } from "./regular-file.js";
import { withoutCr } from "./crlf.js";

/**
 * True when the dataset differs from its manifest and JSONL only in line endings: some file has CR LF, every artifact
 * matches its pin once CR LF is read as LF, and so does the JSONL match what generate writes from them.
 */
export async function onlyLineEndings(manifest: LockManifest, root: string, output: string): Promise<boolean> {
  const jsonl = readRegularIfPresent(output);
  if (jsonl === undefined) return false;
  let crlf = jsonl.includes("\r\n");
  const read = async (path: string): Promise<Uint8Array> => {
    const bytes = await fs.readFile(join(root, ...path.split("/")));
    if (!bytes.includes("\r\n")) return bytes;
    crlf = true;
    return withoutCr(bytes);
  };
  const generated = sha256Stream();
  // The markdown parser, loaded only here (a checkout with CR LF), not when update starts (bench/RESULTS.md, start-up).
  const { readingSource } = await import("../../core/records/parse-artifact.js");
  try {
    // Verifies each artifact (read as LF) against its pin, then generates as generate does.
    for await (const line of generateLinesFrom(manifest, linesInThread(manifest, readingSource(manifest, read))))
      generated.update(line);
  } catch (error) {
    if (error instanceof DatasetError || (error as NodeJS.ErrnoException).code !== undefined) return false;
    throw error;
  }
  return crlf && generated.digest("hex") === sha256Hex(withoutCr(jsonl));
}
