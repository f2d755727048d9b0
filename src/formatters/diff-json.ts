import type { DiffFormatter } from "./diff-common.js";

/**
 * The JSON contract of `diff --format json` (docs/spec.md, section 12): `{ against?, pairs: [{ type, old, new,
 * oldMissing?, newMissing?, records?, digests?, changes: [...], warnings }], summary, warnings }`.
 * Fields are only ever added.
 */
export const formatDiffJson: DiffFormatter = (report) => `${JSON.stringify(report, null, 2)}\n`;
