/**
 * `diff`: every change kind from a minimal pair of fixtures (test/fixtures-diff, written by
 * make-fixtures.mjs there), what a record change names, likely moves, approvals and the gate, the
 * folder baseline, the four formats, and the command's registration.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import canonicalize from "canonicalize";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { registerDiffCommand } from "../src/cli/diff-command.js";
import { deriveCitationTargetId, deriveTextDigest } from "../src/core/digest.js";
import {
  ADDITIVE_KINDS,
  applyApprovals,
  BREAKING_KINDS,
  CHANGE_KINDS,
  classOf,
  type DiffChange,
  type DiffReport,
  parseApprovals,
  summarizeDiff,
} from "../src/core/diff/diff.js";
import { RecordDiff } from "../src/core/diff/diff-records.js";
import { designationOf } from "../src/core/diff/unit-steps.js";
import { contractDigest, contractOf, diffSchemas, schemaDigest } from "../src/core/diff/diff-schema.js";
import { buildRecordSchema } from "../src/core/schema/schema.js";
import { createColor } from "../src/formatters/color.js";
import { diffFormatters } from "../src/formatters/diff.js";
import { diff } from "../src/node/diff/diff.js";
import { OperationalError } from "../src/node/errors.js";
import { UNCOMPARED_FIELDS } from "../src/core/records/record-fingerprint.js";
import { tempDir } from "./helpers/datasets.js";
import { type Rec, repoRoot } from "./helpers/records.js";

const fixtures = join(repoRoot, "test/fixtures-diff");
const plain = createColor(0);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const kinds = (report: DiffReport) => report.pairs.flatMap((pair) => pair.changes.map((change) => change.kind));
const onlyChange = (report: DiffReport): DiffChange => {
  expect(report.pairs).toHaveLength(1);
  expect(report.pairs[0]!.changes).toHaveLength(1);
  return report.pairs[0]!.changes[0]!;
};

describe("the change kinds", () => {
  test("are the reference's: three additive, eight breaking, each with its class", () => {
    expect([...ADDITIVE_KINDS]).toEqual(["enum-value-added", "field-added", "record-added"]);
    expect([...BREAKING_KINDS]).toEqual([
      "contract-digest-changed",
      "digest-framing-changed",
      "enum-value-removed",
      "field-removed",
      "path-pattern-changed",
      "record-changed",
      "record-removed",
      "schema-digest-changed",
    ]);
    for (const kind of CHANGE_KINDS)
      expect(classOf(kind)).toBe((ADDITIVE_KINDS as readonly string[]).includes(kind) ? "additive" : "breaking");
  });
});

describe("every change kind from a minimal pair of files", () => {
  const recordCases: [string, string, Partial<DiffChange>][] = [
    [
      "record-added",
      "a section inserted: the records after it shift, and only the new one is reported",
      { address: "example-act/part-1/section-1a.md#1a", message: "example-act/part-1/section-1a.md#1a added" },
    ],
    [
      "record-removed",
      "a section repealed",
      { address: "example-act/part-1/section-1.md#1", message: "example-act/part-1/section-1.md#1 removed", line: 3 },
    ],
    [
      "record-changed",
      "a section's text amended: one change, naming markdown and textDigest",
      {
        address: "example-act/part-1/section-2.md#2",
        message: "example-act/part-1/section-2.md#2: markdown, textDigest changed",
        fields: [
          { field: "markdown", beforeLength: 32, afterLength: 71 },
          {
            field: "textDigest",
            before: "8bc8dc11939b0b74dbc422167095bff8b5b6967fedb9f93b8761b47bbd842984",
            after: "5ded25d8370e432d2f0f0ca55d24af2e1dc9798c44bb49e33ac47b20abaebea9",
          },
        ],
      },
    ],
    [
      "field-added",
      "every markdown-artifact record gains a field: one field-added, no record-changed",
      { pointer: "/sourceLanguage", targetKind: "markdown-artifact" },
    ],
    [
      "field-removed",
      "every markdown-artifact record loses a field",
      { pointer: "/sourceDocumentPath", targetKind: "markdown-artifact" },
    ],
    [
      "digest-framing-changed",
      "the new file's citationTargetIds use another framing",
      { pointer: "/citationTargetId" },
    ],
  ];
  test.each(recordCases)("records: %s (%s)", async (kind, _what, expected) => {
    const report = await diff({ cwd: fixtures, paths: [`records/${kind}/old.jsonl`, `records/${kind}/new.jsonl`] });
    const change = onlyChange(report);
    expect(change).toMatchObject({ kind, class: classOf(kind as DiffChange["kind"]), ...expected });
    expect(report.pairs[0]!.warnings).toEqual([]);
    expect(report.summary.passed).toBe(classOf(kind as DiffChange["kind"]) === "additive");
  });

  const schemaCases: [string, Partial<DiffChange>][] = [
    [
      "field-added",
      {
        pointer: "/$defs/markdownArtifact/properties/sourceLanguage",
        message:
          'field "sourceLanguage" added to markdown-artifact record (/$defs/markdownArtifact/properties/sourceLanguage)',
      },
    ],
    ["field-removed", { pointer: "/$defs/markdownArtifact/properties/sourceDocumentPath" }],
    [
      "enum-value-added",
      { pointer: "/$defs/markdownArtifact/properties/sourceArtifactKind/enum", value: "document-appendix" },
    ],
    ["enum-value-removed", { pointer: "/$defs/markdownArtifact/properties/sourceIndexKind/enum", value: "body-div" }],
    [
      "path-pattern-changed",
      {
        pointer: "/$defs/markdownArtifact/properties/artifactRelativePath/allOf/1/pattern",
        before: "\\.md$",
        after: "\\.(?:md|markdown)$",
      },
    ],
    ["schema-digest-changed", { pointer: "", pointers: ["/$defs/structuralContainer/additionalProperties"] }],
    [
      "digest-framing-changed",
      {
        pointer: "/$defs/markdownArtifact/properties/citationTargetId/description",
        before: "citation-target-id/v1",
        after: "citation-target-id/v2",
      },
    ],
    [
      "contract-digest-changed",
      {
        pointer: "/$defs/markdownArtifact/properties/citationAddress/description",
        before: "citation-address/v1",
        after: "citation-address/v2",
      },
    ],
  ];
  test.each(schemaCases)("schema: %s", async (kind, expected) => {
    const report = await diff({
      cwd: fixtures,
      schema: true,
      paths: [`schema/${kind}/old.schema.json`, `schema/${kind}/new.schema.json`],
    });
    expect(onlyChange(report)).toMatchObject({ kind, class: classOf(kind as DiffChange["kind"]), ...expected });
    const { digests } = report.pairs[0]!;
    expect(digests!.schema.before).not.toBe(digests!.schema.after);
    expect(digests!.contract.before).not.toBe(digests!.contract.after);
  });

  test("files named *.schema.json are compared as schemas without --schema", async () => {
    const report = await diff({
      cwd: fixtures,
      paths: ["schema/enum-value-added/old.schema.json", "schema/enum-value-added/new.schema.json"],
    });
    expect(report.pairs[0]!.type).toBe("schema");
    expect(kinds(report)).toEqual(["enum-value-added"]);
  });
});

/** The parts of the record schema these tests edit. */
interface EditableSchema {
  $id: string;
  description: string;
  $defs: { markdownArtifact: { required: string[]; properties: Record<string, unknown> } };
}

