/**
 * Issue 21: adopting a whole corpus, publishing new versions, choices that are not undone, and
 * machine-readable reports. A corpus of realistic German-style laws (bench/corpus.js: front matter
 * with Title, jurabk, slug and date; tables, lists, deep hierarchies) in a git repository.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeCorpus } from "../bench/corpus.js";
import { formatProgress } from "../src/cli/progress.js";
import {
  checkDatasetFields,
  datasetSlug,
  dateProblem,
  fillTemplate,
  TemplateError,
  urlProblem,
} from "../src/core/lock/dataset-fields.js";
import { templateContext } from "../src/node/dataset/dataset-context.js";
import { lock, FieldsError } from "../src/node/dataset/lock.js";
import { runCommand, runMain } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";

const HOST = "www.gesetze-im-internet.de";
const ADOPT = [
  "adopt",
  "laws/*",
  "--title-id",
  "{front.jurabk}",
  "--name",
  "{front.Title}",
  "--version-date",
  "{front.date}",
  "--source-text-url",
  `https://${HOST}/{front.slug}/`,
  "--legislation-host",
  HOST,
];
const git = (args: string[], cwd: string) =>
  runCommand(
    "git",
    ["-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args],
    cwd,
  );

async function repository(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const made = await tempDir();
  await git(["init", "-q"], made.dir);
  return made;
}

/** The Grundgesetz (one article) in `dir`, adopted under the legislation host HOST. */
async function adoptGg(dir: string): Promise<void> {
  await writeTree(dir, { "laws/gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n" });
  const adopted = await runMain(
    [
      "adopt",
      "laws/*",
      "--title-id",
      "GG",
      "--name",
      "Grundgesetz",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      `https://${HOST}/gg/`,
      "--legislation-host",
      HOST,
    ],
    dir,
  );
  expect(adopted.code, adopted.stderr).toBe(0);
}

/** Inserts a new section before the first level-2 heading of a law. */
async function amend(file: string, heading: string): Promise<void> {
  const text = await readFile(file, "utf8");
  const at = text.indexOf("\n## ");
  await writeFile(file, `${text.slice(0, at)}\n## ${heading}\n\nNeu eingefügter Text.\n${text.slice(at)}`);
}

describe("adopting a corpus, amending it, publishing a new version (end to end)", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let laws: string[];
  beforeAll(async () => {
    ({ dir, cleanup } = await repository());
    writeCorpus({ mb: 0.6, seed: "issue-21", dir: join(dir, "laws") });
    await writeTree(dir, { ".citation-targets.json": JSON.stringify({ legislationHost: HOST }) });
    laws = (await readdir(join(dir, "laws"))).sort();
  }, 60_000);
  afterAll(() => cleanup());

  test("one command adopts every law: a manifest and a JSONL each, in .tooling/citation-targets/, and validate is clean", async () => {
    expect(laws.length).toBeGreaterThanOrEqual(24);
    const adopted = await runMain([...ADOPT, "--format", "json"], dir);
    // The .gitattributes lines that keep a Windows checkout's bytes as committed (issue 31): one for the tooling folder,
    // one per law.
    expect(adopted.stderr).toBe(
      `citation-targets: added ${laws.length + 1} lines to .gitattributes (\`-text\`: git keeps the line endings of the pinned markdown and of the JSONL as committed, CR LF never)\n`,
    );
    expect(adopted.code).toBe(0);
    const report = JSON.parse(adopted.stdout);
    expect(report.command).toBe("adopt");
    expect(report.summary).toMatchObject({ datasets: laws.length, changed: laws.length, written: laws.length });
    const files = await readdir(join(dir, ".tooling/citation-targets"));
    expect(files.filter((f) => f.endsWith(".lock.json"))).toHaveLength(laws.length);
    expect(files.filter((f) => f.endsWith(".jsonl"))).toHaveLength(laws.length);
    // sgb_5's front matter slug is not a dataset slug: the default template made it one; its address keeps the real
    // one.
    const sgb = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/sgb-5.lock.json"), "utf8"));
    expect(sgb).toMatchObject({
      slug: "sgb-5",
      titleId: "SGB 5",
      sourceTextUrl: `https://${HOST}/sgb_5/`,
      datasetRoot: "../../laws/sgb_5",
    });
    const validated = await runMain(["validate", "--legislation-host", HOST, "--format", "json"], dir);
    expect(validated.code, validated.stdout.slice(0, 2000)).toBe(0);
    expect(JSON.parse(validated.stdout).summary).toMatchObject({ files: laws.length, errors: 0, warnings: 0 });
    // Run again: nothing to write.
    const again = await runMain([...ADOPT, "--check"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `nothing to adopt: the ${laws.length} datasets it was given are adopted and up to date (their manifests in .tooling/citation-targets)\n`,
    );
    // One law of them: named by its slug and manifest, not as "the dataset in .tooling/citation-targets".
    const one = await runMain([...ADOPT.map((arg) => (arg === "laws/*" ? `laws/${laws[0]}` : arg)), "--check"], dir);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(
      /^nothing to adopt: [a-z0-9-]+ is adopted and up to date \(\.tooling\/citation-targets\/[a-z0-9-]+\.lock\.json\)\n$/,
    );
    expect((await git(["add", "-A"], dir)).code).toBe(0);
    expect((await git(["commit", "-qm", "adopt"], dir)).code).toBe(0);
  }, 120_000);

  test("three laws amended, one of them a new version: update reports each, the version fields, and warns for the two others", async () => {
    // A small law, the giant SGB 5 (2.2 MB), and another.
    const others = laws.filter((law) => law !== "sgb_5");
    const [first, second, third] = [others[0]!, laws.includes("sgb_5") ? "sgb_5" : others[2]!, others[1]!];
    for (const law of [first!, second!, third])
      await amend(join(dir, "laws", law, "index.md"), `Neuer Abschnitt ${law}`);
    const checked = await runMain(["update", "--check", "--format", "json"], dir);
    expect(checked.code).toBe(1);
    const stale = JSON.parse(checked.stdout);
    expect(stale.summary).toMatchObject({ datasets: laws.length, changed: 3, written: 0, warnings: 3 });

    // The new version of one law: its date and address set with update.
    const slug = (law: string) => law.replace(/_/g, "-");
    const manifest = `.tooling/citation-targets/${slug(first!)}.lock.json`;
    const versioned = await runMain(
      [
        "update",
        manifest,
        "--version-date",
        "2025-01-01",
        "--source-text-url",
        `https://${HOST}/${first}/2025-01-01`,
        "--format",
        "json",
      ],
      dir,
    );
    expect(versioned.code, versioned.stderr).toBe(0);
    const [one] = JSON.parse(versioned.stdout).datasets;
    expect(one.fields.map((f: { field: string }) => f.field)).toEqual(["versionDate", "sourceTextUrl"]);
    expect(one.fields[0]).toMatchObject({ field: "versionDate", after: "2025-01-01" });
    expect(one.warnings).toEqual([]);
    expect(one.records.added).toEqual([`${first}/index.md#neuer-abschnitt-${first}`]);
    expect(one.records.reidentified).toBe(one.records.after - 1);
    expect(one.datasetDigest.before).not.toBe(one.datasetDigest.after);

    // The other two: updated together, and warned that their version did not change.
    const rest = await runMain(["update"], dir);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toContain(`${slug(second!)}: updated`);
    expect(rest.stdout).toMatch(
      /datasetDigest [0-9a-f]{12}… → [0-9a-f]{12}…: the datasetDigest and citationTargetId of every record changed with it/,
    );
    const warnings = rest.stderr.split("\n").filter((line) => line.includes("warning:"));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("the markdown changed, but versionDate");
    expect(warnings.join("\n")).not.toContain(slug(first!));

    const validated = await runMain(["validate", "--legislation-host", HOST], dir);
    expect(validated.code, validated.stdout).toBe(0);
    const diff = await runMain(["diff", "--against", "HEAD", "--format", "json"], dir);
    expect(diff.code, diff.stderr).toBe(0); // additions only: the gate passes
    const compared = JSON.parse(diff.stdout);
    const changed = compared.pairs.filter((pair: { changes: unknown[] }) => pair.changes.length > 0);
    expect(changed).toHaveLength(3);
    // A new section is additive; the new version's identifiers changing is said per record.
    expect(compared.summary.breaking).toBe(0);
  }, 120_000);
});

