import { describe, expect, test } from "vitest";
import { RecordDiff } from "../src/core/diff/diff-records.js";
import { tieBreakShifts } from "../src/core/diff/tie-breaks.js";
import { UNCOMPARED_FIELDS } from "../src/core/records/record-fingerprint.js";

/**
 * diff reports positional addresses whose truly identical siblings changed in number (docs/spec.md, sections 7 "Ties"
 * and 12).
 */

const a = (local: string) => `code/code.md#${local}`;

describe("tieBreakShifts", () => {
  test("a tie group that grew: every address of it in both versions, and those below them", () => {
    expect(
      tieBreakShifts(
        [a("art-2"), a("art-2~2"), a("art-2/fussnoten"), a("art-3")],
        [a("art-2"), a("art-2~2"), a("art-2~3"), a("art-2/fussnoten"), a("art-3")],
      ),
    ).toEqual([a("art-2"), a("art-2/fussnoten"), a("art-2~2")]);
  });

  test("a tie group that shrank to one", () => {
    expect(tieBreakShifts([a("art-2"), a("art-2~2")], [a("art-2")])).toEqual([a("art-2")]);
  });

  test("nothing when the groups keep their size, or there are no tie-breaks", () => {
    expect(tieBreakShifts([a("art-2"), a("art-2~2"), a("art-3")], [a("art-2"), a("art-2~2")])).toEqual([]);
    expect(tieBreakShifts([a("art-2"), a("art-3")], [a("art-2"), a("art-4")])).toEqual([]);
    // a qualifier is not a tie-break
    expect(tieBreakShifts([a("art-1~titre-i")], [a("art-1~titre-i"), a("art-1~titre-ii")])).toEqual([]);
  });
});

describe("RecordDiff", () => {
  const record = (local: string, text: string) => ({
    citationAddress: a(local),
    targetKind: "markdown-artifact",
    headingText: "Article 2",
    markdown: text,
    textDigest: text.padEnd(64, "0").slice(0, 64),
  });

  test("an identical sibling inserted before the others: the shifted addresses are breaking record-changed, even with equal fields", () => {
    const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: "old.jsonl", newFile: "new.jsonl" });
    const before = [record("art-2", "a"), record("art-2~2", "b")];
    const after = [...before, record("art-2~3", "c")];
    for (const [i, r] of before.entries()) diff.addOld(r, i + 1);
    for (const [i, r] of after.entries()) diff.addNew(r, i + 1);
    if (diff.endNew()) for (const r of before) diff.addOldDetail(r);
    const { changes } = diff.finish();
    expect(changes.map((c) => [c.kind, c.class, c.address, c.fields])).toEqual([
      ["record-changed", "breaking", a("art-2"), []],
      ["record-changed", "breaking", a("art-2~2"), []],
      ["record-added", "additive", a("art-2~3"), undefined],
    ]);
    expect(changes[0]!.message).toContain("truly identical siblings");
  });
});
