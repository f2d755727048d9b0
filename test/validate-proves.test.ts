/** Issue #31: validate proves what it says. Each reproduction of the issue is a test here. */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { computeDatasetDigest, type LockManifest } from "../src/core/lock/manifest.js";
import { bin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";
const JSONL = ".tooling/citation-targets/mvfg.jsonl";

/**
 * A git repository holding the mvfg dataset (German federal law): `.tooling/citation-targets/mvfg.{jsonl,lock.json}`
 * and `fixtures/datasets/mvfg`.
 */
async function repository(): Promise<string> {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
  return dir;
}

/** A manifest of `count` artifacts none of which is there, beside a JSONL of one record. */
async function manifestOfMissing(count: number): Promise<void> {
  const artifacts = [];
  for (let i = 0; i < count; i++) artifacts.push({ path: `a${String(i).padStart(6, "0")}.md`, sha256: "0".repeat(64) });
  const manifest = {
    lockVersion: 1,
    slug: "big",
    titleId: "BIG",
    name: "Big",
    versionDate: "2024-12-31",
    sourceTextUrl: "https://www.legislation.gov.au/big/2024-12-31/text",
    datasetRoot: "../data",
    artifacts,
  } as unknown as LockManifest;
  manifest.datasetDigest = computeDatasetDigest(manifest);
  await mkdir(join(dir, "data"), { recursive: true });
  await mkdir(join(dir, "t"), { recursive: true });
  await writeFile(join(dir, "t/big.lock.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, "t/big.jsonl"), "{}\n");
}

/** A Swiss act as published (German edition), headings `##### **Art. n** Title` under chapters, one artifact. */
const SWISS_ACT = `---
title: Bundesgesetz über die Unabhängigkeit der Aufsicht
---
# Bundesgesetz über die Unabhängigkeit der Aufsicht

## 1. Kapitel: Allgemeine Bestimmungen

##### **Art. 1** Zweck

Dieses Gesetz regelt die Aufsicht.

##### **Art. 2** Unabhängigkeit

Die Aufsichtsbehörde ist in ihrer Tätigkeit unabhängig.

##### **Art. 3** Aufsicht

Sie untersteht der Oberaufsicht des Bundesrates.

## 2. Kapitel: Schlussbestimmungen

##### **Art. 4** Inkrafttreten

Der Bundesrat bestimmt das Inkrafttreten.
`;

const SWISS_JSONL = ".tooling/citation-targets/sr-101-de.jsonl";

/** A git repository with the Swiss act adopted: `laws/sr-101-de/index.md`, its manifest and JSONL. */
async function swissRepository(file = "laws/sr-101-de/index.md", pattern = "laws/*"): Promise<void> {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  await mkdir(join(dir, dirname(file)), { recursive: true });
  await writeFile(join(dir, file), SWISS_ACT);
  const adopted = await runMain(
    [
      "adopt",
      pattern,
      "--title-id",
      "101",
      "--name",
      "{front.title}",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.legislation.gov.au/{folder}/2024-01-01/text",
      "--no-cache",
    ],
    dir,
  );
  expect(adopted.code, adopted.stderr).toBe(0);
}

/** Edits the JSONL's records by hand, one line each. */
async function editRecords(file: string, change: (record: Record<string, unknown>) => void): Promise<void> {
  const path = join(dir, file);
  const lines = (await readFile(path, "utf8")).split("\n").slice(0, -1);
  const edited = lines.map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    change(record);
    return JSON.stringify(record);
  });
  await writeFile(path, `${edited.join("\n")}\n`);
}

interface JsonProblem {
  ruleId: string;
  line: number;
  pointer: string;
  message: string;
}

async function validateJson(args: string[]): Promise<{ code: number; problems: JsonProblem[]; stderr: string }> {
  const result = await runMain(["validate", ...args, "--format", "json"], dir);
  const report = JSON.parse(result.stdout) as { files: { problems: JsonProblem[]; error?: string }[] };
  return { code: result.code, problems: report.files.flatMap((f) => f.problems), stderr: result.stderr };
}

describe("item 1: validate with a lock manifest finds every record that differs from what generate writes", () => {
  test("headingText edited (Art. 2 Unabhängigkeit → Abhängigkeit), its markdown unchanged: one problem, at its pointer, saying what generate writes", async () => {
    await swissRepository();
    expect((await runMain(["validate", "--no-cache"], dir)).code).toBe(0);
    await editRecords(SWISS_JSONL, (r) => {
      if (r.headingText === "Art. 2 Unabhängigkeit") {
        expect(r.markdown).toContain("##### **Art. 2** Unabhängigkeit");
        r.headingText = "Art. 2 Abhängigkeit";
      }
    });
    const result = await validateJson(["--no-cache"]);
    expect(result.code).toBe(1);
    expect(result.problems).toEqual([
      expect.objectContaining({
        ruleId: "lock-generated",
        pointer: "/headingText",
        message: expect.stringContaining(
          'headingText is "Art. 2 Abhängigkeit", generate writes "Art. 2 Unabhängigkeit"',
        ),
      }),
    ]);
    const line = (await readFile(join(dir, SWISS_JSONL), "utf8"))
      .split("\n")
      .findIndex((l) => l.includes('"headingText":"Art. 2 Abhängigkeit"'));
    expect(result.problems[0]!.line).toBe(line + 1);
  });

  test("a headingTrail entry edited, and sourceIndexKind body-block → body-div on a later record: one problem each", async () => {
    await swissRepository();
    let seen = 0;
    await editRecords(SWISS_JSONL, (r) => {
      if (r.headingText === "Art. 3 Aufsicht")
        r.headingTrail = ["Bundesgesetz über die Aufsicht", "1. Kapitel: Allgemeine Bestimmungen"];
      if (r.headingText === "Art. 4 Inkrafttreten") {
        expect(r.sourceIndexKind).toBe("body-block");
        r.sourceIndexKind = "body-div";
      }
      seen++;
    });
    expect(seen).toBeGreaterThan(4);
    const result = await validateJson(["--no-cache"]);
    expect(result.code).toBe(1);
    expect(result.problems.map((p) => [p.ruleId, p.pointer])).toEqual([
      ["lock-generated", "/headingTrail"],
      ["lock-generated", "/sourceIndexKind"],
    ]);
    expect(result.problems[1]!.message).toContain('sourceIndexKind is "body-div", generate writes "body-block"');
  });

  test("a value that differs only where nothing shows (a letter decomposed, a zero-width space): the difference named by code point", async () => {
    await repository();
    await editRecords(JSONL, (r) => {
      const trail = r.headingTrail as string[];
      if (trail.length === 1) r.headingTrail = [trail[0]!.replace("über", "u\u0308ber")]; // as a Mac's file name gives it
      if (r.headingText === "§ 2 Begriffsbestimmungen") r.headingText = "§ 2 Begriffs\u200bbestimmungen";
    });
    const result = await validateJson(["--no-cache"]);
    const said = result.problems.filter((p) => p.ruleId === "lock-generated").map((p) => [p.pointer, p.message]);
    const trails = said.filter(([pointer]) => pointer === "/headingTrail");
    expect(trails.length).toBeGreaterThan(0);
    for (const [pointer, message] of trails)
      expect(message, pointer).toContain(
        '(where they differ, the file has "u" U+0308 (combining mark), generate writes "ü": the same text decomposed, which generate writes composed (Unicode NFC)): regenerate',
      );
    expect(said).toContainEqual([
      "/headingText",
      expect.stringContaining(
        'generate writes "§ 2 Begriffsbestimmungen" (where they differ, the file has U+200B (format character), generate writes "b"): regenerate',
      ),
    ]);
    // A difference in sight is shown as before, with nothing added.
    await repository();
    await editRecords(JSONL, (r) => {
      if (r.headingText === "§ 2 Begriffsbestimmungen") r.headingText = "§ 2 Begriffsbestimmung";
    });
    const plain = await validateJson(["--no-cache"]);
    expect(plain.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^headingText is "§ 2 Begriffsbestimmung", generate writes "§ 2 Begriffsbestimmungen": regenerate/,
      ),
    ]);
  });

  test("mvfg (German federal law): a block range edited is found; with the cache warm the same edit is found too", async () => {
    await repository();
    expect((await runMain(["validate", "--no-cache"], dir)).code).toBe(0);
    await editRecords(JSONL, (r) => {
      if (r.headingText === "§ 2 Begriffsbestimmungen")
        r.sourceArtifactBlockEndExclusive = (r.sourceArtifactBlockEndExclusive as number) + 1;
    });
    const result = await validateJson([]);
    expect(result.problems.filter((p) => p.ruleId === "lock-generated").map((p) => p.pointer)).toEqual([
      "/sourceArtifactBlockEndExclusive",
    ]);
  });

  test("an artifact that no longer matches its pin: the dataset is stale, said once, not once per record", async () => {
    await repository();
    const markdown = join(dir, "fixtures/datasets/mvfg/mvfg.md");
    await writeFile(markdown, (await readFile(markdown, "utf8")).replaceAll("Musterbehörden", "Musterbehörde"));
    const result = await validateJson(["--no-cache"]);
    expect(result.code).toBe(1);
    expect(result.problems.map((p) => p.ruleId)).toEqual(["lock-artifact-body"]);
    expect(result.problems[0]!.message).toContain("has changed since the lock manifest was written");
  });
});