describe("lock refuses invalid fields at once, in plain words (item 2)", () => {
  const good = [
    "--slug",
    "gg",
    "--title-id",
    "GG",
    "--name",
    "Grundgesetz",
    "--version-date",
    "2022-01-01",
    "--source-text-url",
    "https://www.gesetze-im-internet.de/gg/",
  ];
  const withFlag = (flag: string, value: string) => {
    const args = [...good];
    args[args.indexOf(flag) + 1] = value;
    return args;
  };
  test.each([
    [
      "--slug",
      "Bad Slug",
      /--slug "Bad Slug": a slug is lowercase letters a–z and digits, in groups joined by single hyphens \(e\.g\. bad-slug\)/,
    ],
    ["--title-id", "", /--title-id "": empty/],
    ["--name", "  ", /--name " {2}": empty/],
    ["--version-date", "2022-13-01", /--version-date "2022-13-01": not a real calendar date: there is no month 13/],
    [
      "--version-date",
      "2022-02-30",
      /--version-date "2022-02-30": not a real calendar date: February 2022 has 28 days/,
    ],
    ["--version-date", "1.2.2022", /--version-date "1\.2\.2022": not a date written YYYY-MM-DD/],
    [
      "--source-text-url",
      "https://www.gesetze-im-internet.de/",
      /--source-text-url "https:\/\/www\.gesetze-im-internet\.de\/": nothing after the host/,
    ],
    ["--source-text-url", "http://example.org/x", /not an https address/],
  ])("%s %j is refused, naming the flag and the rule; nothing is written", async (flag, value, message) => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n" });
      const result = await runMain(["lock", "gg", ...withFlag(flag, value)], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/must match pattern|\^\(\?:/);
      expect(existsSync(join(dir, "gg/citation-targets.lock.json"))).toBe(false);
    } finally {
      await cleanup();
    }
  });

  test("the library's lock() refuses too, with every problem as data", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "index.md": "# A\n" });
      const refused = lock({
        dir,
        slug: "Bad",
        titleId: "T",
        name: "N",
        versionDate: "2021-02-29",
        sourceTextUrl: "https://h.example/",
      });
      await expect(refused).rejects.toBeInstanceOf(FieldsError);
      const error = (await refused.catch((e: unknown) => e)) as FieldsError;
      expect(error.problems.map((p) => p.field)).toEqual(["slug", "versionDate", "sourceTextUrl"]);
    } finally {
      await cleanup();
    }
  });

  test("lock of a new dataset with wrong fields names the missing ones in the same run", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "gg/index.md": "# Grundgesetz\n" });
      const result = await runMain(
        ["lock", "gg", "--slug", "Bad_Slug", "--title-id", "", "--version-date", "2024-13-01"],
        dir,
      );
      expect(result.code).toBe(2);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines.map((line) => line.split(" ")[1])).toEqual(["--slug", "--title-id", "--version-date", "no"]);
      expect(lines.at(-1)).toBe(
        "citation-targets: no manifest to refresh at gg/citation-targets.lock.json: give --name, --source-text-url too",
      );
      // A wrong slug names no place to look for a manifest (it would be named after it): the fields it lacks are not said.
      const badSlug = await runMain(
        ["lock", "gg", "--slug", "../../x", "--title-id", "", "-o", "gg/other.lock.json"],
        dir,
      );
      expect(badSlug.stderr).toContain("no manifest to refresh at gg/other.lock.json: give --name");
      await writeTree(dir, { ".git/HEAD": "ref: refs/heads/main\n", "sr/index.md": "# SR\n" });
      const noPlace = await runMain(["lock", "sr", "--slug", "Bad_Slug", "--title-id", ""], dir);
      expect(noPlace.code).toBe(2);
      expect(noPlace.stderr).not.toContain("Bad_Slug.lock.json");
      // A manifest there to refresh gives the fields not given: only the wrong ones are said.
      expect((await runMain(["lock", "gg", ...good], dir)).code).toBe(0);
      const refresh = await runMain(["lock", "gg", "--title-id", ""], dir);
      expect(refresh.code).toBe(2);
      expect(refresh.stderr).toBe(
        'citation-targets: --title-id "": empty: it must hold at least one character that is not a space\n',
      );
    } finally {
      await cleanup();
    }
  });

  test("generate of a hand-edited manifest names the field in plain words, not the pattern", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "gg/index.md": "# Grundgesetz\n" });
      expect((await runMain(["lock", "gg", ...good], dir)).code).toBe(0);
      const path = join(dir, "gg/citation-targets.lock.json");
      await writeFile(path, (await readFile(path, "utf8")).replace('"2022-01-01"', '"2022-13-01"'));
      const result = await runMain(["generate", "gg/citation-targets.lock.json"], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('/versionDate "2022-13-01": not a real calendar date: there is no month 13');
      expect(result.stderr).not.toContain("must match pattern");
    } finally {
      await cleanup();
    }
  });
});

describe("where lock writes a manifest (item 3)", () => {
  const fields = [
    "--title-id",
    "GG",
    "--name",
    "Grundgesetz",
    "--version-date",
    "2022-01-01",
    "--source-text-url",
    "https://www.gesetze-im-internet.de/gg/",
  ];

  test("in a git repository: .tooling/citation-targets/<slug>.lock.json with datasetRoot, found by update and validate; a refresh finds it without --slug", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n" });
      const locked = await runMain(["lock", "laws/gg", "--slug", "gg", ...fields], dir);
      expect(locked.code, locked.stderr).toBe(0);
      expect(locked.stderr).toContain("wrote .tooling/citation-targets/gg.lock.json");
      const manifest = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/gg.lock.json"), "utf8"));
      expect(manifest.datasetRoot).toBe("../../laws/gg");
      expect(existsSync(join(dir, "laws/gg/citation-targets.lock.json"))).toBe(false);
      expect((await runMain(["update"], dir)).code).toBe(0);
      expect((await runMain(["validate", "--legislation-host", HOST], dir)).code).toBe(0);
      const refreshed = await runMain(["lock", "laws/gg", "--check"], dir);
      expect(refreshed.code).toBe(0);
      expect(refreshed.stderr).toContain(".tooling/citation-targets/gg.lock.json is up to date");
      // Another folder may not take the same slug.
      await writeTree(dir, { "laws/gg2/index.md": "# Grundgesetz 2\n" });
      const taken = await runMain(["lock", "laws/gg2", "--slug", "gg", ...fields], dir);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toContain(
        ".tooling/citation-targets/gg.lock.json already belongs to another dataset (laws/gg)",
      );
    } finally {
      await cleanup();
    }
  });

  test("outside a repository: the dataset folder; a manifest already in a dataset folder is refreshed where it is", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "gg/index.md": "# Grundgesetz\n" });
      expect((await runMain(["lock", "gg", "--slug", "gg", ...fields], dir)).code).toBe(0);
      expect(existsSync(join(dir, "gg/citation-targets.lock.json"))).toBe(true);
      await git(["init", "-q"], dir); // now in a repository: the manifest in the folder is still the one refreshed
      await writeTree(dir, { "gg/art-2.md": "# Art 2\n" });
      const refreshed = await runMain(["lock", "gg"], dir);
      expect(refreshed.code, refreshed.stderr).toBe(0);
      expect(refreshed.stderr).toContain("wrote gg/citation-targets.lock.json");
      expect(existsSync(join(dir, ".tooling"))).toBe(false);
    } finally {
      await cleanup();
    }
  });

  test("update with no manifests says where it looked and what to do", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "gg/citation-targets.lock.json": "{}" });
      const result = await runMain(["update"], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`no lock manifests match .tooling/citation-targets/*.lock.json`);
      expect(result.stderr).toContain(`(looked in ${join(dir, ".tooling/citation-targets")})`);
      expect(result.stderr).toContain("citation-targets update laws/x/citation-targets.lock.json");
    } finally {
      await cleanup();
    }
  });
});