describe("the schema diff", () => {
  const schema = buildRecordSchema();
  const editable = () => structuredClone(schema) as unknown as EditableSchema;
  test("an identical schema: no change, and the digests are the SHA-256 of its JCS bytes", () => {
    const result = diffSchemas(schema, structuredClone(schema));
    expect(result.changes).toEqual([]);
    expect(result.digests.schema.before).toBe(schemaDigest(schema));
    expect(result.digests.contract.after).toBe(
      contractDigest({
        addressGrammar: "citation-address/v1",
        citationTargetIdFraming: "citation-target-id/v1",
        datasetPathPattern: ".tooling/citation-targets/<slug>.jsonl",
        schemaDigest: schemaDigest(schema),
      }),
    );
  });

  test("the digests of the bundled schema: the vectors of docs/spec.md, section 12.3 (checked with Python's json and hashlib)", () => {
    const { contract } = contractOf(schema);
    expect(contract.schemaDigest).toBe("e1f6fda9861bd3e3630e3d77b4e2c608b9b0d29a887458432c5911ceca8ece3b");
    expect(contractDigest(contract)).toBe("faa527878c7f309d41c12da37c17a055fb91305f7295eda56bc6cb677be9002d");
  });

  test("stylish: the digests under the file, the change, the summary", async () => {
    const report = await diff({
      cwd: fixtures,
      schema: true,
      paths: ["schema/field-added/old.schema.json", "schema/field-added/new.schema.json"],
    });
    expect(diffFormatters.stylish(report, { color: plain })).toBe(
      [
        "schema/field-added/new.schema.json  (against schema/field-added/old.schema.json)",
        "  schema digest e1f6fda9861b… → fcce1934b0ca…, contract digest faa527878c7f… → 700934c36ba7…",
        '  additive  field-added  field "sourceLanguage" added to markdown-artifact record (/$defs/markdownArtifact/properties/sourceLanguage)',
        "",
        "✔ 1 change (1 schema): 0 breaking, 1 additive (field-added 1); the gate passes (--fail-on breaking)",
        "",
      ].join("\n"),
    );
  });

  test("the contract of the bundled schema: the v1 framing and grammar, the dataset path pattern from its description", () => {
    expect(contractOf(schema)).toEqual({
      contract: {
        addressGrammar: "citation-address/v1",
        citationTargetIdFraming: "citation-target-id/v1",
        datasetPathPattern: ".tooling/citation-targets/<slug>.jsonl",
        schemaDigest: schemaDigest(schema),
      },
      declaredAt: { datasetPathPattern: "/description" },
    });
  });

  test("another legislation host changes a pattern that is not a path's: schema-digest-changed names it", () => {
    const result = diffSchemas(schema, buildRecordSchema("legislation.example.org"));
    expect(result.changes.map((c) => [c.kind, c.pointers])).toEqual([
      [
        "schema-digest-changed",
        [
          "/$defs/markdownArtifact/properties/sourceTextUrl/pattern",
          "/$defs/structuralContainer/properties/sourceTextUrl/pattern",
          "/description",
        ],
      ],
    ]);
  });

  test("a new dataset path pattern in the description is path-pattern-changed; a const that changes is a value removed and one added", () => {
    const after = editable();
    after.description = after.description.replace(".tooling/citation-targets/<slug>.jsonl", "data/<slug>.jsonl");
    after.$defs.markdownArtifact.properties.textDigestAlgorithm = { const: "sha512", description: 'must be "sha512"' };
    expect(diffSchemas(schema, after).changes.map((c) => [c.kind, c.pointer, c.value ?? c.after])).toEqual([
      ["path-pattern-changed", "/description", "data/<slug>.jsonl"],
      ["enum-value-removed", "/$defs/markdownArtifact/properties/textDigestAlgorithm/const", "sha256"],
      ["enum-value-added", "/$defs/markdownArtifact/properties/textDigestAlgorithm/const", "sha512"],
    ]);
  });

  test("a field made optional is a residual change; a major $id bump too, a minor one is not", () => {
    const optional = editable();
    optional.$defs.markdownArtifact.required = optional.$defs.markdownArtifact.required.filter((n) => n !== "markdown");
    expect(diffSchemas(schema, optional).changes.map((c) => c.pointers)).toEqual([
      ["/$defs/markdownArtifact/required"],
    ]);
    const minor = { ...schema, $id: String(schema.$id).replace("1.0.0", "1.1.0") };
    expect(diffSchemas(schema, minor).changes).toEqual([]);
    const major = { ...schema, $id: String(schema.$id).replace("1.0.0", "2.0.0") };
    expect(diffSchemas(schema, major).changes.map((c) => c.pointers)).toEqual([["/$id"]]);
  });
});

