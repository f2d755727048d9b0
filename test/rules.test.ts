import { describe, expect, test } from "vitest";
import { deriveCitationTargetId } from "../src/core/digest.js";
import { sha256Hex } from "../src/core/bytes.js";
import { bodyStartOfBytes } from "../src/core/markdown/front-matter.js";
import type { LockContext } from "../src/core/lock/lock-context.js";
import { computeDatasetDigest, type LockManifest } from "../src/core/lock/manifest.js";
import { check, fixtureRecords, refresh, summary, toJsonl, type Rec } from "./helpers/records.js";
import { readFileSync } from "node:fs";
import { repoRoot } from "./helpers/records.js";

const base = () => structuredClone(fixtureRecords("privacy-act-1988"));
/** Line (1-based) of the record with this address. */
const lineOf = (records: Rec[], address: string) => records.findIndex((r) => r.citationAddress === address) + 1;
const run = (records: Rec[], options: Parameters<typeof check>[1] = {}) => check(toJsonl(records), options);
const problemsOf = (records: Rec[], ruleId: string, options: Parameters<typeof check>[1] = {}) =>
  run(records, options).problems.filter((p) => p.ruleId === ruleId);

test("the fixture itself is clean", () => {
  expect(run(base()).problems).toEqual([]);
  expect(check(toJsonl(fixtureRecords("mvfg")), { file: "mvfg.jsonl" }).problems).toEqual([]);
});

describe("file-level rules", () => {
  test("file-name: the file is named after the slug", () => {
    const [problem] = problemsOf(base(), "file-name", { file: ".tooling/citation-targets/privacy.jsonl" });
    expect(problem).toMatchObject({
      line: 1,
      pointer: "/slug",
      message:
        'file is named "privacy.jsonl" but its records have slug "privacy-act-1988": expected "privacy-act-1988.jsonl"',
    });
  });

  test.each(["slug", "titleId", "name", "versionDate", "sourceTextUrl", "datasetDigest", "schemaVersion"])(
    "dataset-fields: %s differs on one record",
    (field) => {
      const records = base();
      records[6]![field] =
        field === "versionDate"
          ? "2024-06-11"
          : field === "datasetDigest"
            ? "f".repeat(64)
            : field === "sourceTextUrl"
              ? "https://www.legislation.gov.au/other"
              : "other";
      refresh(records[6]!);
      const problems = problemsOf(records, "dataset-fields");
      expect(problems).toEqual([expect.objectContaining({ line: 7, pointer: `/${field}` })]);
      expect(problems[0]!.message).toContain("but line 1 has");
    },
  );

  test("schema-version: only 1.0.0 is read", () => {
    const records = base().map((r) => ({ ...r, schemaVersion: "2.0.0" }));
    expect(problemsOf(records, "schema-version")[0]).toMatchObject({
      line: 1,
      pointer: "/schemaVersion",
      message: 'schemaVersion is "2.0.0": expected "1.0.0"',
    });
  });
});