describe("choices that are kept (items 5 and 6)", () => {
  const flags = [
    "--slug",
    "gg",
    "--title-id",
    "GG",
    "--name",
    "Grundgesetz",
    "--version-date",
    "2022-01-01",
    "--source-text-url",
    "https://www.gesetze-im-internet.de/gg/",
  ];

  test("--kind gg/index.md=file survives a refresh (a kind equal to the default is not re-inferred), and update --check stays up to date", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/index.md": "# Gesetze\n",
        "laws/gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n",
        "laws/gg/art-2.md": "# Art 2\n",
      });
      expect((await runMain(["lock", "laws", ...flags, "--kind", "gg/index.md=file"], dir)).code).toBe(0);
      expect((await runMain(["update"], dir)).code).toBe(0);
      await writeTree(dir, { "laws/gg/art-3.md": "# Art 3\n" });
      const refreshed = await runMain(["lock", "laws"], dir);
      expect(refreshed.code, refreshed.stderr).toBe(0);
      const manifest = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/gg.lock.json"), "utf8"));
      const kinds = Object.fromEntries(
        manifest.artifacts.map((a: { path: string; kind?: string }) => [a.path, a.kind ?? "file"]),
      );
      expect(kinds).toEqual({
        "index.md": "file",
        "gg/index.md": "file",
        "gg/art-2.md": "file",
        "gg/art-3.md": "file",
      });
      expect((await runMain(["update"], dir)).code).toBe(0);
      expect((await runMain(["update", "--check"], dir)).code).toBe(0);
    } finally {
      await cleanup();
    }
  });

  test("another field edited in the manifest: generate names the manifest and the field, against its JSONL, with update", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "# Grundgesetz\n" });
      expect((await runMain(["lock", "laws/gg", ...flags], dir)).code).toBe(0);
      expect((await runMain(["update"], dir)).code).toBe(0);
      const path = join(dir, ".tooling/citation-targets/gg.lock.json");
      const manifest = JSON.parse(await readFile(path, "utf8"));
      await writeFile(path, JSON.stringify({ ...manifest, name: "Grundgesetz für die Bundesrepublik" }, null, 2));
      const generated = await runMain(["generate", "gg"], dir);
      expect(generated.code).toBe(1);
      expect(generated.stderr).toContain(
        `.tooling/citation-targets/gg.lock.json: its datasetDigest ${manifest.datasetDigest} is not the digest of its content`,
      );
      expect(generated.stderr).toContain(
        `(its name is "Grundgesetz für die Bundesrepublik" where .tooling/citation-targets/gg.jsonl, generated from it, has ${JSON.stringify(manifest.name)}): if the edit is meant, run \`citation-targets update .tooling/citation-targets/gg.lock.json\``,
      );
      expect((await runMain(["update"], dir)).code).toBe(0);
      expect((await runMain(["generate", "gg"], dir)).code).toBe(0);
    } finally {
      await cleanup();
    }
  });

  test("a slug edited in the manifest: update refuses, naming the conflict, and writes nothing (exit 1: the manifest's fault); generate and validate name it with the same fix", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "# Grundgesetz\n" });
      expect((await runMain(["lock", "laws/gg", ...flags], dir)).code).toBe(0);
      expect((await runMain(["update"], dir)).code).toBe(0);
      const path = join(dir, ".tooling/citation-targets/gg.lock.json");
      await writeFile(path, (await readFile(path, "utf8")).replace('"slug": "gg"', '"slug": "grundgesetz"'));
      const jsonl = await readFile(join(dir, ".tooling/citation-targets/gg.jsonl"), "utf8");
      const refused = await runMain(["update"], dir);
      expect(refused.code).toBe(1);
      expect((await runMain(["update", "--check"], dir)).code).toBe(1);
      expect(refused.stderr).toContain(
        '.tooling/citation-targets/gg.lock.json holds slug "grundgesetz", but its JSONL is named after the manifest (gg.jsonl)',
      );
      expect(refused.stderr).toContain(
        'set the slug back to "gg", or move the pair to grundgesetz.lock.json and grundgesetz.jsonl',
      );
      expect(refused.stderr).toContain("nothing was written");
      expect(await readFile(join(dir, ".tooling/citation-targets/gg.jsonl"), "utf8")).toBe(jsonl);
      expect(existsSync(join(dir, ".tooling/citation-targets/grundgesetz.jsonl"))).toBe(false);
      // generate names the manifest, the field edited (against the JSONL made from it) and the pair's fix, not `lock`.
      const generated = await runMain(["generate", "gg"], dir);
      expect(generated.code).toBe(1);
      const fix =
        'set the slug back to "gg" and run `citation-targets update .tooling/citation-targets/gg.lock.json`, or move the pair to grundgesetz.lock.json and grundgesetz.jsonl (git mv) and run `citation-targets update .tooling/citation-targets/grundgesetz.lock.json`';
      expect(generated.stderr).toContain(
        `.tooling/citation-targets/gg.lock.json: its datasetDigest ${JSON.parse(await readFile(path, "utf8")).datasetDigest} is not the digest of its content`,
      );
      expect(generated.stderr).toContain(
        'it was edited by hand (its slug is "grundgesetz" where .tooling/citation-targets/gg.jsonl, generated from it, has "gg")',
      );
      expect(generated.stderr).toContain(fix);
      expect(generated.stderr).not.toContain("citation-targets lock");
      const problems = async () =>
        JSON.parse((await runMain(["validate", "--legislation-host", HOST, "--format", "json"], dir)).stdout).files[0]
          .problems as { ruleId: string; message: string }[];
      const validated = await problems();
      expect(validated.map((p) => p.ruleId)).toContain("lock-pair");
      // Every fix validate gives is one its rules accept: never update alone, nor generate -o the misnamed file.
      const fixes = (found: { ruleId: string; message: string }[]) =>
        found.filter((p) => p.ruleId !== "lock-dataset-fields").map((p) => [p.ruleId, p.message.includes(fix)]);
      expect(fixes(validated)).toEqual([
        ["lock-manifest-digest", true],
        ["lock-pair", true],
      ]);
      // Locked over the edit, the records' digest is the stale one: regenerating gg.jsonl is still no way out.
      expect((await runMain(["lock", "laws/gg", "-o", ".tooling/citation-targets/gg.lock.json"], dir)).code).toBe(0);
      const locked = await problems();
      expect(fixes(locked)).toEqual([
        ["lock-pair", true],
        ["lock-dataset-digest", true],
      ]);
      expect(locked.map((p) => p.message).join("\n")).not.toContain("citation-targets generate");
    } finally {
      await cleanup();
    }
  });
});