/** The example-act records (the worked example of docs/spec.md, section 10). */
async function exampleRecords(): Promise<Rec[]> {
  const { readFile } = await import("node:fs/promises");
  return (await readFile(join(fixtures, "records/record-changed/old.jsonl"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Rec);
}

function recordDiff(before: Rec[], after: Rec[]) {
  const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: "old.jsonl", newFile: "new.jsonl" });
  for (const [i, record] of before.entries()) diff.addOld(record, i + 1);
  for (const [i, record] of after.entries()) diff.addNew(record, i + 1);
  if (diff.endNew()) for (const record of before) diff.addOldDetail(record);
  return diff.finish();
}

describe("a record change", () => {
  test("names every compared field that changed, with its values (trails, paths, kinds)", async () => {
    const before = await exampleRecords();
    const after = structuredClone(before);
    const s2 = after.find((r) => r.citationAddress === "example-act/part-1/section-2.md#2")!;
    s2.headingTrail = ["Part 1—Introduction"];
    s2.sourceDocumentPath = "part-1/sections.md";
    s2.sourceArtifactKind = "document-preamble";
    s2.sourceIndexKind = "body-div";
    const result = recordDiff(before, after);
    expect(result.changes).toEqual([
      {
        kind: "record-changed",
        class: "breaking",
        address: "example-act/part-1/section-2.md#2",
        message:
          "example-act/part-1/section-2.md#2: headingTrail, sourceArtifactKind, sourceDocumentPath, sourceIndexKind changed",
        fields: [
          { field: "headingTrail", before: ["Part 1—Preliminary"], after: ["Part 1—Introduction"] },
          { field: "sourceArtifactKind", before: "file", after: "document-preamble" },
          { field: "sourceDocumentPath", before: "part-1/section-2.md", after: "part-1/sections.md" },
          { field: "sourceIndexKind", before: "body-block", after: "body-div" },
        ],
        file: "new.jsonl",
        line: 5,
        headingText: "2 Definitions",
      },
    ]);
  });

  test("version-scoped and positional fields are not changes (UNCOMPARED_FIELDS)", async () => {
    const before = await exampleRecords();
    const after = before.map((r) => {
      const datasetDigest = "0".repeat(64);
      return {
        ...r,
        datasetDigest,
        citationTargetId: deriveCitationTargetId(datasetDigest, String(r.citationAddress)),
        versionDate: "2025-01-01",
        sourceTextUrl: "https://www.legislation.gov.au/C2024A00001/2025-01-01/text",
        ...(typeof r.documentOrder === "number" ? { documentOrder: r.documentOrder + 7 } : {}),
        ...(typeof r.structuralPreorderIndex === "number"
          ? { structuralPreorderIndex: r.structuralPreorderIndex + 1 }
          : {}),
        ...(typeof r.sourceArtifactBlockStartIndex === "number"
          ? { sourceArtifactBlockStartIndex: 9, sourceArtifactBlockEndExclusive: 10 }
          : {}),
      };
    });
    expect(UNCOMPARED_FIELDS).toHaveLength(8);
    expect(recordDiff(before, after).changes).toEqual([]);
  });

  test("a long value is reported by its length; an unknown field that changes is named", async () => {
    const before: Rec[] = (await exampleRecords()).map((r) => ({ ...r, extra: 1 }));
    const after = structuredClone(before);
    after[1]!.headingText = "x".repeat(300);
    after[1]!.extra = 2;
    const [change] = recordDiff(before, after).changes;
    expect(change!.fields).toEqual([
      { field: "headingText", before: "Part 1—Preliminary", afterLength: 300 },
      { field: "extra", before: 1, after: 2 },
    ]);
  });
});

