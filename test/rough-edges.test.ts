/** The rough edges a new user hits in the amendment loop: each one as it should behave now. */
import { spawn } from "node:child_process";
import { cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { main } from "../src/cli/main.js";
import { insertInPlace, lock } from "../src/node/dataset/lock.js";
import { update } from "../src/node/update/update.js";
import { copyFixture, tempDir, writeTree } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const bin = join(repoRoot, "bin/citation-targets.js");
const MANIFEST = ".tooling/citation-targets/privacy-act-1988.lock.json";
const JSONL = ".tooling/citation-targets/privacy-act-1988.jsonl";

async function cli(argv: string[], cwd = repoRoot, stdin?: AsyncIterable<Uint8Array>) {
  let stdout = "";
  let stderr = "";
  const code = await main({
    argv,
    cwd,
    env: {},
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    ...(stdin ? { stdin } : {}),
  });
  return { code, stdout, stderr };
}

async function* bytesOf(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text);
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** A repository folder (with .git) holding a copy of the example data. */
async function repository(): Promise<string> {
  await mkdir(join(dir, ".git"));
  await cp(join(repoRoot, "fixtures"), join(dir, "fixtures"), { recursive: true });
  await cp(join(repoRoot, ".tooling"), join(dir, ".tooling"), { recursive: true });
  return dir;
}

describe("a closed pipe", () => {
  /** Runs the built bin, reads its first chunk of stdout, then closes the pipe as `| head -1` does. */
  function firstChunkThenClose(
    args: string[],
    cwd: string,
  ): Promise<{ code: number | null; stderr: string; first: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, ...args], {
        cwd,
        env: { ...process.env, NO_COLOR: "1", CI: "true" },
      });
      let stderr = "";
      let first = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.stdout.once("data", (d: Buffer) => {
        first = d.toString();
        child.stdout.destroy();
      });
      child.on("close", (code) => resolve({ code, stderr, first }));
    });
  }

  test.each(["stylish", "json", "github", "sarif"])(
    "validate --format %s | head -1 ends quietly with the run's exit code",
    async (format) => {
      // Enough problems that the report is far larger than a pipe's buffer.
      await writeFile(join(dir, "bad.jsonl"), "not json\n".repeat(4000));
      const result = await firstChunkThenClose(["validate", "--format", format, "--no-lock", "bad.jsonl"], dir);
      expect(result.first.length).toBeGreaterThan(0);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
    },
  );

  test("generate to a closed pipe stops quietly", async () => {
    const result = await firstChunkThenClose(["generate", MANIFEST], repoRoot);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });
});