describe("item 2: a dataset folder that is not there is an error, never a pass", () => {
  test("git mv of the law's folder: exit 1, lock-dataset-files names the folder", async () => {
    await repository();
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["mv", "fixtures/datasets/mvfg", "fixtures/datasets/mvfg-neu"], { cwd: dir });
    const result = await runMain(["validate", "--no-cache", "--verbose"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("no problems");
    expect(result.stderr).not.toContain("artifact checks skipped");
    expect(result.stdout).toContain(
      `the dataset folder fixtures/datasets/mvfg (datasetRoot of lock manifest ${MANIFEST}) is not there (moved or deleted?)`,
    );
    expect(result.stdout).toContain("lock-dataset-files");
  });

  test("git rm -r of the law's folder, validate --staged: exit 1", async () => {
    await repository();
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["-c", "user.email=t@e.org", "-c", "user.name=t", "commit", "-qm", "law"], { cwd: dir });
    execFileSync("git", ["rm", "-rq", "fixtures/datasets/mvfg"], { cwd: dir });
    const result = await runMain(["validate", "--staged", "--no-cache"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("fixtures/datasets/mvfg (datasetRoot of lock manifest");
  });

  test('--no-artifacts and config "artifacts": false skip the artifact checks, and say so on standard error', async () => {
    await repository();
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["mv", "fixtures/datasets/mvfg", "fixtures/datasets/elsewhere"], { cwd: dir });
    const flag = await runMain(["validate", "--no-artifacts"], dir);
    expect(flag.code).toBe(0);
    expect(flag.stderr).toBe("citation-targets: artifact checks skipped for 1 dataset (--no-artifacts)\n");
    await writeFile(join(dir, ".citation-targets.json"), '{ "artifacts": false }\n');
    const config = await runMain(["validate"], dir);
    expect(config.code).toBe(0);
    expect(config.stderr).toBe('citation-targets: artifact checks skipped for 1 dataset (config "artifacts": false)\n');
  });
});

/** Six laws adopted (copies of mvfg under other names), then each amended: `update` has 12 files to write. */
async function amendedLaws(): Promise<void> {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  for (let i = 1; i <= 6; i++)
    await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, `laws/mvfg-${i}`), { recursive: true });
  const adopted = await runMain(
    [
      "adopt",
      "laws/*",
      "--title-id",
      "{front.jurabk}",
      "--name",
      "{front.title}",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.legislation.gov.au/{folder}/2024-01-01/text",
      "--no-cache",
    ],
    dir,
  );
  expect(adopted.code, adopted.stderr).toBe(0);
  for (let i = 1; i <= 6; i++) {
    const file = join(dir, `laws/mvfg-${i}/mvfg.md`);
    await writeFile(file, `${await readFile(file, "utf8")}\nNeuer Absatz.\n`);
  }
}

