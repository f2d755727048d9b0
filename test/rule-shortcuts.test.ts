/**
 * citation-address and structural-path report exactly what the plain computation reports. They once
 * skipped work in the common case (issue #8: citation-address returned early when the address parsed
 * to the record's own slug and path, structural-path compared joined strings before building segment
 * arrays); since issue #23 they call the derivations generate uses (formatAddress, the structuralPath
 * of core/model.ts), made fast instead, and this test holds them to the reports they gave. Each is
 * run beside the plain computation, on the committed records and on fast-check records made to hit
 * every branch (NFD paths, escapes, "/" inside segments, index files, bad slugs).
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatAddress, parseAddress, type TargetKind } from "../src/core/address/address.js";
import { containerStructuralPath, targetStructuralPath } from "../src/core/model.js";
import type { Rule, RuleContext, RuleReport } from "../src/rules/define.js";
import { citationAddress } from "../src/rules/citation-address.js";
import { structuralPath } from "../src/rules/structural-path.js";
import { quote } from "../src/core/text.js";
import { fixtureRecords, type Rec } from "./helpers/records.js";

/** The reports of `rule` for one record. */
function reportsOf(rule: Rule, record: Rec): Omit<RuleReport, "line">[] {
  const reports: RuleReport[] = [];
  const context: RuleContext = {
    fileName: "x.jsonl",
    file: "x.jsonl",
    lock: undefined,
    manifestPath: undefined,
    report: (r) => reports.push(r),
  };
  const handlers = rule.create!(context);
  handlers.record!({ record, line: 1, schemaValid: true });
  return reports.map(({ line: _, ...rest }) => rest);
}

const str = (record: Rec, key: string) => (typeof record[key] === "string" ? (record[key] as string) : undefined);

/** citation-address as it was: the expected address always formatted and compared. */
function citationAddressPlainly(record: Rec): Omit<RuleReport, "line">[] {
  const value = str(record, "citationAddress");
  const slug = str(record, "slug");
  const path = str(record, "artifactRelativePath");
  const kind = record.targetKind;
  if (value === undefined) return [];
  const parts = parseAddress(value);
  if (parts === undefined)
    return [{ messageId: "malformed", data: { value: quote(value) }, pointer: "/citationAddress" }];
  if (slug === undefined || path === undefined || (kind !== "markdown-artifact" && kind !== "structural-container"))
    return [];
  if (parts.targetKind !== kind)
    return [
      {
        messageId: "kind",
        data: { value: quote(value), addressKind: parts.targetKind, kind },
        pointer: "/citationAddress",
      },
    ];
  let expected: string;
  try {
    expected = formatAddress({
      slug,
      targetKind: kind as TargetKind,
      path,
      ...(kind === "markdown-artifact" ? { local: parts.local ?? "" } : {}),
    });
  } catch {
    return [];
  }
  return expected === value
    ? []
    : [
        {
          messageId: "mismatch",
          data: { value: quote(value), expected: quote(expected) },
          pointer: "/citationAddress",
        },
      ];
}

/** structural-path as it was: the expected segments built and compared element by element. */
function structuralPathPlainly(record: Rec): Omit<RuleReport, "line">[] {
  const segments =
    Array.isArray(record.structuralPath) && record.structuralPath.every((s) => typeof s === "string")
      ? (record.structuralPath as string[])
      : undefined;
  if (segments === undefined) return [];
  const reports: Omit<RuleReport, "line">[] = [];
  const path = str(record, "artifactRelativePath");
  const local = parseAddress(str(record, "citationAddress") ?? "")?.local;
  const expected =
    path === undefined
      ? undefined
      : record.targetKind === "structural-container"
        ? containerStructuralPath(path)
        : record.targetKind === "markdown-artifact" && local !== undefined
          ? targetStructuralPath(path, local)
          : undefined;
  if (expected !== undefined && !(expected.length === segments.length && expected.every((s, i) => s === segments[i]))) {
    reports.push({
      messageId: "segments",
      data: { actual: JSON.stringify(segments), expected: JSON.stringify(expected) },
      pointer: "/structuralPath",
    });
  }
  const canonical = str(record, "canonicalPath");
  if (canonical !== undefined && canonical !== segments.join("/"))
    reports.push({
      messageId: "canonical",
      data: { actual: canonical, expected: segments.join("/") },
      pointer: "/canonicalPath",
    });
  return reports;
}

