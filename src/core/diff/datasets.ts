/**
 * A dataset's own line in diff's text reports (docs/spec.md, section 12.5): a dataset added, removed
 * or given a new version says so once, above its per-record changes. Pure: no I/O.
 */
import type { DiffPair } from "./diff.js";

/** What happened to the pair's dataset as a whole, when anything did: added, removed, or a new version. */
export type DatasetEvent =
  | { event: "added"; slug: string; versionDate?: string; records: number }
  | { event: "removed"; slug: string; versionDate?: string; records: number }
  | { event: "new-version"; slug: string; before: string; after: string; records: { before: number; after: number } }
  | { event: "other-dataset"; slug: string; oldSlug: string; records: { before: number; after: number } };

export function datasetEvent(pair: DiffPair): DatasetEvent | undefined {
  const dataset = pair.type === "records" ? pair.dataset : undefined;
  if (dataset === undefined) return undefined;
  const { slug } = dataset;
  const { before, after } = dataset.versionDate;
  const records = pair.records ?? { before: 0, after: 0 };
  if (pair.newMissing)
    return {
      event: "removed",
      slug,
      ...(before !== undefined ? { versionDate: before } : {}),
      records: records.before,
    };
  if (pair.oldMissing)
    return { event: "added", slug, ...(after !== undefined ? { versionDate: after } : {}), records: records.after };
  // Two files of different slugs (two laws, or a slug changed): compared, not a new version of one dataset.
  if (dataset.oldSlug !== undefined) return { event: "other-dataset", slug, oldSlug: dataset.oldSlug, records };
  if (before !== undefined && after !== undefined && before !== after)
    return { event: "new-version", slug, before, after, records };
  return undefined;
}

const count = (n: number) => `${n} ${n === 1 ? "record" : "records"}`;

/**
 * The dataset's line, in words: `dataset gg removed (version 2022-12-19, 4 records)`, `dataset gg added (version
 * 2024-07-19, 5 records)`, `dataset gg: new version 2022-12-19 → 2024-07-19 (4 → 5 records)`.
 */
export function describeDatasetEvent(event: DatasetEvent): string {
  const version = (date: string | undefined) => (date !== undefined ? `version ${date}, ` : "");
  switch (event.event) {
    case "removed":
      return `dataset ${event.slug} removed (${version(event.versionDate)}${count(event.records)})`;
    case "added":
      return `dataset ${event.slug} added (${version(event.versionDate)}${count(event.records)})`;
    case "new-version":
      return `dataset ${event.slug}: new version ${event.before} → ${event.after} (${event.records.before} → ${count(event.records.after)})`;
    case "other-dataset":
      return `dataset ${event.slug}: compared with dataset ${event.oldSlug}, another slug: no new version of one dataset (${event.records.before} → ${count(event.records.after)})`;
  }
}

/** The pair's dataset line, or undefined when its dataset was neither added, removed nor given a new version. */
export function datasetLine(pair: DiffPair): string | undefined {
  const event = datasetEvent(pair);
  return event !== undefined ? describeDatasetEvent(event) : undefined;
}
