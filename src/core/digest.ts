/**
 * The digests of the model (docs/spec.md, section 3): citationTargetId and textDigest, on the one SHA-256 of bytes.ts.
 */
import { sha256Hex } from "./bytes.js";

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

/** textDigest: SHA-256 of `markdown` for markdown-artifact records, of `headingText` for containers. */
export function deriveTextDigest(text: string): string {
  return sha256Hex(text);
}

/** textDigest of a text given as its UTF-8 bytes: the same digest as deriveTextDigest of the text. */
export function deriveTextDigestOfUtf8(utf8: Uint8Array): string {
  return sha256Hex(utf8);
}
