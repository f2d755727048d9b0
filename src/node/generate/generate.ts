import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { sha256Stream } from "../../core/bytes.js";
import type { LockManifest } from "../../core/lock/manifest.js";
import { generateLineBatchesFrom, linesInThread } from "../../core/records/generate.js";
import { DatasetError } from "../../core/errors.js";
import type { OutputRecord } from "../../core/records/record-line.js";
import type { ArtifactLimits } from "../../core/markdown/limits.js";
import { decodeUtf8Lenient } from "../../core/bytes.js";
import { ARTIFACT_TASKS, type ArtifactTasks, poolLineSource } from "./generate-pool.js";
import {
  checkJobs,
  chooseJobs,
  createPool,
  type ThreadPolicy,
  type WorkPool,
  WorkerMemoryError,
} from "../pool/pool.js";
import { LineSplitter, type Line } from "../../core/lines.js";
import { describeIoError, OperationalError } from "../errors.js";
import { DEFAULT_MAX_ARTIFACT_BYTES } from "../dataset/dataset-files.js";
import { type LoadedManifest, loadManifest, resolveArtifact, verifyArtifacts } from "../dataset/manifest-io.js";
import { shellQuote } from "../../core/text.js";
import { differingFields, type RecordChanges, RecordComparer } from "../../core/records/record-fingerprint.js";
import { readOldRecords } from "../records/record-changes.js";
import { openAtomic, refuseOverInputs, type AtomicFile } from "../writes/write.js";
import { readRegularFileSync, regularReadStream, withOutsideReads } from "../files/regular-file.js";

export interface GenerateOptions {
  /** Path of the lock manifest. */
  manifest: string;
  cwd?: string;
  /** Write the JSONL here (atomically); without it, records go to `write`. */
  output?: string;
  /**
   * Receives the JSONL text when there is no output file (the CLI passes stdout); may return a promise to apply
   * backpressure.
   */
  write?: (text: string) => unknown;
  /** The largest artifact read, in bytes (default 64 MiB); a larger one is refused, named. */
  maxArtifactBytes?: number;
  /** The most YAML aliases an artifact's front matter may hold (default 1000); more is refused, named. */
  maxYamlAliases?: number;
  /** The most headings (targets) one artifact may have (default 100,000); more is refused, named. */
  maxHeadings?: number;
  /** The longest inline content of a heading, in UTF-16 code units (default 65,536); longer is refused, named. */
  maxHeadingLength?: number;
  /** The largest front matter, in UTF-8 bytes (default 1 MiB); a larger one is refused, named. */
  maxFrontMatterBytes?: number;
  /** Let the manifest's dataset folder lead outside the repository (default: confined to it; SECURITY.md). */
  allowOutsideRepository?: boolean;
  /**
   * Threads to parse the markdown in (one pool for the run); default one per core (at most 4) for 4 MB of markdown or
   * more, else 1 (this thread). The output is the same.
   */
  jobs?: number;
}

/**
 * The caps on reading artifacts, and the confinement, that generate, update and adopt share (docs/spec.md, section
 * 13), as GenerateOptions types them: the command line's options of the same names take this type. (UpdateOptions
 * lists them too, so that the public declarations stay as they are; update.ts checks that the two agree.)
 */
export type ArtifactReadingOptions = Pick<
  GenerateOptions,
  | "maxArtifactBytes"
  | "maxYamlAliases"
  | "maxHeadings"
  | "maxHeadingLength"
  | "maxFrontMatterBytes"
  | "allowOutsideRepository"
>;

export interface GenerateResult {
  records: number;
  /** Threads the markdown was parsed in. */
  threads?: number;
  /** Absolute path of the file written, if any. */
  output?: string;
}

export interface CheckDifference {
  /** 1-based line in the checked file. */
  line: number;
  /** citationAddress of the record that would be generated there (or found there). */
  address?: string;
  /** The first field that differs, when both lines are records. */
  field?: string;
  message: string;
}

export interface CheckResult {
  records: number;
  /** The first line that differs, when the file is not up to date. */
  difference?: CheckDifference;
  /** Why it differs, in a sentence: the manifest changed since the file was generated, or the file was edited. */
  cause?: string;
  /** What regenerating would change, by address (only when the file differs). */
  changes?: RecordChanges;
  /**
   * The file is named after another slug: another dataset's file (or the wrong manifest), never to be regenerated from
   * this one.
   */
  otherDataset?: boolean;
}

/**
 * Worker threads pay off from 4 MB of markdown (below it, starting them costs more than they save); one per core, at
 * most 4.
 */
