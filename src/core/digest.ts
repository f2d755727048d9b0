import * as crypto from "node:crypto";

// crypto.hash (Node 20.12+) is a one-shot digest about twice as fast as createHash for short inputs.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash;

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text` (or of the bytes given). */
export function sha256Hex(data: string | Uint8Array): string {
  return oneShot ? oneShot("sha256", data, "hex") : crypto.createHash("sha256").update(data).digest("hex");
}

/** The framing of citationTargetId, versioned: changing it is the breaking change `digest-framing-changed`. */
export const CITATION_TARGET_ID_FRAMING = "citation-target-id/v1";

/** citationTargetId = sha256("citation-target-id/v1" NUL datasetDigest NUL citationAddress), lowercase hex. */
export function deriveCitationTargetId(datasetDigest: string, citationAddress: string): string {
  return sha256Hex(`${CITATION_TARGET_ID_FRAMING}\u0000${datasetDigest}\u0000${citationAddress}`);
}

/** textDigest: SHA-256 of `markdown` for markdown-artifact records, of `headingText` for containers. */
export function deriveTextDigest(text: string): string {
  return sha256Hex(text);
}
