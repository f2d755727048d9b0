// Writes test/fixtures-diff/ (run after `npm run build`: node test/fixtures-diff/make-fixtures.mjs). Each folder is a minimal pair
// showing one change kind: records/<kind>/{old,new}.jsonl from the example-act dataset, schema/<kind>/{old,new}.schema.json
// from the bundled schema. The output is deterministic; rerunning it must leave git clean.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import canonicalize from "canonicalize";
import { lock, generateRecords, buildRecordSchema } from "../../dist/index.js";
import { formatSchema } from "../../dist/core/schema/schema.js";
import { sha256Hex } from "../../dist/core/digest.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const out = join(repo, "test/fixtures-diff");
const tmp = await mkdtemp(join(tmpdir(), "diff-fixtures-"));

for (const folder of ["records", "schema"]) await rm(join(out, folder), { recursive: true, force: true });

const META = { slug: "example-act", titleId: "C2024A00001", name: "Example Act 2024", versionDate: "2024-07-01", sourceTextUrl: "https://www.legislation.gov.au/C2024A00001/2024-07-01/text" };

async function records(name, edit, meta = META) {
  const dir = join(tmp, name);
  await cp(join(repo, "fixtures/datasets/example-act"), dir, { recursive: true });
  await rm(join(dir, "citation-targets.lock.json"));
  await edit?.(dir);
  const { manifest } = await lock({ dir, ...meta });
  const list = [];
  for await (const r of generateRecords(manifest, (p) => readFile(join(dir, ...p.split("/"))))) list.push(r);
  return list;
}
const jsonl = (list) => list.map((r) => `${canonicalize(r)}\n`).join("");
async function pair(kind, before, after) {
  await mkdir(join(out, "records", kind), { recursive: true });
  await writeFile(join(out, "records", kind, "old.jsonl"), jsonl(before));
  await writeFile(join(out, "records", kind, "new.jsonl"), jsonl(after));
}

const base = await records("base");
// record-added: a section inserted before section 2 (the records after it shift: positional fields only)
await pair("record-added", base, await records("added", (d) => writeFile(join(d, "part-1/section-1a.md"), "## 1A Objects\n\nThe objects of this Act are to be an example.\n")));
// record-removed: section 1 repealed (file deleted)
await pair("record-removed", base, await records("removed", (d) => rm(join(d, "part-1/section-1.md"))));
// record-changed: section 2's text amended
await pair(
  "record-changed",
  base,
  await records("changed", async (d) => {
    const f = join(d, "part-1/section-2.md");
    await writeFile(f, (await readFile(f, "utf8")).replace("In this Act:", "In this Act, unless the contrary intention appears:"));
  }),
);
// field-added / field-removed (a record variant gains or loses a field: a new tool version's output)
await pair(
  "field-added",
  base,
  base.map((r) => (r.targetKind === "markdown-artifact" ? { ...r, sourceLanguage: "en" } : r)),
);
await pair(
  "field-removed",
  base,
  base.map((r) => {
    const { sourceDocumentPath, ...rest } = r;
    return rest;
  }),
);
// digest-framing-changed: the new file's citationTargetIds are framed "citation-target-id/v2"
await pair(
  "digest-framing-changed",
  base,
  base.map((r) => ({ ...r, citationTargetId: sha256Hex(`citation-target-id/v2\u0000${r.datasetDigest}\u0000${r.citationAddress}`) })),
);

// Schemas: the bundled schema, edited one way each.
const schema = buildRecordSchema();
const clone = () => JSON.parse(JSON.stringify(schema));
async function schemaPair(kind, edit) {
  await mkdir(join(out, "schema", kind), { recursive: true });
  const before = clone();
  const after = clone();
  edit(after, before);
  await writeFile(join(out, "schema", kind, "old.schema.json"), formatSchema(before));
  await writeFile(join(out, "schema", kind, "new.schema.json"), formatSchema(after));
}
const md = (s) => s.$defs.markdownArtifact;
await schemaPair("field-added", (s) => {
  md(s).properties.sourceLanguage = { type: "string" };
  md(s).required = [...md(s).required, "sourceLanguage"].sort();
  s.$id = s.$id.replace(/1\.0\.0$/, "1.1.0");
});
await schemaPair("field-removed", (s) => {
  delete md(s).properties.sourceDocumentPath;
  md(s).required = md(s).required.filter((n) => n !== "sourceDocumentPath");
});
await schemaPair("enum-value-added", (s) => md(s).properties.sourceArtifactKind.enum.push("document-appendix"));
await schemaPair("enum-value-removed", (s) => {
  md(s).properties.sourceIndexKind.enum = ["body-block"];
});
await schemaPair("path-pattern-changed", (s) => {
  md(s).properties.artifactRelativePath.allOf[1] = { pattern: "\\.(?:md|markdown)$", description: 'must end in ".md" or ".markdown"' };
});
await schemaPair("schema-digest-changed", (s) => {
  s.$defs.structuralContainer.additionalProperties = true;
});
await schemaPair("digest-framing-changed", (s, old) => {
  old.$defs.markdownArtifact.properties.citationTargetId.description = 'SHA-256 of "citation-target-id/v1" NUL datasetDigest NUL citationAddress';
  md(s).properties.citationTargetId.description = 'SHA-256 of "citation-target-id/v2" NUL datasetDigest NUL citationAddress';
});
await schemaPair("contract-digest-changed", (s, old) => {
  old.$defs.markdownArtifact.properties.citationAddress.description = "grammar citation-address/v1 (docs/spec.md, section 7)";
  md(s).properties.citationAddress.description = "grammar citation-address/v2 (docs/spec.md, section 7)";
});
await rm(tmp, { recursive: true, force: true });
