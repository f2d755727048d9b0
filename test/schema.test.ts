import { readFileSync } from "node:fs";
import canonicalize from "canonicalize";
import { describe, expect, test } from "vitest";
import { buildManifestSchema } from "../src/core/lock/manifest.js";
import { buildRecordSchema, formatSchema } from "../src/core/schema/schema.js";
import { compileRecordSchema } from "../src/core/schema/schema-validator.js";
import { check, repoRoot, sampleRecord, type Rec } from "./helpers/records.js";
import { createRequire } from "node:module";

/** The precompiled validators are CommonJS modules: required, as the code loads them. */
const requireHere = createRequire(import.meta.url);

const md = () => sampleRecord("markdown-artifact", 5);
const container = () => sampleRecord("structural-container", 1);

/** Puts `broken` on line 2 of a three-line file and returns its schema problems. */
function schemaProblems(broken: Rec, kind: "markdown-artifact" | "structural-container" = "markdown-artifact") {
  const good = kind === "markdown-artifact" ? md() : container();
  const text = [good, broken, good].map((r) => `${canonicalize(r)}\n`).join("");
  return check(text).problems.filter((p) => p.ruleId === "schema");
}

const MD_FIELDS = [
  "artifactRelativePath",
  "canonicalPath",
  "citationAddress",
  "citationTargetId",
  "datasetDigest",
  "documentOrder",
  "headingText",
  "headingTrail",
  "markdown",
  "name",
  "schemaVersion",
  "slug",
  "sourceArtifactBlockEndExclusive",
  "sourceArtifactBlockStartIndex",
  "sourceArtifactKind",
  "sourceDocumentPath",
  "sourceIndexKind",
  "sourceTextUrl",
  "structuralPath",
  "targetKind",
  "textDigest",
  "textDigestAlgorithm",
  "titleId",
  "versionDate",
];
const CONTAINER_FIELDS = [
  "artifactRelativePath",
  "canonicalPath",
  "citationAddress",
  "citationTargetId",
  "datasetDigest",
  "headingText",
  "headingTrail",
  "name",
  "schemaVersion",
  "slug",
  "sourceArtifactKind",
  "sourceTextUrl",
  "structuralPath",
  "structuralPreorderIndex",
  "targetKind",
  "textDigest",
  "textDigestAlgorithm",
  "titleId",
  "versionDate",
];

describe("the bundled schema", () => {
  test("schemas/ holds exactly what the code builds", () => {
    expect(readFileSync(`${repoRoot}schemas/citation-targets.schema.json`, "utf8")).toBe(
      formatSchema(buildRecordSchema()),
    );
    expect(readFileSync(`${repoRoot}schemas/citation-targets.lock.schema.json`, "utf8")).toBe(
      formatSchema(buildManifestSchema()),
    );
  });

  test("has the 43 field definitions of the reference, 24 + 19, all required, no others", () => {
    const defs = buildRecordSchema().$defs as Record<
      string,
      { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean }
    >;
    expect(Object.keys(defs.markdownArtifact!.properties)).toEqual(MD_FIELDS);
    expect(Object.keys(defs.structuralContainer!.properties)).toEqual(CONTAINER_FIELDS);
    expect(MD_FIELDS.length + CONTAINER_FIELDS.length).toBe(43);
    expect(defs.markdownArtifact!.required).toEqual(MD_FIELDS);
    expect(defs.structuralContainer!.required).toEqual(CONTAINER_FIELDS);
    expect(defs.markdownArtifact!.additionalProperties).toBe(false);
  });

  test("fixture records of both variants pass", () => {
    expect(schemaProblems(md())).toEqual([]);
    expect(schemaProblems(container(), "structural-container")).toEqual([]);
  });
});