describe("likely moves", () => {
  const move = (record: Rec, path: string, local: string): Rec => {
    const address = `example-act/${path}#${local}`;
    return {
      ...record,
      artifactRelativePath: path,
      citationAddress: address,
      citationTargetId: deriveCitationTargetId(String(record.datasetDigest), address),
    };
  };

  test("same textDigest and designation, elsewhere: a likely move next to the record-removed", async () => {
    const before = await exampleRecords();
    const s1 = before[2]!;
    const after = [...before.slice(0, 2), move(s1, "part-2/section-1.md", "1"), ...before.slice(3)];
    const removed = recordDiff(before, after).changes.find((c) => c.kind === "record-removed")!;
    expect(removed.likelyMoves).toEqual([
      { address: "example-act/part-2/section-1.md#1", by: ["textDigest", "designation"] },
    ]);
    expect(removed.message).toBe(
      "example-act/part-1/section-1.md#1 removed; likely moved to example-act/part-2/section-1.md#1 (same textDigest and designation)",
    );
  });

  test("a unit's designation is its provision's with its own steps: a repealed § 7 Abs. 1 is no move to a new § 5a Abs. 1", () => {
    const of = (local: string) => designationOf({ targetKind: "markdown-artifact", path: "index.md", local });
    expect(of("§-7/abs-1")).toBe("§-7/abs-1");
    expect(of("§-7/abs-1")).not.toBe(of("§-5a/abs-1"));
    expect(of("art-6/abs-1/bst-a")).toBe("art-6/abs-1/bst-a");
    expect(of("6/subsec-1/para-a")).toBe("6/subsec-1/para-a");
    expect(of("§-7~2/abs-1")).toBe("§-7/abs-1");
    // Headings as before: the last segment, without qualifiers and tie-break; a positional unit has none.
    expect(of("anlage-1/§-1")).toBe("§-1");
    expect(of("art-1~titre-ii")).toBe("art-1");
    expect(of("§-7")).toBe("§-7");
    expect(of("§-9/_2")).toBeUndefined();
  });

  test("github and gitlab say where it likely moved once (their text is the message, which names it); stylish, by its address, once too", async () => {
    const before = await exampleRecords();
    const after = [...before.slice(0, 2), move(before[2]!, "part-2/section-1.md", "1"), ...before.slice(3)];
    const lines = (records: Rec[]) => records.map((r) => `${canonicalize(r)}\n`).join("");
    await writeFile(join(dir, "old.jsonl"), lines(before));
    await writeFile(join(dir, "new.jsonl"), lines(after));
    const report = await diff({ cwd: dir, paths: ["old.jsonl", "new.jsonl"] });
    const moved = "likely moved to example-act/part-2/section-1.md#1 (same textDigest and designation)";
    const count = (text: string) => text.split(moved).length - 1;
    expect(count(diffFormatters.github(report, { color: plain }))).toBe(1);
    const gitlab = JSON.parse(diffFormatters.gitlab(report, { color: plain })) as { description: string }[];
    expect(gitlab.map((issue) => count(issue.description))).toEqual(
      gitlab.map((issue) => (issue.description.includes("removed") ? 1 : 0)),
    );
    expect(count(diffFormatters.stylish(report, { color: plain }))).toBe(1);
  });

  test("only the designation (renumbered path, amended text), or only the textDigest (renumbered section, same text)", async () => {
    const before = await exampleRecords();
    const s1 = before[2]!;
    const amended = {
      ...move(s1, "part-2/section-1.md", "1"),
      markdown: "## 1 Short title\n\nAmended.\n",
      textDigest: deriveTextDigest("## 1 Short title\n\nAmended.\n"),
    };
    let removed = recordDiff(before, [...before.slice(0, 2), amended, ...before.slice(3)]).changes.find(
      (c) => c.kind === "record-removed",
    )!;
    expect(removed.likelyMoves).toEqual([{ address: "example-act/part-2/section-1.md#1", by: ["designation"] }]);
    removed = recordDiff(before, [
      ...before.slice(0, 2),
      move(s1, "part-1/section-1.md", "1a"),
      ...before.slice(3),
    ]).changes.find((c) => c.kind === "record-removed")!;
    expect(removed.likelyMoves).toEqual([{ address: "example-act/part-1/section-1.md#1a", by: ["textDigest"] }]);
  });

  test("no evidence, no hint; the designation of _top is not evidence", async () => {
    const before = await exampleRecords();
    const top = before[3]!;
    const other = {
      ...move(top, "part-1/section-3.md", "_top"),
      markdown: "Other.\n",
      textDigest: deriveTextDigest("Other.\n"),
    };
    const removed = recordDiff(before, [...before.slice(0, 3), other, ...before.slice(4)]).changes.find(
      (c) => c.kind === "record-removed",
    )!;
    expect(removed.likelyMoves).toBeUndefined();
  });
});