describe("derivations", () => {
  test("text-digest of markdown and of a container's headingText", () => {
    const records = base();
    records[0]!.markdown = `${String(records[0]!.markdown)} `;
    records[3]!.headingText = "Part 1—Preliminary";
    const problems = problemsOf(records, "text-digest");
    expect(problems.map((p) => [p.line, p.pointer])).toEqual([
      [1, "/textDigest"],
      [4, "/textDigest"],
    ]);
    expect(problems[0]!.message).toContain("the SHA-256 of markdown is");
    expect(problems[1]!.message).toContain("the SHA-256 of headingText is");
  });

  test("citation-target-id: the worked vector of docs/spec.md (computed there with printf | sha256sum)", () => {
    const digest = "a19062794174cb4bfebbbddbcc2bd7b6192c144e17736ec7f7cc68a6d301d39d";
    expect(deriveCitationTargetId(digest, "privacy-act-1988/part-iii/division-1/section-13.md#13")).toBe(
      "03052cbfa8f0e052e72b0485c6ab8e5683108ac86f69a4c109ef72d2bbb0e35b",
    );
  });

  test("citation-target-id: a wrong id is reported with the expected one", () => {
    const records = base();
    const expected = records[5]!.citationTargetId;
    records[5]!.citationTargetId = "0".repeat(64);
    expect(problemsOf(records, "citation-target-id")).toEqual([
      expect.objectContaining({
        line: 6,
        pointer: "/citationTargetId",
        message: expect.stringContaining(String(expected)),
      }),
    ]);
  });

  test.each([
    ["another slug", (a: string) => a.replace("privacy-act-1988/", "privacy-act-2000/"), "mismatch"],
    ["another path", (a: string) => a.replace("section-13.md", "section-14.md"), "mismatch"],
    ["a container form", (a: string) => a.replace(/#.*$/, "/"), "kind"],
    ["no local coordinate", (a: string) => a.replace(/#.*$/, ""), "malformed"],
    ["an empty local coordinate", (a: string) => a.replace(/#.*$/, "#"), "malformed"],
    ["a raw space", (a: string) => a.replace("section-13", "section 13"), "malformed"],
    ["a tie-break ~1", (a: string) => `${a}~1`, "malformed"],
  ])("citation-address: %s", (_, change, messageId) => {
    const records = base();
    const at = lineOf(records, "privacy-act-1988/part-iii/division-1/section-13.md#13");
    records[at - 1]!.citationAddress = change(String(records[at - 1]!.citationAddress));
    refresh(records[at - 1]!);
    expect(problemsOf(records, "citation-address")).toEqual([
      expect.objectContaining({ line: at, pointer: "/citationAddress", messageId }),
    ]);
  });

  test("structural-path: segments and canonicalPath", () => {
    const records = base();
    const at = lineOf(records, "privacy-act-1988/part-i/section-2.md#2");
    records[at - 1]!.structuralPath = ["part-i", "section-2", "3"];
    records[at]!.canonicalPath = "part-i/2a";
    const problems = problemsOf(records, "structural-path");
    expect(problems.map((p) => [p.line, p.pointer])).toEqual([
      [at, "/structuralPath"],
      [at, "/canonicalPath"],
      [at + 1, "/canonicalPath"],
    ]);
    expect(problems[0]!.message).toBe(
      'structuralPath is ["part-i","section-2","3"]: expected ["part-i","section-2","2"]',
    );
  });
});

describe("cross-record rules", () => {
  test("unique-citation-address and unique-citation-target-id name the first line", () => {
    const records = base();
    records[9] = { ...records[8]! };
    const problems = run(records).problems.filter((p) => p.ruleId.startsWith("unique-"));
    expect(problems.map((p) => [p.ruleId, p.line])).toEqual([
      ["unique-citation-address", 10],
      ["unique-citation-target-id", 10],
    ]);
    expect(problems[0]!.message).toContain("already used on line 9");
  });

  test("document-order: one wrong value is one problem; so is one gap", () => {
    const records = base();
    const mdLines = records.flatMap((r, i) => (r.targetKind === "markdown-artifact" ? [i] : []));
    records[mdLines[4]!]!.documentOrder = 40;
    expect(problemsOf(records, "document-order").map((p) => [p.line, p.message])).toEqual([
      [
        mdLines[4]! + 1,
        "documentOrder is 40: expected 4 (markdown-artifact records are numbered from 0 in file order)",
      ],
    ]);
    const gap = base();
    gap.splice(mdLines[2]!, 1);
    expect(problemsOf(gap, "document-order").length).toBe(1);
  });

  test("document-order after unreadable lines accepts each reading, and says which it expected", () => {
    const records = base();
    const mdLines = records.flatMap((r, i) => (r.targetKind === "markdown-artifact" ? [i] : []));
    const text = toJsonl(records).split("\n");
    text.splice(mdLines[2]!, 0, "{broken", "[1]"); // two unreadable lines before the third target
    expect(check(text.join("\n")).problems.filter((p) => p.ruleId === "document-order")).toEqual([]);
    const jumped = base();
    jumped[mdLines[2]!]!.documentOrder = 9;
    const jumpedText = toJsonl(jumped).split("\n");
    jumpedText.splice(mdLines[2]!, 0, "{broken", "[1]");
    const problems = check(jumpedText.join("\n")).problems.filter((p) => p.ruleId === "document-order");
    expect(problems.map((p) => p.message)).toEqual([
      "documentOrder is 9: expected 2 to 4 (markdown-artifact records are numbered from 0 in file order)",
    ]);
  });

  test("structural-preorder-index counts containers from 0", () => {
    const records = base();
    const first = records.findIndex((r) => r.targetKind === "structural-container");
    records[first]!.structuralPreorderIndex = 1;
    expect(problemsOf(records, "structural-preorder-index")).toEqual([
      expect.objectContaining({ line: first + 1, pointer: "/structuralPreorderIndex" }),
    ]);
  });

  test.each([
    ["negative start", { sourceArtifactBlockStartIndex: -1 }, "negative"],
    ["end before start", { sourceArtifactBlockStartIndex: 2, sourceArtifactBlockEndExclusive: 1 }, "reversed"],
    ["first target not at 0", { sourceArtifactBlockStartIndex: 1, sourceArtifactBlockEndExclusive: 2 }, "notFromZero"],
  ])("block-range: %s", (_, change, messageId) => {
    const records = base();
    Object.assign(records[0]!, change);
    expect(problemsOf(records, "block-range")).toEqual([expect.objectContaining({ line: 1, messageId })]);
  });

  test("block-range: a gap and an empty range inside one artifact", () => {
    const records = base();
    const at = lineOf(records, "privacy-act-1988/schedule-1/index.md#1.1");
    records[at - 1]!.sourceArtifactBlockStartIndex = 5;
    expect(problemsOf(records, "block-range")).toEqual([
      expect.objectContaining({ line: at, messageId: "notContiguous" }),
    ]);
    const empty = base();
    empty[at - 1]!.sourceArtifactBlockEndExclusive = empty[at - 1]!.sourceArtifactBlockStartIndex;
    expect(problemsOf(empty, "block-range").map((p) => p.messageId)).toContain("empty");
  });

  test("parent-container: a missing container and an inconsistent trail", () => {
    const records = base();
    const containerLine = records.findIndex((r) => r.citationAddress === "privacy-act-1988/part-iii/division-1/");
    const removed = records
      .filter((_, i) => i !== containerLine)
      .map((r, i) => ({ ...r, ...(r.targetKind === "structural-container" ? {} : {}), _i: i }));
    const problems = problemsOf(
      removed.map(({ _i, ...r }) => r),
      "parent-container",
    );
    expect(problems[0]).toMatchObject({
      line: containerLine + 1,
      pointer: "/artifactRelativePath",
      messageId: "missing",
    });

    const trail = base();
    const at = lineOf(trail, "privacy-act-1988/part-iii/division-1/section-13.md#13");
    trail[at - 1]!.headingTrail = ["Part III—Information privacy", "Division 2—Something else"];
    expect(problemsOf(trail, "parent-container")).toEqual([
      expect.objectContaining({ line: at, pointer: "/headingTrail", messageId: "trailPrefix" }),
    ]);
  });

  test("record-order: a container not followed by its descendant, a split folder, a split artifact", () => {
    const records = base();
    const container = lineOf(records, "privacy-act-1988/part-iii/") - 1;
    const moved = [...records];
    const [c] = moved.splice(container, 1);
    moved.splice(1, 0, c!);
    const problems = problemsOf(moved, "record-order");
    expect(problems.map((p) => p.messageId)).toContain("childless");

    const split = base();
    const s1 = lineOf(split, "privacy-act-1988/schedule-1/index.md#1") - 1;
    const [target] = split.splice(s1, 1);
    split.push(target!);
    expect(problemsOf(split, "record-order").map((p) => p.messageId)).toEqual(expect.arrayContaining(["folderSplit"]));
  });
});

/** The example dataset's lock manifest, read anew for each test that changes it. */
const manifest = (): LockManifest =>
  JSON.parse(readFileSync(`${repoRoot}.tooling/citation-targets/privacy-act-1988.lock.json`, "utf8")) as LockManifest;

/** A lock context of manifest `m`, its artifacts all as pinned (none changed, missing or unlisted). */
const context = (m: LockManifest, bodyDigests = new Map<string, string>()): LockContext => ({
  manifest: m,
  manifestPath: "privacy-act-1988.lock.json",
  computedDigest: computeDatasetDigest(m),
  bodyDigests,
  changedArtifacts: new Map<string, string>(),
  missingArtifacts: [],
  unlistedFiles: [],
});

describe("lock manifest rules", () => {
  test("a file generated from the manifest passes", () => {
    expect(run(base(), { lock: context(manifest()) }).problems).toEqual([]);
  });

  test("lock-manifest-digest: a hand-edited manifest is stale", () => {
    const m = manifest();
    m.name = "Privacy Act 1988 (Cth)";
    const problems = problemsOf(base(), "lock-manifest-digest", { lock: context(m) });
    expect(problems).toEqual([
      expect.objectContaining({
        line: 0,
        message: expect.stringContaining(
          "(it was edited by hand): run `citation-targets update privacy-act-1988.lock.json` to refresh it and regenerate",
        ),
      }),
    ]);
  });

  test("lock-dataset-digest and lock-dataset-fields", () => {
    const m = manifest();
    m.versionDate = "2024-07-01";
    m.datasetDigest = computeDatasetDigest(m);
    const result = run(base(), { lock: context(m) });
    expect(summary(result)).toEqual(["1 lock-dataset-digest /datasetDigest", "1 lock-dataset-fields /versionDate"]);
  });

  test("lock-artifacts: unknown, uncovered, out of order, and a kind that disagrees", () => {
    const m = manifest();
    m.artifacts.push({ path: "schedule-2/index.md", sha256: "0".repeat(64) });
    m.artifacts = m.artifacts.filter((a) => a.path !== "endnotes.md");
    m.artifacts.find((a) => a.path === "contents.md")!.kind = "file";
    [m.artifacts[3], m.artifacts[9]] = [m.artifacts[9]!, m.artifacts[3]!];
    m.datasetDigest = computeDatasetDigest(m);
    const problems = run(base(), { lock: context(m) }).problems.filter((p) => p.ruleId === "lock-artifacts");
    // one swap is two descents in the manifest order: each is one problem, not one per later artifact
    expect(problems.map((p) => p.messageId).sort()).toEqual(["field", "order", "order", "uncovered", "unknown"]);
    expect(problems.find((p) => p.messageId === "uncovered")!.message).toContain("schedule-2/index.md");
  });

  test("lock-artifact-body: a lost line of markdown is found", () => {
    const records = base();
    const at = lineOf(records, "privacy-act-1988/part-i/section-6.md#6");
    const digest = "4f0b3bd1f3d2a9a6a5a1b5a3c7e4d9f6e2b1c0a9d8e7f6a5b4c3d2e1f0a9b8c7";
    const bodies = new Map([["part-i/section-6.md", digest]]);
    const problems = problemsOf(records, "lock-artifact-body", { lock: context(manifest(), bodies) });
    expect(problems).toEqual([
      expect.objectContaining({
        line: at,
        pointer: "/markdown",
        message: expect.stringContaining(`the body's sha256 is ${digest}`),
      }),
    ]);
  });
});

describe("lock-artifact-body: bodies compared as bytes (validate) and as digests give the same problems", () => {
  const manifest = (): LockManifest =>
    JSON.parse(readFileSync(`${repoRoot}.tooling/citation-targets/privacy-act-1988.lock.json`, "utf8")) as LockManifest;
  const bodies = new Map(
    manifest().artifacts.map((a) => {
      const bytes = readFileSync(`${repoRoot}fixtures/datasets/privacy-act-1988/${a.path}`);
      return [a.path, bytes.subarray(bodyStartOfBytes(bytes))] as const;
    }),
  );
  const lockWith = (kind: "bytes" | "digests"): LockContext => ({
    manifest: manifest(),
    manifestPath: "privacy-act-1988.lock.json",
    computedDigest: computeDatasetDigest(manifest()),
    bodyDigests: kind === "digests" ? new Map([...bodies].map(([path, body]) => [path, sha256Hex(body)])) : new Map(),
    ...(kind === "bytes" ? { bodyBytes: new Map(bodies) } : {}),
    changedArtifacts: new Map<string, string>(),
    missingArtifacts: [],
    unlistedFiles: [],
  });
  const section6 = "privacy-act-1988/part-i/section-6.md#6";
  // canonicalize refuses a lone surrogate: a marker stands for it, written as the escape JSON allows.
  const LONE = "<lone surrogate>";
  const problemsWith = (records: Rec[], lock: LockContext) =>
    check(toJsonl(records).replaceAll(LONE, "\\ud800"), { lock }).problems.filter(
      (p) => p.ruleId === "lock-artifact-body",
    );
  /** Changes the markdown of section 6, its artifact's only target. */
  const markdownOf = (records: Rec[], change: (markdown: string) => string) => {
    const record = records[lineOf(records, section6) - 1]!;
    record.markdown = change(String(record.markdown));
  };
  const edits: [string, (records: Rec[]) => void][] = [
    ["nothing", () => undefined],
    ["a line of markdown lost", (r) => markdownOf(r, (m) => m.replace(/\n[^\n]+\n/, "\n"))],
    ["a letter changed to a longer UTF-8 one", (r) => markdownOf(r, (m) => m.replace("a", "ä"))],
    ["text added after an artifact's last target", (r) => markdownOf(r, (m) => `${m}more\n`)],
    ["a lone surrogate added (JSON can say one; its UTF-8 is U+FFFD's)", (r) => markdownOf(r, (m) => `${m}${LONE}`)],
    ["a long markdown (past the reused buffer)", (r) => markdownOf(r, (m) => `${m}${"x".repeat(40_000)}`)],
    ["a very long markdown (its own buffer)", (r) => markdownOf(r, (m) => `${m}${"é".repeat(400_000)}`)],
    [
      "an artifact's last target dropped (the concatenation is short)",
      (r) => void r.splice(lineOf(r, "privacy-act-1988/endnotes.md#endnote-3") - 1, 1),
    ],
    [
      "an artifact's targets split in two runs",
      (r) => r.splice(lineOf(r, section6), 0, ...r.splice(lineOf(r, "privacy-act-1988/endnotes.md#endnote-3") - 1, 1)),
    ],
  ];
  test.each(edits)("%s", (_, edit) => {
    const records = base();
    edit(records);
    records.forEach(refresh);
    const fast = problemsWith(records, lockWith("bytes"));
    expect(fast).toEqual(problemsWith(records, lockWith("digests")));
    // The digests named are the body's and the concatenation's, however the difference was found.
    for (const problem of fast) {
      const path = String(problem.data?.path);
      const concatenation = records
        .slice(Number(problem.data?.firstLine) - 1, Number(problem.data?.lastLine))
        .map((r) => String(r.markdown).replaceAll(LONE, "\ud800"))
        .join("");
      expect(problem.data).toMatchObject({ expected: sha256Hex(bodies.get(path)!), actual: sha256Hex(concatenation) });
    }
  });

  test("the edits are found", () => {
    const found = edits.map(([name, edit]) => {
      const records = base();
      edit(records);
      records.forEach(refresh);
      return [name, problemsWith(records, lockWith("bytes")).length];
    });
    expect(found.filter(([, n]) => n === 0).map(([name]) => name)).toEqual(["nothing"]);
  });
});

describe("one bad line does not cascade", () => {
  test.each(["privacy-act-1988", "mvfg"] as const)(
    "%s: any one line unreadable is that line's problem only",
    (slug) => {
      const lines = toJsonl(fixtureRecords(slug)).split("\n");
      for (let at = 0; at < lines.length - 1; at++) {
        const damaged = lines.map((line, i) => (i === at ? "not json" : line)).join("\n");
        const problems = check(damaged, { file: `${slug}.jsonl` }).problems;
        expect(
          problems.map((p) => `${p.line} ${p.ruleId}`),
          `line ${at + 1}`,
        ).toEqual([`${at + 1} json-syntax`]);
      }
    },
  );
});

describe("rule settings", () => {
  test("a rule can be turned off or downgraded to a warning", () => {
    const records = base();
    records[0]!.textDigest = "0".repeat(64);
    expect(problemsOf(records, "text-digest", { rules: { "text-digest": "off" } })).toEqual([]);
    expect(problemsOf(records, "text-digest", { rules: { "text-digest": "warning" } })[0]!.severity).toBe("warning");
  });
});

describe("derivation and manifest messages say what is wrong and what was expected", () => {
  test("citation-address gives the address recomputed from the record's coordinates", () => {
    const records = base();
    const at = lineOf(records, "privacy-act-1988/part-i/section-1.md#1");
    records[at - 1]!.citationAddress = "privacy-act-1988/part-i/section-one.md#1";
    refresh(records[at - 1]!);
    expect(problemsOf(records, "citation-address")[0]!.message).toBe(
      'citationAddress "privacy-act-1988/part-i/section-one.md#1" does not match the record\'s own coordinates: expected "privacy-act-1988/part-i/section-1.md#1"',
    );
  });

  test("parent-container names the container and its line", () => {
    const records = base();
    const at = lineOf(records, "privacy-act-1988/part-iii/division-1/");
    records[at - 1]!.headingTrail = [];
    expect(problemsOf(records, "parent-container")[0]!.message).toBe(
      `headingTrail is []: expected ["Part III—Information privacy"] (from the container of "part-iii" on line ${lineOf(records, "privacy-act-1988/part-iii/")})`,
    );
  });

  test("record-order says which folder was left and where", () => {
    const records = base();
    const target = records.splice(lineOf(records, "privacy-act-1988/part-i/section-1.md#1") - 1, 1)[0]!;
    records.splice(lineOf(records, "privacy-act-1988/part-iii/index.md#part-iii"), 0, target);
    const problem = problemsOf(records, "record-order").find((p) => p.messageId === "folderSplit")!;
    expect(problem.message).toMatch(
      /^record inside folder "part-i", which the file left on line \d+: expected each folder's records together$/,
    );
  });

  test("lock-dataset-fields and lock-dataset-digest name the manifest and its value", () => {
    const m = manifest();
    m.titleId = "C2004A99999";
    m.datasetDigest = computeDatasetDigest(m);
    const lock = context(m);
    const problems = run(base(), { lock }).problems;
    expect(problems.find((p) => p.ruleId === "lock-dataset-fields")!.message).toBe(
      'titleId is "C2004A03712" but lock manifest privacy-act-1988.lock.json has "C2004A99999"',
    );
    expect(problems.find((p) => p.ruleId === "lock-dataset-digest")!.message).toBe(
      `datasetDigest is ${base()[0]!.datasetDigest} but lock manifest privacy-act-1988.lock.json has ${m.datasetDigest}: the manifest changed since this file was generated; regenerate it with \`citation-targets generate privacy-act-1988.lock.json -o privacy-act-1988.jsonl\``,
    );
  });

  test("lock-dataset-digest: one record edited by hand, the others carrying the manifest's digest, is said so", () => {
    const m = manifest();
    const records = base();
    const edited = 2;
    records[edited] = { ...records[edited]!, datasetDigest: "a".repeat(64) };
    const lock = context(m);
    const digestProblems = run(records, { lock }).problems.filter((p) => p.ruleId === "lock-dataset-digest");
    expect(digestProblems).toHaveLength(1);
    expect(digestProblems[0]!.line).toBe(edited + 1);
    expect(digestProblems[0]!.message).toBe(
      `datasetDigest is ${"a".repeat(64)} but lock manifest privacy-act-1988.lock.json has ${m.datasetDigest}, as the ${records.length - 1} other records of this file carry: this record was edited by hand; regenerate the file with \`citation-targets generate privacy-act-1988.lock.json -o privacy-act-1988.jsonl\``,
    );
  });

  test("lock-artifacts names the artifact the manifest does not list", () => {
    const m = manifest();
    m.artifacts = m.artifacts.filter((a) => a.path !== "preamble.md");
    m.datasetDigest = computeDatasetDigest(m);
    const lock = {
      manifest: m,
      manifestPath: "x.lock.json",
      computedDigest: m.datasetDigest,
      bodyDigests: new Map<string, string>(),
      changedArtifacts: new Map<string, string>(),
      missingArtifacts: [],
      unlistedFiles: [],
    };
    const problems = run(base(), { lock }).problems.filter((p) => p.ruleId === "lock-artifacts");
    expect(problems).toEqual([
      expect.objectContaining({
        line: lineOf(base(), "privacy-act-1988/preamble.md#_top"),
        pointer: "/artifactRelativePath",
        message: 'artifact "preamble.md" is not in lock manifest x.lock.json',
      }),
    ]);
  });
});
