import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import canonicalize from "canonicalize";
import { generateLinesFrom, linesInThread } from "../src/core/records/generate.js";
import { readingSource } from "../src/core/records/parse-artifact.js";
import { DatasetError } from "../src/core/errors.js";
import { serializeRecord, type OutputRecord } from "../src/core/records/record-line.js";
import { deriveCitationTargetId } from "../src/core/digest.js";
import { parseArtifact } from "../src/core/markdown/targets.js";
import { checkGenerated, generate } from "../src/node/generate/generate.js";
import { lock } from "../src/node/dataset/lock.js";
import { copyFixture, fixtureManifest, lockAndGenerate, tempDir, writeTree } from "./helpers/datasets.js";
import { check, repoRoot } from "./helpers/records.js";

const SLUGS = ["privacy-act-1988", "mvfg"] as const;
const tooling = (name: string) => join(repoRoot, ".tooling/citation-targets", name);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe("the committed fixtures", () => {
  test.each(SLUGS)("%s.jsonl is exactly what generate produces, on every run", async (slug) => {
    const committed = await readFile(tooling(`${slug}.jsonl`), "utf8");
    let first = "";
    await generate({ manifest: tooling(`${slug}.lock.json`), write: (text) => (first += text) });
    let second = "";
    await generate({ manifest: tooling(`${slug}.lock.json`), write: (text) => (second += text) });
    expect(first).toBe(committed);
    expect(second).toBe(first);
    expect(
      (await checkGenerated({ manifest: tooling(`${slug}.lock.json`), check: tooling(`${slug}.jsonl`) })).difference,
    ).toBeUndefined();
  });

  test.each(SLUGS)("%s.lock.json is up to date with its artifacts", async (slug) => {
    const manifest = await fixtureManifest(slug);
    const result = await lock({
      dir: join(repoRoot, "fixtures/datasets", slug),
      output: tooling(`${slug}.lock.json`),
      check: true,
    });
    expect(result.changed).toBe(false);
    expect(result.manifest.datasetDigest).toBe(manifest.datasetDigest);
  });

  test("generate --check names the first differing record and field for a one-byte change anywhere", async () => {
    const committed = await readFile(tooling("privacy-act-1988.jsonl"));
    const positions = [10, 500, 2000, Math.floor(committed.length / 2), committed.length - 3];
    for (const at of positions) {
      const changed = Buffer.from(committed);
      changed[at] = changed[at] === 0x61 ? 0x62 : 0x61;
      await writeFile(join(dir, "changed.jsonl"), changed);
      const result = await checkGenerated({
        manifest: tooling("privacy-act-1988.lock.json"),
        check: join(dir, "changed.jsonl"),
      });
      const line = committed.subarray(0, at).toString().split("\n").length;
      expect(result.difference, `byte ${at}`).toMatchObject({ line });
    }
    await writeFile(
      join(dir, "short.jsonl"),
      committed.subarray(0, committed.lastIndexOf(10, committed.length - 2) + 1),
    );
    expect(
      (await checkGenerated({ manifest: tooling("privacy-act-1988.lock.json"), check: join(dir, "short.jsonl") }))
        .difference?.message,
    ).toContain("the file ends at line 41");
  });

  test("with an output file, every changed artifact is named, not only the first one met, and nothing is written", async () => {
    const root = await copyFixture("privacy-act-1988", dir);
    const manifest = await fixtureManifest("privacy-act-1988");
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ ...manifest, datasetRoot: "privacy-act-1988" }));
    await writeFile(join(root, "part-i/section-2.md"), "### 2 Changed\n");
    await writeFile(join(root, "schedule-1/index.md"), "## Changed\n");
    const output = join(dir, "out.jsonl");
    const error = await generate({ manifest: join(dir, "manifest.json"), output, cwd: dir }).catch((e: unknown) => e); // outside a repository, datasets are confined to the working directory
    expect(error).toBeInstanceOf(DatasetError);
    const problems = (error as DatasetError).problems.join("\n");
    expect(problems).toContain("part-i/section-2.md: changed since the lock manifest was written");
    expect(problems).toContain("schedule-1/index.md: changed since the lock manifest was written");
    await expect(stat(output)).rejects.toThrow();
  });

  test("a one-byte change in any artifact stops generate before anything is written, naming the file", async () => {
    const root = await copyFixture("privacy-act-1988", dir);
    const manifest = await fixtureManifest("privacy-act-1988");
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ ...manifest, datasetRoot: "privacy-act-1988" }));
    for (const artifact of manifest.artifacts) {
      const file = join(root, artifact.path);
      const original = await readFile(file);
      const changed = Buffer.from(original);
      changed[changed.length - 2]! ^= 0x01;
      await writeFile(file, changed);
      const output = join(dir, "out.jsonl");
      await expect(generate({ manifest: join(dir, "manifest.json"), output, cwd: dir })).rejects.toThrow(
        new RegExp(`${artifact.path.replace(/[.]/g, "\\.")}: changed since the lock manifest was written`),
      );
      await expect(
        checkGenerated({ manifest: join(dir, "manifest.json"), check: tooling("privacy-act-1988.jsonl"), cwd: dir }),
      ).rejects.toBeInstanceOf(DatasetError);
      await expect(stat(output)).rejects.toThrow();
      await writeFile(file, original);
    }
  });
});