describe("approvals and the gate", () => {
  test("an approvals file is checked: every problem is named", () => {
    expect(parseApprovals({ approvals: [{ address: "a/b.md#1", reason: "ok" }] })).toEqual({
      approvals: [{ address: "a/b.md#1", reason: "ok" }],
      problems: [],
    });
    expect(
      parseApprovals({
        approvals: [
          { address: "a", pointer: "/x", reason: "" },
          { kind: "record-moved", reason: "x" },
          { reason: "why" },
          3,
        ],
        extra: 1,
      }).problems,
    ).toEqual([
      'unknown member "extra" (expected "approvals")',
      'approvals[0]: "reason" must be a non-empty string: say why the change is right',
      'approvals[0]: "address" and "pointer" exclude each other',
      `approvals[1]: "kind" must be one of ${CHANGE_KINDS.join(", ")}`,
      'approvals[2]: name what it approves: "dataset", "address", "addressPrefix", "pointer" or "kind"',
      'approvals[3]: expected an object with "reason" and "address", "pointer" or "kind"',
    ]);
    expect(parseApprovals([]).problems).toEqual(['expected an object {"approvals": [...]}']);
  });

  test("--fail-on: breaking fails on breaking changes only, any on any, none never; approved changes never fail", async () => {
    const removed = { cwd: fixtures, paths: ["records/record-removed/old.jsonl", "records/record-removed/new.jsonl"] };
    const added = { cwd: fixtures, paths: ["records/record-added/old.jsonl", "records/record-added/new.jsonl"] };
    expect((await diff(removed)).summary.passed).toBe(false);
    expect((await diff({ ...removed, failOn: "none" })).summary).toMatchObject({
      passed: true,
      failing: 0,
      breaking: 1,
    });
    expect((await diff(added)).summary.passed).toBe(true);
    expect((await diff({ ...added, failOn: "any" })).summary).toMatchObject({ passed: false, failing: 1 });
    await writeFile(
      join(dir, "approvals.json"),
      JSON.stringify({ approvals: [{ kind: "record-added", reason: "new section 1A" }] }),
    );
    expect((await diff({ ...added, failOn: "any", approvals: join(dir, "approvals.json") })).summary).toMatchObject({
      passed: true,
      approved: 1,
    });
  });

  test("an approval by address covers its kinds there; by pointer, a schema change", () => {
    const pairs = [
      {
        type: "records" as const,
        old: "a",
        new: "b",
        warnings: [],
        changes: [
          { kind: "record-removed" as const, class: "breaking" as const, address: "x/a.md#1", message: "" },
          { kind: "field-removed" as const, class: "breaking" as const, pointer: "/foo", message: "" },
        ],
      },
    ];
    const unmatched = applyApprovals(pairs, [
      { address: "x/a.md#1", reason: "repealed" },
      { pointer: "/foo", kind: "field-removed", reason: "dropped" },
      { address: "x/a.md#1", kind: "record-changed", reason: "stale" },
    ]);
    expect(unmatched).toEqual([{ address: "x/a.md#1", kind: "record-changed", reason: "stale" }]);
    expect(pairs[0]!.changes.map((c) => (c as DiffChange).approved)).toEqual([
      { reason: "repealed" },
      { reason: "dropped" },
    ]);
    expect(summarizeDiff(pairs, "breaking")).toMatchObject({
      approved: 2,
      failing: 0,
      passed: true,
      byKind: { "field-removed": 1, "record-removed": 1 },
    });
  });

  test("a bad approvals file is a usage error naming the file", async () => {
    await writeFile(join(dir, "approvals.json"), '{"approvals": [{"address": "x"}]}');
    await expect(
      diff({
        cwd: dir,
        paths: [join(fixtures, "records/record-added/old.jsonl"), join(fixtures, "records/record-added/new.jsonl")],
        approvals: "approvals.json",
      }),
    ).rejects.toThrow(
      'approvals file approvals.json is not valid:\n  approvals[0]: "reason" must be a non-empty string: say why the change is right',
    );
    await expect(diff({ cwd: dir, paths: ["a", "b"], approvals: "missing.json" })).rejects.toThrow(OperationalError);
  });
});

