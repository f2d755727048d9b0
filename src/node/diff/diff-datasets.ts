/**
 * What `diff` adds to a compared pair of dataset files beyond its record changes (docs/spec.md, section
 * 12.4): the dataset (its slug and each side's versionDate) and, for each changed record whose text
 * changed, how (`textChange`), read again from both sides for those records only.
 */
import { basename } from "node:path";
import type { DiffChange, DiffPair } from "../../core/diff/diff.js";
import { classifyTextChange, type RecordText, textChangeScope } from "../../core/diff/text-change.js";

/** A side as the comparison reads it: its records, streamed, optionally only the lines given. */
export type ReadSide = (
  onRecord: (record: Record<string, unknown>, line: number) => void,
  only?: ReadonlySet<number>,
) => Promise<unknown>;

/** Notes the dataset of a side from its records: the slug and versionDate of the first record that has them. */
export class DatasetNotes {
  private slug: string | undefined;
  private slugNew: string | undefined;
  private before: string | undefined;
  private after: string | undefined;
  /** The old side's line of each address (for reading the old text of the changed records again). */
  readonly oldLines = new Map<string, number>();

  old(record: Record<string, unknown>, line: number): void {
    if (this.before === undefined && typeof record.versionDate === "string") this.before = record.versionDate;
    if (this.slug === undefined && typeof record.slug === "string") this.slug = record.slug;
    const address = record.citationAddress;
    if (typeof address === "string" && !this.oldLines.has(address)) this.oldLines.set(address, line);
  }

  now(record: Record<string, unknown>): void {
    if (this.after === undefined && typeof record.versionDate === "string") this.after = record.versionDate;
    if (typeof record.slug === "string" && this.slugNew === undefined) this.slugNew = record.slug;
  }

  /** The pair's dataset: the new side's slug, else the old side's, else the file's name without `.jsonl`. */
  dataset(label: string): NonNullable<DiffPair["dataset"]> {
    const slug = this.slugNew ?? this.slug ?? basename(label.replace(/^[^:]*:(?=.)/, "")).replace(/\.jsonl$/, "");
    return {
      slug,
      // The old side another dataset's (another slug): compared, but no new version of it.
      ...(this.slug !== undefined && this.slugNew !== undefined && this.slug !== this.slugNew
        ? { oldSlug: this.slug }
        : {}),
      versionDate: {
        ...(this.before !== undefined ? { before: this.before } : {}),
        ...(this.after !== undefined ? { after: this.after } : {}),
      },
    };
  }
}

const textOf = (record: Record<string, unknown>): RecordText => ({
  markdown: record.markdown,
  headingText: record.headingText,
  headingTrail: record.headingTrail,
});

/**
 * Sets `textChange` on each record-changed whose text changed: the old and new records of those addresses are read
 * again (only their lines) and their texts compared (src/core/diff/text-change.ts). A change of more than the text is
 * "words".
 */
export async function markTextChanges(
  changes: readonly DiffChange[],
  oldLines: ReadonlyMap<string, number>,
  readOld: ReadSide,
  readNew: ReadSide,
): Promise<void> {
  const wanted = new Map<string, DiffChange>();
  for (const change of changes) {
    const scope = textChangeScope(change);
    if (scope === undefined || change.address === undefined) continue;
    if (scope === "more") change.textChange = "words";
    else wanted.set(change.address, change);
  }
  if (wanted.size === 0) return;
  const before = new Map<string, RecordText>();
  const after = new Map<string, RecordText>();
  const oldOnly = new Set<number>();
  for (const address of wanted.keys()) {
    const line = oldLines.get(address);
    if (line !== undefined) oldOnly.add(line);
  }
  const newOnly = new Set<number>();
  for (const change of wanted.values()) if (change.line !== undefined) newOnly.add(change.line);
  await readOld((record) => {
    const address = record.citationAddress as string;
    if (wanted.has(address) && !before.has(address)) before.set(address, textOf(record));
  }, oldOnly);
  await readNew((record) => {
    const address = record.citationAddress as string;
    if (wanted.has(address) && !after.has(address)) after.set(address, textOf(record));
  }, newOnly);
  for (const [address, change] of wanted) {
    const old = before.get(address);
    const now = after.get(address);
    change.textChange = old !== undefined && now !== undefined ? classifyTextChange(old, now) : "words";
  }
}
