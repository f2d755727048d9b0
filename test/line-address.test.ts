/**
 * lineAddress (src/node/update/line-address.ts) reads a generated line's citationAddress from its bytes: for any record
 * serialised as generate serialises it, the address JSON.parse gives; for other bytes, that address or undefined (the
 * caller then parses the line), never another.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { type OutputRecord, serializeRecord } from "../src/core/records/record-line.js";
import { lineAddress } from "../src/node/update/line-address.js";

const text = fc.string({ unit: fc.constantFrom("a", "§", '"', "\\", "\n", "ü", "\u2028", "/", " ", "😀", "\u0001") });
/** Records with members before and after citationAddress, of strings and of other kinds. */
const record = fc.record(
  {
    artifactRelativePath: text,
    canonicalPath: text,
    citationAddress: text,
    aardvark: fc.oneof(text, fc.integer(), fc.array(text, { maxLength: 2 })),
    citationTargetId: text,
    documentOrder: fc.nat(),
    headingTrail: fc.array(text, { maxLength: 3 }),
    markdown: text,
  },
  { requiredKeys: ["citationAddress"] },
);

test("a generated line: the address JSON.parse gives, or undefined when a member of another kind comes first", () => {
  fc.assert(
    fc.property(record, (value) => {
      const line = serializeRecord(value as unknown as OutputRecord);
      const address = lineAddress(Buffer.from(line, "utf8"));
      const parsed = (JSON.parse(line) as { citationAddress: string }).citationAddress;
      if (typeof value.aardvark === "string" || value.aardvark === undefined) expect(address).toBe(parsed);
      else expect(address === undefined || address === parsed).toBe(true);
    }),
  );
});

test("any line that is a JSON object (members in any order): the address JSON.parse gives or undefined", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        record.map((value) => JSON.stringify(value)),
      ),
      (line) => {
        const address = lineAddress(Buffer.from(line, "utf8"));
        let parsed: { citationAddress?: unknown };
        try {
          parsed = JSON.parse(line) as { citationAddress?: unknown };
        } catch {
          return; // not JSON: never a line generate wrote
        }
        if (address !== undefined) expect(parsed.citationAddress).toBe(address);
      },
    ),
  );
});