describe("baselines on disk", () => {
  async function folders() {
    await mkdir(join(dir, "old"));
    await mkdir(join(dir, "new"));
    await cp(join(fixtures, "records/record-removed/old.jsonl"), join(dir, "old/example-act.jsonl"));
    await cp(join(fixtures, "records/record-removed/new.jsonl"), join(dir, "new/example-act.jsonl"));
    await cp(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), join(dir, "old/mvfg.jsonl"));
    await cp(
      join(repoRoot, ".tooling/citation-targets/privacy-act-1988.jsonl"),
      join(dir, "new/privacy-act-1988.jsonl"),
    );
  }

  test("two folders: files paired by name (<slug>.jsonl); one only in the old folder is all removed, one only in the new all added", async () => {
    await folders();
    const report = await diff({ cwd: dir, paths: ["old", "new"] });
    expect(report.pairs.map((p) => [p.old, p.new, p.oldMissing ?? false, p.newMissing ?? false, p.records])).toEqual([
      ["old/example-act.jsonl", "new/example-act.jsonl", false, false, { before: 6, after: 5 }],
      ["old/mvfg.jsonl", "new/mvfg.jsonl", false, true, { before: 21, after: 0 }],
      ["old/privacy-act-1988.jsonl", "new/privacy-act-1988.jsonl", true, false, { before: 0, after: 42 }],
    ]);
    expect(report.summary.byKind).toEqual({ "record-removed": 22, "record-added": 42 });
  });

  test("a folder and a file: the file's name in the folder", async () => {
    await folders();
    const report = await diff({ cwd: dir, paths: ["old", "new/example-act.jsonl"] });
    expect(report.pairs.map((p) => p.old)).toEqual(["old/example-act.jsonl"]);
    expect(kinds(report)).toEqual(["record-removed"]);
  });

  test("usage and I/O problems are OperationalErrors", async () => {
    // One operand that is no file or folder: a revision meant, the command for it said.
    await expect(diff({ cwd: dir, paths: ["HEAD~1"] })).rejects.toThrow(
      "diff needs two paths, old then new; HEAD~1 is no file or folder here: to compare with a git revision, run `citation-targets diff --against 'HEAD~1'`",
    );
    await writeFile(join(dir, "only-one.jsonl"), "");
    await expect(diff({ cwd: dir, paths: ["only-one.jsonl"] })).rejects.toThrow(
      "diff needs two paths, old then new (got 1); or --against REV to compare with a git revision",
    );
    await expect(diff({ cwd: dir, paths: ["missing.jsonl", "other.jsonl"] })).rejects.toThrow(
      "cannot read missing.jsonl: no such file or folder",
    );
    await mkdir(join(dir, "empty-a"));
    await mkdir(join(dir, "empty-b"));
    await expect(diff({ cwd: dir, paths: ["empty-a", "empty-b"] })).rejects.toThrow(
      "no *.jsonl files in empty-a or empty-b",
    );
    await writeFile(join(dir, "bad.schema.json"), "{");
    await expect(diff({ cwd: dir, schema: true, paths: ["bad.schema.json", "bad.schema.json"] })).rejects.toThrow(
      "schema bad.schema.json is not valid JSON: line 1, column 2: Expected property name or '}'",
    );
    // Saved with a byte order mark: said as every JSON file the tool reads says it (json-file.ts).
    await writeFile(join(dir, "bom.schema.json"), "\uFEFF{}");
    await expect(diff({ cwd: dir, schema: true, paths: ["bom.schema.json", "bom.schema.json"] })).rejects.toThrow(
      "schema bom.schema.json is not valid JSON: line 1, column 1: the file starts with a byte order mark (U+FEFF)",
    );
  });

  test("pass 3 parses only the old lines it looks at (detailLines): the report is the one every old line gives", async () => {
    const records = await exampleRecords();
    // A removed address whose first line has no heading and whose duplicate has one; a changed record; a removed one.
    const { headingText: _, ...headless } = records[2]!;
    const old = [...records.slice(0, 2), headless, ...records.slice(3), records[2]!];
    const now = records
      .filter((_, i) => i !== 2 && i !== 4)
      .map((r, i) => (i === 0 ? { ...r, headingText: "Changed" } : r));
    const compare = (only: boolean) => {
      const diff = new RecordDiff({ uncompared: UNCOMPARED_FIELDS, oldFile: "old.jsonl", newFile: "new.jsonl" });
      // Lines too long to keep: the old side is digested, and the changed record's old values come from pass 3.
      for (const [i, record] of old.entries()) diff.addOld(record, i + 1, 2 ** 30);
      for (const [i, record] of now.entries()) diff.addNew(record, i + 1);
      expect(diff.endNew()).toBe(true);
      const lines = diff.detailLines();
      old.forEach((record, i) => {
        if (!only || lines.has(i + 1)) diff.addOldDetail(record);
      });
      return { result: diff.finish(), looked: lines.size };
    };
    const every = compare(false);
    const some = compare(true);
    expect(some.result).toEqual(every.result);
    expect(some.looked).toBeLessThan(old.length);
    expect(every.result.changes.map((c) => c.kind).sort()).toEqual([
      "record-changed",
      "record-removed",
      "record-removed",
    ]);
    expect(every.result.changes.find((c) => c.address === records[2]!.citationAddress)).toMatchObject({
      headingText: records[2]!.headingText,
    });
  });

  test("lines that are not records, duplicate addresses and another title are warnings, not changes", async () => {
    const records = await exampleRecords();
    const other = records.map((r) => ({ ...r, titleId: "C2099A00009" }));
    await writeFile(
      join(dir, "a.jsonl"),
      `${records.map((r) => canonicalize(r)).join("\n")}\n{"broken"\n[1]\n${canonicalize(records[0])}\n`,
    );
    await writeFile(join(dir, "b.jsonl"), `${other.map((r) => canonicalize(r)).join("\n")}\n`);
    const report = await diff({ cwd: dir, paths: ["a.jsonl", "b.jsonl"] });
    expect(report.pairs[0]!.warnings).toEqual([
      "a.jsonl: 2 lines are not a record with a citationAddress and were not compared (run citation-targets validate)",
      "a.jsonl: 1 duplicate citationAddress lines ignored (the first of each counts)",
      'the files are of different titles (titleId "C2024A00001" and "C2099A00009")',
    ]);
    expect(kinds(report)).toEqual(Array(6).fill("record-changed"));
  });
});