const segment = fc.constantFrom(
  "a",
  "b",
  "teil-1",
  "é",
  "e\u0301",
  "Ä",
  "%",
  "%41",
  " ",
  "#",
  "..",
  ".",
  "",
  "index.md",
  "README.md",
  "x.md",
  ".md",
  "a~b",
  "ü.md",
);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));
const local = fc.constantFrom("_top", "§-1", "a/b", "x~2", "x~1", "a b", "teil-1/§-2", "", "..", "a//b");
const slug = fc.constantFrom("bundesrecht", "a", "x-y", "Bad", "", "a--b");
const kind = fc.constantFrom("markdown-artifact", "structural-container", "other");

/**
 * A record's coordinates and an address written from them or from coordinates near them, and a structuralPath and
 * canonicalPath near the right ones.
 */
const record = fc
  .record({
    slug,
    path,
    local,
    kind,
    addressSlug: slug,
    addressPath: path,
    addressLocal: local,
    addressKind: kind,
    own: fc.boolean(),
    raw: fc.string({ maxLength: 12 }),
    rawAddress: fc.boolean(),
    cut: fc.nat(5),
    join: fc.boolean(),
  })
  .map((r) => {
    const parts = r.own
      ? { slug: r.slug, path: r.path, local: r.local, kind: r.kind }
      : { slug: r.addressSlug, path: r.addressPath, local: r.addressLocal, kind: r.addressKind };
    let address: string | undefined;
    try {
      address = formatAddress({
        slug: parts.slug,
        targetKind: parts.kind as TargetKind,
        path: parts.path,
        local: parts.local,
      });
    } catch {
      address = undefined;
    }
    const out: Rec = {
      slug: r.slug,
      artifactRelativePath: r.path,
      targetKind: r.kind,
      citationAddress: r.rawAddress || address === undefined ? r.raw : address,
    };
    // structuralPath: the right segments, or ones that join the same with a "/" inside a segment, or ones cut short.
    const right =
      r.kind === "structural-container" ? containerStructuralPath(r.path) : targetStructuralPath(r.path, r.local);
    const segments =
      r.join && right.length > 1
        ? [right.slice(0, 2).join("/"), ...right.slice(2)]
        : right.slice(0, right.length - (r.cut % 2));
    out.structuralPath = segments;
    out.canonicalPath = r.cut === 3 ? "other" : segments.join("/");
    return out;
  });

describe("the record rules' shortcuts report what the plain computation reports", () => {
  const committed = [...fixtureRecords("privacy-act-1988"), ...fixtureRecords("mvfg")];

  test("citation-address, on the committed records and on records near and far from their address", () => {
    for (const r of committed) expect(reportsOf(citationAddress as Rule, r)).toEqual(citationAddressPlainly(r));
    fc.assert(
      fc.property(record, (r) => {
        expect(reportsOf(citationAddress as Rule, r)).toEqual(citationAddressPlainly(r));
      }),
      { numRuns: 5_000 },
    );
  });

  test("structural-path, on the committed records and on segments near the right ones", () => {
    for (const r of committed) expect(reportsOf(structuralPath as Rule, r)).toEqual(structuralPathPlainly(r));
    fc.assert(
      fc.property(record, (r) => {
        expect(reportsOf(structuralPath as Rule, r)).toEqual(structuralPathPlainly(r));
      }),
      { numRuns: 5_000 },
    );
  });

  test("the records reach every report of both rules", () => {
    const seen = new Set<string>();
    for (const r of fc.sample(record, { numRuns: 5_000, seed: 1 }))
      for (const p of [...citationAddressPlainly(r), ...structuralPathPlainly(r)]) seen.add(p.messageId);
    expect([...seen].sort()).toEqual(["canonical", "kind", "malformed", "mismatch", "segments"]);
  });
});
