#!/usr/bin/env node
// The one-shot SHA-256 of Node 20.12+ (`crypto.hash`) against `createHash(…).update(…).digest()` on the short
// inputs of the model's digests (a citationTargetId's framing, dataset digest and address): the reason
// src/core/bytes.ts uses the one-shot form where Node has it.
//
//   node bench/one-shot-hash.js
import { createHash, hash } from "node:crypto";

if (typeof hash !== "function") {
  console.log("this Node has no crypto.hash");
  process.exit(0);
}
const inputs = Array.from(
  { length: 100_000 },
  (_, i) => `citation-target-id/v1\0${"d".repeat(64)}\0bundesrecht/bgb/index.md#§-${i}`,
);
const passOf = (digest) => {
  const started = process.hrtime.bigint();
  for (const input of inputs) digest(input);
  return Number(process.hrtime.bigint() - started) / inputs.length;
};
const oneShot = (input) => hash("sha256", input, "hex");
const streaming = (input) => createHash("sha256").update(input).digest("hex");
const times = { oneShot: [], streaming: [] };
for (let pass = 0; pass < 7; pass++) {
  times.oneShot.push(passOf(oneShot));
  times.streaming.push(passOf(streaming));
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(
  `ns a digest of a ${inputs[0].length}-character string, median of 7 alternating passes: crypto.hash ${median(times.oneShot).toFixed(0)}, createHash ${median(times.streaming).toFixed(0)} (${(median(times.streaming) / median(times.oneShot)).toFixed(2)} ×)`,
);
