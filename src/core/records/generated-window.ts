/**
 * What `generate` writes for a dataset, made as validate reads the file it compares with it, rather than all of it
 * first (docs/spec.md, rule `lock-generated`, "Made as the file is read"). A file that is what generate writes meets
 * each record's twin in the same order: only the records generated ahead of the file, and those passed by a margin,
 * are held, not the whole dataset (the statute book as one dataset: 149,080 records, 460 MB of heap).
 *
 * Exactness: the window answers as the map of every generated record would, or gives up (`abandoned`), and then the
 * file is checked again with that map. It gives up when a record's twin is not at hand although the map would hold it
 * (met before, let go, or not generated yet) and when generate refuses the dataset part way: then no record may be
 * compared at all, and the refusal is said the way the map's check says it.
 */
import type { LockContext } from "../lock/lock-context.js";

/** A record generate writes and its place among the records it writes (0-based). */
export interface GeneratedEntry {
  record: Readonly<Record<string, unknown>>;
  order: number;
}

/** The window of each lock context whose records are made as the file is read (validate's, never the library's). */
export const generatedWindows = new WeakMap<LockContext, GeneratedWindow>();

export class GeneratedWindow {
  /** Made and not yet met in the file, in generate's order. */
  private readonly pending = new Map<string, GeneratedEntry>();
  /** Made, never met, and let go (their records dropped): address → place, in generate's order. */
  private readonly passed = new Map<string, number>();
  /** Made once the file was read to its end (`finish`), let go at once: address → place, after every other. */
  private readonly tail = new Map<string, number>();
  /** The addresses taken: a second record at one of them is not one generate never writes. */
  private readonly takenAddresses = new Set<string>();
  /** The record last taken, for the rules that look its twin up after lock-generated has taken it. */
  private currentAddress: string | undefined;
  private currentRecord: Readonly<Record<string, unknown>> | undefined;
  private made = 0;
  private done = false;
  /** The window cannot answer as the map would: the file is to be checked again with every record made first. */
  abandoned = false;

  /**
   * `records`: generate's records in its order; an error thrown while making them (generate refusing the dataset, or
   * any other) makes the window give up. `whole`: fills the lock context's map of every record instead (or says
   * generate's refusal, or throws as making them did), for the check made again.
   */
  constructor(
    private readonly records: AsyncIterator<Readonly<Record<string, unknown>>>,
    readonly whole: () => Promise<void>,
  ) {}

  /** Every record made: none is generated ahead any more. */
  get complete(): boolean {
    return this.done;
  }

  /** Whether `count` records are made (or all are, or the window gave up): fill would not wait. */
  covers(count: number): boolean {
    return this.made >= count || this.done || this.abandoned;
  }

  /** Makes records until `count` are made in all, or all are. */
  fill(count: number): Promise<void> {
    return this.make(count, false);
  }

  /**
   * Makes the rest, the file read to its end: only its last line, if no LF ends it, is still to be checked, and its twin,
   * if made, is held; the rest can no longer be met, so each is let go as it is made (its place kept for "not in this
   * file").
   */
  finish(): Promise<void> {
    return this.make(Number.POSITIVE_INFINITY, true);
  }

  private async make(count: number, letGo: boolean): Promise<void> {
    try {
      while (!this.done && !this.abandoned && this.made < count) {
        const next = await this.records.next();
        if (next.done) {
          this.done = true;
          break;
        }
        const address = next.value.citationAddress as string;
        // generate writes each address once; were it to write one twice, the map would hold the last: not a window's.
        if (
          this.pending.has(address) ||
          this.passed.has(address) ||
          this.tail.has(address) ||
          this.takenAddresses.has(address)
        ) {
          this.abandoned = true;
          return;
        }
        if (letGo) this.tail.set(address, this.made++);
        else this.pending.set(address, { record: next.value, order: this.made++ });
      }
    } catch {
      // generate refusing the dataset, or any other failure: given up. The check made again with the map says a refusal
      // as lock-generated's problem, and meets any other failure where gatherFacts would (the artifact checks could not
      // run: file-validator.ts).
      this.abandoned = true;
    }
  }

  /**
   * Lets go of the records made before place `order` that the file has not met: their places are kept (a record
   * generate writes and the file lacks is said at the end), their records are not. One met later makes the window give
   * up.
   */
  letGoBefore(order: number): void {
    for (const [address, entry] of this.pending) {
      if (entry.order >= order) break;
      this.pending.delete(address);
      this.passed.set(address, entry.order);
    }
  }

  /** generate's record at `address`, while it is at hand (generated-twin.ts); undefined otherwise. */
  twin(address: string): Readonly<Record<string, unknown>> | undefined {
    const entry = this.pending.get(address);
    if (entry !== undefined) return entry.record;
    return address === this.currentAddress ? this.currentRecord : undefined;
  }

  /**
   * Takes the twin of the file's record at `address` (lock-generated): the entry, or undefined when generate writes no
   * record there (every record made, the address never made). Where the map would answer but the window cannot (the
   * twin met before, let go, or not made yet), the window gives up and answers undefined: the check is then thrown
   * away.
   */
  take(address: string): GeneratedEntry | undefined {
    const entry = this.pending.get(address);
    if (entry !== undefined) {
      this.pending.delete(address);
      this.takenAddresses.add(address);
      this.currentAddress = address;
      this.currentRecord = entry.record;
      return entry;
    }
    // Met before (a second record at one address), let go, or perhaps still to be made.
    if (!this.done || this.passed.has(address) || this.tail.has(address) || this.takenAddresses.has(address))
      this.abandoned = true;
    return undefined;
  }

  /** The records generate writes that were never taken, in its order, with their places (for "not in this file"). */
  *untaken(): Generator<[string, number]> {
    yield* this.passed;
    for (const [address, { order }] of this.pending) yield [address, order];
    yield* this.tail;
  }
}
