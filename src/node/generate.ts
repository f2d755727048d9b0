import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import canonicalize from "canonicalize";
import { DatasetError, generateRecords, serializeRecord, type OutputRecord } from "../core/generate.js";
import { LineSplitter, type Line } from "../core/lines.js";
import { loadManifest, resolveArtifact, verifyArtifacts } from "./manifest-io.js";

export interface GenerateOptions {
  /** Path of the lock manifest. */
  manifest: string;
  cwd?: string;
  /** Write the JSONL here (atomically); without it, records go to `write`. */
  output?: string;
  /** Receives the JSONL text when there is no output file (the CLI passes stdout); may return a promise to apply backpressure. */
  write?: (text: string) => unknown;
}

export interface GenerateResult {
  records: number;
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
  difference?: CheckDifference;
}

async function prepare(options: GenerateOptions) {
  const loaded = await loadManifest(options.manifest, options.cwd);
  const problems = await verifyArtifacts(loaded);
  if (problems.length > 0) throw new DatasetError(problems);
  const read = async (path: string) => readFile(await resolveArtifact(loaded.root, path));
  return generateRecords(loaded.manifest, read);
}

const FLUSH_AT = 1 << 20;

/** Serialises records to `write` in chunks of about 1 MiB; resolves to the record count. */
async function pipeRecords(records: AsyncIterable<OutputRecord>, write: (text: string) => unknown): Promise<number> {
  let count = 0;
  let buffer = "";
  for await (const record of records) {
    buffer += serializeRecord(record);
    count++;
    if (buffer.length >= FLUSH_AT) {
      await write(buffer);
      buffer = "";
    }
  }
  if (buffer !== "") await write(buffer);
  return count;
}

/** Generates the dataset's JSONL; every artifact is verified first, and a file is written atomically or not at all. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const records = await prepare(options);
  if (!options.output) return { records: await pipeRecords(records, (text) => options.write?.(text)) };
  const output = resolve(options.cwd ?? process.cwd(), options.output);
  const temporary = join(dirname(output), `.${basename(output)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  await mkdir(dirname(output), { recursive: true });
  const handle = await open(temporary, "wx");
  try {
    const count = await pipeRecords(records, (text) => handle.write(text));
    await handle.sync();
    await handle.close();
    await rename(temporary, output);
    return { records: count, output };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Compares FILE with what would be generated, record by record; reports the first difference. Writes nothing. */
export async function checkGenerated(options: GenerateOptions & { check: string }): Promise<CheckResult> {
  const records = (await prepare(options))[Symbol.asyncIterator]();
  const lines: Line[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  const decoder = new TextDecoder();
  let count = 0;
  let lineNumber = 0;
  const compareNext = async (line: Line | undefined): Promise<CheckDifference | undefined> => {
    const next = await records.next();
    lineNumber++;
    if (next.done) {
      return line ? { line: lineNumber, message: `line ${lineNumber} is extra: nothing would be generated after line ${lineNumber - 1}` } : undefined;
    }
    count++;
    const expected = serializeRecord(next.value);
    const address = String(next.value.citationAddress);
    if (!line) return { line: lineNumber, address, message: `the file ends at line ${lineNumber - 1}: expected a record for ${address} on line ${lineNumber}` };
    const actual = decoder.decode(line.bytes) + (line.terminated ? "\n" : "");
    if (actual === expected) return undefined;
    return describeDifference(lineNumber, next.value, actual);
  };
  const stream = createReadStream(resolve(options.cwd ?? process.cwd(), options.check));
  for await (const chunk of stream) {
    splitter.push(chunk as Buffer);
    while (lines.length > 0) {
      const difference = await compareNext(lines.shift());
      if (difference) return { records: count, difference };
    }
  }
  splitter.end();
  for (const line of lines) {
    const difference = await compareNext(line);
    if (difference) return { records: count, difference };
  }
  const difference = await compareNext(undefined);
  return difference ? { records: count, difference } : { records: count };
}

function describeDifference(line: number, expected: OutputRecord, actual: string): CheckDifference {
  const address = String(expected.citationAddress);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(actual) as Record<string, unknown>;
  } catch {
    return { line, address, message: `line ${line} is not valid JSON: expected the record for ${address}` };
  }
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(parsed ?? {})])].sort();
  for (const field of keys) {
    if (canonicalize(expected[field]) !== canonicalize(parsed?.[field])) {
      const shown = parsed?.citationAddress === address ? address : `${address} (the file has ${JSON.stringify(parsed?.citationAddress)})`;
      return { line, address, field, message: `line ${line}, record ${shown}: ${field} differs from what would be generated` };
    }
  }
  return { line, address, message: `line ${line}, record ${address}: same values but not the generated bytes (canonical form or final newline)` };
}