describe("a manifest without its JSONL is a validate problem (item 7)", () => {
  test("git rm of a published JSONL: validate and validate --staged report lock-pair on the manifest; update --check --staged fails", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n",
        "laws/bgb/index.md": "# BGB\n\n## § 1\n\nText.\n",
      });
      const adopted = await runMain(
        [
          "adopt",
          "laws/*",
          "--title-id",
          "{folder|upper}",
          "--name",
          "{folder}",
          "--version-date",
          "2024-01-01",
          "--source-text-url",
          `https://${HOST}/{folder}/`,
          "--legislation-host",
          HOST,
        ],
        dir,
      );
      expect(adopted.code, adopted.stderr).toBe(0);
      await git(["add", "-A"], dir);
      await git(["commit", "-qm", "adopt"], dir);
      expect((await git(["rm", "-q", ".tooling/citation-targets/gg.jsonl"], dir)).code).toBe(0);
      for (const args of [["validate"], ["validate", "--staged"]]) {
        const result = await runMain([...args, "--legislation-host", HOST, "--format", "json"], dir);
        expect(result.code, args.join(" ")).toBe(1);
        const report = JSON.parse(result.stdout);
        const orphan = report.files.find((f: { path: string }) => f.path === ".tooling/citation-targets/gg.lock.json");
        expect(orphan.problems).toEqual([
          expect.objectContaining({
            ruleId: "lock-pair",
            severity: "error",
            line: 0,
            pointer: "",
            message: expect.stringContaining('has no JSONL: "gg.jsonl" is not there'),
          }),
        ]);
      }
      expect((await runMain(["update", "--check", "--staged"], dir)).code).toBe(1);
      // The rule can be turned off like any other.
      expect((await runMain(["validate", "--legislation-host", HOST, "--rule", "lock-pair=off"], dir)).code).toBe(0);
      // Withdrawn for good: the manifest removed too, and all is clean.
      await rm(join(dir, ".tooling/citation-targets/gg.lock.json"));
      expect((await runMain(["validate", "--legislation-host", HOST], dir)).code).toBe(0);
    } finally {
      await cleanup();
    }
  });

  test("a manifest without its JSONL that cannot be read is said as every command says it (exit 2), never with an update that would fail on it", async () => {
    const { dir, cleanup } = await repository();
    try {
      await adoptGg(dir);
      const manifest = ".tooling/citation-targets/zz.lock.json";
      for (const [text, said] of [
        ["{bad\n", `lock manifest ${manifest} is not valid JSON: line 1, column 2: `],
        ["{}\n", `lock manifest ${manifest} does not match its schema:`],
      ] as const) {
        await writeFile(join(dir, manifest), text);
        const result = await runMain(["validate", "--legislation-host", HOST, "--format", "json"], dir);
        expect(result.code, text).toBe(2);
        const report = JSON.parse(result.stdout);
        const broken = report.files.find((f: { path: string }) => f.path === manifest);
        expect(broken.problems, text).toEqual([]);
        expect(broken.error, text).toContain(said);
        expect(result.stdout, text).not.toContain("citation-targets update");
        // The update it would have advised fails on it in the same words.
        const updated = await runMain(["update", manifest], dir);
        expect(updated.code, text).toBe(2);
        expect(updated.stderr, text).toContain(said);
      }
    } finally {
      await cleanup();
    }
  });
});

describe("adopt's templates and refusals", () => {
  test("without templates it says which fields need one and what the front matter offers", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/gg/index.md": "---\nTitle: Grundgesetz\njurabk: GG\nslug: gg\n---\n# Grundgesetz\n",
      });
      const result = await runMain(["adopt", "laws/*"], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("titleId: give --title-id, or adopt.titleId in the config");
      expect(result.stderr).toContain(
        "the front matter of laws/gg/index.md offers {front.Title}, {front.jurabk}, {front.slug}",
      );
    } finally {
      await cleanup();
    }
  });

  test("a rerun over datasets adopted already needs no templates; a folder not adopted yet is named, with an example adopt accepts", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/gg/index.md": "---\njurabk: GG\nTitle: Grundgesetz\nstand: 2024-01-01\n---\n# GG\n\n## Art 1\n\nText.\n",
      });
      const templates = ["--title-id", "{front.jurabk}", "--name", "{front.Title}", "--version-date", "{front.stand}"];
      const url = ["--source-text-url", "https://www.legislation.gov.au/{front.jurabk}/"];
      expect((await runMain(["adopt", "laws/*", ...templates, ...url], dir)).code).toBe(0);
      const rerun = await runMain(["adopt", "laws/*", "--check"], dir);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stdout).toContain("nothing to adopt: gg is adopted and up to date");
      // Templates given for datasets that keep their fields are said to be unused, not silently dropped.
      const other = await runMain(["adopt", "laws/*", "--title-id", "X", "--check"], dir);
      expect(other.code).toBe(0);
      expect(other.stderr).toContain(
        "the templates given were not used: the dataset is adopted already and keeps its fields",
      );

      await writeTree(dir, {
        "laws/bgb/index.md":
          "---\njurabk: BGB\nTitle: Bürgerliches Gesetzbuch\nstand: 2023-01-01\n---\n# BGB\n\n## § 1\n\nText.\n",
      });
      const lacking = await runMain(["adopt", "laws/*", ...templates], dir);
      expect(lacking.code).toBe(2);
      expect(lacking.stderr).toContain(
        "adopt needs a template (or a value) for each dataset field of a dataset not adopted yet (laws/bgb; the one adopted already keeps its fields and needs none):",
      );
      expect(lacking.stderr).toContain("sourceTextUrl: give --source-text-url");
      expect(lacking.stderr).not.toContain("titleId: give");
      // The example keeps the templates given, reads keys the front matter has, and is on the legislation host in
      // force: run as printed, it adopts.
      const example = /e\.g\. citation-targets (.*)/.exec(lacking.stderr)![1]!;
      expect(example).toBe(
        "adopt 'laws/*' --title-id '{front.jurabk}' --name '{front.Title}' --version-date '{front.stand}' --source-text-url 'https://www.legislation.gov.au/{folder}/'",
      );
      const words = [...example.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
      const run = await runMain(words, dir);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("1 new, 0 refreshed, 1 up to date");
      // With another legislation host given by flag, the example gives it again: run as printed, it adopts.
      await writeTree(dir, {
        "laws/zpo/index.md": "---\njurabk: ZPO\nTitle: Zivilprozessordnung\n---\n# ZPO\n\n## § 1\n\nText.\n",
      });
      const hosted = await runMain(
        ["adopt", "laws/zpo", "--title-id", "{front.jurabk}", "--legislation-host", "www.gesetze-im-internet.de"],
        dir,
      );
      expect(hosted.code).toBe(2);
      const second = /e\.g\. citation-targets (.*)/.exec(hosted.stderr)![1]!;
      expect(second).toContain("--source-text-url 'https://www.gesetze-im-internet.de/{folder}/'");
      expect(second).toMatch(/ --legislation-host www\.gesetze-im-internet\.de$/);
      const again = await runMain(
        [...second.matchAll(/'([^']*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace("YYYY-MM-DD", "2024-01-01")),
        dir,
      );
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await cleanup();
    }
  });

  test("templates from the config; every faulty folder named, and nothing written", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        ".citation-targets.json": JSON.stringify({
          legislationHost: HOST,
          adopt: {
            datasets: ["laws/*"],
            titleId: "{front.jurabk}",
            name: "{front.Title}",
            versionDate: "{front.stand}",
            sourceTextUrl: `https://${HOST}/{front.slug}/`,
          },
        }),
        "laws/a/index.md": "---\nTitle: A-Gesetz\njurabk: AG\nslug: a\nstand: 2024-05-01\n---\n# A\n",
        "laws/b/index.md": "---\nTitle: B-Gesetz\njurabk: BG\nslug: b\n---\n# B\n",
        "laws/c/index.md": "---\nTitle: C-Gesetz\njurabk: CG\nslug: a\nstand: 2024-05-01\n---\n# C\n",
        "laws/d/index.md": "---\nTitle: D-Gesetz\njurabk: DG\nslug: d\nstand: 2024-02-30\n---\n# D\n",
        // A folder with a fault of its own whose slug is another's too: both said in the one run.
        "laws/e/index.md": "---\nTitle: E-Gesetz\njurabk: EG\nslug: d\nstand: 2024-13-01\n---\n# E\n",
      });
      const result = await runMain(["adopt"], dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'laws/b: versionDate: template "{front.stand}": the front matter of laws/b/index.md has no "stand"',
      );
      expect(result.stderr).toContain('laws/c: slug "a" is also the slug of laws/a');
      expect(result.stderr).toContain(
        'laws/d: versionDate "2024-02-30": not a real calendar date: February 2024 has 29 days',
      );
      expect(result.stderr).toContain('laws/e: versionDate "2024-13-01"');
      expect(result.stderr).toContain('laws/e: slug "d" is also the slug of laws/d');
      expect(existsSync(join(dir, ".tooling"))).toBe(false);
      // Fixed, and a flag wins over the config.
      await rm(join(dir, "laws/c"), { recursive: true });
      await rm(join(dir, "laws/d"), { recursive: true });
      await rm(join(dir, "laws/e"), { recursive: true });
      const fixed = await runMain(["adopt", "--version-date", "2024-06-01"], dir);
      expect(fixed.code, fixed.stderr).toBe(0);
      expect(JSON.parse(await readFile(join(dir, ".tooling/citation-targets/b.lock.json"), "utf8")).versionDate).toBe(
        "2024-06-01",
      );
    } finally {
      await cleanup();
    }
  });
});

