/** The JSON Schema of a citation-target record (docs/spec.md, section 1, "Records"), built for one legislation host. */

import { LEGISLATION_HOST_PATTERN, MARKDOWN_ARTIFACT_KINDS, SLUG_PATTERN, SOURCE_INDEX_KINDS } from "../model.js";
import { escapeRegExp } from "../text.js";

export const DEFAULT_LEGISLATION_HOST = "www.legislation.gov.au";
export const SCHEMA_VERSION = "1.0.0";

const HOST_PATTERN = new RegExp(LEGISLATION_HOST_PATTERN);

/** True when `host` is a lowercase DNS host name, optionally with a port. */
export function isValidLegislationHost(host: string): boolean {
  return HOST_PATTERN.test(host);
}

/** The `pattern` for `sourceTextUrl`: https, exactly this host, then `/` and at least one more character. */
export function sourceTextUrlPattern(host: string): string {
  return `^https://${escapeRegExp(host)}/[^\\s\\u0000-\\u001f\\u007f]+$`;
}

/**
 * A real Gregorian date as a pattern rather than `format: "date"`: JSON Schema 2020-12 treats
 * `format` as an annotation, so other validators would not enforce it; a pattern binds everyone.
 * Months of 31 and of 30 days, 1–28 February, and 29 February in leap years (÷4, not ÷100 unless ÷400).
 */
export const CALENDAR_DATE =
  "^(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))" +
  "|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)$";

/** A nonempty string, as a pattern: `minLength` would make a standalone validator import Ajv's runtime. */
export const NON_EMPTY_STRING = { type: "string", pattern: "^[\\s\\S]" } as const;

// Each clause carries a `description`: the validator turns it into the "expected" half of a message.
const relativePath = {
  type: "string",
  allOf: [
    { pattern: "^[\\s\\S]", description: "must not be empty" },
    { pattern: "^(?!/)", description: "must not start with a slash" },
    { pattern: "^(?![\\s\\S]*//)", description: 'must not contain an empty segment ("//")' },
    { pattern: "^(?!(?:[\\s\\S]*/)?\\.\\.(?:/|$))", description: 'must not contain a ".." segment' },
    { pattern: "^[^\\u0000\\r\\n]*$", description: "must not contain NUL, CR or LF" },
  ],
};

const sha256Hex = {
  type: "string",
  pattern: "^[0-9a-f]{64}$",
  description: "must be 64 lowercase hexadecimal characters",
};

const stringArray = { type: "array", items: { type: "string" } };

function sharedFields(host: string): Record<string, unknown> {
  return {
    canonicalPath: { $ref: "#/$defs/relativePath" },
    citationAddress: { type: "string" },
    citationTargetId: { type: "string" },
    datasetDigest: { $ref: "#/$defs/sha256Hex" },
    headingText: { type: "string" },
    headingTrail: stringArray,
    name: { type: "string" },
    schemaVersion: { type: "string" },
    slug: {
      type: "string",
      pattern: SLUG_PATTERN,
      description: "must be lowercase alphanumeric groups joined by single hyphens",
    },
    sourceTextUrl: {
      type: "string",
      pattern: sourceTextUrlPattern(host),
      description: `must be an https address on ${host} followed by a path (https://${host}/…)`,
    },
    structuralPath: stringArray,
    textDigest: { $ref: "#/$defs/sha256Hex" },
    textDigestAlgorithm: { const: "sha256", description: 'must be "sha256"' },
    titleId: { type: "string" },
    versionDate: {
      type: "string",
      allOf: [
        { pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description: "must have the form YYYY-MM-DD" },
        { pattern: CALENDAR_DATE, description: "must be a real calendar date" },
      ],
    },
  };
}

/** Builds the record schema (JSON Schema 2020-12) with `sourceTextUrl` pinned to `host`. */
export function buildRecordSchema(host: string = DEFAULT_LEGISLATION_HOST): Record<string, unknown> {
  if (!isValidLegislationHost(host))
    throw new Error(
      `invalid legislation host "${host}": expected a lowercase host name such as ${DEFAULT_LEGISLATION_HOST}`,
    );
  const shared = sharedFields(host);
  const markdownArtifact = {
    ...shared,
    artifactRelativePath: {
      type: "string",
      allOf: [{ $ref: "#/$defs/relativePath" }, { pattern: "\\.md$", description: 'must end in ".md"' }],
    },
    documentOrder: { type: "integer" },
    markdown: { type: "string" },
    sourceArtifactBlockEndExclusive: { type: "integer" },
    sourceArtifactBlockStartIndex: { type: "integer" },
    sourceArtifactKind: { enum: [...MARKDOWN_ARTIFACT_KINDS] },
    sourceDocumentPath: { type: "string" },
    sourceIndexKind: { enum: [...SOURCE_INDEX_KINDS] },
    targetKind: { const: "markdown-artifact" },
  };
  const structuralContainer = {
    ...shared,
    artifactRelativePath: { $ref: "#/$defs/relativePath" },
    sourceArtifactKind: { const: "structural-container", description: 'must be "structural-container"' },
    structuralPreorderIndex: { type: "integer" },
    targetKind: { const: "structural-container" },
  };
  const variant = (title: string, properties: Record<string, unknown>) => ({
    title,
    type: "object",
    properties: sortKeys(properties),
    required: Object.keys(properties).sort(),
    additionalProperties: false,
  });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `urn:citation-targets:schema:record:${SCHEMA_VERSION}`,
    title: "Citation-target record",
    description: `One line of a .tooling/citation-targets/<slug>.jsonl file: a markdown-artifact or a structural-container record. Legislation host: ${host}.`,
    type: "object",
    required: ["targetKind"],
    properties: { targetKind: { enum: ["markdown-artifact", "structural-container"] } },
    discriminator: { propertyName: "targetKind" },
    oneOf: [{ $ref: "#/$defs/markdownArtifact" }, { $ref: "#/$defs/structuralContainer" }],
    $defs: {
      markdownArtifact: variant("markdown-artifact record", markdownArtifact),
      structuralContainer: variant("structural-container record", structuralContainer),
      relativePath,
      sha256Hex,
    },
  };
}

function sortKeys(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The schema as the bytes of `schemas/citation-targets.schema.json`. */
export function formatSchema(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