describe.each([
  ["markdown-artifact", MD_FIELDS, md],
  ["structural-container", CONTAINER_FIELDS, container],
] as const)("%s record", (kind, fields, make) => {
  test.each(fields.filter((f) => f !== "targetKind"))(
    "missing %s is reported on its line with its pointer",
    (field) => {
      const record = make();
      delete record[field];
      const problems = schemaProblems(record, kind);
      expect(problems).toContainEqual(expect.objectContaining({ line: 2, pointer: `/${field}`, messageId: "missing" }));
      expect(problems.find((p) => p.pointer === `/${field}`)!.message).toContain(`missing required field "${field}"`);
    },
  );

  test.each(fields)("%s of the wrong type is reported with its pointer", (field) => {
    const record = make();
    record[field] = typeof record[field] === "string" ? 42 : "forty-two";
    const problems = schemaProblems(record, kind);
    expect(problems.map((p) => `${p.line} ${p.pointer}`)).toContain(`2 /${field}`);
  });

  test("an additional property is reported with its pointer", () => {
    const record = { ...make(), sectionNumber: "13" };
    const problems = schemaProblems(record, kind);
    expect(problems).toEqual([
      expect.objectContaining({ line: 2, pointer: "/sectionNumber", messageId: "additional" }),
    ]);
    expect(problems[0]!.message).toContain(`the ${kind} record allows no other fields`);
  });

  test("a field of the other variant is an additional property", () => {
    const record = make();
    if (kind === "markdown-artifact") record.structuralPreorderIndex = 0;
    else record.documentOrder = 0;
    expect(schemaProblems(record, kind).map((p) => p.pointer)).toEqual([
      kind === "markdown-artifact" ? "/structuralPreorderIndex" : "/documentOrder",
    ]);
  });

  test("array items of headingTrail and structuralPath must be strings", () => {
    const record = make();
    record.headingTrail = ["Part I", 7];
    record.structuralPath = [null];
    expect(
      schemaProblems(record, kind)
        .map((p) => p.pointer)
        .sort(),
    ).toEqual(["/headingTrail/1", "/structuralPath/0"]);
  });
});

