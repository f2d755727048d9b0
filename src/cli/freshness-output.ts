/**
 * `update --check` and `generate --check` in a CI format (`--format github|sarif|junit`): the
 * datasets' results made entries for src/formatters/freshness.ts.
 */
import { basename } from "node:path";
import type { FreshnessEntry, FreshnessFormat } from "../formatters/freshness.js";
import { cwdInRepository } from "../node/files/files.js";
import type { CheckResult } from "../node/generate/generate.js";
import type { DatasetUpdate } from "../node/update/update-dataset.js";
import { describeUpdates, generateCheckText } from "./dataset-reports.js";

async function render(
  format: FreshnessFormat,
  entries: FreshnessEntry[],
  command: string,
  fix: string,
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
      message: fresh
        ? `${result.slug}: up to date`
        : `${result.slug}: not up to date: ${result.manifestChanged ? "its lock manifest" : "its JSONL"} would change`,
      details: lines.map((line) => line.trim()).filter((line) => line !== ""),
    };
  });
  return render(format, entries, "update --check", "citation-targets update", cwd, toolVersion);
}

/** `generate --check FILE --format github|sarif|junit`: one case or annotation, for the dataset of FILE. */
export async function generateFreshness(
  format: FreshnessFormat,
  result: CheckResult,
  file: string,
  manifest: string,
  cwd: string,
  toolVersion: string,
): Promise<string> {
  const lines = generateCheckText(result, file, manifest)
    .split("\n")
    .filter((line) => line.trim() !== "");
  const entry: FreshnessEntry = {
    slug: basename(file).replace(/\.jsonl$/, ""),
    manifest,
    output: file,
    upToDate: result.difference === undefined,
    message: lines[0] ?? `${file} is not up to date`,
    details: lines.slice(1).map((line) => line.trim()),
  };
  return render(
    format,
    [entry],
    "generate --check",
    `citation-targets generate ${manifest} -o ${file}`,
    cwd,
    toolVersion,
  );
}