describe("the formats", () => {
  /** Section 1 repealed and section 1A inserted; the repeal approved; --fail-on any. */
  async function sample(): Promise<DiffReport> {
    const { readFile } = await import("node:fs/promises");
    const lines = (await readFile(join(fixtures, "records/record-added/new.jsonl"), "utf8")).split("\n");
    await mkdir(join(dir, "new"));
    await writeFile(
      join(dir, "new/example-act.jsonl"),
      lines.filter((line) => !line.includes('"citationAddress":"example-act/part-1/section-1.md#1"')).join("\n"),
    );
    await cp(join(fixtures, "records/record-added/old.jsonl"), join(dir, "example-act.jsonl"));
    await writeFile(
      join(dir, "approvals.json"),
      JSON.stringify({
        approvals: [
          {
            dataset: "example-act",
            versionDate: "2024-07-01",
            address: "example-act/part-1/section-1.md#1",
            reason: "repealed by Act No. 1, 2025",
          },
        ],
      }),
    );
    return diff({
      cwd: dir,
      paths: ["example-act.jsonl", "new/example-act.jsonl"],
      approvals: "approvals.json",
      failOn: "any",
    });
  }

  test("stylish: one line per change, details indented, the summary by class and kind", async () => {
    expect(diffFormatters.stylish(await sample(), { color: plain })).toBe(
      [
        "new/example-act.jsonl  (against example-act.jsonl, 6 → 6 records)",
        '  breaking  record-removed  example-act/part-1/section-1.md#1  "1 Short title"',
        "                            approved: repealed by Act No. 1, 2025",
        '  additive  record-added    example-act/part-1/section-1a.md#1a  "1A Objects"',
        "",
        "✖ 2 changes (1 file, 6 → 6 records): 1 breaking (record-removed 1), 1 additive (record-added 1); 1 approved; 1 fails the gate (--fail-on any)",
        "",
      ].join("\n"),
    );
  });

  test("json: the report itself", async () => {
    const report = await sample();
    const parsed = JSON.parse(diffFormatters.json(report, { color: plain }));
    expect(Object.keys(parsed)).toEqual(["pairs", "summary", "warnings"]);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(report)));
    expect(parsed.pairs[0].changes[0]).toMatchObject({
      kind: "record-removed",
      class: "breaking",
      approved: { reason: "repealed by Act No. 1, 2025" },
      line: 3,
    });
  });

  test("github: error when it fails the gate, warning when approved, notice when additive and passing", async () => {
    const lines = diffFormatters
      .github(await sample(), { color: plain })
      .trimEnd()
      .split("\n");
    expect(lines).toEqual([
      "::warning file=new/example-act.jsonl,title=record-removed (breaking)::example-act/part-1/section-1.md#1 removed%0Aapproved: repealed by Act No. 1, 2025",
      "::error file=new/example-act.jsonl,line=3,title=record-added (additive)::example-act/part-1/section-1a.md#1a added",
      "✖ 2 changes (1 file, 6 → 6 records): 1 breaking (record-removed 1), 1 additive (record-added 1); 1 approved; 1 fails the gate (--fail-on any)",
    ]);
  });

  test("sarif: every kind a rule, one result per change, an approval a suppression", async () => {
    const log = JSON.parse(diffFormatters.sarif(await sample(), { color: plain, toolVersion: "0.1.0" }));
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([...CHANGE_KINDS]);
    expect(run.results).toHaveLength(2);
    expect(run.results[0]).toMatchObject({
      ruleId: "record-removed",
      level: "warning",
      suppressions: [{ kind: "external", justification: "repealed by Act No. 1, 2025" }],
      locations: [{ logicalLocations: [{ fullyQualifiedName: "example-act/part-1/section-1.md#1" }] }],
    });
    expect(run.results[1]).toMatchObject({
      ruleId: "record-added",
      level: "error",
      locations: [{ physicalLocation: { region: { startLine: 3 } } }],
    });
    expect(run.properties.summary).toMatchObject({ changes: 2, failing: 1, passed: false });
  });

  test("no changes", async () => {
    const report = await diff({
      cwd: fixtures,
      paths: ["records/record-added/old.jsonl", "records/record-removed/old.jsonl"],
    });
    expect(diffFormatters.stylish(report, { color: plain })).toBe("✔ no changes (1 file, 6 → 6 records)\n");
    expect(diffFormatters.github(report, { color: plain })).toBe("✔ no changes (1 file, 6 → 6 records)\n");
  });
});

