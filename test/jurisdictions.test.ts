/**
 * Datasets as publishers keep them (issue 36; README, "Several jurisdictions in one repository"; docs/spec.md, section
 * 8): the README section run as written, then, on the repository it leaves, a legislation host per dataset (the
 * manifest's legislationHost, adopt's and lock's --legislation-host, the config's adopt sections), the host check of
 * adopt and update before anything is written, validate's schema per host, and one-file datasets (a datasetRoot that
 * names a markdown file) with the missing-root, move, rename and --staged rules.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { computeDatasetDigest, type LockManifest } from "../src/core/lock/manifest.js";
import { validate } from "../src/node/validate/validate.js";
import type { CacheUse } from "../src/node/validate/validate-options.js";
import { runCommand } from "./helpers/bin.js";
import { tempDir, writeTree } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { GIT_IDENTITY as GIT_ENV } from "./helpers/git.js";
import { type RanBlock, runReadmeSection } from "./helpers/readme.js";

let dir: string;
let cleanup: () => Promise<void>;
/** The repository the README section leaves, committed; each test works on a fresh copy of it (`repo`). */
let readmeRepo: string;
let repo: string;
/** Each sh block's output, and the text block that follows it (when one does). */
let ran: RanBlock[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  readmeRepo = join(dir, "juris");
  ran = await runReadmeSection("Several jurisdictions in one repository", dir, "juris");
}, 120_000);

afterAll(async () => cleanup());

let copies = 0;
beforeEach(async () => {
  repo = join(dir, `copy-${++copies}`);
  await cp(readmeRepo, repo, { recursive: true });
});

const git = (args: string[], cwd = repo) => runCommand("git", args, cwd, GIT_ENV);
const manifestOf = async (slug: string): Promise<LockManifest> =>
  JSON.parse(await readFile(join(repo, `.tooling/citation-targets/${slug}.lock.json`), "utf8"));
const SWISS_TEMPLATES = [
  "--title-id",
  "{front.sr_number}",
  "--name",
  "{front.title}",
  "--version-date",
  "{front.version_date}",
  "--source-text-url",
  "https://www.fedlex.admin.ch/eli/{front.eli}/de",
];
const swissAct = (sr: string, title: string) =>
  `---\nsr_number: "${sr}"\ntitle: ${title}\neli: cc/${sr}\nversion_date: 2024-01-01\n---\n# ${title}\n\n## Art. 1\n\n<sup>1</sup> Dieses Gesetz gilt.\n`;

describe("README: 'Several jurisdictions in one repository', run as written", () => {
  test("every sh block runs in turn (citation-targets on PATH) and prints the text block that follows it", () => {
    expect(ran.length).toBe(4);
    expect(ran.filter((r) => r.expected !== undefined)).toHaveLength(3);
    for (const { output, expected } of ran)
      if (expected !== undefined) expect(output.trimEnd()).toBe(expected.trimEnd());
  });

  test("it leaves German and Swiss manifests with their hosts, the Australian one with none, all committed", async () => {
    expect((await manifestOf("bgb")).legislationHost).toBe("www.gesetze-im-internet.de");
    expect((await manifestOf("sr-220")).legislationHost).toBe("www.fedlex.admin.ch");
    expect((await manifestOf("sr-220")).datasetRoot).toBe("../../ch/sr-220.md");
    const australian = await manifestOf("privacy-act-1988");
    expect("legislationHost" in australian).toBe(false);
    expect(australian.datasetRoot).toBe("../../au/privacy-act-1988");
    expect((await git(["status", "--porcelain"])).stdout).toBe("");
    expect((await runMain(["validate"], repo)).code).toBe(0);
    // git converts no line ending of what the manifests pin: a file root's line names the file.
    expect(await readFile(join(repo, ".gitattributes"), "utf8")).toBe(
      ".tooling/citation-targets/** -text\nau/privacy-act-1988/** -text\nch/sr-210.md -text\nch/sr-220.md -text\nde/bgb/** -text\n",
    );
  });
});

