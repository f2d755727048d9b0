/**
 * `update --check` and `generate --check` in a CI format (`--format github|sarif|junit`): the
 * datasets' results made entries for src/formatters/freshness.ts.
 */
import { basename } from "node:path";
import { escapeControls, shellQuote } from "../core/text.js";
import type { FreshnessEntry, FreshnessFix, FreshnessFormat } from "../formatters/freshness.js";
import { cwdInRepository } from "../node/files/files.js";
import type { CheckResult } from "../node/generate/generate.js";
import type { DatasetUpdate } from "../node/update/update-dataset.js";
import { describeDatasetProblems, describeUpdates, generateCheckFix, generateCheckLines } from "./dataset-reports.js";

async function render(
  format: FreshnessFormat,
  entries: FreshnessEntry[],
  command: string,
  fix: FreshnessFix,
  cwd: string,
  toolVersion: string,
): Promise<string> {
  const { formatFreshness } = await import("../formatters/freshness.js");
  const where = await cwdInRepository(cwd);
  return formatFreshness(format, entries, {
    command,
    fix,
    toolVersion,
    ...(where !== undefined ? { cwdInRepository: where } : {}),
  });
}

/** `update --check --format github|sarif|junit`: a case or an annotation per dataset. */
export async function updateFreshness(
  format: FreshnessFormat,
  results: readonly DatasetUpdate[],
  upToDate: (result: DatasetUpdate) => boolean,
  cwd: string,
  toolVersion: string,
): Promise<string> {
  const entries = results.map((result) => {
    const lines = describeUpdates([result], true);
    const fresh = upToDate(result);
    return {
      slug: result.slug,
      manifest: result.manifest,
      output: result.output,
      upToDate: fresh,
      // The slug is each report's own (a case's name, an annotation's title, gitlab's description starts with it): the
      // message and the details say it no more (gitlab's said "probeg: probeg: not up to date…").
      message: fresh
        ? "up to date"
        : `not up to date: ${result.manifestChanged ? "its lock manifest" : "its JSONL"} would change`,
      // describeUpdates' first line of a stale dataset is `<slug>: not up to date`: the message says it.
      details: lines
        .slice(fresh ? 0 : 1)
        .map((line) => line.trim())
        .filter((line) => line !== ""),
      warnings: result.warnings.map(escapeControls),
    };
  });
  return render(format, entries, "update --check", { command: "citation-targets update" }, cwd, toolVersion);
}

/**
 * `generate --check FILE --format github|sarif|junit|gitlab`: one case or annotation, for the dataset of FILE. `result`
 * is the check's, or the problems of a dataset at fault (an artifact changed since the manifest pinned it, or gone: the
 * manifest is out of date, and CI is told so at the manifest, as for a stale file, not left with an empty report).
 */
export async function generateFreshness(
  format: FreshnessFormat,
  result: CheckResult | { problems: readonly string[] },
  file: string,
  manifest: string,
  cwd: string,
  toolVersion: string,
): Promise<string> {
  // The check's report without its hint (a dataset's faults carry one too: verifyArtifacts' `run update …`): the fix
  // below is said in each format's own place, once.
  const lines = (
    "problems" in result ? describeDatasetProblems(result.problems).split("\n") : generateCheckLines(result, file)
  )
    .filter((line) => line.trim() !== "" && !("problems" in result && /^\s*hint: /.test(line)))
    .map(escapeControls);
  const entry: FreshnessEntry = {
    slug: basename(file).replace(/\.jsonl$/, ""),
    manifest,
    output: file,
    upToDate: !("problems" in result) && result.difference === undefined,
    message: lines[0] ?? `${file} is not up to date`,
    details: lines.slice(1).map((line) => line.trim()),
    warnings: [],
  };
  // A dataset at fault has a stale manifest: update refreshes it and regenerates; a stale file, generate rewrites, unless
  // it is another dataset's (then no command: regenerating would replace that dataset's records).
  const fix: FreshnessFix =
    "problems" in result
      ? { command: `citation-targets update ${shellQuote(manifest)}` }
      : generateCheckFix(result, file, manifest);
  return render(format, [entry], "generate --check", fix, cwd, toolVersion);
}
