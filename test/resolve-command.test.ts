/**
 * `citation-targets resolve` end to end (README, "resolve"): a repository of German-, Swiss- and Australian-shaped
 * datasets generated from markdown, aliases from front matter (`--alias`), the text and JSON answers, standard input,
 * `--dataset`, exit codes, bad input named, and the index cache (docs/spec.md, section 14, item 10).
 */
import { readFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { resolve as resolveLibrary } from "../src/index.js";
import { lock } from "../src/node/dataset/lock.js";
import { columnsText, readColumnsText } from "../src/core/resolve/resolve-index.js";
import { resolveCitations } from "../src/node/resolve/resolve.js";
import { update } from "../src/node/update/update.js";
import { copyFixture, tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;

/** A repository with node_modules: the MVfG (German), a Swiss act and the Privacy Act 1988 (Australian). */
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, "node_modules"));
  await mkdir(join(dir, "laws"));
  await copyFixture("mvfg", join(dir, "laws"));
  await copyFixture("privacy-act-1988", join(dir, "laws"));
  const swiss = readFileSync(join(repoRoot, "test/fixtures-systems/ch.md"), "utf8");
  await writeTree(dir, { "laws/bspg/index.md": `---\nabbreviation: BspG\nsr: "999.1"\n---\n${swiss}` });
  const tooling = join(dir, ".tooling/citation-targets");
  const url = (id: string) => `https://www.legislation.gov.au/${id}/text`;
  await lock({
    dir: join(dir, "laws/mvfg"),
    cwd: dir,
    output: join(tooling, "mvfg.lock.json"),
    slug: "mvfg",
    titleId: "BJNR012530976",
    name: "Musterverfahrensgesetz",
    versionDate: "2023-12-04",
    sourceTextUrl: url("BJNR012530976"),
    aliasKeys: ["jurabk", "amtabk"],
  });
  await lock({
    dir: join(dir, "laws/bspg"),
    cwd: dir,
    output: join(tooling, "bspg.lock.json"),
    slug: "bspg",
    titleId: "999.1",
    name: "Bundesgesetz über das Beispielwesen",
    versionDate: "2024-07-01",
    sourceTextUrl: url("999.1"),
    aliasKeys: ["abbreviation"],
  });
  await lock({
    dir: join(dir, "laws/privacy-act-1988"),
    cwd: dir,
    output: join(tooling, "privacy-act-1988.lock.json"),
    slug: "privacy-act-1988",
    titleId: "C2004A03712",
    name: "Privacy Act 1988",
    versionDate: "2024-06-10",
    sourceTextUrl: url("C2004A03712"),
    kinds: {
      "front-matter.md": "document-frontmatter",
      "contents.md": "document-contents",
      "preamble.md": "document-preamble",
    },
  });
  await update({ cwd: dir, cache: false });
});
afterAll(() => cleanup());

