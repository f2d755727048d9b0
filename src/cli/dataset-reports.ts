/**
 * What `lock`, `generate --check`, `update` and `adopt` report, as text and as JSON, and the text of a
 * dataset's faults (`DatasetError`) (docs/spec.md,
 * "Reports of lock, generate, update and adopt"). The JSON shapes are kept stable as validate's is:
 * members are added, never renamed or removed. The text shows every value from the files (paths, addresses) with its
 * controls escaped (`\u001b`).
 */
import type { LockManifest } from "../core/lock/manifest.js";
import { MANIFEST_DATASET_FIELDS } from "../core/model.js";
import { escapeControls, escapeControlsByLine, namedList, plural } from "../core/text.js";
import type { CheckResult } from "../node/generate/generate.js";
import type { LockResult, ManifestChanges } from "../node/dataset/lock.js";
import { shellQuote } from "../core/text.js";
import type { RecordChanges } from "../core/records/record-fingerprint.js";
import type { DatasetUpdate } from "../node/update/update-dataset.js";

/** The version of the JSON reports of this file (`reportVersion`); raised only if a member had to change meaning. */
export const DATASET_REPORT_VERSION = 1;

const SHOWN_PATHS = 5;

/** A list cut to its first few entries: "a, b, c and 7 more". */
export function firstFew(items: readonly string[]): string {
  const shown = items.slice(0, SHOWN_PATHS).join(", ");
  return items.length > SHOWN_PATHS ? `${shown} and ${items.length - SHOWN_PATHS} more` : shown;
}

/** What a lock refresh changed, a line per kind of change. */
export function describeManifestChanges(changes: ManifestChanges): string[] {
  if (changes.created) return [`new manifest with ${plural(changes.added.length, "artifact")}`];
  const lines: string[] = [];
  const counts = [
    `${changes.added.length} added`,
    `${changes.removed.length} removed`,
    `${changes.changed.length} changed`,
  ];
  if (changes.rearranged.length > 0) counts.push(`${changes.rearranged.length} with a new place or kind`);
  lines.push(`artifacts: ${counts.join(", ")}`);
  if (changes.added.length > 0) lines.push(`  added:   ${firstFew(changes.added)}`);
  if (changes.removed.length > 0) lines.push(`  removed: ${firstFew(changes.removed)}`);
  if (changes.changed.length > 0) lines.push(`  changed: ${firstFew(changes.changed)}`);
  if (changes.rearranged.length > 0) lines.push(`  moved or re-kinded: ${firstFew(changes.rearranged)}`);
  if (changes.fields.length > 0) lines.push(`dataset fields changed: ${changes.fields.join(", ")}`);
  if (changes.units) lines.push("units below the heading: now targets (the manifest's units)");
  const laws = Object.entries(changes.documentAliases ?? {});
  if (laws.length > 0)
    lines.push(
      `aliases of ${laws.length} laws in it, each by its document (resolve finds a law in the dataset by them): ${firstFew(
        laws.map(([path, aliases]) => `${aliases.map((alias) => JSON.stringify(alias)).join(", ")} (${path})`),
      )}`,
    );
  else if (changes.aliases !== undefined || changes.documentAliases !== undefined)
    lines.push(
      (changes.aliases ?? []).length > 0
        ? `aliases (resolve finds the law by them): ${changes.aliases!.map((alias) => JSON.stringify(alias)).join(", ")}`
        : "aliases: none now (the front matter gives no value for the keys)",
    );
  return lines;
}

/** What regenerating changes, by citation address. */
export function describeRecordChanges(changes: RecordChanges): string[] {
  const lines = [
    `records: ${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} changed (${changes.before} before, ${changes.after} after)`,
  ];
  if (changes.added.length > 0) lines.push(`  added:   ${firstFew(changes.added)}`);
  if (changes.removed.length > 0) lines.push(`  removed: ${firstFew(changes.removed)}`);
  if (changes.changed.length > 0) lines.push(`  changed: ${firstFew(changes.changed)}`);
  // Why the file changes when no record does: lines regenerating drops.
  if (changes.duplicates)
    lines.push(
      `  the old file repeated an address on ${plural(changes.duplicates, "line")} (edited by hand?): dropped`,
    );
  if (changes.unreadable)
    lines.push(
      `  the old file had ${plural(changes.unreadable, "line")} that ${changes.unreadable === 1 ? "is" : "are"} not a record: dropped`,
    );
  if (changes.firstDifferentLine !== undefined)
    lines.push(
      `  no record changed, but line ${changes.firstDifferentLine} of the old file is not as generate writes it (edited by hand? validate names how, e.g. non-canonical): regenerating rewrites it`,
    );
  return lines;
}