describe("constrained fields", () => {
  const pathCases: [string, string, string][] = [
    ["empty", "", "must not be empty"],
    ["leading slash", "/part-i/section-1.md", "must not start with a slash"],
    ["'..' segment", "part-i/../section-1.md", 'must not contain a ".." segment'],
    ["'..' at the start", "../section-1.md", 'must not contain a ".." segment'],
    ["empty segment", "part-i//section-1.md", "must not contain an empty segment"],
    ["NUL", "part-i/sec\u0000tion-1.md", "must not contain NUL, CR or LF"],
    ["CR", "part-i/sec\rtion-1.md", "must not contain NUL, CR or LF"],
    ["LF", "part-i/sec\ntion-1.md", "must not contain NUL, CR or LF"],
  ];
  test.each(pathCases)("artifactRelativePath: %s", (_, value, expected) => {
    const problems = schemaProblems({ ...md(), artifactRelativePath: value });
    expect(
      problems
        .filter((p) => p.pointer === "/artifactRelativePath")
        .map((p) => p.message)
        .join("\n"),
    ).toContain(expected);
  });
  test.each(pathCases)("canonicalPath: %s (both variants)", (_, value, expected) => {
    for (const [record, kind] of [
      [md(), "markdown-artifact"],
      [container(), "structural-container"],
    ] as const) {
      const problems = schemaProblems({ ...record, canonicalPath: value.replace(/\.md$/, "") }, kind);
      expect(
        problems
          .filter((p) => p.pointer === "/canonicalPath")
          .map((p) => p.message)
          .join("\n"),
      ).toContain(expected);
    }
  });
  test.each(pathCases.filter(([name]) => name !== "empty"))(
    "container artifactRelativePath: %s",
    (_, value, expected) => {
      const problems = schemaProblems(
        { ...container(), artifactRelativePath: value.replace(/\.md$/, "") },
        "structural-container",
      );
      expect(problems.find((p) => p.pointer === "/artifactRelativePath")?.message).toContain(expected);
    },
  );
  test("a '..' inside a name is not a '..' segment", () => {
    expect(schemaProblems({ ...md(), artifactRelativePath: "part-i/a..b.md", canonicalPath: "x/..y/z" })).toEqual([]);
  });
  test("markdown-artifact artifactRelativePath must end in .md; a container's need not", () => {
    expect(schemaProblems({ ...md(), artifactRelativePath: "part-i/section-1.txt" })[0]?.message).toContain(
      'must end in ".md"',
    );
    expect(schemaProblems({ ...container(), artifactRelativePath: "part-i" }, "structural-container")).toEqual([]);
  });
  test.each(["datasetDigest", "textDigest"])("%s must be 64 lowercase hex characters", (field) => {
    for (const bad of ["A".repeat(64), "a".repeat(63), "a".repeat(65), "g".repeat(64), ""]) {
      const problems = schemaProblems({ ...md(), [field]: bad });
      expect(problems.find((p) => p.pointer === `/${field}`)?.message).toContain(
        "must be 64 lowercase hexadecimal characters",
      );
    }
  });
  test.each(["Privacy-act", "privacy--act", "-privacy", "privacy-", "privacy_act", "privacy act", ""])(
    "slug %j is rejected",
    (slug) => {
      expect(schemaProblems({ ...md(), slug }).find((p) => p.pointer === "/slug")?.message).toContain(
        "lowercase alphanumeric groups joined by single hyphens",
      );
    },
  );
  test.each(["privacy-act-1988", "a", "2024", "x1-y2-z3"])("slug %j is accepted", (slug) => {
    expect(schemaProblems({ ...md(), slug })).toEqual([]);
  });
  test.each([
    ["2023-02-30", "must be a real calendar date"],
    ["2023-02-29", "must be a real calendar date"],
    ["2023-13-01", "must be a real calendar date"],
    ["2023-2-1", "must have the form YYYY-MM-DD"],
    ["20230201", "must have the form YYYY-MM-DD"],
    ["2023-02-01T00:00:00Z", "must have the form YYYY-MM-DD"],
  ])("versionDate %j is rejected", (versionDate, expected) => {
    expect(
      schemaProblems({ ...md(), versionDate })
        .map((p) => p.message)
        .join("\n"),
    ).toContain(expected);
  });
  test("versionDate on a leap day is accepted", () => {
    expect(schemaProblems({ ...md(), versionDate: "2024-02-29" })).toEqual([]);
  });
  test("textDigestAlgorithm must be sha256", () => {
    expect(schemaProblems({ ...md(), textDigestAlgorithm: "sha512" })[0]).toMatchObject({
      pointer: "/textDigestAlgorithm",
      message: expect.stringContaining('expected "sha256"'),
    });
  });
  test.each([
    ["sourceArtifactKind", "structural-container"],
    ["sourceArtifactKind", "chapter"],
    ["sourceIndexKind", "body-section"],
  ])("markdown-artifact %s %j is not in the enum", (field, value) => {
    expect(schemaProblems({ ...md(), [field]: value })[0]).toMatchObject({
      pointer: `/${field}`,
      message: expect.stringContaining("expected one of"),
    });
  });
  test.each(["file", "directory-index", "document-frontmatter", "document-contents", "document-preamble"])(
    "sourceArtifactKind %s is accepted",
    (value) => {
      expect(schemaProblems({ ...md(), sourceArtifactKind: value })).toEqual([]);
    },
  );
  test("a container's sourceArtifactKind must be structural-container", () => {
    expect(schemaProblems({ ...container(), sourceArtifactKind: "file" }, "structural-container")[0]).toMatchObject({
      pointer: "/sourceArtifactKind",
    });
  });
  test.each([
    ["missing", undefined, 'missing required field "targetKind"'],
    ["unknown", "section", 'targetKind is "section"'],
  ])("targetKind %s gives one clear problem, not oneOf noise", (_, value, expected) => {
    const record = md();
    if (value === undefined) delete record.targetKind;
    else record.targetKind = value;
    const problems = schemaProblems(record);
    expect(problems).toEqual([
      expect.objectContaining({ pointer: "/targetKind", message: expect.stringContaining(expected) }),
    ]);
  });
  test("a record of one variant gets only its own variant's errors", () => {
    const record = md();
    delete record.markdown;
    expect(schemaProblems(record).map((p) => p.pointer)).toEqual(["/markdown"]);
  });
  test.each([
    "https://www.legislation.gov.au.evil.example/x",
    "https://www.legislation.gov.au@evil.example/",
    "https://www.legislation.gov.au:443@evil.example/x",
    "http://www.legislation.gov.au/C2004A03712",
    "https://www.legislation.gov.au",
    "https://www.legislation.gov.au/",
    "https://evil.example/www.legislation.gov.au/x",
    "https://wwwXlegislation.gov.au/x",
    "https://www.legislation.gov.au/with space",
    " https://www.legislation.gov.au/x",
  ])("sourceTextUrl %j is rejected", (url) => {
    expect(
      schemaProblems({ ...md(), sourceTextUrl: url }).find((p) => p.pointer === "/sourceTextUrl")?.message,
    ).toContain("must be an https address on www.legislation.gov.au");
  });
  test("sourceTextUrl on another configured host", () => {
    const check = compileRecordSchema(buildRecordSchema("www.gesetze-im-internet.de"));
    expect(check({ ...md(), sourceTextUrl: "https://www.gesetze-im-internet.de/vwvfg/" })).toEqual([]);
    expect(check({ ...md(), sourceTextUrl: "https://www.legislation.gov.au/C2004A03712" })[0]?.pointer).toBe(
      "/sourceTextUrl",
    );
  });
  test("an invalid host is refused", () => {
    expect(() => buildRecordSchema("evil.example/path")).toThrow(/invalid legislation host/);
    expect(() => buildRecordSchema("Www.Example.org")).toThrow(/invalid legislation host/);
  });
});