describe("aliases in the lock manifest", () => {
  test("--alias keys become aliases after ignore, before artifacts; the digest leaves them out", async () => {
    const text = await readFile(join(dir, ".tooling/citation-targets/mvfg.lock.json"), "utf8");
    const manifest = JSON.parse(text) as Record<string, unknown>;
    expect(manifest.aliases).toEqual(["MVfG"]); // amtabk is not in the front matter: no alias
    expect(Object.keys(manifest)).toEqual([
      "lockVersion",
      "slug",
      "titleId",
      "name",
      "versionDate",
      "sourceTextUrl",
      "datasetRoot",
      "aliases",
      "artifacts",
      "datasetDigest",
    ]);
    // The same dataset locked without aliases has the same datasetDigest.
    const without = await lock({
      dir: join(dir, "laws/mvfg"),
      cwd: dir,
      output: join(dir, "no-aliases.lock.json"),
      slug: "mvfg",
      titleId: "BJNR012530976",
      name: "Musterverfahrensgesetz",
      versionDate: "2023-12-04",
      sourceTextUrl: "https://www.legislation.gov.au/BJNR012530976/text",
      check: true,
    });
    expect(without.manifest.aliases).toBeUndefined();
    expect(without.manifest.datasetDigest).toBe(manifest.datasetDigest);
    expect(without.text).not.toContain("aliases");
  });

  test("a refresh without --alias keeps the aliases; with it, reads them again", async () => {
    const output = join(dir, ".tooling/citation-targets/mvfg.lock.json");
    const kept = await lock({ dir: join(dir, "laws/mvfg"), cwd: dir, output, check: true });
    expect(kept.manifest.aliases).toEqual(["MVfG"]);
    expect(kept.changed).toBe(false);
    const other = await lock({ dir: join(dir, "laws/mvfg"), cwd: dir, output, check: true, aliasKeys: ["title"] });
    expect(other.manifest.aliases).toEqual(["Gesetz über das Verwaltungsverfahren der Musterbehörden"]);
    const none = await lock({ dir: join(dir, "laws/mvfg"), cwd: dir, output, check: true, aliasKeys: ["nope"] });
    expect(none.manifest.aliases).toBeUndefined();
  });

  test("a one-file dataset's aliases come from its own front matter; adopt sections each take their aliases", async () => {
    const made = await tempDir();
    try {
      await mkdir(join(made.dir, ".git"));
      await writeTree(made.dir, {
        "de/bspg.md": "---\njurabk: BspG\n---\n# Beispielgesetz\n\n## § 1 Zweck\n\nText.\n",
        "ch/bv/index.md":
          "---\nabbreviation: BV\njurabk: nicht\n---\n# Bundesverfassung\n\n## Art. 8 Gleichheit\n\nText.\n",
      });
      const single = await lock({
        dir: join(made.dir, "de/bspg.md"),
        cwd: made.dir,
        slug: "bspg",
        titleId: "B1",
        name: "Beispielgesetz",
        versionDate: "2024-01-01",
        sourceTextUrl: "https://www.legislation.gov.au/B1/text",
        aliasKeys: ["jurabk"],
        check: true,
      });
      expect(single.manifest.aliases).toEqual(["BspG"]);
      await writeFile(
        join(made.dir, ".citation-targets.json"),
        JSON.stringify({
          adopt: [
            {
              datasets: ["de/*.md"],
              titleId: "{front.jurabk}",
              name: "{front.jurabk}",
              versionDate: "2024-01-01",
              sourceTextUrl: "https://www.legislation.gov.au/{front.jurabk}/text",
              aliases: ["jurabk"],
            },
            {
              datasets: ["ch/*"],
              titleId: "{folder}",
              name: "{folder}",
              versionDate: "2024-01-01",
              sourceTextUrl: "https://www.legislation.gov.au/{folder}/text",
              aliases: ["abbreviation"],
            },
          ],
        }),
      );
      const adopted = await runMain(["adopt"], made.dir);
      expect(adopted.code).toBe(0);
      const aliasesOf = async (slug: string) =>
        JSON.parse(await readFile(join(made.dir, `.tooling/citation-targets/${slug}.lock.json`), "utf8")).aliases;
      expect(await aliasesOf("bspg")).toEqual(["BspG"]);
      expect(await aliasesOf("bv")).toEqual(["BV"]);
      const resolved = await runMain(["resolve", "§ 1 BspG", "Art. 8 Abs. 1 BV"], made.dir);
      expect(resolved.stdout).toBe(
        "§ 1 BspG → bspg/bspg.md#§-1 (unit)\nArt. 8 Abs. 1 BV → bv/index.md#art-8 (enclosing)\n",
      );
      expect(resolved.code).toBe(0);
      // --exact: an enclosing match counts as not matched (a script checking citations hears of it), the answers alike.
      const exact = await runMain(["resolve", "--exact", "§ 1 BspG", "Art. 8 Abs. 1 BV"], made.dir);
      expect(exact.code).toBe(1);
      expect(exact.stdout).toBe(resolved.stdout);
      expect((await runMain(["resolve", "--exact", "§ 1 BspG"], made.dir)).code).toBe(0);
    } finally {
      await made.cleanup();
    }
  });

  test("adopt --alias and the config's adopt.aliases write them; update --alias too", async () => {
    const made = await tempDir();
    try {
      await mkdir(join(made.dir, ".git"));
      await copyFixture("mvfg", join(made.dir, "laws"));
      await writeFile(
        join(made.dir, ".citation-targets.json"),
        JSON.stringify({
          adopt: {
            datasets: ["laws/*"],
            titleId: "{front.jurabk}",
            name: "{front.title}",
            versionDate: "2023-12-04",
            sourceTextUrl: "https://www.legislation.gov.au/{front.jurabk}/text",
            aliases: ["jurabk"],
          },
        }),
      );
      const adopted = await runMain(["adopt"], made.dir);
      expect(adopted.stderr).not.toContain("error");
      expect(adopted.code).toBe(0);
      const manifest = join(made.dir, ".tooling/citation-targets/mvfg.lock.json");
      expect(JSON.parse(await readFile(manifest, "utf8")).aliases).toEqual(["MVfG"]);
      const updated = await runMain(["update", "--alias", "title", "--alias", "jurabk"], made.dir);
      expect(updated.code).toBe(0);
      expect(JSON.parse(await readFile(manifest, "utf8")).aliases).toEqual([
        "Gesetz über das Verwaltungsverfahren der Musterbehörden",
        "MVfG",
      ]);
      const resolved = await runMain(["resolve", "§ 2a MVfG"], made.dir);
      expect(resolved.stdout).toBe("§ 2a MVfG → mvfg/mvfg.md#§-2a (unit)\n");
    } finally {
      await made.cleanup();
    }
  });
});

