/**
 * lock-artifact-body knows only that a run of targets does not concatenate to its artifact's body
 * (it holds digests, not the body), so it reports the run's first line. When that happens, which is
 * rare, this regenerates the artifact's targets and finds the record whose markdown differs, so that
 * the problem points at the line that was edited, not at the first line of the artifact.
 */
import { resolve } from "node:path";
import { readRegularFileSync, regularReadStream } from "../files/regular-file.js";
import { LineSplitter } from "../../core/lines.js";
import { decodeUtf8Lenient } from "../../core/bytes.js";
import { sortProblems, type Problem } from "../../core/report/problem.js";
import type { FileReport } from "../../core/report/report.js";
import { loadManifest, resolveArtifact } from "../dataset/manifest-io.js";

const isDiffers = (p: Problem) => p.ruleId === "lock-artifact-body" && p.messageId === "differs";

/**
 * The file's report with each "does not concatenate" problem moved to the first record whose markdown is not what
 * generate writes.
 */
export async function locateEditedTargets(file: FileReport, cwd: string): Promise<FileReport> {
  if (file.lockManifest === undefined || file.error !== undefined || !file.problems.some(isDiffers)) return file;
  try {
    const { generateRecords } = await import("../../core/records/parse-artifact.js"); // the markdown and YAML parsers: only on this rare path, not at start-up
    const loaded = await loadManifest(resolve(cwd, file.lockManifest), cwd, file.lockManifest, {
      allowOutsideRepository: true,
    }); // validate has checked it;
    const wanted = new Set(file.problems.filter(isDiffers).map((p) => String(p.data.path)));
    const expected = new Map<string, string>(); // citationAddress → markdown, for the artifacts in question
    for await (const record of generateRecords(loaded.manifest, (path) =>
      Promise.resolve(readRegularFileSync(resolveArtifact(loaded.root, path))),
    )) {
      if (wanted.has(String(record.artifactRelativePath)) && typeof record.markdown === "string")
        expected.set(String(record.citationAddress), record.markdown);
    }
    const edited = await firstEditedLines(resolve(cwd, file.path), wanted, expected);
    const problems = file.problems.map((p) => {
      const found = isDiffers(p) ? edited.get(String(p.data.path)) : undefined;
      if (!found) return p;
      return {
        ...p,
        line: found.line,
        message: `${p.message} (the first target that differs is on line ${found.line}: ${found.address})`,
      };
    });
    return { ...file, problems: sortProblems(problems) };
  } catch {
    return file; // the artifacts could not be regenerated (another fault, reported on its own): the problem stays where the rule put it
  }
}

/**
 * For each artifact, the first line whose record's markdown is not the expected one (or whose address generate does not
 * make).
 */
async function firstEditedLines(
  path: string,
  artifacts: Set<string>,
  expected: Map<string, string>,
): Promise<Map<string, { line: number; address: string }>> {
  const found = new Map<string, { line: number; address: string }>();
  const splitter = new LineSplitter((line) => {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(decodeUtf8Lenient(line.bytes)) as Record<string, unknown>;
    } catch {
      return;
    }
    const artifact = record?.artifactRelativePath;
    if (
      typeof artifact !== "string" ||
      !artifacts.has(artifact) ||
      found.has(artifact) ||
      typeof record.markdown !== "string"
    )
      return;
    const address = String(record.citationAddress);
    if (expected.get(address) !== record.markdown) found.set(artifact, { line: line.number, address });
  });
  for await (const chunk of regularReadStream(path)) splitter.push(chunk as Buffer);
  splitter.end();
  return found;
}