/**
 * Records whose datasetDigest and citationTargetId change with the dataset digest: every record kept, when the digest
 * changed.
 */
export function reidentified(result: DatasetUpdate): number {
  const { before, after } = result.datasetDigest;
  return before !== undefined && before !== after ? result.records.after - result.records.added.length : 0;
}

/** True when an update found nothing to change. */
function isUpToDate(result: DatasetUpdate): boolean {
  return (
    !result.manifestChanged &&
    !result.outputChanged &&
    result.records.added.length + result.records.removed.length + result.records.changed.length === 0
  );
}

/** The text report of `update` and `adopt`: one block per dataset. */
export function describeUpdates(results: readonly DatasetUpdate[], check: boolean): string[] {
  return describeUpdatesRaw(results, check).map(escapeControls);
}

function describeUpdatesRaw(results: readonly DatasetUpdate[], check: boolean): string[] {
  const out: string[] = [];
  for (const result of results) {
    if (result.lineEndingsOnly) {
      out.push(
        `${result.slug}: only line endings differ (CR LF): ${result.manifest} and ${result.output} are up to date once CR LF is read as LF; nothing to update`,
      );
      if (result.lineEndingsAdvice !== undefined) out.push(`  ${result.lineEndingsAdvice}`);
      continue;
    }
    if (isUpToDate(result)) {
      out.push(`${result.slug}: up to date (${result.manifest}, ${result.output})`);
      continue;
    }
    out.push(`${result.slug}: ${check ? "not up to date" : "updated"}`);
    // Said by the check (a hook sees a JSONL deleted); update itself just writes it (after lock, it was never there).
    if (result.outputMissing && check)
      out.push(
        `  ${result.output} is not there (not generated yet, or deleted?): update writes it; if the law was withdrawn, remove its lock manifest too (git rm ${shellQuote(result.manifest)})`,
      );
    for (const line of describeManifestChanges({ ...result.artifacts, fields: [] })) out.push(`  ${line}`);
    for (const change of result.fields) out.push(`  ${change.field}: ${change.before} → ${change.after}`);
    for (const line of describeRecordChanges(result.records)) out.push(`  ${line}`);
    const again = reidentified(result);
    if (again > 0)
      out.push(
        `  datasetDigest ${result.datasetDigest.before!.slice(0, 12)}… → ${result.datasetDigest.after.slice(0, 12)}…: the datasetDigest and citationTargetId of every record changed with it (${plural(again, "record")} kept by address)`,
      );
    if (result.manifestFormOnly)
      out.push(
        `  the lock manifest holds what lock writes, but not in its form (white space, member order, line endings or a repeated member): ${check ? "it would be" : "it was"} written again as lock writes it`,
      );
    const files = [
      result.manifestChanged ? result.manifest : undefined,
      result.outputChanged ? result.output : undefined,
    ].filter((f) => f !== undefined);
    if (files.length > 0) out.push(`  ${check ? "would write" : "wrote"} ${files.join(" and ")}`);
  }
  return out;
}

/**
 * The text report of `lock` (standard error): what it wrote, or with `--check` whether the manifest is up to date and
 * the command (`refresh`) that refreshes it.
 */
export function lockText(result: LockResult, shown: string, check: boolean, refresh: string): string {
  return escapeControlsByLine(lockTextRaw(result, shown, check, refresh));
}

function lockTextRaw(result: LockResult, shown: string, check: boolean, refresh: string): string {
  const count = `${plural(result.manifest.artifacts.length, "artifact")}, datasetDigest ${result.manifest.datasetDigest}`;
  const changes = result.changed
    ? describeManifestChanges(result.changes)
        .map((line) => `  ${line}\n`)
        .join("")
    : "";
  const { lineEndings } = result;
  // Told as update tells it: not a change, and neither lock nor update is the fix (both would pin the CR LF bytes).
  if (lineEndings?.only)
    return `${shown}: only line endings differ (CR LF): ${namedList(lineEndings.artifacts)} ${lineEndings.artifacts.length === 1 ? "is" : "are"} what the manifest pins once CR LF is read as LF; nothing to lock (a write would pin the CR LF bytes): ${lineEndings.advice}\n`;
  if (!check) return `${result.changed ? "wrote" : "unchanged"} ${shown} (${count})\n${changes}`;
  if (!result.changed) return `${shown} is up to date (${count})\n`;
  const first = lineEndings
    ? `${namedList(lineEndings.artifacts)} ${lineEndings.artifacts.length === 1 ? "differs from its pin" : "differ from their pins"} only in line endings (CR LF), which lock must not pin: ${lineEndings.advice}; then `
    : "";
  return `${shown} is not up to date (${count}):\n${changes}hint: ${first}run \`${refresh}\` to refresh it, or \`citation-targets update ${shellQuote(shown)}\` to refresh it and regenerate the JSONL\n`;
}