describe("update sets the version fields (new versions)", () => {
  test("--source-text-url without a template refuses several datasets; a template fills each from its own front matter", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/a/index.md": "---\nslug: a_x\n---\n# A\n",
        "laws/b/index.md": "---\nslug: b_y\n---\n# B\n",
      });
      const adopted = await runMain(
        [
          "adopt",
          "laws/*",
          "--title-id",
          "{folder}",
          "--name",
          "{folder}",
          "--version-date",
          "2024-01-01",
          "--source-text-url",
          "https://h.example/{front.slug}/",
          "--legislation-host",
          "h.example",
        ],
        dir,
      );
      expect(adopted.code, adopted.stderr).toBe(0);
      // Law c is not amended below, and its front matter has no slug: it gets no new version, and the template that
      // needs one is not filled for it.
      await writeTree(dir, { "laws/c/index.md": "---\nother: c\n---\n# C\n" });
      const third = await runMain(
        ["lock", "laws/c", "--slug", "c", "--title-id", "c", "--name", "C", "--version-date", "2024-01-01"].concat([
          "--source-text-url",
          "https://h.example/c/",
          "--legislation-host",
          "h.example",
        ]),
        dir,
      );
      expect(third.code, third.stderr).toBe(0);
      await runMain(["generate", ".tooling/citation-targets/c.lock.json"], dir);
      const one = await runMain(["update", "--source-text-url", "https://h.example/x/2025"], dir);
      expect(one.code).toBe(2);
      expect(one.stderr).toContain("would give 3 datasets one address");
      // Laws a and b amended: the run over every dataset dates those two.
      await writeFile(join(dir, "laws/a/index.md"), "---\nslug: a_x\n---\n# A\n\nGeändert.\n");
      await writeFile(join(dir, "laws/b/index.md"), "---\nslug: b_y\n---\n# B\n\nGeändert.\n");
      const each = await runMain(
        [
          "update",
          "--version-date",
          "2025-03-01",
          "--source-text-url",
          "https://h.example/{front.slug}/2025-03-01",
          "--format",
          "json",
        ],
        dir,
      );
      expect(each.code, each.stderr).toBe(0);
      const report = JSON.parse(each.stdout);
      expect(
        report.datasets.map((d: { fields: { field: string; after: string }[] }) => d.fields.map((f) => f.after)),
      ).toEqual([
        ["2025-03-01", "https://h.example/a_x/2025-03-01"],
        ["2025-03-01", "https://h.example/b_y/2025-03-01"],
        [],
      ]);
      expect(JSON.parse(await readFile(join(dir, ".tooling/citation-targets/c.lock.json"), "utf8"))).toMatchObject({
        versionDate: "2024-01-01",
        sourceTextUrl: "https://h.example/c/",
      });
      expect(
        report.datasets
          .slice(0, 2)
          .every(
            (d: { records: { reidentified: number; after: number } }) => d.records.reidentified === d.records.after,
          ),
      ).toBe(true);
      // The text report says it too.
      // Named, a dataset takes the new version whether or not its markdown changed.
      const text = await runMain(["update", "a-x", "--version-date", "2025-04-01", "--check"], dir);
      expect(text.stdout).toContain("versionDate: 2025-03-01 → 2025-04-01");
      expect(text.stdout).toContain("the datasetDigest and citationTargetId of every record changed with it");
      const bad = await runMain(["update", "--version-date", "2025-02-29"], dir);
      expect(bad.code).toBe(2); // a flag's value: a usage error, as for lock
      expect(bad.stderr).toContain('--version-date "2025-02-29": not a real calendar date: February 2025 has 28 days');
    } finally {
      await cleanup();
    }
  });
});

describe("update --version-date with no dataset named", () => {
  test("dates a dataset locked by a plain update since the last commit; says so when it reaches none", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/a/index.md": "---\nslug: a\n---\n# A\n\n## § 1\n\nText.\n",
        "laws/b/index.md": "---\nslug: b\n---\n# B\n\n## § 1\n\nText.\n",
      });
      const adopt = ["adopt", "laws/*", "--title-id", "{folder}", "--name", "{folder}", "--version-date", "2024-01-01"];
      const adopted = await runMain(
        [...adopt, "--source-text-url", "https://h.example/{front.slug}/", "--legislation-host", "h.example"],
        dir,
      );
      expect(adopted.code, adopted.stderr).toBe(0);
      await git(["add", "-A"], dir);
      await git(["commit", "-qm", "adopt"], dir);
      // Law a amended; a plain update locks it first (and warns), then the new version is dated.
      await writeFile(join(dir, "laws/a/index.md"), "---\nslug: a\n---\n# A\n\n## § 1\n\nGeändert.\n");
      const plain = await runMain(["update"], dir);
      expect(plain.stderr).toContain("the markdown changed, but versionDate (2024-01-01) and sourceTextUrl did not");
      const dated = await runMain(["update", "--version-date", "2025-01-01", "--format", "json"], dir);
      expect(dated.code, dated.stderr).toBe(0);
      const report = JSON.parse(dated.stdout);
      expect(
        report.datasets.map((d: { slug: string; fields: { field: string }[] }) => [
          d.slug,
          d.fields.map((f) => f.field),
        ]),
      ).toEqual([
        ["a", ["versionDate"]],
        ["b", []],
      ]);
      expect(dated.stderr).not.toContain("reached no dataset");
      // Run again: a already has it, and nothing is said.
      expect((await runMain(["update", "--version-date", "2025-01-01"], dir)).stderr).not.toContain("reached no");
      // Law b amended in the same session and dated: a, dated already, keeps its version.
      await writeFile(join(dir, "laws/b/index.md"), "---\nslug: b\n---\n# B\n\n## § 1\n\nGeändert.\n");
      const second = JSON.parse(
        (await runMain(["update", "--version-date", "2025-02-01", "--format", "json"], dir)).stdout,
      );
      expect(
        second.datasets.map((d: { slug: string; fields: { field: string }[] }) => [
          d.slug,
          d.fields.map((f) => f.field),
        ]),
      ).toEqual([
        ["a", []],
        ["b", ["versionDate"]],
      ]);
      // Committed, nothing changed: a new date reaches no dataset, and the run says so; a dataset adopted and staged
      // since (a new manifest) has no version to follow either.
      await git(["add", "-A"], dir);
      await git(["commit", "-qm", "a amended"], dir);
      await writeTree(dir, { "laws/c/index.md": "---\nslug: c\n---\n# C\n\n## § 1\n\nText.\n" });
      expect(
        (
          await runMain(
            [...adopt, "--source-text-url", "https://h.example/{front.slug}/", "--legislation-host", "h.example"],
            dir,
          )
        ).code,
      ).toBe(0);
      await git(["add", "-A"], dir);
      const none = await runMain(["update", "--version-date", "2026-01-01"], dir);
      expect(none.code).toBe(0);
      expect(JSON.parse(await readFile(join(dir, ".tooling/citation-targets/c.lock.json"), "utf8")).versionDate).toBe(
        "2024-01-01",
      );
      expect(none.stderr).toContain(
        "note: --version-date reached no dataset: with none named, they go to the datasets whose markdown changed since their lock manifest, or (in a git repository) whose manifest was locked since the last commit and not dated yet, and none was",
      );
    } finally {
      await cleanup();
    }
  });
});