const temporaries = async () =>
  (await readdir(join(dir, ".tooling/citation-targets"))).filter((name) => name.endsWith(".tmp"));

describe("item 4: an interrupted update leaves no temporary file; validate and update --check warn of any left", () => {
  const signalOnTemporary = join(repoRoot, "test/helpers/signal-on-temporary.mjs");
  test.each([
    ["SIGINT", "1"],
    ["SIGTERM", "1"],
    ["SIGINT", "2"],
  ])(
    "%s while update writes (--jobs %s): the temporary files are removed, the signal ends the run",
    async (signal, jobs) => {
      await amendedLaws();
      const result = await runCommand(
        process.execPath,
        ["--import", signalOnTemporary, bin, "update", "--no-cache", "--jobs", jobs],
        dir,
        { SIGNAL_TMP_AT: "7", SIGNAL_TMP: signal },
      );
      expect(result.code).not.toBe(0);
      expect(await temporaries()).toEqual([]);
    },
    60_000,
  );

  test("temporary files left by an earlier run: validate and update --check name them on standard error (the count and the first 20), the exit code unchanged", async () => {
    await repository();
    for (let i = 0; i < 22; i++)
      await writeFile(
        join(dir, `.tooling/citation-targets/.mvfg.jsonl.99999999.${String(i).padStart(8, "0")}.tmp`),
        "",
      );
    const validated = await runMain(["validate", "--no-cache"], dir);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toContain(
      "citation-targets: warning: 22 temporary files left by an interrupted write (remove them, or `git add -A` commits them):\n  .tooling/citation-targets/.mvfg.jsonl.99999999.00000000.tmp\n",
    );
    expect(validated.stderr).toContain("  … and 2 more\n");
    expect(validated.stderr.split("\n").filter((line) => line.endsWith(".tmp"))).toHaveLength(20);
    const checked = await runMain(["update", "--check", "--no-cache"], dir);
    expect(checked.code).toBe(0);
    expect(checked.stderr).toContain("22 temporary files left by an interrupted write");
  });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@e.org", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** The mvfg repository committed, then cloned as a Windows checkout would be (core.autocrlf=true): CR LF everywhere. */
async function windowsCheckout(): Promise<string> {
  await repository();
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "law");
  git(dir, "-c", "core.autocrlf=true", "clone", "-q", dir, "windows");
  const clone = join(dir, "windows");
  git(clone, "config", "core.autocrlf", "true");
  return clone;
}

describe("item 5: a Windows checkout (core.autocrlf=true)", () => {
  test("validate: carriage-return is one problem per file (the first line, then the rest folded), not one per line", async () => {
    const clone = await windowsCheckout();
    expect(await readFile(join(clone, JSONL), "utf8")).toContain("\r\n");
    const result = await runMain(["validate", "--no-cache", JSONL, "--format", "json"], clone);
    expect(result.code).toBe(1);
    const problems = (JSON.parse(result.stdout) as { files: { problems: JsonProblem[] }[] }).files[0]!.problems;
    const crlf = problems.filter((p) => p.ruleId === "carriage-return");
    expect(crlf.map((p) => p.line)).toEqual([1, 2]);
    expect(crlf[1]!.message).toBe("the same on 20 more records (lines 2 to 21): line ends with CR LF");
    // The artifact, CR LF too, is said to differ only in its line endings: update is not the fix, nor a checkout (it
    // would throw away an edit not committed); the conversion of its line endings alone is.
    expect(problems.filter((p) => p.ruleId !== "carriage-return").map((p) => p.message)).toEqual([
      expect.stringContaining(
        'artifact "mvfg.md" differs from the sha256 the lock manifest pins only in its line endings',
      ),
    ]);
    const advice = problems.find((p) => p.ruleId === "lock-artifact-body")!.message;
    expect(advice).toContain(
      "convert it back to LF (the line endings only: edits are kept): `sed -i 's/\\r$//' fixtures/datasets/mvfg/mvfg.md`",
    );
    expect(advice).not.toMatch(/check the file out|git checkout/);
  });

  test("a one-file dataset in CR LF: validate's conversion names the file itself", async () => {
    await swissRepository("ch/sr-101.md", "ch/*.md"); // a one-file dataset
    const act = join(dir, "ch/sr-101.md");
    await writeFile(act, (await readFile(act, "utf8")).replaceAll("\n", "\r\n"));
    const checked = await runMain(["validate", "--no-cache", "--format", "json"], dir);
    const messages = (JSON.parse(checked.stdout) as { files: { problems: JsonProblem[] }[] }).files.flatMap((f) =>
      f.problems.filter((p) => p.ruleId === "lock-artifact-body").map((p) => p.message),
    );
    expect(messages).toEqual([expect.stringContaining("`sed -i 's/\\r$//' ch/sr-101.md`")]);
  });

  test("update --check: only line endings differ (CR LF); lineEndingsOnly in JSON; no update advised", async () => {
    const clone = await windowsCheckout();
    const text = await runMain(["update", "--check", "--no-cache"], clone);
    expect(text.stdout).toContain("mvfg: only line endings differ (CR LF)");
    expect(text.stderr).not.toContain("run `citation-targets update");
    expect(text.code).toBe(0);
    const json = await runMain(["update", "--check", "--no-cache", "--format", "json"], clone);
    expect(JSON.parse(json.stdout).datasets[0]).toMatchObject({ slug: "mvfg", lineEndingsOnly: true });
    // A real change besides the line endings is a change.
    const markdown = join(clone, "fixtures/datasets/mvfg/mvfg.md");
    await writeFile(markdown, `${await readFile(markdown, "utf8")}Neuer Absatz.\r\n`);
    const changed = await runMain(["update", "--check", "--no-cache"], clone);
    expect(changed.code).toBe(1);
    expect(changed.stdout).not.toContain("only line endings differ");
  });

  test("update without --check writes nothing when only line endings differ, as --check says (no digest pinned over CR LF)", async () => {
    const clone = await windowsCheckout();
    const manifest = join(clone, ".tooling/citation-targets/mvfg.lock.json");
    const before = { manifest: await readFile(manifest), jsonl: await readFile(join(clone, JSONL)) };
    const updated = await runMain(["update", "--no-cache"], clone);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain("mvfg: only line endings differ (CR LF)");
    expect(updated.stdout).not.toContain("wrote");
    expect(await readFile(manifest)).toEqual(before.manifest);
    expect(await readFile(join(clone, JSONL))).toEqual(before.jsonl);
    // Its JSON report says the dataset as it is read with CR LF as LF: no artifact changed, the manifest's digest.
    const json = JSON.parse((await runMain(["update", "--no-cache", "--format", "json"], clone)).stdout);
    const [dataset] = json.datasets;
    const pinned = JSON.parse(before.manifest.toString("utf8")).datasetDigest;
    expect(dataset).toMatchObject({ slug: "mvfg", lineEndingsOnly: true, written: false });
    expect(dataset.artifacts.changed).toEqual([]);
    expect(dataset.datasetDigest).toEqual({ before: pinned, after: pinned });
    expect(dataset.records.reidentified ?? 0).toBe(0);
    // A real change besides the line endings is written as before.
    const markdown = join(clone, "fixtures/datasets/mvfg/mvfg.md");
    await writeFile(markdown, `${await readFile(markdown, "utf8")}Neuer Absatz.\r\n`);
    const changed = await runMain(["update", "--no-cache"], clone);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain("mvfg: updated");
    expect(await readFile(manifest)).not.toEqual(before.manifest);
  });

  /** The mvfg repository with its markdown saved in CR LF (a Windows editor): the manifest and the JSONL stay LF. */
  async function markdownInCrLf(): Promise<string> {
    await repository();
    const markdown = join(dir, "fixtures/datasets/mvfg/mvfg.md");
    await writeFile(markdown, (await readFile(markdown, "utf8")).replaceAll("\n", "\r\n"));
    return markdown;
  }
  const TO_LF =
    "convert it back to LF (the line endings only: edits are kept): `sed -i 's/\\r$//' fixtures/datasets/mvfg/mvfg.md` (on macOS, `sed -i ''`)";

  test("lock and lock --check: only line endings differ (CR LF): nothing pinned, exit 0, the conversion named, neither lock nor update advised", async () => {
    await markdownInCrLf();
    const pinned = await readFile(join(dir, MANIFEST));
    for (const args of [["--check"], []]) {
      const locked = await runMain(["lock", "fixtures/datasets/mvfg", ...args], dir);
      expect(locked.code, locked.stderr).toBe(0);
      expect(locked.stderr).toContain(
        `${MANIFEST}: only line endings differ (CR LF): mvfg.md is what the manifest pins`,
      );
      expect(locked.stderr).toContain(TO_LF);
      expect(locked.stderr).not.toContain("run `citation-targets");
    }
    expect(await readFile(join(dir, MANIFEST))).toEqual(pinned);
    const json = await runMain(["lock", "fixtures/datasets/mvfg", "--check", "--format", "json"], dir);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "up-to-date", written: false, lineEndingsOnly: true });
  });

  test("lock and update refuse to pin an artifact that differs only in CR LF beside a real change; --check says to convert it first", async () => {
    await markdownInCrLf();
    await writeFile(join(dir, "fixtures/datasets/mvfg/anlage.md"), "# Anlage 1\n\nText.\n");
    const pinned = await readFile(join(dir, MANIFEST));
    const locked = await runMain(["lock", "fixtures/datasets/mvfg"], dir);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(
      "mvfg.md: differs from its pin only in line endings (CR LF): lock would pin the CR LF bytes",
    );
    expect(locked.stderr).toContain(`hint: ${TO_LF}`);
    const updated = await runMain(["update", "--no-cache"], dir);
    expect(updated.code).toBe(1);
    expect(updated.stderr).toContain(
      "mvfg.md: differs from its pin only in line endings (CR LF): update would pin the CR LF bytes",
    );
    expect(await readFile(join(dir, MANIFEST))).toEqual(pinned);
    const checked = await runMain(["lock", "fixtures/datasets/mvfg", "--check"], dir);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      `hint: mvfg.md differs from its pin only in line endings (CR LF), which lock must not pin: ${TO_LF}`,
    );
  });

  test("many files in CR LF beside a real edit: the advice converts the line endings of the folder's markdown and keeps the edit", async () => {
    await repository();
    const folder = join(dir, "fixtures/datasets/mvfg");
    for (let k = 1; k <= 6; k++) await writeFile(join(folder, `anlage-${k}.md`), `# Anlage ${k}\n\nText ${k}.\n`);
    expect((await runMain(["lock", "fixtures/datasets/mvfg", "-o", MANIFEST], dir)).code).toBe(0);
    for (let k = 1; k <= 6; k++) {
      const file = join(folder, `anlage-${k}.md`);
      await writeFile(file, (await readFile(file, "utf8")).replaceAll("\n", "\r\n"));
    }
    const mvfg = join(folder, "mvfg.md");
    await writeFile(mvfg, `${await readFile(mvfg, "utf8")}\nEin neuer Satz.\n`);
    const locked = await runMain(["lock", "fixtures/datasets/mvfg", "-o", MANIFEST], dir);
    expect(locked.code).toBe(1);
    expect(locked.stderr).not.toContain("git checkout");
    // Five named, the rest counted (a Windows checkout of a statute book as one dataset has thousands).
    expect(locked.stderr.match(/differs from its pin only in line endings/g)).toHaveLength(5);
    expect(locked.stderr).toContain("… and 1 more artifacts that differ so");
    const checked = await runMain(["lock", "fixtures/datasets/mvfg", "-o", MANIFEST, "--check"], dir);
    expect(checked.stderr).toContain(
      "anlage-1.md, anlage-2.md, anlage-3.md, anlage-4.md, anlage-5.md and 1 more differ from their pins only in line endings",
    );
    const command = /`(find [^`]+)`/.exec(locked.stderr)?.[1];
    expect(command).toBe(
      "find fixtures/datasets/mvfg -type f \\( -name '*.md' -o -name '*.markdown' \\) -exec sed -i 's/\\r$//' {} +",
    );
    execFileSync("sh", ["-c", command!], { cwd: dir });
    expect(await readFile(mvfg, "utf8")).toContain("Ein neuer Satz.");
    expect(await readFile(join(folder, "anlage-1.md"), "utf8")).toBe("# Anlage 1\n\nText 1.\n");
    expect((await runMain(["lock", "fixtures/datasets/mvfg", "-o", MANIFEST], dir)).code).toBe(0);
  });

  test("generate: an artifact that differs only in CR LF is said so, with the conversion, and no update advised", async () => {
    await markdownInCrLf();
    const generated = await runMain(["generate", MANIFEST], dir);
    expect(generated.code).toBe(1);
    expect(generated.stderr).toContain("mvfg.md: differs from its pin only in line endings (CR LF");
    expect(generated.stderr).toContain(`hint: lock or update would pin the CR LF bytes; instead ${TO_LF}`);
    expect(generated.stderr).not.toContain("citation-targets update");
  });

  test("update names the files to convert back to LF: the JSONL alone, or every file of a Windows checkout", async () => {
    await repository();
    const jsonl = join(dir, JSONL);
    await writeFile(jsonl, (await readFile(jsonl, "utf8")).replaceAll("\n", "\r\n"));
    const updated = await runMain(["update", "--no-cache"], dir);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(
      `  convert it back to LF (the line endings only: edits are kept): \`sed -i 's/\\r$//' ${JSONL}\``,
    );
    const clone = await windowsCheckout();
    const windows = await runMain(["update", "--check", "--no-cache"], clone);
    expect(windows.stdout).toContain(
      `  convert them back to LF (the line endings only: edits are kept): \`sed -i 's/\\r$//' fixtures/datasets/mvfg/mvfg.md ${MANIFEST} ${JSONL}\``,
    );
  });

  test("adopt writes .gitattributes (-text for the tooling folder and each dataset root): a Windows clone keeps LF and validates", async () => {
    await swissRepository();
    expect(await readFile(join(dir, ".gitattributes"), "utf8")).toBe(
      ".tooling/citation-targets/** -text\nlaws/sr-101-de/** -text\n",
    );
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "law");
    git(dir, "-c", "core.autocrlf=true", "clone", "-q", dir, "windows");
    const clone = join(dir, "windows");
    expect(await readFile(join(clone, "laws/sr-101-de/index.md"), "utf8")).not.toContain("\r");
    expect((await runMain(["validate", "--no-cache"], clone)).code).toBe(0);
    // Adopted again: nothing added twice.
    await runMain(
      [
        "adopt",
        "laws/*",
        "--title-id",
        "101",
        "--name",
        "{front.title}",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        "https://www.legislation.gov.au/{folder}/2024-01-01/text",
        "--no-cache",
      ],
      dir,
    );
    expect(await readFile(join(dir, ".gitattributes"), "utf8")).toBe(
      ".tooling/citation-targets/** -text\nlaws/sr-101-de/** -text\n",
    );
  });
});

