/**
 * `citation-targets/core`: the pure core, synchronous, for callers that feed it bytes (no I/O, no
 * threads). It is a subpath of its own because it brings the markdown, YAML and JSON Schema parsers
 * with its import; the main entry (`citation-targets`) loads them only when a command first needs
 * them. Everything here is also what the commands use.
 */
export { parseArtifact } from "./core/markdown/targets.js";
export { planDataset } from "./core/records/generate.js";
export { generateRecords } from "./core/records/parse-artifact.js";
export { serializeRecord } from "./core/records/record-line.js";
export type { ArtifactReader } from "./core/records/generate.js";
export type { OutputRecord } from "./core/records/record-line.js";
export { compileRecordSchema } from "./core/schema/schema-validator.js";
export { createFileCheck, resolveSeverities } from "./engine/check-file.js";
export type { FileCheck, FileCheckOptions, FileResult } from "./engine/check-file.js";
export { rules, ruleIds, getRule } from "./rules/index.js";
export type { RuleId } from "./rules/index.js";
export { buildRecordSchema, DEFAULT_LEGISLATION_HOST, SCHEMA_VERSION } from "./core/schema/schema.js";
export { deriveCitationTargetId, deriveTextDigest, CITATION_TARGET_ID_FRAMING } from "./core/digest.js";
export {
  computeDatasetDigest,
  buildManifestSchema,
  formatManifest,
  DEFAULT_MANIFEST_NAME,
} from "./core/lock/manifest.js";
export type { LockManifest, ManifestArtifact } from "./core/lock/manifest.js";
export type { ArtifactKind, IndexKind } from "./core/model.js";
export { parseAddress, formatAddress, parseLocal, formatLocal, escapePath, TOP_LOCAL } from "./core/address/address.js";
export type { AddressParts, TargetKind } from "./core/address/address.js";
export { designate, slugify } from "./core/address/designation.js";
export { assignLocalCoordinates } from "./core/address/numbering.js";
export { DatasetError } from "./core/errors.js";
export { createCitationReader, READER_TABLES } from "./core/resolve/citation-reader.js";
export type { Citation, CitationReader, CitationStep, StepKind } from "./core/resolve/citation-reader.js";
export { ResolveIndex } from "./core/resolve/resolve-index.js";
export type { ResolveDataset, ResolveRecord } from "./core/resolve/resolve-index.js";
