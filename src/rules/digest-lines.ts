/**
 * The first line of each value of a field that is mostly 64 lowercase hex digits (citationTargetId, a SHA-256): what a
 * `Map<string, number>` of the values gives, in a third of the memory. A record's id as a string is 80 bytes of heap
 * and its entry in a Map some 47 more: over the statute book with its units (620,027 records) that was 79 MB of heap,
 * held to the file's end and grown by V8's slack between collections (bench/RESULTS.md, peak RSS). Here each id is 32
 * bytes of a typed array, in chunks, found through an open-addressing table of entry numbers. A value of any other
 * form goes to a Map, as before.
 */

/**
 * Entries a full chunk holds (2 MiB of words). The first chunk starts at `FIRST_ENTRIES` and doubles as it fills, so a
 * small file (most datasets hold some hundreds of records) takes some KiB, not 2 MiB of fresh memory: over 6,636
 * datasets a full first chunk each was 15 GB of new pages and doubled `validate`'s time (bench/RESULTS.md). Every later
 * chunk is made full, so none is ever copied again.
 */
const CHUNK_BITS = 16;
const CHUNK_ENTRIES = 1 << CHUNK_BITS;
const FIRST_ENTRIES = 1 << 8;
const WORDS = 8;

/** The slot hash of the 8 words of a value from `at`, mixed with `seed`. */
function hashOf(words: Uint32Array, at: number, seed: number): number {
  let hash = seed;
  for (let i = at; i < at + WORDS; i++) {
    hash = Math.imul(hash ^ words[i]!, 0x9e3779b1);
    hash ^= hash >>> 16;
  }
  hash = Math.imul(hash ^ (hash >>> 15), 0x85ebca6b);
  return hash ^ (hash >>> 13);
}

/** The value of a hex digit's char code, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

export class DigestLines {
  private readonly chunks: Uint32Array[] = [];
  private readonly lineChunks: Int32Array[] = [];
  /** Entry number + 1 for each slot, 0 for an empty one; its length a power of two, at most half full. */
  private slots = new Int32Array(1 << 10);
  private count = 0;
  private readonly others = new Map<string, number>();
  /** The words of the value looked at. */
  private readonly words = new Uint32Array(WORDS);
  /** Mixed into the hash, so that values made to collide on purpose cannot make every look-up a long probe. */
  private readonly seed = (Math.random() * 0x100000000) >>> 0;

  /**
   * The line `value` was first met on, or undefined when this is its first time (and `line` is kept as its line).
   */
  firstLine(value: string, line: number): number | undefined {
    if (!this.parse(value)) {
      const first = this.others.get(value);
      if (first === undefined) this.others.set(value, line);
      return first;
    }
    const mask = this.slots.length - 1;
    for (let slot = hashOf(this.words, 0, this.seed) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) {
        this.add(slot, line);
        return undefined;
      }
      if (this.equals(entry)) return this.lineChunks[entry >>> CHUNK_BITS]![entry & (CHUNK_ENTRIES - 1)];
    }
  }

  /** Reads 64 lowercase hex digits into `words`; false for any other value. */
  private parse(value: string): boolean {
    if (value.length !== WORDS * 8) return false;
    for (let i = 0; i < WORDS; i++) {
      let word = 0;
      for (let j = i * 8; j < i * 8 + 8; j++) {
        const digit = hexValue(value.charCodeAt(j));
        if (digit < 0) return false;
        word = (word << 4) | digit;
      }
      this.words[i] = word >>> 0;
    }
    return true;
  }

  private equals(entry: number): boolean {
    const chunk = this.chunks[entry >>> CHUNK_BITS]!;
    const at = (entry & (CHUNK_ENTRIES - 1)) * WORDS;
    for (let i = 0; i < WORDS; i++) if (chunk[at + i] !== this.words[i]) return false;
    return true;
  }

  private add(slot: number, line: number): void {
    const entry = this.count++;
    const index = entry & (CHUNK_ENTRIES - 1);
    if (entry === 0) {
      this.chunks.push(new Uint32Array(FIRST_ENTRIES * WORDS));
      this.lineChunks.push(new Int32Array(FIRST_ENTRIES));
    } else if (index === 0) {
      this.chunks.push(new Uint32Array(CHUNK_ENTRIES * WORDS));
      this.lineChunks.push(new Int32Array(CHUNK_ENTRIES));
    } else if (entry < CHUNK_ENTRIES && index === this.lineChunks[0]!.length) this.growFirst();
    this.chunks[entry >>> CHUNK_BITS]!.set(this.words, index * WORDS);
    this.lineChunks[entry >>> CHUNK_BITS]![index] = line;
    this.slots[slot] = entry + 1;
    if (this.count * 2 > this.slots.length) this.grow();
  }

  /** Doubles the first chunk, which is not yet full size. */
  private growFirst(): void {
    const lines = new Int32Array(this.lineChunks[0]!.length * 2);
    lines.set(this.lineChunks[0]!);
    const words = new Uint32Array(lines.length * WORDS);
    words.set(this.chunks[0]!);
    this.lineChunks[0] = lines;
    this.chunks[0] = words;
  }

  /** Doubles the table, placing every entry again. */
  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.count; entry++) {
      const chunk = this.chunks[entry >>> CHUNK_BITS]!;
      let slot = hashOf(chunk, (entry & (CHUNK_ENTRIES - 1)) * WORDS, this.seed) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
  }
}