/** The German and French editions of one Swiss act: the same SR number and date, different names. */
async function swissEditions(): Promise<string[]> {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  await mkdir(join(dir, "laws/sr-101-de"), { recursive: true });
  await mkdir(join(dir, "laws/sr-101-fr"), { recursive: true });
  await writeFile(join(dir, "laws/sr-101-de/index.md"), SWISS_ACT.replace("---\ntitle:", '---\nsr: "101"\ntitle:'));
  await writeFile(
    join(dir, "laws/sr-101-fr/index.md"),
    "---\nsr: \"101\"\ntitle: Loi fédérale sur l'indépendance de la surveillance\n---\n# Loi fédérale sur l'indépendance de la surveillance\n\n##### **Art. 1** But\n\nLa présente loi règle la surveillance.\n\n##### **Art. 2** Indépendance\n\nL'autorité de surveillance est indépendante.\n",
  );
  return [
    "adopt",
    "laws/*",
    "--title-id",
    "{front.sr}",
    "--name",
    "{front.title}",
    "--version-date",
    "2024-01-01",
    "--source-text-url",
    "https://www.legislation.gov.au/{folder}/2024-01-01/text",
    "--no-cache",
  ];
}

describe("item 6: a renamed dataset folder makes no silent second dataset", () => {
  test("the German and French editions of one act (same SR number and date, other names): no warning", async () => {
    const adopt = await swissEditions();
    const adopted = await runMain(adopt, dir);
    expect(adopted.code).toBe(0);
    expect(adopted.stderr).not.toContain("one law twice");
    const validated = await runMain(["validate", "--no-cache"], dir);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe("");
  });

  test("git mv of a folder, then adopt again: adopt and validate warn that the two datasets look like one law twice", async () => {
    const adopt = await swissEditions();
    expect((await runMain(adopt, dir)).code).toBe(0);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "laws");
    git(dir, "mv", "laws/sr-101-de", "laws/sr-101-deutsch");
    const again = await runMain(adopt, dir);
    expect(again.code).toBe(0);
    const warning =
      '.tooling/citation-targets/sr-101-de.lock.json, .tooling/citation-targets/sr-101-deutsch.lock.json look like one law twice (the same titleId "101", versionDate 2024-01-01 and name)';
    expect(again.stderr).toContain(warning);
    expect(again.stderr).toContain(
      "was a dataset folder moved and adopted again under a new slug? Repoint the old manifest with `citation-targets adopt --move NEW-FOLDER`",
    );
    const validated = await runMain(["validate", "--no-cache"], dir);
    expect(validated.code).toBe(1); // the orphaned manifest's folder is not there
    expect(validated.stderr).toContain(`citation-targets: warning: ${warning}`);
    expect(validated.stderr).not.toContain("sr-101-fr");
  });

  test("git mv of a folder, then adopt --move: the orphaned manifest is repointed, its slug, addresses and JSONL kept", async () => {
    const adopt = await swissEditions();
    expect((await runMain(adopt, dir)).code).toBe(0);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "laws");
    const jsonl = await readFile(join(dir, ".tooling/citation-targets/sr-101-de.jsonl"), "utf8");
    git(dir, "mv", "laws/sr-101-de", "laws/sr-101-deutsch");
    expect((await runMain(["validate", "--no-cache"], dir)).code).toBe(1);
    const moved = await runMain(["adopt", "--move", "laws/sr-101-deutsch", "--no-cache"], dir);
    expect(moved.code, moved.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(dir, ".tooling/citation-targets/sr-101-de.lock.json"), "utf8"));
    expect(manifest).toMatchObject({ slug: "sr-101-de", datasetRoot: "../../laws/sr-101-deutsch" });
    expect(await readFile(join(dir, ".tooling/citation-targets/sr-101-de.jsonl"), "utf8")).toBe(jsonl);
    expect(await readdir(join(dir, ".tooling/citation-targets"))).not.toContain("sr-101-deutsch.lock.json");
    const validated = await runMain(["validate", "--no-cache"], dir);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe("");
    // A folder no orphaned manifest belongs to is refused, named: one that is a dataset's already as such, another as
    // one that no manifest lost.
    const none = await runMain(["adopt", "--move", "laws/sr-101-fr", "--no-cache"], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      "laws/sr-101-fr: it is the dataset folder of .tooling/citation-targets/sr-101-fr.lock.json already: nothing to move",
    );
    await mkdir(join(dir, "laws/neu"), { recursive: true });
    await writeFile(join(dir, "laws/neu/index.md"), "# Neu\n");
    const stray = await runMain(["adopt", "--move", "laws/neu", "--no-cache"], dir);
    expect(stray.code).toBe(1);
    expect(stray.stderr).toContain(
      "laws/neu: no lock manifest in .tooling/citation-targets has its dataset folder gone",
    );
  });
});

