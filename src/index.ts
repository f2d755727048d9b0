import type { ValidateOptions } from "./node/validate/validate-options.js";
import type { Report } from "./core/report/report.js";
import type { LockOptions, LockResult } from "./node/dataset/lock.js";
import type { ResolveOptions, ResolveReport } from "./node/resolve/resolve.js";
import type { UpdateOptions } from "./node/update/update.js";
import type { DatasetUpdate } from "./node/update/update-dataset.js";
import type { CheckResult, GenerateResult } from "./node/generate/generate.js";
import type { GenerateOptions } from "./node/generate/generate-options.js";
import type { DiffOptions } from "./node/diff/diff.js";
import type { DiffReport } from "./core/diff/diff.js";
import type { WrittenApprovals } from "./node/diff/approvals-file.js";
import type { LoadedManifest } from "./node/dataset/manifest-io.js";
import type { LockContext } from "./core/lock/lock-context.js";
import type { ArtifactReader } from "./core/records/generate.js";
import type { OutputRecord } from "./core/records/record-line.js";
import type { LockManifest } from "./core/lock/manifest.js";
import { OperationalError } from "./node/errors.js";
import { OPTION } from "./node/dataset/fields-error.js";
import type { AdoptOptions, AdoptResult } from "./node/update/adopt.js";
import type { ConfigChoice } from "./node/config/library-config.js";
import type { LoadedConfig } from "./node/config/config.js";
import type { DatasetFields } from "./core/lock/dataset-fields.js";
import {
  checkAdoptOptions,
  checkResolveConfigOptions,
  checkResolveOptions,
  checkCheckGeneratedOptions,
  checkDiffOptions,
  checkGenerateOptions,
  checkLockOptions,
  checkPathArgument,
  checkUpdateOptions,
  checkValidateOptions,
} from "./node/config/check-options.js";

// The commands load their modules (the file walkers, thread pools, parsers and Ajv they need) when
// first called, not when the library is imported; their options are checked first.

/**
 * The config the CLI reads in `cwd` (README, "Library"): `{ config: true }` (the default) finds it from `cwd` up to the
 * repository root, `{ config: "<file>" }` reads that file, `{ config: false }` none. Undefined when there is none.
 */
export async function resolveConfig(
  cwd?: string,
  options: { config?: ConfigChoice } = {},
): Promise<LoadedConfig | undefined> {
  checkPathArgument("resolveConfig", "cwd", cwd, true);
  checkResolveConfigOptions(options);
  return (await import("./node/config/library-config.js")).resolveConfig(cwd, options);
}
export type { Config, LoadedConfig, AdoptConfig } from "./node/config/config.js";
export type { ConfigChoice } from "./node/config/library-config.js";

/**
 * Validates JSONL files (see ValidateOptions); throws OperationalError for a bad option, schema or pattern. With
 * `config: true` (or a config file) the options not given are taken from the config, as the CLI does.
 */
export async function validate(options: ValidateOptions & { config?: ConfigChoice } = {}): Promise<Report> {
  checkValidateOptions(options);
  const { validateWithConfig } = await import("./node/config/library-config.js");
  return (await import("./node/validate/validate.js")).validate(await validateWithConfig(options));
}
export type { ValidateOptions };
export { exitCodeFor, summarize, onlyErrors } from "./core/report/report.js";
export type { Report, FileReport, Summary, SchemaSource, RuleDescriptor } from "./core/report/report.js";
export { createFileCheck, resolveSeverities } from "./engine/check-file.js";
export type { FileCheck, FileCheckOptions, FileResult } from "./engine/check-file.js";
export type { Problem, Severity, RuleSetting } from "./core/report/problem.js";
export { buildRecordSchema, DEFAULT_LEGISLATION_HOST, SCHEMA_VERSION } from "./core/schema/schema.js";
export { deriveCitationTargetId, deriveTextDigest, CITATION_TARGET_ID_FRAMING } from "./core/digest.js";
export { rules, ruleIds, getRule } from "./rules/index.js";
export type { RuleId } from "./rules/index.js";
export { formatters, FORMAT_NAMES } from "./formatters/index.js";
export { OperationalError } from "./node/errors.js";
/** What `lock()` throws when the dataset fields given are not what a manifest may hold: `problems`, each a field's. */
export { FieldsError } from "./node/dataset/fields-error.js";
/**
 * Writes or refreshes a dataset's lock manifest; throws FieldsError for a dataset field a manifest may not hold (each
 * problem as data, the message naming the option: `titleId "": empty: …`), OperationalError for another bad option.
 */
