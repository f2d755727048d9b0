/**
 * sha256Latin1 (src/core/bytes.ts), the form a record's fingerprint is held in: the same 32 bytes as the hex digest,
 * one character each, for any text or bytes, whichever way Node computes it.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { sha256Hex, sha256Latin1 } from "../src/core/bytes.js";

test("the 32 bytes of the SHA-256, a character each, for any text and any bytes", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: "grapheme" }), fc.uint8Array()), (data) => {
      const digest = sha256Latin1(data);
      expect(digest).toHaveLength(32);
      expect(Buffer.from(digest, "latin1").toString("hex")).toBe(sha256Hex(data));
    }),
  );
});