describe("update --version-date with none named, and a committed link in a manifest's place", () => {
  test("a link to /dev/zero or out of the repository is refused by name, never read", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/a/index.md": "---\nslug: a\n---\n# A\n\n## § 1\n\nText.\n" });
      const adopt = ["adopt", "laws/*", "--title-id", "{folder}", "--name", "{folder}", "--version-date", "2024-01-01"];
      await runMain(
        [...adopt, "--source-text-url", "https://h.example/{front.slug}/", "--legislation-host", "h.example"],
        dir,
      );
      await git(["add", "-A"], dir);
      await git(["commit", "-qm", "adopt"], dir);
      const manifest = join(dir, ".tooling/citation-targets/a.lock.json");
      for (const [target, said] of [
        ["/dev/zero", "it is a character device, not a regular file"],
        ["/etc/passwd", "outside the repository"],
      ] as const) {
        await rm(manifest);
        await symlink(target, manifest);
        const run = await runMain(["update", "--version-date", "2025-01-01"], dir);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(said);
      }
    } finally {
      await cleanup();
    }
  });
});

describe("the config's version templates", () => {
  test("never date a version back: a front matter date older than the manifest's is not applied, and said", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/vwvfg/index.md": "---\nstand: 2023-11-15\nslug: vwvfg\n---\n# VwVfG\n\n## § 2\n\nText.\n",
        ".citation-targets.json": JSON.stringify({
          legislationHost: "h.example",
          adopt: {
            datasets: ["laws/*"],
            titleId: "{folder}",
            name: "{folder}",
            versionDate: "{front.stand}",
            sourceTextUrl: "https://h.example/{front.slug}/",
          },
        }),
      });
      expect((await runMain(["adopt"], dir)).code).toBe(0);
      const dated = await runMain(
        ["update", "vwvfg", "--version-date", "2026-01-01", "--source-text-url", "https://h.example/vwvfg/2026/"],
        dir,
      );
      expect(dated.code, dated.stderr).toBe(0);
      // Amended again, the front matter's date not: the template would date the law back to 2023-11-15.
      await writeFile(
        join(dir, "laws/vwvfg/index.md"),
        "---\nstand: 2023-11-15\nslug: vwvfg\n---\n# VwVfG\n\n## § 2\n\nGeändert.\n",
      );
      const again = await runMain(["update"], dir);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain(
        "vwvfg: the config's versionDate template gives 2023-11-15, older than the version 2026-01-01: not applied",
      );
      const manifest = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/vwvfg.lock.json"), "utf8"));
      expect([manifest.versionDate, manifest.sourceTextUrl]).toEqual(["2026-01-01", "https://h.example/vwvfg/2026/"]);
      expect(again.stderr).not.toContain("the markdown changed, but versionDate"); // one warning, not two
      // The front matter's date brought to the version's, amended again: the same date is no new version, and the
      // template's address does not replace the version's.
      await writeFile(
        join(dir, "laws/vwvfg/index.md"),
        "---\nstand: 2026-01-01\nslug: vwvfg\n---\n# VwVfG\n\n## § 2\n\nNochmals geändert.\n",
      );
      expect((await runMain(["update"], dir)).code).toBe(0);
      const same = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/vwvfg.lock.json"), "utf8"));
      expect([same.versionDate, same.sourceTextUrl]).toEqual(["2026-01-01", "https://h.example/vwvfg/2026/"]);
    } finally {
      await cleanup();
    }
  });
});

describe("machine-readable reports of lock --check and generate --check", () => {
  test("lock --check --format json and generate --check --format json: the documented shapes, exit 1 when stale", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "gg/index.md": "# Grundgesetz\n\n## Art 1\n\nText.\n" });
      const flags = [
        "--slug",
        "gg",
        "--title-id",
        "GG",
        "--name",
        "Grundgesetz",
        "--version-date",
        "2022-01-01",
        "--source-text-url",
        "https://h.example/gg/",
      ];
      expect((await runMain(["lock", "gg", ...flags], dir)).code).toBe(0);
      expect((await runMain(["generate", "gg/citation-targets.lock.json", "-o", "gg.jsonl"], dir)).code).toBe(0);
      const fresh = await runMain(["lock", "gg", "--check", "--format", "json"], dir);
      expect(fresh.code).toBe(0);
      expect(JSON.parse(fresh.stdout)).toMatchObject({
        reportVersion: 1,
        command: "lock",
        check: true,
        status: "up-to-date",
        written: false,
        artifacts: 1,
      });
      await writeTree(dir, { "gg/art-2.md": "# Art 2\n" });
      const stale = await runMain(["lock", "gg", "--check", "--format", "json", "--version-date", "2023-01-01"], dir);
      expect(stale.code).toBe(1);
      expect(JSON.parse(stale.stdout)).toMatchObject({
        status: "changed",
        changes: {
          created: false,
          added: ["art-2.md"],
          removed: [],
          changed: [],
          fields: [{ field: "versionDate", before: "2022-01-01", after: "2023-01-01" }],
        },
      });
      expect((await runMain(["lock", "gg"], dir)).code).toBe(0);
      const generated = await runMain(
        ["generate", "gg/citation-targets.lock.json", "--check", "gg.jsonl", "--format", "json"],
        dir,
      );
      expect(generated.code).toBe(1);
      expect(JSON.parse(generated.stdout)).toMatchObject({
        reportVersion: 1,
        command: "generate",
        check: "gg.jsonl",
        status: "changed",
        cause: expect.stringContaining("the lock manifest changed"),
        changes: { added: ["gg/art-2.md#art-2"], removed: [] },
      });
    } finally {
      await cleanup();
    }
  });
});

describe("what adopt and update show on the way", () => {
  test("the progress line counts datasets (drawn only on a terminal, as validate's)", () => {
    expect(
      formatProgress({ files: 6636, filesDone: 120, bytes: 0, bytesDone: 0, verb: "adopting", unit: "dataset" }),
    ).toBe("adopting 120/6636 datasets (1%)");
    expect(formatProgress({ files: 4, filesDone: 1, bytes: 2e6, bytesDone: 1e6 })).toBe(
      "checking 1/4 files, 1.0/2.0 MB (50%)",
    );
  });

  test("validate --verbose says where it looked for a file's lock manifest when there is none", async () => {
    const { dir, cleanup } = await repository();
    try {
      await adoptGg(dir);
      await rm(join(dir, ".tooling/citation-targets/gg.lock.json"));
      const result = await runMain(["validate", "--legislation-host", HOST, "--verbose"], dir);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        ".tooling/citation-targets/gg.jsonl: no lock manifest (looked for .tooling/citation-targets/gg.lock.json beside it, and for a citation-targets.lock.json there whose slug names it; --lock FILE names one)",
      );
    } finally {
      await cleanup();
    }
  });
});

