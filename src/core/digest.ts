/**
 * The digests of the model (docs/spec.md, section 3): citationTargetId and textDigest, on the one SHA-256 of bytes.ts.
 */
import { byteScratch, sha256Hex, writeUtf8Into } from "./bytes.js";

/** The framing of citationTargetId, versioned: changing it is the breaking change `digest-framing-changed`. */
export const CITATION_TARGET_ID_FRAMING = "citation-target-id/v1";

/** citationTargetId = sha256("citation-target-id/v1" NUL datasetDigest NUL citationAddress), lowercase hex. */
export function deriveCitationTargetId(datasetDigest: string, citationAddress: string): string {
  return sha256Hex(`${CITATION_TARGET_ID_FRAMING}\u0000${datasetDigest}\u0000${citationAddress}`);
}

/**
 * What the citationTargetIds of an artifact's markdown-artifact targets share: the hashed text up to their local
 * coordinates, and the addresses' start (targetAddressPrefix), for citationTargetIdOf.
 */
export interface CitationTargetIdHead {
  text: string;
  addressPrefix: string;
}

export function citationTargetIdHead(datasetDigest: string, addressPrefix: string): CitationTargetIdHead {
  return { text: `${CITATION_TARGET_ID_FRAMING}\u0000${datasetDigest}\u0000${addressPrefix}`, addressPrefix };
}

/** deriveCitationTargetId of the address `head.addressPrefix + local`. */
export function citationTargetIdOf(head: CitationTargetIdHead, local: string): string {
  return sha256Hex(head.text + local);
}

/**
 * citationTargetIdOf for the locals of a heading's units, which extend each other (`§-5`, `§-5/abs-1`,
 * `§-5/abs-1/nr-2`): the hashed text kept as UTF-8 bytes, the head and the heading's local encoded once, and each unit's
 * local its parent's bytes and `/` and its step, so that no text is joined or encoded again for each unit. Units are
 * given in pre-order: a unit's bytes are written after its parent's, over those of the parent's earlier children.
 */
export class UnitIds {
  #bytes: Uint8Array = byteScratch(1024);
  #headEnd = 0;
  #head: CitationTargetIdHead | undefined;

  /** Starts the units of a heading (its head and local); the end of its bytes, a unit's `parentEnd`. */
  heading(head: CitationTargetIdHead, local: string): number {
    if (this.#head !== head) {
      this.#head = head;
      this.#room(0, head.text.length);
      this.#headEnd = writeUtf8Into(this.#bytes, 0, head.text);
    }
    this.#room(this.#headEnd, local.length);
    return writeUtf8Into(this.#bytes, this.#headEnd, local);
  }

  /** Where the bytes of the last unit given to `unit` end: its children's `parentEnd`. */
  end = 0;

  /**
   * The hashed bytes: the last unit's local is `bytes[localStart, end)`, as UTF-8 (for a writer of its line, until the
   * next call).
   */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  get localStart(): number {
    return this.#headEnd;
  }

  /** The citationTargetId of the unit whose local is its parent's (whose bytes end at `parentEnd`), `/` and `step`. */
  unit(parentEnd: number, step: string): string {
    this.local(parentEnd, step);
    return sha256Hex(this.#bytes.subarray(0, this.end));
  }

  /** The bytes of the unit whose local is its parent's, `/` and `step`, as `unit` writes them, not hashed. */
  local(parentEnd: number, step: string): void {
    this.#room(parentEnd, step.length + 1);
    this.#bytes[parentEnd] = 0x2f; // /
    this.end = writeUtf8Into(this.#bytes, parentEnd + 1, step);
  }

  /** Room for `characters` more UTF-16 code units from `at`, the bytes before it kept. */
  #room(at: number, characters: number): void {
    const need = at + 3 * characters + 1;
    if (need <= this.#bytes.length) return;
    const grown = byteScratch(Math.max(need, 2 * this.#bytes.length));
    grown.set(this.#bytes.subarray(0, at));
    this.#bytes = grown;
  }
}

/** textDigest: SHA-256 of `markdown` for markdown-artifact records, of `headingText` for containers. */
export function deriveTextDigest(text: string): string {
  return sha256Hex(text);
}

/** textDigest of a text given as its UTF-8 bytes: the same digest as deriveTextDigest of the text. */
export function deriveTextDigestOfUtf8(utf8: Uint8Array): string {
  return sha256Hex(utf8);
}
