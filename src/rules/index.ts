import { blankLine } from "./blank-line.js";
import { citationAddress } from "./citation-address.js";
import { lockArtifactBody } from "./lock-artifact-body.js";
import { lockArtifacts } from "./lock-artifacts.js";
import { lockDatasetDigest } from "./lock-dataset-digest.js";
import { lockDatasetFields } from "./lock-dataset-fields.js";
import { lockDatasetFiles } from "./lock-dataset-files.js";
import { lockGenerated } from "./lock-generated.js";
import { lockManifestDigest } from "./lock-manifest-digest.js";
import { lockPair } from "./lock-pair.js";
import { parentContainer } from "./parent-container.js";
import { recordOrder } from "./record-order.js";
import { structuralPath } from "./structural-path.js";
import { blockRange } from "./block-range.js";
import { bom } from "./bom.js";
import { carriageReturn } from "./carriage-return.js";
import { citationTargetId } from "./citation-target-id.js";
import { datasetFields } from "./dataset-fields.js";
import type { Rule } from "./define.js";
import { directionalControl } from "./directional-control.js";
import { documentOrder } from "./document-order.js";
import { duplicateKey } from "./duplicate-key.js";
import { fileName } from "./file-name.js";
import { finalNewline } from "./final-newline.js";
import { invalidUtf8 } from "./invalid-utf8.js";
import { jsonSyntax } from "./json-syntax.js";
import { lineLength } from "./line-length.js";
import { nestingDepthRule } from "./nesting-depth.js";
import { nonCanonical } from "./non-canonical.js";
import { recordNotObject } from "./record-not-object.js";
import { schema } from "./schema.js";
import { schemaVersion } from "./schema-version.js";
import { structuralPreorderIndex } from "./structural-preorder-index.js";
import { textDigest } from "./text-digest.js";
import { uniqueCitationAddress } from "./unique-citation-address.js";
import { uniqueCitationTargetId } from "./unique-citation-target-id.js";

/** Every rule, in the order they are documented and run. */
export const rules = [
  lineLength,
  invalidUtf8,
  bom,
  carriageReturn,
  blankLine,
  finalNewline,
  jsonSyntax,
  recordNotObject,
  nestingDepthRule,
  duplicateKey,
  nonCanonical,
  schema,
  fileName,
  datasetFields,
  schemaVersion,
  textDigest,
  directionalControl,
  citationTargetId,
  uniqueCitationAddress,
  uniqueCitationTargetId,
  documentOrder,
  structuralPreorderIndex,
  blockRange,
  citationAddress,
  structuralPath,
  parentContainer,
  recordOrder,
  lockManifestDigest,
  lockDatasetDigest,
  lockDatasetFields,
  lockArtifacts,
  lockArtifactBody,
  lockGenerated,
  lockDatasetFiles,
  lockPair,
] as const;

export type RuleId = (typeof rules)[number]["id"];

export const ruleIds: readonly RuleId[] = rules.map((rule) => rule.id);

const byId = new Map<string, Rule>(rules.map((rule) => [rule.id, rule as Rule]));

/** The rule with this id, or undefined. */
export function getRule(id: string): Rule | undefined {
  return byId.get(id);
}

/** Where each rule is documented, relative to the package root; a test proves every id has its section. */
export function ruleDocsUrl(id: string): string {
  return `docs/spec.md#rule-${id}`;
}