const GENERATE_THREADS: ThreadPolicy = { fromBytes: 4 * 2 ** 20, most: 4 };

/**
 * The lines to write. With `verifyFirst` (stdout, --check), every artifact is verified before the
 * first line. Without (an output file, written atomically), each is verified as it is read, and
 * only when one fails are they all verified, so that every fault is named all the same and nothing
 * is written: one pass over the files fewer.
 */
async function prepare(options: GenerateOptions, verifyFirst = true) {
  const shown = options.manifest;
  const loaded = await loadManifest(options.manifest, options.cwd, shown, {
    allowOutsideRepository: options.allowOutsideRepository ?? false,
  });
  // lock refuses an empty dataset; so does generate, rather than write an empty file.
  if (loaded.manifest.artifacts.length === 0)
    throw new DatasetError([
      `${shown}: the lock manifest lists no artifacts: there is nothing to generate (lock refuses an empty dataset too)`,
    ]);
  if (options.output !== undefined) {
    const inputs = [{ path: loaded.path, what: `the lock manifest ${shown}` }];
    for (const artifact of loaded.manifest.artifacts)
      inputs.push({
        path: join(loaded.root, ...artifact.path.split("/")),
        what: `the artifact ${artifact.path} of ${shown}`,
      });
    refuseOverInputs(resolve(options.cwd ?? process.cwd(), options.output), inputs, options.output);
  }
  const verifyAll = async () => {
    const verified = await verifyArtifacts(loaded, shown, options.maxArtifactBytes);
    if (verified.problems.length > 0) throw new DatasetError(verified.problems);
    return verified;
  };
  const { bytes, sizes } = verifyFirst
    ? await verifyAll()
    : ((await sizesOf(loaded, options.maxArtifactBytes)) ?? (await verifyAll()));
  const limits = limitsOf(options);
  // The markdown is parsed in workers whose heaps are capped (pool.ts, `capped`), even with one thread; in this thread
  // only when the worker script is not built.
  const pool = await createPool(
    chooseJobs(checkJobs(options.jobs), { items: loaded.manifest.artifacts.length, bytes }, GENERATE_THREADS),
    ARTIFACT_TASKS,
    { mainWorks: true, capped: true, warm: "artifactBatch" },
  );
  const lines = linesOf(loaded.manifest, loaded.root, pool, sizes, limits);
  async function* checked() {
    try {
      yield* lines;
    } catch (error) {
      if (!verifyFirst && error instanceof DatasetError) await verifyAll(); // throws naming every fault, when there are several
      if (error instanceof WorkerMemoryError) throw new OperationalError(`${shown}: ${error.message}`);
      throw error;
    } finally {
      await pool.close();
    }
  }
  return { loaded, lines: checked(), threads: pool.threads };
}

/** The limits on reading one artifact, from the options that set them (generate's and update's). */
export function limitsOf(
  options: Pick<GenerateOptions, "maxYamlAliases" | "maxHeadings" | "maxHeadingLength" | "maxFrontMatterBytes">,
): ArtifactLimits {
  return {
    ...(options.maxFrontMatterBytes !== undefined ? { maxFrontMatterBytes: options.maxFrontMatterBytes } : {}),
    ...(options.maxYamlAliases !== undefined ? { maxYamlAliases: options.maxYamlAliases } : {}),
    ...(options.maxHeadings !== undefined ? { maxHeadings: options.maxHeadings } : {}),
    ...(options.maxHeadingLength !== undefined ? { maxHeadingLength: options.maxHeadingLength } : {}),
  };
}

/**
 * The artifacts' sizes from the file system; undefined when one is missing, outside the root or over the cap
 * (verifyArtifacts then says which).
 */
async function sizesOf(
  loaded: LoadedManifest,
  maxArtifactBytes = DEFAULT_MAX_ARTIFACT_BYTES,
): Promise<{ bytes: number; sizes: number[] } | undefined> {
  const sizes: number[] = [];
  let bytes = 0;
  try {
    for (const artifact of loaded.manifest.artifacts) {
      const size = statSync(resolveArtifact(loaded.root, artifact.path)).size;
      if (size > maxArtifactBytes) return undefined;
      sizes.push(size);
      bytes += size;
    }
  } catch {
    return undefined;
  }
  return { bytes, sizes };
}

/**
 * The dataset's JSONL lines, the markdown parsed and serialised in the pool's threads (in this thread
 * when the pool has one); the lines are joined in document order in this thread, so they are the
 * same whatever the number.
 */