describe("the command", () => {
  test("text: one line per input; exit 0 when every citation matched", async () => {
    const run = await runMain(
      [
        "resolve",
        "§ 2a Abs. 1 S. 2 MVfG",
        "Art. 1a BspG",
        "Art. 8 Abs. 2 BspG",
        "s 6(1)(a) Privacy Act 1988",
        "section 13 of the privacy act 1988",
      ],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        "§ 2a Abs. 1 S. 2 MVfG → mvfg/mvfg.md#§-2a (enclosing)",
        "Art. 1a BspG → bspg/index.md#art-1a (unit)",
        "Art. 8 Abs. 2 BspG → bspg/index.md#art-8 (enclosing)",
        "s 6(1)(a) Privacy Act 1988 → privacy-act-1988/part-i/section-6.md#6 (enclosing)",
        "section 13 of the privacy act 1988 → privacy-act-1988/part-iii/division-1/section-13.md#13 (unit)",
        "",
      ].join("\n"),
    );
    expect(run.code).toBe(0);
  });

  test("json: one document, one entry per input in input order; exit 1 when any did not match", async () => {
    const run = await runMain(["resolve", "§ 99 MVfG", "§ 1 MVfG", "§ 1", "§§ 3 bis 4 MVfG", "--format", "json"], dir);
    expect(run.code).toBe(1);
    const { results } = JSON.parse(run.stdout) as { results: Record<string, unknown>[] };
    const id = (address: string) => {
      const jsonl = readFileSync(join(dir, ".tooling/citation-targets/mvfg.jsonl"), "utf8");
      return jsonl
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, string>)
        .find((r) => r.citationAddress === address)!.citationTargetId;
    };
    expect(results).toEqual([
      {
        input: "§ 99 MVfG",
        outcome: "no-match",
        precision: null,
        citationAddress: null,
        citationTargetId: null,
        candidates: [],
        reason: '"MVfG" (mvfg) has no § 99',
      },
      {
        input: "§ 1 MVfG",
        outcome: "match",
        precision: "unit",
        citationAddress: "mvfg/mvfg.md#§-1",
        citationTargetId: id("mvfg/mvfg.md#§-1"),
        candidates: [],
      },
      {
        input: "§ 1",
        outcome: "no-match",
        precision: null,
        citationAddress: null,
        citationTargetId: null,
        candidates: [],
        reason: "names no law, and no dataset was named (--dataset)",
      },
      {
        input: "§§ 3 bis 4 MVfG",
        outcome: "match",
        precision: "unit",
        citationAddress: "mvfg/mvfg.md#§-3",
        citationTargetId: id("mvfg/mvfg.md#§-3"),
        candidates: [],
        range: true,
      },
    ]);
  });

  test("--dataset: a citation naming no law is looked for there (a slug, a folder, a JSONL)", async () => {
    for (const operand of [
      "privacy-act-1988",
      "laws/privacy-act-1988",
      ".tooling/citation-targets/privacy-act-1988.jsonl",
    ]) {
      const run = await runMain(["resolve", "--dataset", operand, "s 6AA", "section 2A"], dir);
      expect(run.stdout).toBe(
        "s 6AA → privacy-act-1988/part-i/section-6aa.md#6aa (unit)\nsection 2A → privacy-act-1988/part-i/section-2a.md#2a (unit)\n",
      );
      expect(run.code).toBe(0);
    }
    const other = await runMain(["resolve", "--dataset", "mvfg", "s 6 Privacy Act 1988"], dir);
    expect(other.stdout).toBe(
      's 6 Privacy Act 1988 → no match: no dataset of those named is the law "Privacy Act 1988" (by its titleId, name, slug or an alias)\n',
    );
    expect(other.code).toBe(1);
  });

  test("-: one citation per line from standard input, blank lines skipped", async () => {
    let stdout = "";
    let stderr = "";
    const code = await main({
      argv: ["resolve", "-", "--format", "json"],
      cwd: dir,
      env: {},
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      stdin: Readable.from([Buffer.from("§ 1 MVfG\r\n\n  \nArt. 2 BspG\n")]),
    });
    expect(stderr).toBe("");
    expect(stdout).toContain('"outcome": "match"');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { results: { input: string; citationAddress: string }[] }).results).toEqual([
      expect.objectContaining({ input: "§ 1 MVfG", citationAddress: "mvfg/mvfg.md#§-1" }),
      expect.objectContaining({
        input: "Art. 2 BspG",
        citationAddress: "bspg/index.md#titel-1/kapitel-1/abschnitt-1/art-2",
      }),
    ]);
  });

  test.each([
    [["resolve"], "missing required argument 'citation'"],
    [
      ["resolve", "-", "§ 1 MVfG"],
      "- (citations on standard input) cannot be given with citations: name one or the other",
    ],
    [["resolve", "§ 1", "--dataset", "nope"], "nope: no dataset by that name"],
    [["resolve", "§ 1", "--format", "xml"], "argument 'xml' is invalid"],
  ])("%j: a usage error, exit 2", async (argv, message) => {
    const run = await runMain(argv, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
  });

  test("a manifest that fails its schema is said, once a run, cache warm or cold; its dataset is resolved as it is", async () => {
    const made = await tempDir();
    try {
      await mkdir(join(made.dir, ".git"));
      await mkdir(join(made.dir, "node_modules"));
      const tooling = ".tooling/citation-targets";
      const manifest = JSON.parse(await readFile(join(dir, tooling, "mvfg.lock.json"), "utf8"));
      await writeTree(made.dir, {
        [`${tooling}/mvfg.lock.json`]: JSON.stringify({ ...manifest, aliases: [...(manifest.aliases ?? []), 5] }),
        [`${tooling}/mvfg.jsonl`]: await readFile(join(dir, tooling, "mvfg.jsonl"), "utf8"),
      });
      const expected = await runMain(["resolve", "§ 1 MVfG"], dir);
      expect(expected.code).toBe(0);
      // Through the library with no settling time, so that the first run's entry is kept and the second reads it.
      for (const run of ["cold", "warm"]) {
        const { warnings, results } = await resolveCitations({
          citations: ["§ 1 MVfG"],
          cwd: made.dir,
          cacheSettleMs: 0,
        });
        expect(warnings, run).toEqual([
          expect.stringMatching(
            /^\.tooling\/citation-targets\/mvfg\.lock\.json: does not match the lock manifest schema \(\/aliases\/\d+ must be string\)/,
          ),
        ]);
        expect(results[0]?.outcome, run).toBe("match");
      }
      for (const run of ["cli cold", "cli warm"]) {
        const result = await runMain(["resolve", "§ 1 MVfG"], made.dir);
        expect(result.stderr, run).toMatch(
          /^citation-targets: \.tooling\/citation-targets\/mvfg\.lock\.json: does not match the lock manifest schema \(\/aliases\/\d+ must be string\); its dataset is resolved as it is \(run citation-targets validate\)\n$/,
        );
        expect(result.stdout, run).toBe(expected.stdout);
        expect(result.code, run).toBe(0);
      }
    } finally {
      await made.cleanup();
    }
  });

  test("a manifest that is not JSON is named (exit 2 when no dataset is left); a JSONL that is not there is left out, said", async () => {
    const made = await tempDir();
    try {
      await mkdir(join(made.dir, ".git"));
      await writeTree(made.dir, {
        ".tooling/citation-targets/a.lock.json": '{"slug": "a", ',
        ".tooling/citation-targets/b.lock.json": JSON.stringify({
          slug: "b",
          titleId: "B",
          name: "Gesetz B",
          units: true,
        }),
      });
      const bad = await runMain(["resolve", "§ 1 B"], made.dir);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(
        /^citation-targets: \.tooling\/citation-targets\/a\.lock\.json: cannot be read as a lock manifest \(not valid JSON: line 1, column 15: /,
      );
      await rm(join(made.dir, ".tooling/citation-targets/a.lock.json"));
      // Its only dataset's JSONL not there: nothing to resolve against (exit 2), as with no manifest at all.
      const missing = await runMain(["resolve", "§ 1 B"], made.dir);
      expect(missing.stderr).toBe(
        "citation-targets: no dataset to resolve against: its one dataset was left out, its JSONL not there (run citation-targets update)\n",
      );
      expect(missing.stdout).toBe("");
      expect(missing.code).toBe(2);
      const named = await runMain(["resolve", "--dataset", "b", "§ 1"], made.dir);
      expect(named.code).toBe(2);
      expect(named.stderr).toContain("no dataset to resolve against");
      await writeTree(made.dir, {
        ".tooling/citation-targets/b.jsonl": `${JSON.stringify({ citationAddress: "b/b.md#§-1", citationTargetId: "x", headingText: "§ 1" })}\nnot json\n`,
      });
      const partly = await runMain(["resolve", "§ 1 B"], made.dir);
      expect(partly.stderr).toBe(
        "citation-targets: .tooling/citation-targets/b.lock.json: does not match the lock manifest schema (/ must have required property 'lockVersion'); its dataset is resolved as it is (run citation-targets validate)\n" +
          "citation-targets: .tooling/citation-targets/b.jsonl: 1 line is not a record with a citationAddress and is left out (run citation-targets validate)\n",
      );
      expect(partly.stdout).toBe("§ 1 B → b/b.md#§-1 (unit)\n");
      expect(partly.code).toBe(0);
      // A unit not found there may stand on the line left out: the enclosing answer says so and is not a sure match.
      const cut = await runMain(["resolve", "§ 1 Abs. 2 B"], made.dir);
      expect(cut.stdout).toBe(
        "§ 1 Abs. 2 B → b/b.md#§-1 (enclosing): §-1 has no Abs. 2 in the lines read: 1 line of b's JSONL could not be read, and it may stand there (run citation-targets validate); the target that holds it\n",
      );
      expect(cut.code).toBe(1);
      expect((await runMain(["resolve", "--exact", "§ 1 Abs. 2 B"], made.dir)).code).toBe(1);
      const cutJson = JSON.parse((await runMain(["resolve", "§ 1 Abs. 2 B", "--format", "json"], made.dir)).stdout);
      expect(cutJson.results[0]).toMatchObject({ outcome: "match", precision: "enclosing", incomplete: true });
      // The id a record carries is the one answered, even when it is not the derived one.
      const json = await runMain(["resolve", "§ 1 B", "--format", "json"], made.dir);
      expect(JSON.parse(json.stdout).results[0].citationTargetId).toBe("x");
      // A broken manifest beside a readable dataset: that dataset is left out, said, and the others are resolved; the
      // run exits 2 (its answers cannot be trusted as the repository's: one of that law may have matched elsewhere).
      await writeTree(made.dir, { ".tooling/citation-targets/a.lock.json": '{"slug": "a", ' });
      const beside = await runMain(["resolve", "§ 1 B"], made.dir);
      expect(beside.stdout).toBe("§ 1 B → b/b.md#§-1 (unit)\n");
      expect(beside.code).toBe(2);
      expect(beside.stderr).toContain(
        "citation-targets: .tooling/citation-targets/a.lock.json: cannot be read as a lock manifest (not valid JSON: line 1, column 15: ",
      );
      expect(beside.stderr).toContain("; its dataset is left out (run citation-targets validate)\n");
      expect(beside.stderr).toContain(
        "citation-targets: 1 lock manifest could not be read, so its dataset was left out and the results may be wrong (exit 2)",
      );
      const besideJson = JSON.parse((await runMain(["resolve", "§ 1 B", "--format", "json"], made.dir)).stdout);
      expect(besideJson.unreadable).toEqual([".tooling/citation-targets/a.lock.json"]);
      expect(besideJson.results[0].outcome).toBe("match");
      // Named with --dataset, it is the run's error.
      const asked = await runMain(["resolve", "--dataset", "a", "§ 1"], made.dir);
      expect(asked.code).toBe(2);
      expect(asked.stderr).toContain("a.lock.json: cannot be read as a lock manifest");
      await rm(join(made.dir, ".tooling/citation-targets/a.lock.json"));
      const none = await tempDir();
      try {
        await mkdir(join(none.dir, ".git"));
        const empty = await runMain(["resolve", "§ 1 B"], none.dir);
        expect(empty.code).toBe(2);
        expect(empty.stderr).toContain("no dataset to resolve against: no lock manifest in .tooling/citation-targets");
      } finally {
        await none.cleanup();
      }
    } finally {
      await made.cleanup();
    }
  });
});