describe("a legislation host per dataset", () => {
  test("legislationHost is not digested: the same manifest without it has the same datasetDigest", async () => {
    const swiss = await manifestOf("sr-210");
    const { legislationHost, ...without } = swiss;
    expect(legislationHost).toBe("www.fedlex.admin.ch");
    expect(computeDatasetDigest(without)).toBe(swiss.datasetDigest);
    expect(computeDatasetDigest(swiss)).toBe(swiss.datasetDigest);
  });

  test("adopt without the host exits 1, names the datasets once with their count, and writes nothing", async () => {
    await rm(join(repo, ".tooling"), { recursive: true });
    await rm(join(repo, ".citation-targets.json"));
    for (const law of ["gg", "stgb", "zpo", "hgb"])
      await writeTree(join(repo, "de", law), {
        "index.md": `---\nTitle: ${law}\njurabk: ${law.toUpperCase()}\nslug: ${law}\nstand: 2024-01-01\n---\n# ${law}\n\n## § 1 Eins\n\nText.\n`,
      });
    const args = [
      "adopt",
      "de/*",
      "--title-id",
      "{front.jurabk}",
      "--name",
      "{front.Title}",
      "--version-date",
      "{front.stand}",
      "--source-text-url",
      "https://www.gesetze-im-internet.de/{front.slug}/",
    ];
    const refused = await runMain(args, repo);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'citation-targets: 5 datasets (bgb, gg, hgb, … and 2 more): sourceTextUrl is on www.gesetze-im-internet.de, not on the legislation host www.legislation.gov.au (the default; no config in force sets legislationHost): validate would reject their records; if they are published on www.gesetze-im-internet.de, give them that host: adopt --legislation-host www.gesetze-im-internet.de, or "legislationHost": "www.gesetze-im-internet.de" in the config\'s adopt section\n',
    );
    expect(existsSync(join(repo, ".tooling"))).toBe(false);
    // The fix as said: the host given, and a plain validate passes.
    const adopted = await runMain([...args, "--legislation-host", "www.gesetze-im-internet.de"], repo);
    expect(adopted.code, adopted.stderr).toBe(0);
    expect((await manifestOf("hgb")).legislationHost).toBe("www.gesetze-im-internet.de");
    expect((await runMain(["validate"], repo)).code).toBe(0);
  });

  test("a host that is the one in force is not written; a config's legislationHost is the one in force", async () => {
    await writeFile(
      join(repo, ".citation-targets.json"),
      JSON.stringify({ legislationHost: "www.fedlex.admin.ch" }, null, 2),
    );
    await writeTree(join(repo, "ch"), { "sr-311.md": swissAct("311", "Strafgesetzbuch") });
    const adopted = await runMain(
      ["adopt", "ch/sr-311.md", ...SWISS_TEMPLATES, "--legislation-host", "www.fedlex.admin.ch"],
      repo,
    );
    expect(adopted.code, adopted.stderr).toBe(0);
    expect("legislationHost" in (await manifestOf("sr-311"))).toBe(false);
    // lock: the same rule, and a host set by hand is kept on refresh.
    const locked = await runMain(["lock", "ch/sr-311.md", "--legislation-host", "www.admin.ch"], repo);
    expect(locked.code, locked.stderr).toBe(0);
    expect((await manifestOf("sr-311")).legislationHost).toBe("www.admin.ch");
    expect(locked.stderr).toContain(
      "warning: sr-311: sourceTextUrl https://www.fedlex.admin.ch/eli/cc/311/de is on www.fedlex.admin.ch, not on the legislation host www.admin.ch (its lock manifest's legislationHost): validate would reject its records; if it is published on www.fedlex.admin.ch, give the dataset that host: lock --legislation-host www.fedlex.admin.ch\n",
    );
    expect((await runMain(["update", ".tooling/citation-targets/sr-311.lock.json"], repo)).code).toBe(0);
    expect((await manifestOf("sr-311")).legislationHost).toBe("www.admin.ch");
    expect((await runMain(["lock", "ch/sr-311.md", "--legislation-host", "www.fedlex.admin.ch"], repo)).code).toBe(0);
    expect("legislationHost" in (await manifestOf("sr-311"))).toBe(false);
  });

  test("update refuses a sourceTextUrl on another host than the dataset's, writing nothing", async () => {
    const before = await readFile(join(repo, ".tooling/citation-targets/sr-210.lock.json"), "utf8");
    const refused = await runMain(
      ["update", "sr-210", "--source-text-url", "https://www.gesetze-im-internet.de/zgb/"],
      repo,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "sr-210: sourceTextUrl https://www.gesetze-im-internet.de/zgb/ is on www.gesetze-im-internet.de, not on the legislation host www.fedlex.admin.ch (its lock manifest's legislationHost): validate would reject its records",
    );
    expect(await readFile(join(repo, ".tooling/citation-targets/sr-210.lock.json"), "utf8")).toBe(before);
    expect((await git(["status", "--porcelain"])).stdout).toBe("");
  });

  test("validate: each dataset against its host's schema; --no-lock the run's host; a repository schema file wins", async () => {
    // A Swiss record pointing at a German host is refused by its own host's schema, with the fix of the manifest.
    const jsonl = join(repo, ".tooling/citation-targets/sr-220.jsonl");
    const text = await readFile(jsonl, "utf8");
    await writeFile(jsonl, text.replace("https://www.fedlex.admin.ch/", "https://www.gesetze-im-internet.de/"));
    const report = JSON.parse((await runMain(["validate", "--format", "json"], repo)).stdout);
    const swiss = report.files.find((f: { path: string }) => f.path.endsWith("sr-220.jsonl"));
    const schema = swiss.problems.find((p: { ruleId: string }) => p.ruleId === "schema");
    expect(schema.message).toContain(
      "sourceTextUrl must be an https address on www.fedlex.admin.ch followed by a path (https://www.fedlex.admin.ch/…)",
    );
    expect(schema.message).toContain(
      "its host www.gesetze-im-internet.de is not the legislation host of its lock manifest (www.fedlex.admin.ch)",
    );
    expect(report.files.filter((f: { problems: unknown[] }) => f.problems.length > 0)).toHaveLength(1);
    await writeFile(jsonl, text);
    // Without the manifests, the run's host (the flag): the other hosts' records are refused.
    const noLock = JSON.parse(
      (await runMain(["validate", "--no-lock", "--legislation-host", "www.fedlex.admin.ch", "--format", "json"], repo))
        .stdout,
    );
    expect(
      noLock.files
        .filter((f: { problems: unknown[] }) => f.problems.length > 0)
        .map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual([".tooling/citation-targets/bgb.jsonl", ".tooling/citation-targets/privacy-act-1988.jsonl"]);
    // schema says it writes one host's, naming the others; as the repository's schema file it wins for every dataset.
    const written = await runMain(["schema", "-o", ".tooling/schemas/citation-targets.schema.json"], repo);
    expect(written.stderr).toContain(
      "warning: this schema accepts a sourceTextUrl on www.legislation.gov.au only, and lock manifests of this repository are on 2 other legislation hosts (www.fedlex.admin.ch, www.gesetze-im-internet.de)",
    );
    // A schema for another host warns of the manifests that name none too: they are on the default host here.
    const fedlex = await runMain(["schema", "--legislation-host", "www.fedlex.admin.ch"], repo);
    expect(fedlex.stderr).toContain(
      "warning: this schema accepts a sourceTextUrl on www.fedlex.admin.ch only, and lock manifests of this repository are on 2 other legislation hosts (www.gesetze-im-internet.de, www.legislation.gov.au)",
    );
    const withFile = JSON.parse((await runMain(["validate", "--format", "json"], repo)).stdout);
    expect(
      withFile.files
        .filter((f: { problems: unknown[] }) => f.problems.length > 0)
        .map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual([
      ".tooling/citation-targets/bgb.jsonl",
      ".tooling/citation-targets/sr-210.jsonl",
      ".tooling/citation-targets/sr-220.jsonl",
    ]);
  });

  test("validate's cache keeps each dataset's host: the warm run takes every dataset from it and reports the same", async () => {
    const cache = join(dir, `cache-${copies}.json`);
    const run = async () => {
      await new Promise((done) => setTimeout(done, 25)); // past the clock's tick: the files count as left alone
      let use: CacheUse | undefined;
      const report = await validate({ cwd: repo, cache, cacheSettleMs: 0, onCache: (u) => (use = u) });
      return { report, use };
    };
    const cold = await run();
    expect(cold.use).toMatchObject({ files: 4, reused: 0, stored: 4 });
    const warm = await run();
    // The Swiss and German records are checked against their manifests' hosts, the manifests not read again.
    expect(warm.use).toMatchObject({ files: 4, reused: 4 });
    expect(warm.report.summary).toEqual(cold.report.summary);
    expect(warm.report.summary.errors).toBe(0);
    const stored = JSON.parse(await readFile(cache, "utf8")) as {
      entries: Record<string, { legislationHost?: string }>;
    };
    expect(
      Object.entries(stored.entries)
        .map(([file, entry]) => [file.split("/").at(-1), entry.legislationHost ?? null])
        .sort(),
    ).toEqual([
      ["bgb.jsonl", "www.gesetze-im-internet.de"],
      ["privacy-act-1988.jsonl", null],
      ["sr-210.jsonl", "www.fedlex.admin.ch"],
      ["sr-220.jsonl", "www.fedlex.admin.ch"],
    ]);
  });

  test("the config's adopt may be one object (as it was) or sections; a named file takes the section that names it", async () => {
    await writeTree(join(repo, "ch"), { "sr-311.md": swissAct("311", "Strafgesetzbuch") });
    const adopted = await runMain(["adopt", "ch/sr-311.md"], repo);
    expect(adopted.code, adopted.stderr).toBe(0);
    const manifest = await manifestOf("sr-311");
    expect([manifest.titleId, manifest.sourceTextUrl, manifest.legislationHost]).toEqual([
      "311",
      "https://www.fedlex.admin.ch/eli/cc/311/de",
      "www.fedlex.admin.ch",
    ]);
    const bad = await runMain(["adopt"], repo, {});
    expect(bad.code).toBe(0);
    await writeFile(
      join(repo, ".citation-targets.json"),
      JSON.stringify({ adopt: [{ datasets: ["ch/*.md"], host: 1 }] }),
    );
    const invalid = await runMain(["adopt"], repo);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain(".citation-targets.json is not valid");
    await writeFile(
      join(repo, ".citation-targets.json"),
      JSON.stringify({
        adopt: {
          datasets: ["au/*"],
          titleId: "{front.id}",
          name: "{front.title}",
          versionDate: "{front.compiled}",
          sourceTextUrl: "https://www.legislation.gov.au/{front.id}/{front.compiled}/text",
        },
      }),
    );
    expect((await runMain(["adopt", "--check"], repo)).code).toBe(0);
  });
});

describe("one-file datasets", () => {
  test("adopt on a folder of one-file acts is refused, naming the titles and the glob; on one act it is one dataset", async () => {
    await mkdir(join(repo, "fr"));
    await writeTree(join(repo, "fr"), {
      "a.md": swissAct("1", "Eins"),
      "b.md": swissAct("2", "Zwei"),
      "c.md": swissAct("3", "Drei"),
    });
    const refused = await runMain(
      ["adopt", "fr", ...SWISS_TEMPLATES, "--legislation-host", "www.fedlex.admin.ch"],
      repo,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `citation-targets: fr: its markdown files carry front matter of 3 different titles (titleId "1" (a.md), "2" (b.md), "3" (c.md)): a folder of one file per act is one dataset per file: adopt 'fr/*.md' (or, to keep it one dataset of several laws, give it one --title-id)\n`,
    );
    // Acts in subfolders of their own: one dataset per subfolder, and the hint says so (the pattern it gave matched none).
    await writeTree(join(repo, "book"), {
      "eins/index.md": swissAct("11", "Eins"),
      "zwei/index.md": swissAct("12", "Zwei"),
    });
    const nested = await runMain(
      ["adopt", "book", ...SWISS_TEMPLATES, "--legislation-host", "www.fedlex.admin.ch"],
      repo,
    );
    expect(nested.code).toBe(1);
    expect(nested.stderr).toContain(
      "a folder of one subfolder per act is one dataset per subfolder: adopt 'book/*' (or, to keep it one dataset of several laws, give it one --title-id)",
    );
    const following = await runMain(
      ["adopt", "book/*", ...SWISS_TEMPLATES, "--legislation-host", "www.fedlex.admin.ch"],
      repo,
    );
    expect(following.code, following.stderr).toBe(0);
    // A folder of one law in several files, only its index with front matter: one dataset, as before.
    await writeTree(join(repo, "de/hgb"), {
      "index.md": "---\nTitle: HGB\njurabk: HGB\nslug: hgb\nstand: 2024-01-01\n---\n# HGB\n",
      "buch-1.md": "# Erstes Buch\n\n## § 1 Kaufmann\n\nText.\n",
    });
    expect((await runMain(["adopt", "de/hgb"], repo)).code).toBe(0);
    expect((await manifestOf("hgb")).artifacts.map((a) => a.path)).toEqual(["index.md", "buch-1.md"]);
  });

  test("a file root's folder holds other acts: validate reports none of them as unlisted; a missing file is an error", async () => {
    await writeTree(join(repo, "ch"), { "sr-311.md": swissAct("311", "Strafgesetzbuch") });
    expect((await runMain(["validate"], repo)).code).toBe(0);
    await rm(join(repo, "ch/sr-210.md"));
    const report = JSON.parse((await runMain(["validate", "--format", "json"], repo)).stdout);
    const swiss = report.files.find((f: { path: string }) => f.path.endsWith("sr-210.jsonl"));
    expect(swiss.problems).toEqual([
      {
        line: 0,
        ruleId: "lock-dataset-files",
        severity: "error",
        pointer: "",
        message:
          "the dataset file ch/sr-210.md (datasetRoot of lock manifest .tooling/citation-targets/sr-210.lock.json) is not there (moved or deleted?), so it cannot be checked: restore it, or point the manifest at its new place with `citation-targets adopt --move NEW-FILE` (or `citation-targets lock NEW-FILE -o .tooling/citation-targets/sr-210.lock.json`); a checkout without the datasets says so with --no-artifacts",
      },
    ]);
    const update = await runMain(["update", "sr-210"], repo);
    expect(update.code).toBe(1);
    expect(update.stderr).toContain(
      'its dataset file ch/sr-210.md (datasetRoot "../../ch/sr-210.md") is not there: if the law\'s file moved or was renamed',
    );
  });

  test("an act's addresses are the same as a file root and as a folder holding that one file", async () => {
    await writeTree(join(repo, "zgb"), { "sr-210.md": await readFile(join(repo, "ch/sr-210.md"), "utf8") });
    const fields = ["--title-id", "210", "--name", "ZGB", "--version-date", "2024-01-01"];
    const url = ["--source-text-url", "https://www.fedlex.admin.ch/eli/cc/24/233_245_233/de"];
    const host = ["--legislation-host", "www.fedlex.admin.ch"];
    expect(
      (await runMain(["lock", "zgb", "--slug", "sr-210", ...fields, ...url, ...host, "-o", "folder.lock.json"], repo))
        .code,
    ).toBe(0);
    const addresses = async (manifest: string) =>
      (await runMain(["generate", manifest], repo)).stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).citationAddress as string);
    const asFolder = await addresses("folder.lock.json");
    expect(asFolder).toEqual([
      "sr-210/sr-210.md#schweizerisches-zivilgesetzbuch",
      "sr-210/sr-210.md#art-1",
      "sr-210/sr-210.md#art-2",
    ]);
    expect(await addresses(".tooling/citation-targets/sr-210.lock.json")).toEqual(asFolder);
  });

  test("lock names a file root; outside a repository it needs -o; --ignore has nothing to leave out", async () => {
    await writeTree(join(repo, "ch"), { "sr-311.md": swissAct("311", "Strafgesetzbuch") });
    const fields = ["--title-id", "311", "--name", "StGB", "--version-date", "2024-01-01"];
    const url = ["--source-text-url", "https://www.fedlex.admin.ch/eli/cc/311/de"];
    const locked = await runMain(
      ["lock", "ch/sr-311.md", "--slug", "sr-311", ...fields, ...url, "--legislation-host", "www.fedlex.admin.ch"],
      repo,
    );
    expect(locked.code, locked.stderr).toBe(0);
    const manifest = await manifestOf("sr-311");
    expect([manifest.datasetRoot, manifest.artifacts]).toEqual([
      "../../ch/sr-311.md",
      [{ path: "sr-311.md", sha256: manifest.artifacts[0]!.sha256 }],
    ]);
    expect((await runMain(["lock", "ch/sr-311.md", "--check"], repo)).code).toBe(0);
    expect((await runMain(["lock", "ch/sr-311.md", "--ignore", "x.md"], repo)).stderr).toContain(
      "--ignore: the dataset ch/sr-311.md is one file: there is nothing else to leave out",
    );
    const outside = join(dir, `outside-${copies}`);
    await writeTree(outside, { "act.md": swissAct("9", "Neun") });
    const refused = await runMain(["lock", "act.md", "--slug", "act", ...fields, ...url], outside);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("act.md is one file outside a git repository: name its manifest with -o");
    expect(
      (await runMain(["lock", "act.md", "--slug", "act", ...fields, ...url, "-o", "act.lock.json"], outside)).code,
    ).toBe(0);
    expect(JSON.parse(await readFile(join(outside, "act.lock.json"), "utf8")).datasetRoot).toBe("act.md");
  });

  test("a moved act: adopt --move repoints its manifest (slug and addresses kept); adopted anew, the twin is warned of", async () => {
    await mkdir(join(repo, "ch-neu"));
    await rename(join(repo, "ch/sr-210.md"), join(repo, "ch-neu/sr-210.md"));
    const moved = await runMain(["adopt", "--move", "ch-neu/sr-210.md"], repo);
    expect(moved.code, moved.stderr).toBe(0);
    expect((await manifestOf("sr-210")).datasetRoot).toBe("../../ch-neu/sr-210.md");
    expect((await runMain(["validate"], repo)).code).toBe(0);
    expect((await git(["diff", "--stat", "--", ".tooling/citation-targets/sr-210.jsonl"])).stdout).toBe("");
    // Moved and renamed, then adopted as a new dataset: two datasets of one law, said.
    await rename(join(repo, "ch-neu/sr-210.md"), join(repo, "ch-neu/zgb.md"));
    const twin = await runMain(
      ["adopt", "ch-neu/zgb.md", ...SWISS_TEMPLATES, "--legislation-host", "www.fedlex.admin.ch"],
      repo,
    );
    expect(twin.code, twin.stderr).toBe(0);
    expect(twin.stderr).toContain(
      '.tooling/citation-targets/sr-210.lock.json, .tooling/citation-targets/zgb.lock.json look like one law twice (the same titleId "210", versionDate 2024-01-01 and name): was a dataset file moved and adopted again under a new slug? Repoint the old manifest with `citation-targets adopt --move NEW-FILE`',
    );
  });

  test("an act moved into a folder as index.md: the command update gives repoints it, says its addresses change, moves its .gitattributes line", async () => {
    await mkdir(join(repo, "ch/sr-210"));
    await rename(join(repo, "ch/sr-210.md"), join(repo, "ch/sr-210/index.md"));
    const stale = await runMain(["update", "--check"], repo);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(
      "point the manifest at its new place with `citation-targets adopt --move NEW-FILE` (its slug kept, and its addresses unless the file's name changed: the name is in each;",
    );
    const moved = await runMain(["adopt", "--move", "ch/sr-210/index.md"], repo);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain(
      "sr-210: its file sr-210.md was renamed (now ch/sr-210/index.md): its addresses changed with it, sr-210/sr-210.md#… now sr-210/index.md#…",
    );
    expect(moved.stderr).toContain("removed the .gitattributes line of the file moved from: ch/sr-210.md -text");
    // The same bytes under another name are no new version of the law.
    expect(moved.stderr).not.toContain("the markdown changed");
    expect((await manifestOf("sr-210")).datasetRoot).toBe("../../ch/sr-210/index.md");
    const attributes = await readFile(join(repo, ".gitattributes"), "utf8");
    expect(attributes).toContain("ch/sr-210/index.md -text\n");
    expect(attributes).not.toContain("ch/sr-210.md -text");
    expect((await runMain(["validate"], repo)).code).toBe(0);
    const records = await readFile(join(repo, ".tooling/citation-targets/sr-210.jsonl"), "utf8");
    expect(JSON.parse(records.split("\n")[1]!).citationAddress).toBe("sr-210/index.md#art-1");
    // Renamed anywhere, its bytes tell it; a file of none of the orphans is refused with what it looked for.
    await mkdir(join(repo, "zivil"));
    await rename(join(repo, "ch/sr-220.md"), join(repo, "zivil/or.md"));
    await writeTree(join(repo, "zivil"), { "neu.md": swissAct("999", "Neu") });
    const both = await runMain(["adopt", "--move", "zivil/or.md", "zivil/neu.md"], repo);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(
      "zivil/neu.md: no lock manifest in .tooling/citation-targets is of a one-file law whose file is gone and is this one (the same name, the same bytes, or moved into a folder named after it): nothing to move",
    );
    expect((await runMain(["adopt", "--move", "zivil/or.md"], repo)).code).toBe(0);
    expect((await manifestOf("sr-220")).datasetRoot).toBe("../../zivil/or.md");
  });

  test("an act moved into a folder of its own: adopt's hint, adopt --move FOLDER, makes it a folder dataset", async () => {
    await mkdir(join(repo, "ch/sr-210"));
    await rename(join(repo, "ch/sr-210.md"), join(repo, "ch/sr-210/index.md"));
    const adopted = await runMain(
      ["adopt", "ch/sr-210", ...SWISS_TEMPLATES, "--legislation-host", "www.fedlex.admin.ch", "--check"],
      repo,
    );
    expect(adopted.code).toBe(1);
    expect(adopted.stderr).toContain(
      "repoint that manifest with `citation-targets adopt --move ch/sr-210` (its slug kept; its addresses change, the file's name sr-210.md being in each;",
    );
    const moved = await runMain(["adopt", "--move", "ch/sr-210"], repo);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain("sr-210: its file sr-210.md was renamed (now ch/sr-210/index.md)");
    expect((await manifestOf("sr-210")).datasetRoot).toBe("../../ch/sr-210");
    const attributes = await readFile(join(repo, ".gitattributes"), "utf8");
    expect(attributes).toContain("ch/sr-210/** -text\n");
    expect(attributes).not.toContain("ch/sr-210.md -text");
    expect((await runMain(["update", "--check"], repo)).code).toBe(0);
  });

  test("--staged selects a file-root dataset when its file is staged, and no other act of its folder", async () => {
    await writeFile(
      join(repo, "ch/sr-220.md"),
      `${await readFile(join(repo, "ch/sr-220.md"), "utf8")}\n## Art. 2\n\nNeu.\n`,
    );
    await git(["add", "ch/sr-220.md"]);
    const check = await runMain(["update", "--staged", "--check", "--format", "json"], repo);
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).datasets.map((d: { slug: string }) => d.slug)).toEqual(["sr-220"]);
  });
});