export async function lock(options: LockOptions): Promise<LockResult> {
  checkLockOptions(options);
  return (await import("./node/dataset/lock.js")).lock(options, undefined, OPTION);
}
export type { LockOptions, LockResult, ManifestChanges } from "./node/dataset/lock.js";
export type { ManifestOptions } from "./node/dataset/manifest-options.js";
/**
 * Finds the targets of citations as lawyers write them (`citation-targets resolve`; README, "resolve"): one result per
 * citation, in order, and the warnings of the load (a dataset left out). Throws OperationalError for a bad option or
 * when no dataset can be loaded.
 */
export async function resolve(options: ResolveOptions): Promise<ResolveReport> {
  checkResolveOptions(options);
  return (await import("./node/resolve/resolve.js")).resolveCitations(options);
}
export type { ResolveOptions, ResolveReport };
export type {
  ResolveCandidate,
  ResolveOutcome,
  ResolvePrecision,
  ResolveResult,
} from "./core/resolve/resolve-index.js";
/** Refreshes lock manifests and regenerates their JSONL; throws OperationalError for a bad option. */
export async function update(options: UpdateOptions & { config?: ConfigChoice } = {}): Promise<DatasetUpdate[]> {
  checkUpdateOptions(options);
  const { updateWithConfig } = await import("./node/config/library-config.js");
  return updateWithConfig((await import("./node/update/update.js")).update, options);
}
/**
 * Adopts dataset folders (`citation-targets adopt`): writes a lock manifest and JSONL for each; with `config: true` (or
 * a config file) the folders (when none are given) and the templates come from the config's `adopt`, the templates
 * given winning.
 */
export async function adopt(
  options: Omit<AdoptOptions, "datasets" | "templates"> & {
    datasets?: string[];
    templates?: Partial<DatasetFields>;
    config?: ConfigChoice;
  },
): Promise<AdoptResult> {
  checkAdoptOptions(options);
  const { adoptWithConfig } = await import("./node/config/library-config.js");
  return adoptWithConfig((await import("./node/update/adopt.js")).adopt, options);
}
export type { AdoptOptions, AdoptResult } from "./node/update/adopt.js";
export type { UpdateOptions } from "./node/update/update.js";
export type { DatasetUpdate } from "./node/update/update-dataset.js";
export type { RecordChanges } from "./core/records/record-fingerprint.js";
/** Generates a dataset's JSONL from its lock manifest; throws OperationalError for a bad option. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  checkGenerateOptions(options);
  return (await import("./node/generate/generate.js")).generate(options);
}
/** Compares a file with what would be generated; throws OperationalError for a bad option. */
export async function checkGenerated(options: GenerateOptions & { check: string }): Promise<CheckResult> {
  checkCheckGeneratedOptions(options);
  return (await import("./node/generate/generate.js")).checkGenerated(options);
}
export type { GenerateResult, CheckResult, CheckDifference } from "./node/generate/generate.js";
export type { GenerateOptions } from "./node/generate/generate-options.js";
/** Reads and checks a lock manifest. */
export async function loadManifest(path: string, cwd?: string, shown?: string): Promise<LoadedManifest> {
  checkPathArgument("loadManifest", "path", path);
  checkPathArgument("loadManifest", "cwd", cwd, true);
  checkPathArgument("loadManifest", "shown", shown, true);
  return (await import("./node/dataset/manifest-io.js")).loadManifest(path, cwd, shown);
}
/** The context the manifest rules check a file against. */
export async function loadLockContext(manifestPath: string, shownPath: string, cwd?: string): Promise<LockContext> {
  checkPathArgument("loadLockContext", "manifestPath", manifestPath);
  checkPathArgument("loadLockContext", "shownPath", shownPath);
  checkPathArgument("loadLockContext", "cwd", cwd, true);
  return (await import("./node/validate/validate-lock.js")).loadLockContext(manifestPath, shownPath, cwd);
}
/**
 * Yields a dataset's records in file order from its manifest, reading each artifact through `read`
 * (the markdown parser is loaded on the first call). The synchronous core, with the parsers in its
 * import, is `citation-targets/core` (parseArtifact, serializeRecord, planDataset, compileRecordSchema…).
 */