describe("messages in plain words", () => {
  test("generate --check of a missing file names it and says how to create it", async () => {
    const result = await cli(["generate", MANIFEST, "--check", "nope.jsonl"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `citation-targets: cannot read nope.jsonl: no such file or folder (to create it: citation-targets generate ${MANIFEST} -o nope.jsonl)\n`,
    );
  });

  test("a missing manifest and a broken one: the path, plain words, line and column", async () => {
    expect((await cli(["generate", "nope.lock.json"], dir)).stderr).toBe(
      "citation-targets: nope.lock.json: no dataset by that name: tried a file and a folder (nope.lock.json: no such file or folder) and a slug (.tooling/citation-targets/nope.lock.json: not there): name a lock manifest, its JSONL, a markdown file or folder of its dataset, or its slug\n",
    );
    await writeFile(join(dir, "broken.lock.json"), '{\n  "lockVersion": 1,\n  "slug" "x"\n}\n');
    const broken = await cli(["generate", "broken.lock.json"], dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      "citation-targets: lock manifest broken.lock.json is not valid JSON: line 3, column 10: Unexpected string\n",
    );
    await writeFile(join(dir, "cut.lock.json"), '{\n  "lockVersion": ');
    expect((await cli(["generate", "cut.lock.json"], dir)).stderr).toBe(
      "citation-targets: lock manifest cut.lock.json is not valid JSON: line 2, column 18: the file ends in the middle of a value\n",
    );
  });

  test("a manifest saved with a byte order mark: every command that reads it names the mark, where, and the fix, on one line", async () => {
    const root = await repository();
    const manifest = join(root, MANIFEST);
    await writeFile(manifest, `\uFEFF${await readFile(manifest, "utf8")}`); // as Notepad's "UTF-8 with BOM" saves it
    const says = `lock manifest ${MANIFEST} is not valid JSON: line 1, column 1: the file starts with a byte order mark (U+FEFF), which JSON does not allow: save it as UTF-8 without a BOM (in Notepad, encoding "UTF-8", not "UTF-8 with BOM")`;
    const validate = await cli(["validate", JSONL], root);
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain(`\n  error  ${says}\n\n`);
    for (const argv of [
      ["update", "--check", MANIFEST],
      ["lock", "--check", "fixtures/datasets/privacy-act-1988", "-o", MANIFEST],
      ["generate", MANIFEST],
    ]) {
      const result = await cli(argv, root);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr.split("\n")[0], argv.join(" ")).toBe(`citation-targets: ${says}`);
    }
    const resolved = await cli(["resolve", "s 6 Privacy Act 1988"], root);
    expect(resolved.code).toBe(2);
    expect(resolved.stderr.split("\n")[0]).toBe(
      `citation-targets: ${MANIFEST}: cannot be read as a lock manifest (${says.slice(says.indexOf("not valid JSON"))}); its dataset is left out (run citation-targets validate)`,
    );
  });

  test("JSON that breaks at an unexpected token: its line and column, not the text around it", async () => {
    await writeFile(join(dir, "stray.lock.json"), '{\n  "lockVersion": 1,\n  "slug": x\n}\n');
    expect((await cli(["generate", "stray.lock.json"], dir)).stderr).toBe(
      'citation-targets: lock manifest stray.lock.json is not valid JSON: line 3, column 11: unexpected "x": expected a JSON value\n',
    );
  });

  test("lock --check names what changed, appeared and vanished, and prints the refresh command with the user's paths", async () => {
    const root = await repository();
    const data = join(root, "fixtures/datasets/privacy-act-1988");
    await writeFile(join(data, "part-i/section-7.md"), "### 7 New\n\nText.\n");
    await writeFile(join(data, "part-i/section-1.md"), "### 1 Short title\n\nAmended.\n");
    await cp(join(data, "part-i/section-2.md"), join(data, "part-i/section-2-old.md"));
    const { rm } = await import("node:fs/promises");
    await rm(join(data, "part-i/section-2.md"));
    const result = await cli(["lock", "fixtures/datasets/privacy-act-1988", "-o", MANIFEST, "--check"], root);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "citation-targets:   artifacts: 2 added, 1 removed, 1 changed",
      "citation-targets:     added:   part-i/section-2-old.md, part-i/section-7.md",
      "citation-targets:     removed: part-i/section-2.md",
      "citation-targets:     changed: part-i/section-1.md",
      `citation-targets: hint: run \`citation-targets lock fixtures/datasets/privacy-act-1988 -o ${MANIFEST}\` to refresh it, or \`citation-targets update ${MANIFEST}\` to refresh it and regenerate the JSONL`,
      "",
    ]);
  });

  test("generate --check says why the file differs, what would change by address, and the command that fixes it", async () => {
    const root = await repository();
    const data = join(root, "fixtures/datasets/privacy-act-1988");
    await writeFile(join(data, "part-i/section-7.md"), "### 7 New\n\nText.\n");
    expect((await cli(["lock", "fixtures/datasets/privacy-act-1988", "-o", MANIFEST], root)).code).toBe(0);
    const stale = await cli(["generate", MANIFEST, "--check", JSONL], root);
    expect(stale.code).toBe(1);
    const lines = stale.stderr.split("\n");
    expect(lines[0]).toMatch(
      /^citation-targets: \.tooling\/citation-targets\/privacy-act-1988\.jsonl is not up to date: the lock manifest changed since the file was generated \(the file has datasetDigest [0-9a-f]{12}…, the manifest [0-9a-f]{12}…\)$/,
    );
    expect(lines[1]).toMatch(
      /^citation-targets: {3}first difference: line 1, record privacy-act-1988\/front-matter\.md#privacy-act-1988: citationTargetId differs/,
    );
    expect(lines.slice(2)).toEqual([
      "citation-targets:   records: 1 added, 0 removed, 0 changed (42 before, 43 after)",
      "citation-targets:     added:   privacy-act-1988/part-i/section-7.md#7",
      `citation-targets: hint: run \`citation-targets generate ${MANIFEST} -o ${JSONL}\` to regenerate it`,
      "",
    ]);

    // A hand edit with the manifest unchanged is named as such.
    expect((await cli(["generate", MANIFEST, "-o", JSONL], root)).code).toBe(0);
    const text = await readFile(join(root, JSONL), "utf8");
    await writeFile(join(root, JSONL), text.replace("Short title", "Short name"));
    const edited = await cli(["generate", MANIFEST, "--check", JSONL], root);
    expect(edited.stderr).toContain("the file was edited after it was generated");
    expect(edited.stderr).toContain("records: 0 added, 0 removed, 1 changed (43 before, 43 after)");
    expect(edited.stderr).toContain("changed: privacy-act-1988/contents.md#contents");
  });
});