describe("the diff command", () => {
  async function run(argv: string[], cwd = fixtures) {
    let stdout = "";
    let stderr = "";
    let code: number | undefined;
    const program = new Command()
      .exitOverride()
      .configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
    registerDiffCommand(
      program,
      {
        cwd,
        env: {},
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
      },
      (c) => (code = c),
    );
    await program.parseAsync(argv, { from: "user" });
    return { code, stdout, stderr };
  }

  test("exit code 0 when the gate passes, 1 when it fails; --format and --fail-on are honoured", async () => {
    expect((await run(["diff", "records/record-added/old.jsonl", "records/record-added/new.jsonl"])).code).toBe(0);
    const failed = await run([
      "diff",
      "--format",
      "json",
      "records/record-removed/old.jsonl",
      "records/record-removed/new.jsonl",
    ]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).summary).toMatchObject({ breaking: 1, passed: false });
    expect(
      (await run(["diff", "--fail-on", "none", "records/record-removed/old.jsonl", "records/record-removed/new.jsonl"]))
        .code,
    ).toBe(0);
    expect(
      (await run(["diff", "--fail-on", "any", "records/record-added/old.jsonl", "records/record-added/new.jsonl"]))
        .code,
    ).toBe(1);
    const schema = await run([
      "diff",
      "--schema",
      "--verbose",
      "schema/field-added/old.schema.json",
      "schema/field-added/new.schema.json",
    ]);
    expect(schema.code).toBe(0);
    expect(schema.stderr).toMatch(/^citation-targets: compared 1 pair in \d+ ms\n$/);
  });

  test("usage problems: OperationalError (the program prints it and exits 2), or commander's own error for a bad choice", async () => {
    await expect(run(["diff", "one.jsonl"])).rejects.toThrow(OperationalError);
    await expect(run(["diff", "--fail-on", "sometimes", "a", "b"])).rejects.toMatchObject({
      code: "commander.invalidArgument",
    });
  });
});