export async function* generateRecords(manifest: LockManifest, read: ArtifactReader): AsyncGenerator<OutputRecord> {
  if (
    manifest === null ||
    typeof manifest !== "object" ||
    !Array.isArray((manifest as { artifacts?: unknown }).artifacts)
  )
    throw new OperationalError(
      `generateRecords: manifest: expected a lock manifest (an object with an artifacts array), got ${typeof manifest === "object" ? JSON.stringify(manifest) : typeof manifest}`,
    );
  if (typeof read !== "function")
    throw new OperationalError(`generateRecords: read: expected a function of an artifact's path, got ${typeof read}`);
  yield* (await import("./core/records/parse-artifact.js")).generateRecords(manifest, read);
}
export { DatasetError } from "./core/errors.js";
export type { ArtifactReader } from "./core/records/generate.js";
export type { OutputRecord } from "./core/records/record-line.js";
export {
  computeDatasetDigest,
  buildManifestSchema,
  formatManifest,
  DEFAULT_MANIFEST_NAME,
} from "./core/lock/manifest.js";
export type { LockManifest, ManifestArtifact } from "./core/lock/manifest.js";
export type { ArtifactKind, IndexKind } from "./core/model.js";
export type { LockContext } from "./core/lock/lock-context.js";
export { parseAddress, formatAddress, parseLocal, formatLocal, escapePath, TOP_LOCAL } from "./core/address/address.js";
export type { AddressParts, LocalParts, TargetKind } from "./core/address/address.js";
export { designate, slugify } from "./core/address/designation.js";
export { assignLocalCoordinates } from "./core/address/numbering.js";
/** Compares two versions of citation-targets files; throws OperationalError for a bad option. */
export async function diff(options: DiffOptions & { config?: ConfigChoice } = {}): Promise<DiffReport> {
  checkDiffOptions(options);
  const { diffWithConfig } = await import("./node/config/library-config.js");
  return (await import("./node/diff/diff.js")).diff(await diffWithConfig(options));
}
export type { DiffOptions } from "./node/diff/diff.js";
/**
 * Writes an approvals file for a diff report (`diff --write-approvals FILE`): an entry with a
 * placeholder reason, which approves nothing until it is replaced, for each breaking change no
 * approval covers, after the entries FILE already holds. Throws OperationalError for a bad argument,
 * an invalid existing file or a write that fails.
 */
export async function writeApprovals(
  report: DiffReport,
  file: string,
  cwd: string = process.cwd(),
): Promise<WrittenApprovals> {
  if (typeof file !== "string" || file === "")
    throw new OperationalError(`writeApprovals: file: expected a non-empty string, got ${JSON.stringify(file)}`);
  if (report === null || typeof report !== "object" || !Array.isArray((report as { pairs?: unknown }).pairs))
    throw new OperationalError("writeApprovals: report: expected the report of diff()");
  return (await import("./node/diff/approvals-file.js")).writeApprovals(report, file, cwd);
}
export type { WrittenApprovals } from "./node/diff/approvals-file.js";
export { PLACEHOLDER_REASON, isPlaceholderReason } from "./core/diff/diff.js";
export { CHANGE_KINDS, ADDITIVE_KINDS, BREAKING_KINDS, classOf, diffExitCode } from "./core/diff/diff.js";
export type {
  ChangeKind,
  ChangeClass,
  FailOn,
  DiffReport,
  DiffChange,
  DiffPair,
  DiffSummary,
} from "./core/diff/diff.js";