describe("item 3: no crash past 50,000 items", () => {
  test("a lock manifest of many missing artifacts: every problem counted, the cap kept, no stack overflow (a small stack stands for 100,000)", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    await manifestOfMissing(30_000);
    const stylish = await runCommand(
      process.execPath,
      ["--stack-size=120", bin, "validate", "t/big.jsonl", "--no-cache", "--max-stored-problems", "20000"],
      dir,
    );
    expect(stylish.stderr).toBe("");
    expect(stylish.code).toBe(1);
    expect(stylish.stdout).toContain("✖ 60001 problems (60001 errors, 0 warnings) in 1 file, 1 record");
    const json = await runMain(["validate", "t/big.jsonl", "--no-cache", "--format", "json"], dir);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    // 10,000 of the lines' own problems at most, and as many of those found at the end: the cap applies to them too.
    expect(report.files[0].problems.length).toBeLessThanOrEqual(20_000);
    expect(report.summary.errors).toBe(60_001);
  }, 120_000);

  test("generate of many setext headings in one artifact: no stack overflow (a small stack stands for a million)", async () => {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const parts = ["# Titel\n\n"];
    for (let i = 0; i < 30_000; i++) parts.push(`Abschnitt ${i}\n---\n\n`);
    await mkdir(join(dir, "law"));
    await writeFile(join(dir, "law/index.md"), parts.join(""));
    const lock = await runMain(
      [
        "lock",
        "law",
        "-o",
        "t/x.lock.json",
        "--slug",
        "x",
        "--title-id",
        "X",
        "--name",
        "X",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        "https://www.legislation.gov.au/x/text",
      ],
      dir,
    );
    expect(lock.code).toBe(0);
    const result = await runCommand(
      process.execPath,
      ["--stack-size=120", bin, "generate", "t/x.lock.json", "-o", "t/x.jsonl", "--jobs", "1"],
      dir,
    );
    expect(result.stderr).not.toContain("Maximum call stack");
    expect(result.code).toBe(0);
    const lines = (await readFile(join(dir, "t/x.jsonl"), "utf8")).split("\n").length - 1;
    expect(lines).toBe(30_001);
  }, 120_000);
});