/** The text report of `generate --check FILE` (standard error), `manifest` as given on the command line. */
export function generateCheckText(result: CheckResult, file: string, manifest: string): string {
  return escapeControlsByLine(generateCheckTextRaw(result, file, manifest));
}

function generateCheckTextRaw(result: CheckResult, file: string, manifest: string): string {
  const lines = generateCheckLines(result, file);
  if (result.difference) {
    const fix = generateCheckFix(result, file, manifest);
    lines.push("command" in fix ? `hint: run \`${fix.command}\` to regenerate it` : `hint: ${fix.advice}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The report of `generate --check FILE` but its hint (the CI formats say the fix in their own place), unescaped. */
export function generateCheckLines(result: CheckResult, file: string): string[] {
  if (!result.difference) return [`${file} is up to date (${plural(result.records, "record")})`];
  const lines = [
    `${file} is not up to date: ${result.cause ?? "it differs from what would be generated"}`,
    `  first difference: ${result.difference.message}`,
  ];
  if (result.changes) for (const line of describeRecordChanges(result.changes)) lines.push(`  ${line}`);
  return lines;
}

/**
 * What brings a stale FILE up to date: the command that regenerates it; or, when it is another dataset's file, what to
 * do instead, and no command, in every report (regenerating it from this manifest would replace that dataset's records).
 */
export function generateCheckFix(
  result: CheckResult,
  file: string,
  manifest: string,
): { command: string } | { advice: string } {
  return result.otherDataset
    ? {
        advice:
          "do not regenerate it from this manifest (that would replace another dataset's records); check the manifest that names its slug, or this manifest's own file",
      }
    : { command: `citation-targets generate ${shellQuote(manifest)} -o ${shellQuote(file)}` };
}

/**
 * The text report of `adopt` (standard output): the counts, then a block per refreshed dataset, then what to run next.
 */
export function adoptText(updates: readonly DatasetUpdate[], folder: string, check: boolean): string {
  return escapeControlsByLine(adoptTextRaw(updates, folder, check));
}

function adoptTextRaw(updates: readonly DatasetUpdate[], folder: string, check: boolean): string {
  const changed = updates.filter((r) => r.manifestChanged || r.outputChanged);
  const created = updates.filter((r) => r.artifacts.created).length;
  if (changed.length === 0 && updates.length === 1)
    // One: named by its slug and its manifest, not as "the dataset in <folder>" (its folder of markdown is elsewhere).
    return `${check ? "nothing to adopt" : "nothing adopted"}: ${updates[0]!.slug} is adopted and up to date (${updates[0]!.manifest})\n`;
  if (changed.length === 0 && updates.length > 0)
    // The datasets of the folders adopt was given (or its config's), not every manifest of the tooling folder.
    return `${check ? "nothing to adopt" : "nothing adopted"}: the ${updates.length} datasets it was given are adopted and up to date (their manifests in ${folder})\n`;
  let text = `${check ? "would adopt" : "adopted"} ${plural(updates.length, "dataset")} in ${folder}: ${created} new, ${changed.length - created} refreshed, ${updates.length - changed.length} up to date\n`;
  const details = describeUpdates(
    updates.filter((r) => !r.artifacts.created && (r.manifestChanged || r.outputChanged)),
    check,
  );
  if (details.length > 0) text += `${details.join("\n")}\n`;
  if (!check && changed.length > 0) text += "next: citation-targets validate\n";
  return text;
}

/**
 * A dataset's faults, counted: a hint ("hint: …") is said after them and not counted, and "… and N
 * more" counts as the N faults it stands for.
 */
export function describeDatasetProblems(problems: readonly string[], closing?: string): string {
  // Hints, and a closing line (update's "nothing was written": all or nothing), follow the faults, uncounted.
  const hints = [...problems.filter((p) => p.startsWith("hint: ")), ...(closing !== undefined ? [closing] : [])];
  const faults = problems.filter((p) => !p.startsWith("hint: "));
  const count = faults.reduce((sum, p) => sum + Number(/^… and ([0-9]+) more /.exec(p)?.[1] ?? 1), 0);
  const body =
    faults.length === 1 && count === 1
      ? faults[0]
      : `${plural(count, "problem")}:\n${faults.map((p) => `  ${p}`).join("\n")}`;
  return `${[body, ...hints].join("\n")}\n`;
}

function artifactsJson(changes: ManifestChanges) {
  return {
    created: changes.created,
    added: changes.added,
    removed: changes.removed,
    changed: changes.changed,
    rearranged: changes.rearranged,
  };
}

function recordsJson(changes: RecordChanges) {
  return {
    before: changes.before,
    after: changes.after,
    added: changes.added,
    removed: changes.removed,
    changed: changes.changed,
    ...(changes.duplicates ? { duplicates: changes.duplicates } : {}),
    ...(changes.unreadable ? { unreadable: changes.unreadable } : {}),
    ...(changes.firstDifferentLine !== undefined ? { firstDifferentLine: changes.firstDifferentLine } : {}),
  };
}

/** `update --format json` and `adopt --format json`: one JSON document. */
export function updatesJson(command: "update" | "adopt", results: readonly DatasetUpdate[], check: boolean): string {
  const datasets = results.map((result) => ({
    slug: result.slug,
    manifest: result.manifest,
    output: result.output,
    status: isUpToDate(result) ? "up-to-date" : "changed",
    written: result.written,
    manifestChanged: result.manifestChanged,
    outputChanged: result.outputChanged,
    artifacts: artifactsJson(result.artifacts),
    fields: result.fields,
    datasetDigest: result.datasetDigest,
    records: { ...recordsJson(result.records), reidentified: reidentified(result) },
    warnings: result.warnings,
    ...(result.lineEndingsOnly ? { lineEndingsOnly: true } : {}),
    ...(result.manifestFormOnly ? { manifestFormOnly: true } : {}),
    ...(result.outputMissing ? { outputMissing: true } : {}),
  }));
  const summary = {
    datasets: results.length,
    upToDate: datasets.filter((d) => d.status === "up-to-date").length,
    changed: datasets.filter((d) => d.status === "changed").length,
    written: datasets.filter((d) => d.written).length,
    warnings: results.reduce((sum, r) => sum + r.warnings.length, 0),
  };
  return `${JSON.stringify({ reportVersion: DATASET_REPORT_VERSION, command, check, datasets, summary }, null, 2)}\n`;
}

/** `lock --format json` (with or without --check). */
export function lockJson(result: LockResult, shown: string, check: boolean, before: LockManifest | undefined): string {
  const fields = before
    ? MANIFEST_DATASET_FIELDS.filter((key) => before[key] !== result.manifest[key]).map((field) => ({
        field,
        before: before[field],
        after: result.manifest[field],
      }))
    : [];
  return `${JSON.stringify(
    {
      reportVersion: DATASET_REPORT_VERSION,
      command: "lock",
      check,
      manifest: shown,
      status: result.changed ? "changed" : "up-to-date",
      written: result.written,
      artifacts: result.manifest.artifacts.length,
      datasetDigest: { ...(before ? { before: before.datasetDigest } : {}), after: result.manifest.datasetDigest },
      changes: { ...artifactsJson(result.changes), fields },
      ...(result.lineEndings?.only ? { lineEndingsOnly: true } : {}),
    },
    null,
    2,
  )}\n`;
}

/** `generate --check FILE --format json`. */
export function generateCheckJson(result: CheckResult, file: string): string {
  return `${JSON.stringify(
    {
      reportVersion: DATASET_REPORT_VERSION,
      command: "generate",
      check: file,
      status: result.difference ? "changed" : "up-to-date",
      records: result.records,
      ...(result.cause !== undefined ? { cause: result.cause } : {}),
      ...(result.difference ? { firstDifference: result.difference } : {}),
      ...(result.changes ? { changes: recordsJson(result.changes) } : {}),
      ...(result.otherDataset ? { otherDataset: true } : {}),
    },
    null,
    2,
  )}\n`;
}
