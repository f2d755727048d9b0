/** The engine's decoding of valid UTF-8 (through UTF-16, for speed) gives exactly the string V8's UTF-8 decoder gives. */
import fc from "fast-check";
import { expect, test } from "vitest";
import { createFileCheck } from "../src/engine/check-file.js";
import { rules } from "../src/rules/index.js";
import { schemaCheck } from "./helpers/records.js";

test("any valid UTF-8 line reaches the rules as the string Buffer#toString gives", () => {
  const seen: string[] = [];
  const spy = { ...rules.find((rule) => rule.id === "line-length")!, id: "spy", meta: { description: "spy", defaultSeverity: "error" as const, lineOrder: 1 } };
  spy.create = () => ({
    line(state) {
      seen.push(state.text!);
      return "stop";
    },
  });
  fc.assert(
    fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 8 }), (lines) => {
      const clean = lines.map((line) => line.replaceAll("\n", " ").replaceAll("\r", " ").replaceAll("\ufeff", " "));
      const bytes = Buffer.from(clean.map((line) => `${line}\n`).join(""), "utf8");
      seen.length = 0;
      const check = createFileCheck({ rules: [spy], file: "x.jsonl", schemaCheck });
      check.push(bytes);
      check.end();
      expect(seen).toEqual(bytes.toString("utf8").split("\n").slice(0, -1));
    }),
    { numRuns: 2000 },
  );
});