describe("the library", () => {
  test("resolve() gives the command's results; its options are checked", async () => {
    const report = await resolveLibrary({ citations: ["§ 2a MVfG", "Art. 9 BspG"], cwd: dir, cache: false });
    expect(report.warnings).toEqual([]);
    expect(report.results.map((r) => r.citationAddress)).toEqual(["mvfg/mvfg.md#§-2a", "bspg/index.md#art-9"]);
    await expect(resolveLibrary({} as never)).rejects.toThrow("resolve: citations is required");
    await expect(resolveLibrary({ citations: "§ 1" } as never)).rejects.toThrow(
      'resolve: citations: expected an array of strings, got "§ 1"',
    );
  });
});

describe("the index cache", () => {
  test("a dataset whose manifest and JSONL keep their fingerprints is not read again; a change is", async () => {
    const cache = join(dir, "node_modules/.cache/citation-targets/resolve.json");
    await rm(cache, { force: true });
    await new Promise((done) => setTimeout(done, 25));
    const first = await resolveCitations({ citations: ["§ 2a MVfG"], cwd: dir, cacheSettleMs: 0 });
    expect(first.results[0]!.citationAddress).toBe("mvfg/mvfg.md#§-2a");
    const written = JSON.parse(await readFile(cache, "utf8")) as {
      version: number;
      key: string;
      entries: Record<string, { dataset: { records: string } }>;
    };
    expect(Object.keys(written.entries)).toEqual([
      "../../../.tooling/citation-targets/bspg.lock.json",
      "../../../.tooling/citation-targets/mvfg.lock.json",
      "../../../.tooling/citation-targets/privacy-act-1988.lock.json",
    ]);
    // The cache is what is read: an address changed in it is what resolve answers while the files are unchanged.
    const entry = written.entries["../../../.tooling/citation-targets/mvfg.lock.json"]!;
    const { addresses, headings, ids } = readColumnsText(entry.dataset.records);
    expect(ids).toEqual({}); // every id is the one derived from the address: none is kept
    addresses[addresses.indexOf("mvfg/mvfg.md#§-2a")] = "mvfg/cached.md#§-2a";
    entry.dataset.records = columnsText(addresses, headings, ids);
    await writeFile(cache, JSON.stringify(written));
    const warm = await resolveCitations({ citations: ["§ 2a MVfG"], cwd: dir, cacheSettleMs: 0 });
    expect(warm.results[0]!.citationAddress).toBe("mvfg/cached.md#§-2a");
    // Another build (another key) misses it.
    await writeFile(cache, JSON.stringify({ ...written, key: "another build" }));
    const rebuilt = await resolveCitations({ citations: ["§ 2a MVfG"], cwd: dir, cacheSettleMs: 0 });
    expect(rebuilt.results[0]!.citationAddress).toBe("mvfg/mvfg.md#§-2a");
    // The JSONL written again (its fingerprint changes): read again.
    await writeFile(cache, JSON.stringify(written));
    const jsonl = join(dir, ".tooling/citation-targets/mvfg.jsonl");
    await writeFile(jsonl, await readFile(jsonl));
    const changed = await resolveCitations({ citations: ["§ 2a MVfG"], cwd: dir, cacheSettleMs: 0 });
    expect(changed.results[0]!.citationAddress).toBe("mvfg/mvfg.md#§-2a");
    // Files changed just before the run are not trusted (the default settling time): no entry is kept for them.
    await writeFile(jsonl, await readFile(jsonl));
    await resolveCitations({ citations: ["§ 2a MVfG"], cwd: dir });
    const after = JSON.parse(await readFile(cache, "utf8")) as { entries: Record<string, unknown> };
    expect(Object.keys(after.entries)).not.toContain("../../../.tooling/citation-targets/mvfg.lock.json");
    // --no-cache neither reads nor writes it.
    await rm(cache);
    const run = await runMain(["resolve", "--no-cache", "§ 2a MVfG"], dir);
    expect(run.code).toBe(0);
    await expect(readFile(cache)).rejects.toThrow();
  });
});