describe("the lossless partition", () => {
  const fragment = fc.oneof(
    fc.constantFrom(
      "# Title\n",
      "## § 1 Anwendungsbereich\n",
      "### 13 Interferences with privacy\n",
      "Heading\n-------\n",
      "Para\n===\n",
      "#### Part IIIA—Credit\n",
    ),
    fc.constantFrom(
      "Some text.\n",
      "(a) a Minister; or\n",
      "| a | b |\n|---|---|\n| 1 | 2 |\n",
      "Begriff\n: Definition\n",
      "```\n# not a heading\n```\n",
      '<div class="x">\n',
      "</div>\n",
      "<table><tr><td>x</td></tr></table>\n",
      "    indented code\n",
      "> quote\n",
      "- item\n",
      "\n",
      "\r\n",
      "   \n",
      "*emph* and **strong**\n",
      "😀 Emoji § ü\n",
      "old\rmac\r# Heading\r",
      "\ttabbed\n",
      "nul\u0000char\n",
    ),
    fc.string({ maxLength: 20 }),
  );
  const markdown = fc
    .tuple(fc.boolean(), fc.boolean(), fc.array(fragment, { maxLength: 25 }))
    .map(([bom, front, parts]) => `${bom ? "\uFEFF" : ""}${front ? "---\ntitle: x\n---\n" : ""}${parts.join("")}`);

  test.each(["body-block", "body-div"] as const)(
    "%s: targets concatenate to the body, ranges are contiguous from 0",
    (indexKind) => {
      fc.assert(
        fc.property(markdown, (text) => {
          const parsed = parseArtifact(text, indexKind);
          expect(parsed.targets.map((t) => text.slice(t.start, t.end)).join("")).toBe(parsed.body);
          expect(text.slice(parsed.bodyStart)).toBe(parsed.body);
          expect(parsed.targets[0]!.blockStart).toBe(0);
          for (let i = 1; i < parsed.targets.length; i++) {
            expect(parsed.targets[i]!.blockStart).toBe(parsed.targets[i - 1]!.blockEnd);
            expect(parsed.targets[i]!.blockEnd).toBeGreaterThan(parsed.targets[i]!.blockStart);
            expect(parsed.targets[i]!.heading).toBeDefined();
            // each cut falls exactly at the start of its heading block: not on a line ending, and the slice parses as
            // that heading
            const slice = text.slice(parsed.targets[i]!.start, parsed.targets[i]!.end);
            expect(slice).not.toMatch(/^[\r\n]/);
            expect(parseArtifact(slice, indexKind).targets[0]!.heading).toEqual(parsed.targets[i]!.heading);
          }
          expect(parsed.targets[parsed.targets.length - 1]!.blockEnd).toBe(parsed.blockCount);
        }),
        { numRuns: 400 },
      );
    },
  );

  test("a byte order mark does not shift the cuts", () => {
    const text = "\uFEFF# A\n\ntext\n\n# B\n\nmore\n";
    expect(parseArtifact(text).targets.map((t) => text.slice(t.start, t.end))).toEqual([
      "\uFEFF# A\n\ntext\n\n",
      "# B\n\nmore\n",
    ]);
    expect(parseArtifact("\uFEFF---\na: 1\n---\n# A\n\n# B\n").body).toBe("# A\n\n# B\n");
  });

  test("front matter is cut off, an empty body is one empty target", () => {
    expect(parseArtifact("---\na: 1\n---\n")).toMatchObject({ body: "", targets: [{ blockStart: 0, blockEnd: 0 }] });
    expect(() => parseArtifact("---\na: [\n---\n# x\n")).toThrow(/front matter is not valid YAML/);
  });
});