export function linesOf(
  manifest: LockManifest,
  root: string,
  pool: WorkPool<ArtifactTasks> | undefined,
  sizes: readonly number[] = [],
  limits: ArtifactLimits = {},
  locked?: FromLock,
): AsyncGenerator<string[]> {
  // Synchronous reads, when an artifact's turn comes: the files are small and many, and this thread would wait for each
  // anyway. Bytes the caller read and digested already (update's lock pass) are not read or checked again.
  const inThread = linesInThread(manifest, async (position) => {
    const artifact = manifest.artifacts[position]!;
    const kept = locked?.contents?.get(artifact.path);
    // The parsers load only when this thread parses (no worker script: the library run from its sources); the CLI's
    // main thread never does (pool.ts, `capped`), so it does not load them.
    const { parseArtifactBytes } = await import("../../core/records/parse-artifact.js");
    return parseArtifactBytes(
      artifact,
      kept ?? readRegularFileSync(resolveArtifact(root, artifact.path)),
      limits,
      kept !== undefined,
    );
  });
  const source = pool && pool.workers > 0 ? poolLineSource(manifest, root, pool, sizes, inThread, limits) : inThread;
  return generateLineBatchesFrom(manifest, source, locked !== undefined);
}

/**
 * What `update` knows when it generates from the manifest lock just made (lock.ts): the manifest's plan and digest
 * were checked by lock, and `contents` are artifacts' bytes as lock read them, digested and found UTF-8.
 */
export interface FromLock {
  contents?: ReadonlyMap<string, Uint8Array>;
}

/** The default threads for a dataset of this many bytes and artifacts. */
export function defaultJobs(bytes: number, artifacts: number): number {
  return chooseJobs(undefined, { items: artifacts, bytes }, GENERATE_THREADS);
}

const FLUSH_AT = 1 << 20;

/** Writes lines to `write` in chunks of about 1 MiB; resolves to the line count. */
async function pipeLines(
  batches: AsyncIterable<string[]>,
  write: (text: string) => unknown,
  each?: (line: string) => void,
): Promise<number> {
  let count = 0;
  let buffer = "";
  for await (const batch of batches) {
    for (const line of batch) {
      each?.(line);
      buffer += line;
      // Within the batch too: one artifact's batch of a million targets joined is longer than a string may be.
      if (buffer.length >= FLUSH_AT) {
        await write(buffer);
        buffer = "";
      }
    }
    count += batch.length;
  }
  if (buffer !== "") await write(buffer);
  return count;
}

/**
 * Writes lines into `file` (when given) and resolves to the SHA-256 of the bytes, so a caller can tell whether they
 * differ from a file's.
 */
export async function writeLinesTo(
  lines: AsyncIterable<string[]>,
  file: AtomicFile | undefined,
  each?: (line: string) => void,
): Promise<string> {
  const hash = sha256Stream();
  await pipeLines(
    lines,
    async (text) => {
      hash.update(text);
      await file?.write(text);
    },
    each,
  );
  return hash.digest("hex");
}