describe("the command line", () => {
  test("with no arguments: a usage line on stderr, nothing on stdout, exit 2", async () => {
    const result = await cli([]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(
        /^citation-targets: missing command: usage: citation-targets <validate\|lock\|adopt\|generate\|update\|diff\|view\|resolve\|schema> \[options\]\n/,
      ),
    });
  });

  test("every stderr line carries the program's name, usage errors included", async () => {
    const result = await cli(["validate", "--no-such-option"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^citation-targets: /);
  });

  test("the description advertises only commands that exist", async () => {
    const help = (await cli(["--help"])).stdout;
    const listed = [...help.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
    expect(listed).toEqual([
      "validate",
      "schema",
      "lock",
      "generate",
      "update",
      "adopt",
      "diff",
      "view",
      "resolve",
      "help",
    ]);
    for (const command of ["validate", "lock", "adopt", "generate", "update", "diff", "view", "resolve", "schema"])
      expect(help).toContain(command);
  });

  test("run from a subfolder, validate and update find the repository's files, shown relative to it", async () => {
    const validated = await cli(["validate", "--format", "json"], join(repoRoot, "fixtures/datasets"));
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.stdout).files.map((f: { path: string }) => f.path)).toEqual([
      "../../.tooling/citation-targets/mvfg.jsonl",
      "../../.tooling/citation-targets/privacy-act-1988.jsonl",
    ]);
    const checked = await cli(["update", "--check"], join(repoRoot, "fixtures/datasets"));
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain(
      "privacy-act-1988: up to date (../../.tooling/citation-targets/privacy-act-1988.lock.json, ../../.tooling/citation-targets/privacy-act-1988.jsonl)",
    );
  });

  test("validate - and --stdin check standard input; --stdin-filename names it for the file-name rule and the lock manifest", async () => {
    const text = await readFile(join(repoRoot, JSONL), "utf8");
    const plain = await cli(["validate", "-", "--format", "json"], repoRoot, bytesOf(text));
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).files).toEqual([{ path: "<stdin>", records: 42, problems: [] }]);
    const named = await cli(
      ["validate", "--stdin", "--stdin-filename", ".tooling/citation-targets/wrong-name.jsonl", "--format", "json"],
      repoRoot,
      bytesOf(text),
    );
    expect(JSON.parse(named.stdout).files[0].problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(["file-name"]);
    const withLock = await cli(
      ["validate", "-", "--stdin-filename", JSONL, "--verbose"],
      repoRoot,
      bytesOf(text.replace("Short title", "Short name")),
    );
    expect(withLock.code).toBe(1);
    expect(withLock.stderr).toContain(`${JSONL}: checked against lock manifest ${MANIFEST}`);
    expect(withLock.stdout).toContain("lock-artifact-body");
    expect((await cli(["validate", "-", "x.jsonl"], repoRoot, bytesOf(text))).stderr).toContain(
      "cannot be checked together with files",
    );
  });

  test("standard input through the built bin", async () => {
    const text = await readFile(join(repoRoot, JSONL));
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, "validate", "-"], {
        cwd: repoRoot,
        env: { ...process.env, NO_COLOR: "1" },
      });
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.on("close", (code) => resolve({ code, stdout }));
      child.stdin.end(text);
    });
    expect(result).toEqual({ code: 0, stdout: "✔ 1 file, 42 records: no problems\n" });
  });

  test("a misspelled rule id gets a suggestion, in a config file as on the command line", async () => {
    await writeFile(join(dir, ".citation-targets.json"), JSON.stringify({ rules: { "non-canonicall": "warning" } }));
    await writeFile(join(dir, "x.jsonl"), "");
    const fromConfig = await cli(["validate", "x.jsonl"], dir);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('/rules: unknown rule "non-canonicall": did you mean "non-canonical"?');
    const fromFlag = await cli(["validate", "--no-config", "--rule", "text-digets=off", "x.jsonl"], dir);
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain('unknown rule "text-digets": did you mean "text-digest"?');
  });

  test("without the dataset folder (a CI job with only the JSONL): an error, unless --no-artifacts says the checks are skipped on purpose", async () => {
    await cp(join(repoRoot, ".tooling"), join(dir, ".tooling"), { recursive: true });
    await mkdir(join(dir, ".git"));
    const result = await cli(["validate", "--verbose"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "the dataset folder fixtures/datasets/mvfg (datasetRoot of lock manifest .tooling/citation-targets/mvfg.lock.json) is not there",
    );
    const skipped = await cli(["validate", "--verbose", "--no-artifacts"], dir);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr.split("\n").filter((line) => line.includes("artifact checks skipped"))).toEqual([
      "citation-targets: artifact checks skipped for 2 datasets (--no-artifacts)",
      "citation-targets: artifact checks skipped: --no-artifacts (the records are still checked against the manifest)",
    ]);
  });
});

