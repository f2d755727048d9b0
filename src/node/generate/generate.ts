/**
 * `generate` (docs/spec.md, "Generation"; README, "generate"): a dataset's JSONL from its lock manifest, to standard
 * output or a file written atomically, every artifact verified against its pin first; and `generate --check`, which
 * compares a file with what would be generated and says where, why and what regenerating would change.
 */
import { type Stats, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { DatasetError } from "../../core/errors.js";
import { differingFields, type RecordChanges, RecordComparer } from "../../core/records/record-fingerprint.js";
import type { OutputRecord } from "../../core/records/record-line.js";
import { shellQuote } from "../../core/text.js";
import { DEFAULT_MAX_ARTIFACT_BYTES } from "../dataset/dataset-files.js";
import { type LoadedManifest, loadManifest, resolveArtifact, rootOf, verifyArtifacts } from "../dataset/manifest-io.js";
import { rootAbsence, rootProblem } from "../dataset/dataset-root.js";
import { handEditProblem } from "../dataset/hand-edited.js";
import { displayPath } from "../files/files.js";
import { describeIoError, OperationalError } from "../errors.js";
import { regularPiecesSync, withOutsideReads } from "../files/regular-file.js";
import { checkJobs, chooseJobs, createPool, WorkerMemoryError } from "../pool/pool.js";
import { MAIN_THREAD_PARSE_BYTES, UNITS_GENERATE_YOUNG_MB } from "../pool/thread-limits.js";
import { readOldRecords } from "../records/record-changes.js";
import { type LenientLine, lenientLines } from "../records/record-stream.js";
import { refuseOverOtherDataset } from "../writes/run-inputs.js";
import { outputStats, refuseOverInput } from "../writes/write.js";
import { ARTIFACT_TASKS } from "./generate-pool.js";
import type { GenerateOptions } from "./generate-options.js";
import { writeStepsAtomic } from "./encoded-lines.js";
import { GENERATE_THREADS, limitsOf, lineStepsOf, linesOf, pipeLines } from "./generated-lines.js";

export interface GenerateResult {
  records: number;
  /** Threads the markdown was parsed in. */
  threads?: number;
  /** True when they were all capped worker threads, this one parsing none (docs/spec.md, section 13). */
  capped?: boolean;
  /** True when one capped worker parsed and this thread made the lines (staged-parse.ts). */
  staged?: boolean;
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
  /** The number of records that would be generated. */
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
  // A dataset root that is not there (moved, renamed): said as update says it, with the fix, not as each artifact
  // missing with the advice to update (which fails on it too).
  const named = rootOf(loaded);
  const absence = rootAbsence(named);
  if (absence !== undefined)
    throw new DatasetError([
      rootProblem(
        named,
        absence,
        {
          shown,
          datasetRoot: loaded.manifest.datasetRoot,
          shownRoot: displayPath(named, options.cwd ?? process.cwd()),
        },
        "generate again",
      ),
    ]);
  // lock refuses an empty dataset; so does generate, rather than write an empty file.
  if (loaded.manifest.artifacts.length === 0)
    throw new DatasetError([
      `${shown}: the lock manifest lists no artifacts: there is nothing to generate (lock refuses an empty dataset too)`,
    ]);
  // The artifacts' stats, taken once: their sizes and, with an output file, whether one of them is that file
  // (refuseOverInputs, the lock manifest first). Their confinement to the dataset root is checked below, while the
  // pool's workers start.
  let stated: ArtifactSizes | undefined;
  if (options.output !== undefined) {
    const output = resolve(options.cwd ?? process.cwd(), options.output);
    const target = outputStats(output);
    if (target !== undefined)
      refuseOverInput(
        target,
        statSync(loaded.path, { throwIfNoEntry: false }),
        `the lock manifest ${shown}`,
        options.output,
      );
    stated = statArtifacts(
      loaded,
      options.maxArtifactBytes,
      target && { target, shown: options.output, manifest: shown },
    );
    refuseOverOtherDataset(output, loaded.path, loaded.manifest.slug, options.output);
  }
  const verifyAll = async () => {
    const verified = await verifyArtifacts(loaded, shown, options.cwd ?? process.cwd(), options.maxArtifactBytes);
    if (verified.problems.length > 0) throw new DatasetError(verified.problems, undefined, verified.unreadable);
    return verified;
  };
  // Verified first: verifyArtifacts checks the confinement too. Else the sizes as stated, their files' confinement
  // checked once the pool starts (undefined: one is missing or over the cap, and verifyArtifacts says which).
  let unconfined = false;
  let sized: { bytes: number; sizes: number[] } | undefined;
  if (!verifyFirst) {
    sized = stated ?? statArtifacts(loaded, options.maxArtifactBytes);
    unconfined = sized !== undefined;
  }
  const { bytes, sizes } = sized ?? (await verifyAll());
  // A manifest edited by hand: named, with what was edited and the fix (core's check says neither). After what names
  // the files (an empty list, artifacts missing), as core's check came after them.
  const edited = handEditProblem(loaded.path, loaded.manifest, shown, options.cwd ?? process.cwd());
  if (edited !== undefined) throw new DatasetError([edited]);
  const limits = limitsOf(options);
  // The markdown is parsed in workers whose heaps are capped (pool.ts, `capped`), even with one thread; in this thread
  // when the worker script is not built, or when one thread parses less than MAIN_THREAD_PARSE_BYTES (thread-limits.ts).
  const threads = chooseJobs(
    checkJobs(options.jobs),
    { items: loaded.manifest.artifacts.length, bytes },
    GENERATE_THREADS,
  );
  // Two threads: by stage, a capped worker parsing and this thread making the lines (staged-parse.ts); else the
  // workers do both, this thread joins their lines.
  const staged = threads === 2;
  const pool = await createPool(staged ? 1 : threads, ARTIFACT_TASKS, {
    mainWorks: true,
    capped: threads > 1 || bytes >= MAIN_THREAD_PARSE_BYTES,
    warm: staged ? "parseBatch" : "artifactBatch",
    ...(loaded.manifest.units === true ? { youngMb: UNITS_GENERATE_YOUNG_MB } : {}),
    // A single capped worker is sent every batch of the window (AHEAD_BYTES bounds them), not two: with two it waited
    // for this thread between batches, as this thread sends the next batch when it hears of an answer, and it hears of
    // answers only when its event loop turns, which making the lines of the answers it has puts off (by stage, the
    // statute book: 2.58 → 2.40–2.51 s; bench/RESULTS.md, "generate against markdown-it"). With --jobs 1 too.
    tasksAtOnce: Number.POSITIVE_INFINITY,
  });
  // Every artifact inside the dataset root once its links are resolved, checked while the workers load their modules
  // (a realpath of each of 6,636 laws is 50 ms): one that is not, and any other fault, named by verifyArtifacts.
  if (unconfined && !artifactsConfined(loaded)) {
    await pool.close();
    await verifyAll();
  }
  async function* checked<T>(lines: AsyncGenerator<T>) {
    try {
      yield* lines;
    } catch (error) {
      // Throws naming every fault, when there are several (or a file refused as it was read: each named from the working
      // directory).
      if (!verifyFirst && (error instanceof DatasetError || error instanceof OperationalError)) await verifyAll();
      if (error instanceof WorkerMemoryError) throw new OperationalError(`${shown}: ${error.message}`);
      throw error;
    } finally {
      await pool.close();
    }
  }
  return {
    loaded,
    lines: () => checked(linesOf(loaded.manifest, loaded.root, pool, sizes, limits, undefined, staged)),
    steps: () => checked(lineStepsOf(loaded.manifest, loaded.root, pool, sizes, limits, undefined, staged)),
    threads: pool.threads,
    capped: pool.capped,
    staged,
  };
}

interface ArtifactSizes {
  bytes: number;
  sizes: number[];
}

/**
 * The artifacts' sizes from the file system, each stated once by its path (links followed); undefined when one is
 * missing or over the cap (verifyArtifacts then says which). With `output`, refuses (refuseOverInput) when one of them
 * is the output file: every artifact is compared, a missing one before it or not.
 */
function statArtifacts(
  loaded: LoadedManifest,
  maxArtifactBytes = DEFAULT_MAX_ARTIFACT_BYTES,
  output?: { target: Stats; shown: string; manifest: string },
): ArtifactSizes | undefined {
  const sizes: number[] = [];
  let bytes = 0;
  let whole = true;
  for (const artifact of loaded.manifest.artifacts) {
    let info: Stats | undefined;
    try {
      info = statSync(join(loaded.root, ...artifact.path.split("/")), { throwIfNoEntry: false });
    } catch {
      info = undefined; // a part of its path is a file, or cannot be read: verifyArtifacts says so
    }
    if (output !== undefined)
      refuseOverInput(output.target, info, `the artifact ${artifact.path} of ${output.manifest}`, output.shown);
    if (info === undefined || info.size > maxArtifactBytes) whole = false;
    else {
      sizes.push(info.size);
      bytes += info.size;
    }
  }
  return whole ? { bytes, sizes } : undefined;
}

/** Whether every artifact resolves to a path inside the dataset root (resolveArtifact). */
function artifactsConfined(loaded: LoadedManifest): boolean {
  try {
    for (const artifact of loaded.manifest.artifacts) resolveArtifact(loaded.root, artifact.path);
  } catch {
    return false;
  }
  return true;
}

/** Generates the dataset's JSONL; every artifact is verified first, and a file is written atomically or not at all. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  return withOutsideReads(options.allowOutsideRepository, () => generateConfined(options));
}

async function generateConfined(options: GenerateOptions): Promise<GenerateResult> {
  const { lines, steps, threads, capped, staged } = await prepare(options, options.output === undefined);
  const parsedIn = { threads, ...(capped ? { capped } : {}), ...(staged ? { staged } : {}) };
  if (!options.output) return { records: await pipeLines(lines(), (text) => options.write?.(text)), ...parsedIn };
  const output = resolve(options.cwd ?? process.cwd(), options.output);
  // The file is written as bytes, joined from the worker threads' (encoded-lines.ts).
  return { records: await writeStepsAtomic(steps(), output), output, ...parsedIn };
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
  let info: Stats;
  try {
    info = statSync(checkPath); // sync: `fs.promises` would cost the run ms to load (bench/RESULTS.md, start-up)
  } catch (error) {
    throw new OperationalError(
      `${describeIoError(error, "read", options.check)}${(error as NodeJS.ErrnoException).code === "ENOENT" ? ` (to create it: citation-targets generate ${shellQuote(options.manifest)} -o ${shellQuote(options.check)})` : ""}`,
    );
  }
  if (info.isDirectory()) throw new OperationalError(`cannot read ${options.check}: it is a folder, not a file`);
  const { loaded, lines: generated } = await prepare(options);
  let pieces: Iterable<Uint8Array>;
  try {
    pieces = regularPiecesSync(checkPath); // read as every file is (a link out of the repository: refused, named)
  } catch (error) {
    throw new OperationalError(describeIoError(error, "read", options.check));
  }
  const first = await firstDifference(generated(), pieces);
  if (!first.difference) return first;
  // Second pass: classify every record by address (generation is deterministic, so this sees the same records).
  const old = await readOldRecords(checkPath);
  const comparer = new RecordComparer(old);
  const { lines } = await prepare(options);
  for await (const batch of lines())
    for (const line of batch) comparer.add(JSON.parse(line) as Record<string, unknown>);
  const changes = comparer.finish();
  // The first pass stopped counting at the first difference; the second saw every record that would be generated.
  const counted = { ...first, records: changes.after };
  const manifestDigest = loaded.manifest.datasetDigest;
  // A file named after another slug is another dataset's: regenerating this manifest over it would destroy that one.
  const ownName = `${loaded.manifest.slug}.jsonl`;
  const otherName =
    basename(checkPath).endsWith(".jsonl") && basename(checkPath) !== ownName ? basename(checkPath) : undefined;
  if (otherName !== undefined)
    return {
      ...counted,
      cause: `${options.check} is named after another slug (${otherName.slice(0, -".jsonl".length)}), and this manifest's slug is ${loaded.manifest.slug}: it is another dataset's file, or the wrong manifest; this manifest's JSONL is ${ownName}`,
      changes,
      otherDataset: true,
    };
  const cause =
    old?.datasetDigest !== undefined && old.datasetDigest !== manifestDigest
      ? `the lock manifest changed since the file was generated (the file has datasetDigest ${old.datasetDigest.slice(0, 12)}…, the manifest ${manifestDigest.slice(0, 12)}…)`
      : old?.datasetDigest === undefined
        ? "the file holds no record generated from this manifest"
        : "the file was edited after it was generated (its datasetDigest is the manifest's, but its records are not what generate writes)";
  return { ...counted, cause, changes };
}

/**
 * The first line where the file checked (its `pieces`, iterated here: the file closes as they end or the loop stops)
 * differs from what generate writes; `records` counts those generated up to there (all of them when none differs).
 */
async function firstDifference(batches: AsyncIterable<string[]>, pieces: Iterable<Uint8Array>): Promise<CheckResult> {
  async function* each() {
    for await (const batch of batches) yield* batch;
  }
  const iterator = each();
  let count = 0;
  let lineNumber = 0;
  const compareNext = async (line: LenientLine | undefined): Promise<CheckDifference | undefined> => {
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
    const actual = line ? line.text + (line.terminated ? "\n" : "") : undefined;
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
  for await (const line of lenientLines(pieces)) {
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
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    return { line, address, message: `line ${line} is not a JSON object: expected the record for ${address}` };
  // Every field counts (the uncompared ones too): the bytes are what differs. The first in code-unit order is named.
  const [field] = differingFields(expected, parsed, [], () => false).sort();
  if (field !== undefined) {
    // The file's citationAddress there, or that it has none (said in words, not as `undefined`).
    const theirs = parsed.citationAddress;
    const shown =
      theirs === address
        ? address
        : theirs === undefined
          ? `${address} (the file's record there has no citationAddress)`
          : `${address} (the file has ${JSON.stringify(theirs)})`;
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