describe("field templates and checks (core/lock/dataset-fields.ts)", () => {
  const context = {
    folder: "sgb_5",
    path: "laws/sgb_5",
    front: { Title: "SGB V", jurabk: "SGB 5", n: 5, d: new Date("2024-03-01T00:00:00Z"), tags: ["a"] },
    frontSource: "laws/sgb_5/index.md",
  };
  test.each([
    ["{folder}", "sgb_5"],
    ["{path}", "laws/sgb_5"],
    ["{front.jurabk|slug}", "sgb-5"],
    ["{front.jurabk | lower | slug}", "sgb-5"],
    ["{front.jurabk|upper}", "SGB 5"],
    ["{front.n}", "5"],
    ["{front.d}", "2024-03-01"],
    ["{{literal}} {folder}", "{literal} sgb_5"],
    ["Straße", "Straße"],
  ])("%s → %s", (template, expected) => {
    expect(fillTemplate(template, context)).toBe(expected);
  });

  test("in a URL each value is percent-encoded, the template itself is not", () => {
    expect(fillTemplate("https://h.example/{front.jurabk}/ä", context, true)).toBe("https://h.example/SGB%205/ä");
  });

  test.each([
    ["{front.stand}", 'has no "stand" (it has "Title", "jurabk", "n", "d", "tags")'],
    ["{front.tags}", "is a list or a map"],
    ["{nope}", "unknown placeholder {nope}"],
    ["{folder|shout}", "unknown filter |shout"],
    ["{folder", '"{" without its "}"'],
    ["a}b", 'a lone "}"'],
  ])("%s is refused: %s", (template, message) => {
    expect(() => fillTemplate(template, context)).toThrow(TemplateError);
    expect(() => fillTemplate(template, context)).toThrow(message);
  });

  test("datasetSlug: German and other letters made ASCII, runs of anything else one hyphen", () => {
    expect(datasetSlug("Straßenverkehrs-Ordnung (StVO) §§ 1–3")).toBe("strassenverkehrs-ordnung-stvo-1-3");
    expect(datasetSlug("Código Civil")).toBe("codigo-civil");
    expect(datasetSlug("___")).toBe("");
  });

  test("dateProblem and urlProblem accept what the schema accepts and say why not otherwise", () => {
    for (const date of ["2024-02-29", "2000-02-29", "1999-12-31"]) expect(dateProblem(date)).toBeUndefined();
    expect(dateProblem("1900-02-29")).toBe("not a real calendar date: February 1900 has 28 days");
    expect(dateProblem("2024-04-31")).toBe("not a real calendar date: April 2024 has 30 days");
    expect(urlProblem("https://h.example/x")).toBeUndefined();
    expect(urlProblem("https://h.example")).toContain("nothing after the host");
    expect(urlProblem("https://h.example/a b")).toContain("no spaces");
    expect(
      checkDatasetFields({
        slug: "ok-1",
        titleId: "T",
        name: "N",
        versionDate: "2024-01-01",
        sourceTextUrl: "https://h.example/x",
      }),
    ).toEqual([]);
  });
});

describe("the front matter read for templates", () => {
  test("values are taken as written: an unquoted 172.010 stays 172.010, a date stays its text", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, { "sr/index.md": "---\njurabk: 172.010\nstand: 2024-03-01\nflag: yes\n---\n# SR\n" });
      expect((await templateContext(join(dir, "sr"), dir)).front).toEqual({
        jurabk: "172.010",
        stand: "2024-03-01",
        flag: "yes",
      });
    } finally {
      await cleanup();
    }
  });

  test("only the head of a large law is read, and a front matter longer than that is still read whole", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const body = "\n# Gesetz\n\n".concat("Text. ".repeat(50_000));
      const long = "x".repeat(100_000);
      await writeTree(dir, {
        "a/index.md": `---\nslug: a\nTitle: A\n---${body}`,
        "b/index.md": `---\nslug: b\nhinweis: ${long}\nTitle: B\n---${body}`,
        "c/index.md": `---\nslug: c\nTitle: never closed\n${body}`,
        "d/README.md": "# D without front matter\n",
      });
      expect((await templateContext(join(dir, "a"), dir)).front).toEqual({ slug: "a", Title: "A" });
      expect((await templateContext(join(dir, "b"), dir)).front).toEqual({ slug: "b", hinweis: long, Title: "B" });
      expect((await templateContext(join(dir, "c"), dir)).front).toBeUndefined();
      expect(await templateContext(join(dir, "d"), dir)).toMatchObject({
        folder: "d",
        path: "d",
        front: undefined,
        frontSource: "d/README.md",
      });
    } finally {
      await cleanup();
    }
  });
});