describe("lock places new files where they belong", () => {
  const META = {
    slug: "test-act",
    titleId: "T1",
    name: "Test Act",
    versionDate: "2024-01-01",
    sourceTextUrl: "https://www.legislation.gov.au/T1/text",
  };
  const ORDER = [
    "front.md",
    "contents.md",
    "part-1/index.md",
    "part-1/s-1.md",
    "part-1/s-3.md",
    "part-2/index.md",
    "part-2/div-1/s-10.md",
    "part-2/div-3/s-30.md",
    "endnotes.md",
  ];

  test.each([
    ["a section between its siblings", "part-1/s-2.md", 4],
    ["a section after the last sibling", "part-1/s-4.md", 5],
    ["a folder's new index.md first in its folder", "part-2/div-1/index.md", 6],
    ["a new folder between its sibling folders", "part-2/div-2/s-20.md", 7],
    ["a new top-level folder after its preceding sibling's whole run", "part-1a/index.md", 5],
    ["a file sorting before every sibling of its folder", "part-2/div-1/s-2.md", 6],
  ])("%s", (_, path, at) => {
    const order = [...ORDER];
    insertInPlace(order, path);
    expect(order.indexOf(path)).toBe(at);
    expect(order.filter((p) => p !== path)).toEqual(ORDER);
  });

  test("a new file in a folder of an explicitly ordered dataset keeps the folder contiguous (the reported bug)", async () => {
    const root = await copyFixture("privacy-act-1988", dir);
    const order = (await readFile(join(repoRoot, "fixtures/datasets/privacy-act-1988.order"), "utf8"))
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"));
    await lock({ dir: root, ...META, order, kinds: { "front-matter.md": "document-frontmatter" } });
    await writeTree(root, { "part-i/section-7.md": "### 7 New\n" });
    const { rename } = await import("node:fs/promises");
    await rename(join(root, "part-i/section-6aa.md"), join(root, "part-i/section-6ab.md"));
    await writeTree(root, { "part-ii/index.md": "## Part II\n", "part-ii/section-12.md": "### 12 New part\n" });
    const result = await lock({ dir: root });
    const paths = result.manifest.artifacts.map((a) => a.path);
    expect(paths.slice(3, 14)).toEqual([
      "part-i/index.md",
      "part-i/section-1.md",
      "part-i/section-2.md",
      "part-i/section-2a.md",
      "part-i/section-6.md",
      "part-i/section-6ab.md",
      "part-i/section-7.md",
      "part-ii/index.md",
      "part-ii/section-12.md",
      "part-iii/index.md",
      "part-iii/division-1/index.md",
    ]);
    expect(paths.at(-1)).toBe("endnotes.md");
    expect(result.changes).toMatchObject({
      added: ["part-i/section-6ab.md", "part-i/section-7.md", "part-ii/index.md", "part-ii/section-12.md"],
      removed: ["part-i/section-6aa.md"],
      changed: [],
    });
  });

  test("--ignore globs are kept in the manifest: a refresh and validate leave the same files out", async () => {
    await writeTree(dir, { "a.md": "# A\n", "notes/todo.md": "# Todo\n" });
    await lock({ dir, ...META, ignore: ["notes/**"] });
    const refreshed = await lock({ dir, check: true });
    expect(refreshed.changed).toBe(false);
    expect(refreshed.manifest.ignore).toEqual(["notes/**"]);
    expect(refreshed.manifest.artifacts.map((a) => a.path)).toEqual(["a.md"]);
  });
});