/** Writes lines to `output` atomically: all of it, or (on any error) nothing. */
export async function writeLinesAtomic(lines: AsyncIterable<string[]>, output: string): Promise<number> {
  const file = await openAtomic(output);
  try {
    const count = await pipeLines(lines, (text) => file.write(text));
    await file.commit();
    return count;
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/** Generates the dataset's JSONL; every artifact is verified first, and a file is written atomically or not at all. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  return withOutsideReads(options.allowOutsideRepository, () => generateConfined(options));
}

async function generateConfined(options: GenerateOptions): Promise<GenerateResult> {
  const { lines, threads } = await prepare(options, options.output === undefined);
  if (!options.output) return { records: await pipeLines(lines, (text) => options.write?.(text)), threads };
  const output = resolve(options.cwd ?? process.cwd(), options.output);
  return { records: await writeLinesAtomic(lines, output), output, threads };
}

/**
 * Compares FILE with what would be generated. Writes nothing. When it differs, says where first,
 * why (the manifest changed since, or the file was edited), and what regenerating would change.
 */
export async function checkGenerated(options: GenerateOptions & { check: string }): Promise<CheckResult> {
  return withOutsideReads(options.allowOutsideRepository, () => checkGeneratedConfined(options));
}

async function checkGeneratedConfined(options: GenerateOptions & { check: string }): Promise<CheckResult> {
  const checkPath = resolve(options.cwd ?? process.cwd(), options.check);
  const info = await stat(checkPath).catch((error: unknown) => {
    throw new OperationalError(
      `${describeIoError(error, "read", options.check)}${(error as NodeJS.ErrnoException).code === "ENOENT" ? ` (to create it: citation-targets generate ${shellQuote(options.manifest)} -o ${shellQuote(options.check)})` : ""}`,
    );
  });
  if (!info.isFile()) throw new OperationalError(`cannot read ${options.check}: it is a folder, not a file`);
  const { loaded, lines: generated } = await prepare(options);
  const first = await firstDifference(generated, checkPath);
  if (!first.difference) return first;
  // Second pass: classify every record by address (generation is deterministic, so this sees the same records).
  const old = await readOldRecords(checkPath);
  const comparer = new RecordComparer(old);
  const { lines } = await prepare(options);
  for await (const batch of lines) for (const line of batch) comparer.add(JSON.parse(line) as Record<string, unknown>);
  const manifestDigest = loaded.manifest.datasetDigest;
  // A file named after another slug is another dataset's: regenerating this manifest over it would destroy that one.
  const ownName = `${loaded.manifest.slug}.jsonl`;
  const otherName =
    basename(checkPath).endsWith(".jsonl") && basename(checkPath) !== ownName ? basename(checkPath) : undefined;
  if (otherName !== undefined)
    return {
      ...first,
      cause: `${options.check} is named after another slug (${otherName.slice(0, -".jsonl".length)}), and this manifest's slug is ${loaded.manifest.slug}: it is another dataset's file, or the wrong manifest; this manifest's JSONL is ${ownName}`,
      changes: comparer.finish(),
      otherDataset: true,
    };
  const cause =
    old?.datasetDigest !== undefined && old.datasetDigest !== manifestDigest
      ? `the lock manifest changed since the file was generated (the file has datasetDigest ${old.datasetDigest.slice(0, 12)}…, the manifest ${manifestDigest.slice(0, 12)}…)`
      : old?.datasetDigest === undefined
        ? "the file holds no record generated from this manifest"
        : "the file was edited after it was generated (its datasetDigest is the manifest's, but its records are not what generate writes)";
  return { ...first, cause, changes: comparer.finish() };
}

async function firstDifference(batches: AsyncIterable<string[]>, checkPath: string): Promise<CheckResult> {
  async function* each() {
    for await (const batch of batches) yield* batch;
  }
  const iterator = each();
  const lines: Line[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  let count = 0;
  let lineNumber = 0;
  const compareNext = async (line: Line | undefined): Promise<CheckDifference | undefined> => {
    const next = await iterator.next();
    lineNumber++;
    if (next.done) {
      return line
        ? {
            line: lineNumber,
            message: `line ${lineNumber} is extra: nothing would be generated after line ${lineNumber - 1}`,
          }
        : undefined;
    }
    count++;
    const expected = next.value;
    const actual = line ? decodeUtf8Lenient(line.bytes) + (line.terminated ? "\n" : "") : undefined;
    if (actual === expected) return undefined;
    const record = JSON.parse(expected) as OutputRecord;
    const address = String(record.citationAddress);
    if (actual === undefined)
      return {
        line: lineNumber,
        address,
        message: `the file ends at line ${lineNumber - 1}: expected a record for ${address} on line ${lineNumber}`,
      };
    return describeDifference(lineNumber, record, actual);
  };
  const stop = async (difference: CheckDifference) => {
    await iterator.return?.(undefined);
    return { records: count, difference };
  };
  for await (const chunk of regularReadStream(checkPath)) {
    splitter.push(chunk as Buffer);
    while (lines.length > 0) {
      const difference = await compareNext(lines.shift());
      if (difference) return stop(difference);
    }
  }
  splitter.end();
  for (const line of lines) {
    const difference = await compareNext(line);
    if (difference) return stop(difference);
  }
  const difference = await compareNext(undefined);
  return difference ? stop(difference) : { records: count };
}
function describeDifference(line: number, expected: OutputRecord, actual: string): CheckDifference {
  const address = String(expected.citationAddress);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(actual) as Record<string, unknown>;
  } catch {
    return { line, address, message: `line ${line} is not valid JSON: expected the record for ${address}` };
  }
  // Every field counts (the uncompared ones too): the bytes are what differs. The first in code-unit order is named.
  const [field] = differingFields(expected, parsed ?? {}, [], () => false).sort();
  if (field !== undefined) {
    const shown =
      parsed?.citationAddress === address
        ? address
        : `${address} (the file has ${JSON.stringify(parsed?.citationAddress)})`;
    return {
      line,
      address,
      field,
      message: `line ${line}, record ${shown}: ${field} differs from what would be generated`,
    };
  }
  return {
    line,
    address,
    message: `line ${line}, record ${address}: same values but not the generated bytes (canonical form or final newline)`,
  };
}
