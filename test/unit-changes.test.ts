// The units below a heading that changed with it (src/core/diff/unit-changes.ts): named by how each changed, at most
// ten, and the count of the rest said so that it reads as the rest of all of them.
import { describe, expect, test } from "vitest";
import { unitKinds, unitsBelow } from "../src/core/diff/unit-changes.js";
import type { DiffChange } from "../src/core/diff/diff.js";

const heading = "bgb/bgb.md#§-823";
const change = (kind: string, step: string) =>
  ({ kind, address: `${heading}/${step}`, class: "breaking", message: "" }) as unknown as DiffChange;

describe("unitsBelow", () => {
  test("of one kind: as before", () => {
    const units = ["abs-1", "abs-2"].map((step) => `${heading}/${step}`);
    expect(unitsBelow(heading, units)).toBe("units below it changed: abs-1, abs-2");
  });

  test("of several kinds: each group by its kind, an address both removed and added said changed", () => {
    const changes = [
      change("record-changed", "abs-1"),
      change("record-added", "abs-3"),
      change("record-removed", "abs-4"),
      change("record-removed", "abs-5"),
      change("record-added", "abs-5"),
    ];
    const units = ["abs-1", "abs-3", "abs-4", "abs-5"].map((step) => `${heading}/${step}`);
    expect(unitsBelow(heading, units, unitKinds(changes))).toBe(
      "units below it changed: abs-1, abs-5; added: abs-3; removed: abs-4",
    );
  });

  test("more than ten: the rest counted on their own when the kinds are several", () => {
    const steps = Array.from({ length: 12 }, (_, i) => `abs-${i + 1}`);
    const changes = steps.map((step, i) => change(i < 6 ? "record-changed" : "record-removed", step));
    const units = steps.map((step) => `${heading}/${step}`);
    expect(unitsBelow(heading, units, unitKinds(changes))).toBe(
      "units below it changed: abs-1, abs-2, abs-3, abs-4, abs-5, abs-6; removed: abs-7, abs-8, abs-9, abs-10; and 2 more",
    );
    expect(unitsBelow(heading, units)).toBe(
      "units below it changed: abs-1, abs-2, abs-3, abs-4, abs-5, abs-6, abs-7, abs-8, abs-9, abs-10 and 2 more",
    );
  });
});
