/**
 * What two versions of a record are compared on (docs/spec.md, section 12.1): every field but the
 * version-scoped and positional ones. One text of those fields is the record's fingerprint, for
 * `update`'s report of what a regeneration changes; `diff` leaves out the same fields.
 */
import canonicalize from "canonicalize";

/**
 * Fields left out when deciding whether a record changed: the version-scoped ones change with every
 * version of the dataset, and the positional ones shift whenever anything is inserted before the record.
 */
export const UNCOMPARED_FIELDS: readonly string[] = [
  "datasetDigest",
  "citationTargetId",
  "versionDate",
  "sourceTextUrl",
  "documentOrder",
  "structuralPreorderIndex",
  "sourceArtifactBlockStartIndex",
  "sourceArtifactBlockEndExclusive",
];

const UNCOMPARED = new Set(UNCOMPARED_FIELDS);

/**
 * The compared fields of a record as one JSON text, member names sorted: equal for two records
 * exactly when every compared field is. A record's values are strings, numbers and arrays of strings:
 * JSON.stringify with the member names sorted is then as deterministic as RFC 8785 and several times
 * faster; anything else (a nested object, in a broken file) takes the canonicaliser.
 */
export function comparedText(record: Record<string, unknown>, uncompared: ReadonlySet<string> = UNCOMPARED): string {
  const keys = Object.keys(record)
    .filter((key) => !uncompared.has(key))
    .sort();
  let flat = true;
  const kept: Record<string, unknown> = Object.create(null); // no prototype: a "__proto__" member stays a member
  for (const key of keys) {
    const value = record[key];
    if (
      flat &&
      value !== null &&
      typeof value === "object" &&
      !(Array.isArray(value) && value.every((item) => item === null || typeof item !== "object"))
    )
      flat = false;
    kept[key] = value; // inserted in sorted order, so JSON.stringify writes them so
  }
  return (flat ? JSON.stringify(kept) : canonicalize(kept)) ?? "";
}