describe("the precompiled validators (npm run build)", () => {
  test("the manifest and config validators were built from the current schemas", async () => {
    const { loadPrecompiled } = await import("../src/node/config/precompiled.js");
    const { buildConfigSchema } = await import("../src/node/config/config.js");
    // src/ has no generated/ folder beside it, so load from dist/ the way the built CLI does
    for (const [name, schema] of [
      ["manifest", buildManifestSchema()],
      ["config", buildConfigSchema()],
    ] as const) {
      const generated = requireHere(`../dist/generated/${name}-validator.cjs`) as { schemaText: string };
      expect(generated.schemaText, name).toBe(JSON.stringify(schema));
    }
    expect(await loadPrecompiled("record", buildRecordSchema())).toBeUndefined(); // from src/: none, so the caller compiles
  });

  test("was built from the current schema and reports exactly what a runtime compile reports", async () => {
    const { recordCheckFrom } = await import("../src/core/schema/schema-issues.js");
    // Built by `npm run build`: CommonJS (src/node/config/precompiled-text.ts).
    const generated = requireHere("../dist/generated/record-validator.cjs") as {
      schemaText: string;
      validate: Parameters<typeof recordCheckFrom>[0];
    };
    expect(generated.schemaText).toBe(JSON.stringify(buildRecordSchema()));
    const precompiled = recordCheckFrom(generated.validate);
    const runtime = compileRecordSchema(buildRecordSchema());
    const records: unknown[] = [
      md(),
      container(),
      {},
      { targetKind: "x" },
      { ...md(), slug: "Bad", versionDate: "2023-02-29", extra: 1 },
      { ...container(), artifactRelativePath: "/a//../b" },
    ];
    for (const record of records) expect(precompiled(record)).toEqual(runtime(record));
  });
});

describe("calendar dates", () => {
  test("the versionDate pattern agrees with the proleptic Gregorian calendar", async () => {
    const { CALENDAR_DATE } = await import("../src/core/schema/schema.js");
    const pattern = new RegExp(CALENDAR_DATE, "u");
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const date = new Date(0);
          date.setUTCFullYear(y, m - 1, d);
          const real =
            m >= 1 &&
            m <= 12 &&
            d >= 1 &&
            date.getUTCFullYear() === y &&
            date.getUTCMonth() === m - 1 &&
            date.getUTCDate() === d;
          const text = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
          expect(pattern.test(text)).toBe(real);
        },
      ),
      { numRuns: 5000 },
    );
    for (const leap of ["2000-02-29", "2024-02-29", "2400-02-29"]) expect(pattern.test(leap)).toBe(true);
    for (const notLeap of ["1900-02-29", "2023-02-29", "2100-02-29"]) expect(pattern.test(notLeap)).toBe(false);
  });
});
