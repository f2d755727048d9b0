/**
 * Whether the framing of citationTargetId changed between two versions of a dataset file (docs/spec.md, section 12.1),
 * from a sample of each side's records. Pure.
 */
import { deriveCitationTargetId } from "../digest.js";

/**
 * The records of each side whose citationTargetId is checked against the v1 framing: enough to tell a framing that
 * changed for the whole file.
 */
const FRAMING_SAMPLE = 1000;

/** A sampled record's framing inputs. */
type FramingSample = [datasetDigest: string, citationAddress: string, citationTargetId: string];

/**
 * Whether the framing of citationTargetId changed (docs/spec.md, section 12.1): the old file's first
 * FRAMING_SAMPLE records are all derived with the v1 framing, and none of the new file's first ones
 * is. The new side is looked at first, as its records come, and only until one of them is derived
 * (the usual case: one digest a file); the old side's sample is kept, unhashed, and derived only when
 * the new side's says the framing may have changed.
 */
export class Framing {
  private readonly old: FramingSample[] = [];
  private newSeen = 0;
  private newDerived = false;

  add(which: "old" | "new", record: Record<string, unknown>): void {
    const { datasetDigest, citationAddress, citationTargetId } = record;
    if (
      typeof datasetDigest !== "string" ||
      typeof citationAddress !== "string" ||
      typeof citationTargetId !== "string"
    )
      return;
    if (which === "old") {
      if (this.old.length < FRAMING_SAMPLE) this.old.push([datasetDigest, citationAddress, citationTargetId]);
      return;
    }
    if (this.newDerived || this.newSeen >= FRAMING_SAMPLE) return;
    this.newSeen++;
    if (deriveCitationTargetId(datasetDigest, citationAddress) === citationTargetId) this.newDerived = true;
  }

  /** True when the old sample is all v1 and the new one has records, none of them v1. */
  changed(): boolean {
    if (this.newDerived || this.newSeen === 0 || this.old.length === 0) return false;
    return this.old.every(([datasetDigest, address, id]) => deriveCitationTargetId(datasetDigest, address) === id);
  }
}