describe("update", () => {
  test("is atomic: when one dataset is at fault, nothing is written for any", async () => {
    const root = await repository();
    const before = await Promise.all(
      [MANIFEST, JSONL, ".tooling/citation-targets/mvfg.lock.json", ".tooling/citation-targets/mvfg.jsonl"].map((f) =>
        readFile(join(root, f), "utf8"),
      ),
    );
    await writeFile(
      join(root, "fixtures/datasets/privacy-act-1988/part-i/section-1.md"),
      "### 1 Short title\n\nAmended.\n",
    );
    await writeFile(join(root, "fixtures/datasets/mvfg/bad.md"), Buffer.from([0x23, 0x20, 0xff, 0x0a])); // not UTF-8
    await expect(update({ cwd: root })).rejects.toThrow(/bad\.md: not valid UTF-8/);
    const after = await Promise.all(
      [MANIFEST, JSONL, ".tooling/citation-targets/mvfg.lock.json", ".tooling/citation-targets/mvfg.jsonl"].map((f) =>
        readFile(join(root, f), "utf8"),
      ),
    );
    expect(after).toEqual(before);
    expect((await readdir(join(root, ".tooling/citation-targets"))).sort()).toEqual([
      "mvfg.jsonl",
      "mvfg.lock.json",
      "privacy-act-1988.jsonl",
      "privacy-act-1988.lock.json",
    ]);
    const cli1 = await cli(["update"], root);
    expect(cli1.code).toBe(1);
    expect(cli1.stderr).toContain(
      "mvfg.lock.json: bad.md: not valid UTF-8: line 1, byte 0xFF at byte 3 of the line (saved as Latin-1 or Windows-1252? save it as UTF-8)",
    );
    // All or nothing, said as the README says it; --check, which writes nothing anyway, does not say it.
    expect(cli1.stderr).toMatch(/\ncitation-targets: nothing was written\n$/);
    const checked = await cli(["update", "--check"], root);
    expect(checked.code).toBe(1);
    expect(checked.stderr).not.toContain("nothing was written");
    // Nor for an operational fault (a manifest that is not JSON: exit 2).
    await writeFile(join(root, ".tooling/citation-targets/privacy-act-1988.lock.json"), "{bad");
    const broken = await cli(["update", "--check"], root);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("is not valid JSON");
    expect(broken.stderr).not.toContain("nothing was written");
    expect((await cli(["update"], root)).stderr).toMatch(/\ncitation-targets: nothing was written\n$/);
  });

  test("a named manifest only; with nothing to find it says where it looked", async () => {
    const root = await repository();
    await writeFile(join(root, "fixtures/datasets/mvfg/zz-anlage.md"), "# Anlage\n");
    const results = await update({ cwd: root, manifests: [".tooling/citation-targets/mvfg.lock.json"] });
    expect(results.map((r) => [r.slug, r.written, r.artifacts.added])).toEqual([["mvfg", true, ["zz-anlage.md"]]]);
    const { rm } = await import("node:fs/promises");
    await rm(join(root, ".tooling"), { recursive: true });
    const none = await cli(["update"], root);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no lock manifests match .tooling/citation-targets/*.lock.json");
  });
});