describe("generate → validate", () => {
  const headings = [
    "13 Interferences with privacy",
    "6AA Meaning",
    "§ 2a Leistungen",
    "Art 3 - Übergang",
    "Eingangsformel",
    "Erster Abschnitt",
    "Part IIIA—Credit reporting",
    "Division 1—Preliminary",
    "§ 1 Anwendungsbereich",
    "Anlage 1 (zu § 5)",
    "*Begründung:*",
    "1.1",
    "Schedule 2",
  ];
  const file = fc
    .tuple(
      fc.option(fc.constantFrom(...headings), { nil: undefined }),
      fc.array(
        fc.tuple(
          fc.integer({ min: 1, max: 6 }),
          fc.constantFrom(...headings),
          fc.constantFrom("Text.\n", "", "(a) item\n\n(b) item\n"),
        ),
        { maxLength: 6 },
      ),
    )
    .map(
      ([lead, sections]) =>
        `${lead ? `${lead} as a paragraph\n\n` : ""}${sections.map(([depth, h, body]) => `${"#".repeat(depth)} ${h}\n\n${body}`).join("\n")}`,
    );
  const name = fc.constantFrom("part-1", "part-2", "division-1", "schedule-1", "a", "b b", "c#1");
  const tree = fc.dictionary(
    fc
      .array(name, { maxLength: 2 })
      .chain((folders) =>
        fc
          .constantFrom("index.md", "section-1.md", "section-2.md", "section-10.md", "notes.md")
          .map((f) => [...folders, f].join("/")),
      ),
    file,
    { minKeys: 1, maxKeys: 8 },
  );

  test("arbitrary datasets generate clean, deterministic files", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(tree, async (files) => {
        const root = join(dir, `dataset-${run++}`);
        await writeTree(root, files);
        const first = await lockAndGenerate(root);
        const second = await lockAndGenerate(root);
        const text = first.records.map(serializeRecord).join("");
        expect(second.records.map(serializeRecord).join("")).toBe(text);
        // The fast serialisation is the RFC 8785 one, and the line path (what generate writes) gives the same bytes.
        expect(first.records.map((r) => `${canonicalize(r)}\n`).join("")).toBe(text);
        const lines: string[] = [];
        const read = (path: string) => readFile(join(root, ...path.split("/")));
        for await (const line of generateLinesFrom(
          first.manifest,
          linesInThread(first.manifest, readingSource(first.manifest, read)),
        ))
          lines.push(line);
        expect(lines.join("")).toBe(text);
        const result = check(text, { file: "test-act.jsonl" });
        expect(result.problems).toEqual([]);
        await rm(root, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
  });
});

describe("address stability on the fixtures", () => {
  /** Address by (artifact, heading) for every target, so that a change can be compared target by target. */
  const addresses = (records: OutputRecord[]) =>
    new Map(records.map((r) => [`${r.artifactRelativePath}|${r.headingText}`, String(r.citationAddress)]));

  async function compare(
    fixture: "privacy-act-1988" | "mvfg",
    edit: (root: string) => Promise<void>,
    renamed: Record<string, string> = {},
  ) {
    const root = await copyFixture(fixture, dir);
    const options = fixture === "mvfg" ? { indexKinds: { "mvfg.md": "body-div" as const } } : {};
    const before = await lockAndGenerate(root, options);
    await edit(root);
    const after = await lockAndGenerate(root, options);
    const old = addresses(before.records);
    const now = addresses(after.records);
    let compared = 0;
    for (const [key, address] of old) {
      const newKey = renamed[key] ?? key;
      if (!now.has(newKey)) continue; // deleted
      expect(now.get(newKey), key).toBe(address);
      compared++;
    }
    expect(compared).toBeGreaterThan(old.size - 3);
    // citationTargetId follows the dataset digest: every id is new, and derived from the new digest
    const oldIds = new Set(before.records.map((r) => r.citationTargetId));
    for (const record of after.records) {
      expect(oldIds.has(record.citationTargetId)).toBe(false);
      expect(record.citationTargetId).toBe(
        deriveCitationTargetId(after.manifest.datasetDigest, String(record.citationAddress)),
      );
    }
    return { before, after };
  }
  const editFile = async (path: string, change: (text: string) => string) =>
    writeFile(path, change(await readFile(path, "utf8")));

  test("inserting a section file", async () => {
    const { after } = await compare("privacy-act-1988", (root) =>
      writeTree(root, { "part-i/section-2b.md": "### 2B Application of this Act\n\nThis Act applies.\n" }),
    );
    expect(after.records.map((r) => r.citationAddress)).toContain("test-act/part-i/section-2b.md#2b");
  });
  test("deleting a section file", async () => {
    await compare("privacy-act-1988", (root) => rm(join(root, "part-i/section-2.md")));
  });
  test("amending a section's text", async () => {
    await compare("privacy-act-1988", (root) =>
      editFile(join(root, "part-iii/division-1/section-13.md"), (t) =>
        t.replace("breaches an Australian", "contravenes an Australian"),
      ),
    );
  });
  test("retitling a designated section", async () => {
    await compare(
      "privacy-act-1988",
      (root) =>
        editFile(join(root, "part-iii/division-1/section-13.md"), (t) =>
          t.replace("13 Interferences with privacy", "13 Interference with the privacy of individuals"),
        ),
      {
        "part-iii/division-1/section-13.md|13 Interferences with privacy":
          "part-iii/division-1/section-13.md|13 Interference with the privacy of individuals",
      },
    );
  });
  test("single file: inserting a § and a unit", async () => {
    await compare("mvfg", (root) =>
      editFile(join(root, "mvfg.md"), (t) =>
        t
          .replace(
            "### Zweiter Abschnitt",
            '<div class="jnnorm">\n\n#### § 2b Neue Leistungen\n\nText.\n\n</div>\n\n### Zweiter Abschnitt',
          )
          .replace("## Zweites Kapitel", "### Dritter Abschnitt - Neu\n\n## Zweites Kapitel"),
      ),
    );
  });
  test("single file: deleting a §", async () => {
    await compare("mvfg", (root) =>
      editFile(join(root, "mvfg.md"), (t) =>
        t.replace(/<div class="jnnorm" id="BJNR012530976BJNE000400000">[\s\S]*?<\/div>\n\n/, ""),
      ),
    );
  });
  test("single file: amending a § and retitling it and a unit", async () => {
    const mvfg = "mvfg.md|";
    await compare(
      "mvfg",
      (root) =>
        editFile(join(root, "mvfg.md"), (t) =>
          t
            .replace("§ 3 Örtliche Zuständigkeit", "§ 3 Zuständigkeit")
            .replace("Jede Behörde leistet", "Jede Stelle leistet")
            .replace("Erster Abschnitt - Anwendungsbereich", "Erster Abschnitt - Geltungsbereich"),
        ),
      {
        [`${mvfg}§ 3 Örtliche Zuständigkeit`]: `${mvfg}§ 3 Zuständigkeit`,
        [`${mvfg}Erster Abschnitt - Anwendungsbereich`]: `${mvfg}Erster Abschnitt - Geltungsbereich`,
      },
    );
  });
});