describe("found by trying it as a new user", () => {
  test("a sourceTextUrl on another host than the legislation host in force is refused by update and adopt, writing nothing", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "---\nstand: 2022-12-19\n---\n# GG\n" });
      const args = [
        "adopt",
        "laws/*",
        "--title-id",
        "GG",
        "--name",
        "GG",
        "--version-date",
        "2022-12-19",
        "--source-text-url",
        `https://${HOST}/gg/`,
      ];
      const refused = await runMain(args, dir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `gg: sourceTextUrl https://${HOST}/gg/ is on ${HOST}, not on the legislation host www.legislation.gov.au (the default; no config in force sets legislationHost): validate would reject its records`,
      );
      expect(existsSync(join(dir, ".tooling"))).toBe(false);
      await writeTree(dir, { ".citation-targets.json": JSON.stringify({ legislationHost: HOST }) });
      expect((await runMain(args, dir)).code).toBe(0);
      const before = await readFile(join(dir, ".tooling/citation-targets/gg.lock.json"), "utf8");
      const moved = await runMain(
        ["update", "gg", "--source-text-url", "https://www.legifrance.gouv.fr/codes/x/"],
        dir,
      );
      expect(moved.code).toBe(1);
      expect(moved.stderr).toContain(
        `not on the legislation host ${HOST} (the config .citation-targets.json): validate would reject its records`,
      );
      expect(await readFile(join(dir, ".tooling/citation-targets/gg.lock.json"), "utf8")).toBe(before);
      const fine = await runMain(["update", "gg", "--source-text-url", `https://${HOST}/gg/2`], dir);
      expect(fine.code).toBe(0);
      expect(fine.stderr).not.toContain("legislation host");
    } finally {
      await cleanup();
    }
  });

  const flags = [
    "--title-id",
    "{folder|upper}",
    "--name",
    "{folder}",
    "--version-date",
    "{front.stand}",
    "--source-text-url",
    `https://${HOST}/{folder}/`,
    "--legislation-host",
    HOST,
  ];

  test("rerunning adopt after adding a law keeps a version set with update (the templates fill new datasets only)", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "---\nstand: 2022-12-19\n---\n# GG\n\n## Art 1\n\nText.\n" });
      expect((await runMain(["adopt", "laws/*", ...flags], dir)).code).toBe(0);
      expect((await runMain(["update", "gg", "--version-date", "2024-07-19"], dir)).code).toBe(0);
      await writeTree(dir, { "laws/bgb/index.md": "---\nstand: 2023-01-01\n---\n# BGB\n\n## § 1\n\nText.\n" });
      const again = await runMain(["adopt", "laws/*", ...flags, "--format", "json"], dir);
      expect(again.code, again.stderr).toBe(0);
      const report = JSON.parse(again.stdout);
      expect(report.datasets.map((d: { slug: string; status: string }) => [d.slug, d.status])).toEqual([
        ["bgb", "changed"],
        ["gg", "up-to-date"],
      ]);
      expect(JSON.parse(await readFile(join(dir, ".tooling/citation-targets/gg.lock.json"), "utf8")).versionDate).toBe(
        "2024-07-19",
      );
    } finally {
      await cleanup();
    }
  });

  test("a law moved into a folder the pattern matches: adopt says the folder holds a dataset and what to change", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "---\nstand: 2022-12-19\n---\n# GG\n\n## Art 1\n\nText.\n" });
      expect((await runMain(["adopt", "laws/*", ...flags], dir)).code).toBe(0);
      await mkdir(join(dir, "laws/bund"));
      await rename(join(dir, "laws/gg"), join(dir, "laws/bund/gg"));
      expect((await runMain(["adopt", "--move", "laws/bund/gg"], dir)).code).toBe(0);
      const again = await runMain(["adopt", "laws/*", ...flags, "--check"], dir);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(
        'laws/bund: it holds the dataset laws/bund/gg (.tooling/citation-targets/gg.lock.json): a folder that holds a dataset is none itself. If the law moved into it, change the pattern that matched laws/bund (the config\'s "adopt" datasets, or the operand) to name laws/bund/gg and not laws/bund; adopt --move does not change the config',
      );
      expect((await runMain(["adopt", "laws/bund/*", ...flags, "--check"], dir)).code).toBe(0);
      // And a folder inside a dataset is none either.
      await writeTree(dir, { "laws/bund/gg/anlage/index.md": "# Anlage\n" });
      const inside = await runMain(["adopt", "laws/bund/gg/anlage", ...flags, "--check"], dir);
      expect(inside.code).toBe(1);
      expect(inside.stderr).toContain(
        "laws/bund/gg/anlage: it is inside the dataset laws/bund/gg (.tooling/citation-targets/gg.lock.json): a dataset's folder holds no other dataset",
      );
      // Two folders given in one run, one inside the other: the outer one is refused.
      await writeTree(dir, { "laws/neu/index.md": "# Neu\n", "laws/neu/teil/index.md": "# Teil\n" });
      await writeTree(dir, { "laws/neu-b/index.md": "# Neu B\n" });
      const both = await runMain(["adopt", "laws/neu", "laws/neu-b", "laws/neu/teil", ...flags, "--check"], dir);
      expect(both.code).toBe(1);
      expect(both.stderr).toContain(
        "laws/neu: it holds laws/neu/teil, also given: a folder that holds a dataset is none itself",
      );
    } finally {
      await cleanup();
    }
  });

  test("update warns when a version date goes back; a dataset folder that moved is named with the fix", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, { "laws/gg/index.md": "---\nstand: 2022-12-19\n---\n# GG\n\n## Art 1\n\nText.\n" });
      expect((await runMain(["adopt", "laws/*", ...flags], dir)).code).toBe(0);
      const back = await runMain(["update", "gg", "--version-date", "2021-01-01"], dir);
      expect(back.code).toBe(0);
      expect(back.stderr).toContain("warning: gg: versionDate goes back, from 2022-12-19 to 2021-01-01");
      await rename(join(dir, "laws/gg"), join(dir, "laws/grundgesetz"));
      const moved = await runMain(["update"], dir);
      expect(moved.code).toBe(1); // the dataset's fault, as validate's lock-dataset-files says
      expect(moved.stderr).toContain(
        '.tooling/citation-targets/gg.lock.json: its dataset folder laws/gg (datasetRoot "../../laws/gg") is not there: if the law\'s folder moved or was renamed, point the manifest at its new place with `citation-targets adopt --move NEW-FOLDER` (its slug and addresses kept; or `citation-targets lock NEW-FOLDER -o .tooling/citation-targets/gg.lock.json`), then run update again',
      );
      // generate says it the same way (it said each artifact missing, and advised the update that fails on it).
      const generated = await runMain(["generate", "gg"], dir);
      expect(generated.code).toBe(1);
      expect(generated.stderr).toContain(
        'its dataset folder laws/gg (datasetRoot "../../laws/gg") is not there: if the law\'s folder moved or was renamed, point the manifest at its new place with `citation-targets adopt --move NEW-FOLDER`',
      );
      expect(generated.stderr).toContain("then generate again");
      expect(generated.stderr).not.toContain("citation-targets update");
      const adopted = await runMain(["adopt", "laws/*", ...flags, "--slug", "gg"], dir);
      expect(adopted.code).toBe(1);
      expect(adopted.stderr).toContain(
        'laws/grundgesetz: .tooling/citation-targets/gg.lock.json already belongs to laws/gg, which is not there any more: if the law moved here, repoint that manifest with `citation-targets adopt --move laws/grundgesetz` (its slug and addresses kept; or set "datasetRoot": "../../laws/grundgesetz" in it)',
      );
      // The command both messages give does it: the manifest repointed, its slug kept, and update has nothing left;
      // the folder's .gitattributes line moves with it (the old folder's, which adopt wrote, goes).
      expect(await readFile(join(dir, ".gitattributes"), "utf8")).toContain("laws/gg/** -text\n");
      const move = await runMain(["adopt", "--move", "laws/grundgesetz"], dir);
      expect(move.code).toBe(0);
      expect(move.stderr).toContain("removed the .gitattributes line of the folder moved from: laws/gg/** -text");
      const attributes = await readFile(join(dir, ".gitattributes"), "utf8");
      expect(attributes).toContain("laws/grundgesetz/** -text\n");
      expect(attributes).not.toContain("laws/gg/**");
      expect(attributes).toContain(".tooling/citation-targets/** -text\n");
      expect((await runMain(["update", "--check"], dir)).code).toBe(0);
      expect(JSON.parse(await readFile(join(dir, ".tooling/citation-targets/gg.lock.json"), "utf8"))).toMatchObject({
        slug: "gg",
        datasetRoot: "../../laws/grundgesetz",
      });
      // Moved again: it is that dataset's folder already, said so (it said to adopt it as a new dataset).
      const again = await runMain(["adopt", "--move", "laws/grundgesetz"], dir);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(
        "laws/grundgesetz: it is the dataset folder of .tooling/citation-targets/gg.lock.json already: nothing to move (citation-targets update .tooling/citation-targets/gg.lock.json refreshes it)",
      );
    } finally {
      await cleanup();
    }
  });

  test("adopt names every fault of a folder in one run, and an empty folder as such", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/a/index.md": "---\nstand: 2022-02-30\n---\n# A\n",
        "laws/leer/notes.txt": "no markdown here\n",
      });
      const result = await runMain(["adopt", "laws/*", ...flags, "--name", "{front.title}"], dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'laws/a: name: template "{front.title}": the front matter of laws/a/index.md has no "title"',
      );
      expect(result.stderr).toContain(
        'laws/a: versionDate "2022-02-30": not a real calendar date: February 2022 has 28 days',
      );
      expect(result.stderr).toContain("laws/leer: no markdown files: not a dataset folder");
    } finally {
      await cleanup();
    }
  });

  test("generate --check against another dataset's file says so, and does not suggest regenerating over it", async () => {
    const { dir, cleanup } = await repository();
    try {
      await writeTree(dir, {
        "laws/gg/index.md": "---\nstand: 2022-12-19\n---\n# GG\n\n## Art 1\n\nText.\n",
        "laws/bgb/index.md": "---\nstand: 2022-12-19\n---\n# BGB\n",
      });
      expect((await runMain(["adopt", "laws/*", ...flags], dir)).code).toBe(0);
      const result = await runMain(
        ["generate", ".tooling/citation-targets/gg.lock.json", "--check", ".tooling/citation-targets/bgb.jsonl"],
        dir,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "is named after another slug (bgb), and this manifest's slug is gg: it is another dataset's file, or the wrong manifest",
      );
      expect(result.stderr).not.toContain("-o .tooling/citation-targets/bgb.jsonl");
      const json = await runMain(
        [
          "generate",
          ".tooling/citation-targets/gg.lock.json",
          "--check",
          ".tooling/citation-targets/bgb.jsonl",
          "--format",
          "json",
        ],
        dir,
      );
      expect(JSON.parse(json.stdout)).toMatchObject({ status: "changed", otherDataset: true });
    } finally {
      await cleanup();
    }
  });
});
