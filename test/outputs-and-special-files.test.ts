/**
 * Issue #32, items 4 and 5: the cache and the job summary are outputs, and outputs never go over inputs (the rule of
 * `-o`); and neither is ever a device or a FIFO, which would never end or block for ever (SECURITY.md, "Outputs never
 * over inputs", "Only regular files are read").
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { bin, runBin, runCommand } from "./helpers/bin.js";
import { tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const JSONL = ".tooling/citation-targets/mvfg.jsonl";
const MANIFEST = ".tooling/citation-targets/mvfg.lock.json";
const LAW = "fixtures/datasets/mvfg/mvfg.md";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["mvfg.jsonl", "mvfg.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/mvfg"), join(dir, "fixtures/datasets/mvfg"), { recursive: true });
});
afterEach(async () => cleanup());

/** Runs the built bin with a time limit: a command that blocks on a FIFO is killed (exit 137), never hangs the test. */
const bounded = (args: string[], env: Record<string, string> = {}) =>
  runCommand("timeout", ["-s", "KILL", "60", process.execPath, bin, ...args], dir, env);

describe("item 4: the cache and the job summary never go over an input", () => {
  test("validate --cache-location naming the JSONL it checks is refused, naming it; the JSONL stays", async () => {
    const before = await readFile(join(dir, JSONL));
    const result = await runBin(["validate", JSONL, "--cache-location", JSONL], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `citation-targets: refusing to write the cache over ${join(dir, JSONL)}: it is not a cache file of citation-targets (an input, or another file, would be replaced); name another with --cache-location, or remove it\n`,
    );
    expect(await readFile(join(dir, JSONL))).toEqual(before);
  });

  test("update --cache-location naming a law (an artifact) or the manifest is refused; nothing changes", async () => {
    for (const target of [LAW, MANIFEST]) {
      const before = await readFile(join(dir, target));
      const result = await runBin(["update", "--cache-location", target], dir);
      expect(result.code, target).toBe(2);
      expect(result.stderr, target).toMatch(
        target === LAW
          ? `refusing to write the cache over ${join(dir, target)}: it is not a cache file of citation-targets`
          : `refusing to write ${target}: it is the lock manifest ${target}, an input of this run`,
      );
      expect(await readFile(join(dir, target))).toEqual(before);
    }
  });

  test("an empty file or a cache file at --cache-location is written, and read back", async () => {
    await writeFile(join(dir, "cache.json"), "");
    expect((await runBin(["update", "--cache-location", "cache.json"], dir)).code).toBe(0);
    const written = JSON.parse(await readFile(join(dir, "cache.json"), "utf8")) as { entries: object };
    expect(Object.keys(written.entries)).toHaveLength(1);
    expect((await runBin(["update", "--cache-location", "cache.json"], dir)).code).toBe(0);
  });

  test("GITHUB_STEP_SUMMARY naming the JSONL checked or its manifest: validate's result stands, the file is not appended to", async () => {
    for (const target of [JSONL, MANIFEST]) {
      const before = await readFile(join(dir, target));
      const result = await runBin(["validate", JSONL], dir, { GITHUB_STEP_SUMMARY: join(dir, target) });
      expect(result.code, target).toBe(0);
      expect(result.stderr, target).toContain(
        `not appending the job summary to ${join(dir, target)} (GITHUB_STEP_SUMMARY): it is the ${target === JSONL ? "file checked" : "lock manifest"} ${target}, an input of this run; the result above stands`,
      );
      expect(await readFile(join(dir, target))).toEqual(before);
    }
  });

  test("GITHUB_STEP_SUMMARY naming an input of diff is not appended to", async () => {
    await cp(join(dir, JSONL), join(dir, "old.jsonl"));
    const before = await readFile(join(dir, "old.jsonl"));
    const result = await runBin(["diff", "old.jsonl", JSONL], dir, { GITHUB_STEP_SUMMARY: join(dir, "old.jsonl") });
    expect(result.stderr).toContain(`not appending the job summary to ${join(dir, "old.jsonl")}`);
    expect(await readFile(join(dir, "old.jsonl"))).toEqual(before);
  });
});

describe("item 4: every input of validate and diff is one: the artifacts a manifest pins, the files --against finds", () => {
  test("validate: GITHUB_STEP_SUMMARY naming a law is not appended to; --output-file naming it is refused; the law stays", async () => {
    const before = await readFile(join(dir, LAW));
    const summary = await runBin(["validate", JSONL], dir, { GITHUB_STEP_SUMMARY: join(dir, LAW) });
    expect(summary.code).toBe(0);
    expect(summary.stderr).toContain(
      `not appending the job summary to ${join(dir, LAW)} (GITHUB_STEP_SUMMARY): it is the artifact mvfg.md of ${MANIFEST}, an input of this run; the result above stands`,
    );
    const output = await runBin(["validate", JSONL, "--format", "json", "--output-file", LAW], dir);
    expect(output.code).toBe(2);
    expect(output.stderr).toContain(
      `refusing to write ${LAW}: it is the artifact mvfg.md of ${MANIFEST}, an input of this run`,
    );
    expect(await readFile(join(dir, LAW))).toEqual(before);
  });

  test("diff --against HEAD: the working JSONL, its manifest and a law are inputs, for the job summary and --output-file", async () => {
    await rm(join(dir, ".git"), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: dir,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@t",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@t",
        },
      });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "datasets");
    for (const target of [JSONL, MANIFEST, LAW]) {
      const before = await readFile(join(dir, target));
      const summary = await runBin(["diff", "--against", "HEAD"], dir, { GITHUB_STEP_SUMMARY: join(dir, target) });
      expect(summary.code, target).toBe(0);
      expect(summary.stderr, target).toContain(`not appending the job summary to ${join(dir, target)}`);
      const output = await runBin(["diff", "--against", "HEAD", "--format", "json", "--output-file", target], dir);
      expect(output.code, target).toBe(2);
      expect(output.stderr, target).toContain(`refusing to write ${target}: it is the `);
      expect(await readFile(join(dir, target)), target).toEqual(before);
    }
  });
});

describe("view -o and generate -o never write over a dataset's own files, nor over another dataset's JSONL", () => {
  test("view -o naming the law or its lock manifest is refused by name; both stay", async () => {
    for (const target of [LAW, MANIFEST]) {
      const before = await readFile(join(dir, target));
      const result = await runBin(["view", JSONL, "-o", target], dir);
      expect(result.code, target).toBe(2);
      expect(result.stderr, target).toBe(
        target === LAW
          ? `citation-targets: refusing to write ${LAW}: it is the artifact mvfg.md of ${MANIFEST}, an input of this run; write the output elsewhere\n`
          : `citation-targets: refusing to write ${MANIFEST}: it is the lock manifest ${MANIFEST}, an input of this run; write the output elsewhere\n`,
      );
      expect(await readFile(join(dir, target)), target).toEqual(before);
    }
    const elsewhere = await runBin(["view", JSONL, "-o", "page.html"], dir);
    expect(elsewhere.code).toBe(0);
    expect((await readFile(join(dir, "page.html"), "utf8")).startsWith("<!DOCTYPE html>")).toBe(true);
  });

  test("generate -o naming another dataset's JSONL (its manifest beside it) is refused; its own JSONL and a new file are written", async () => {
    const other = ".tooling/citation-targets/other.jsonl";
    await writeFile(join(dir, other), "kept\n");
    await writeFile(join(dir, ".tooling/citation-targets/other.lock.json"), "{}\n");
    const refused = await runBin(["generate", MANIFEST, "-o", other], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `citation-targets: refusing to write ${other}: it is the JSONL of another dataset, whose lock manifest other.lock.json is beside it; the JSONL of this manifest (slug mvfg) is mvfg.jsonl: write the output there, or elsewhere\n`,
    );
    expect(await readFile(join(dir, other), "utf8")).toBe("kept\n");
    // Nor over another dataset's lock manifest; and view writes over neither.
    const manifest = ".tooling/citation-targets/other.lock.json";
    const overManifest = await runBin(["generate", MANIFEST, "-o", manifest], dir);
    expect(overManifest.code).toBe(2);
    expect(overManifest.stderr).toContain(`refusing to write ${manifest}: it is a lock manifest`);
    for (const target of [other, manifest]) {
      const viewed = await runBin(["view", JSONL, "-o", target], dir);
      expect(viewed.code, target).toBe(2);
      expect(viewed.stderr, target).toContain(`refusing to write ${target}: it is `);
    }
    expect(await readFile(join(dir, other), "utf8")).toBe("kept\n");
    expect(await readFile(join(dir, manifest), "utf8")).toBe("{}\n");
    const before = await readFile(join(dir, JSONL));
    expect((await runBin(["generate", MANIFEST, "-o", JSONL], dir)).code).toBe(0);
    expect(await readFile(join(dir, JSONL))).toEqual(before);
    // A name without a manifest beside it is the user's to choose.
    expect((await runBin(["generate", MANIFEST, "-o", "out/other.jsonl"], dir)).code).toBe(0);
    expect(await readFile(join(dir, "out/other.jsonl"))).toEqual(before);
  });
});

describe("generate --check: what a CI format and the first difference say", () => {
  test("a changed artifact is an issue at the manifest in every CI format (not an empty report), with update as the fix", async () => {
    await writeFile(join(dir, LAW), `${await readFile(join(dir, LAW), "utf8")}\nNeu.\n`);
    const fault = "mvfg.md: changed since the lock manifest was written (its sha256 is no longer the one pinned)";
    const github = await runBin(["generate", MANIFEST, "--check", JSONL, "--format", "github"], dir);
    expect(github.code).toBe(1);
    expect(github.stdout).toContain(`::error file=${MANIFEST},title=not up to date%3A mvfg::${fault}`);
    expect(github.stdout).toContain(`fix: citation-targets update ${MANIFEST}`);
    expect(github.stderr).toContain(`citation-targets: ${fault}`);
    const sarif = await runBin(["generate", MANIFEST, "--check", JSONL, "--format", "sarif"], dir);
    expect(sarif.code).toBe(1);
    const results = (
      JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; message: { text: string } }[] }[] }
    ).runs[0]!.results;
    expect(results.map((r) => r.ruleId)).toEqual(["not-up-to-date"]);
    expect(results[0]!.message.text).toContain(fault);
    for (const format of ["junit", "gitlab"]) {
      const report = await runBin(["generate", MANIFEST, "--check", JSONL, "--format", format], dir);
      expect(report.code, format).toBe(1);
      expect(report.stdout, format).toContain(fault);
    }
    // JSON keeps its documented contract: a dataset at fault is said on stderr, stdout empty.
    const json = await runBin(["generate", MANIFEST, "--check", JSONL, "--format", "json"], dir);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe("");
  });

  test("another dataset's file: no CI format gives the command that would regenerate it from this manifest", async () => {
    const other = ".tooling/citation-targets/gg.jsonl";
    await writeFile(join(dir, other), (await readFile(join(dir, JSONL), "utf8")).split("\n").slice(1).join("\n"));
    const advice = "do not regenerate it from this manifest (that would replace another dataset's records)";
    for (const format of ["github", "gitlab", "junit", "sarif"]) {
      const report = await runBin(["generate", MANIFEST, "--check", other, "--format", format], dir);
      expect(report.code, format).toBe(1);
      expect(report.stdout, format).not.toContain(`-o ${other}`);
      // Each says what to do instead, as the text report does (junit and gitlab escape the apostrophe).
      expect(report.stdout, format).toContain("do not regenerate it from this manifest");
    }
    const github = await runBin(["generate", MANIFEST, "--check", other, "--format", "github"], dir);
    expect(github.stdout).toContain(`%0Ahint: ${advice}`);
    expect(github.stdout).toContain(`✖ 1 of 1 dataset not up to date (generate --check): ${advice}`);
    // A stale file of this manifest still gets the command (quoted, as the text report's), said once as the fix.
    await mkdir(join(dir, "a b"));
    await writeFile(join(dir, "a b/mvfg.jsonl"), "{}\n");
    const stale = await runBin(["generate", MANIFEST, "--check", "a b/mvfg.jsonl", "--format", "github"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(`%0Afix: citation-targets generate ${MANIFEST} -o 'a b/mvfg.jsonl'\n`);
    expect(stale.stdout.match(/citation-targets generate /g)).toHaveLength(2); // the annotation's fix and the summary
  });

  test("json's records is the number that would be generated, wherever the first difference is", async () => {
    const fresh = await runBin(["generate", MANIFEST, "--check", JSONL, "--format", "json"], dir);
    const { records } = JSON.parse(fresh.stdout) as { records: number };
    expect(records).toBe((await readFile(join(dir, JSONL), "utf8")).trimEnd().split("\n").length);
    await mkdir(join(dir, "old"));
    const lines = (await readFile(join(dir, JSONL), "utf8")).split("\n");
    await writeFile(join(dir, "old/mvfg.jsonl"), [...lines.slice(0, 14), ...lines.slice(15)].join("\n"));
    const stale = await runBin(["generate", MANIFEST, "--check", "old/mvfg.jsonl", "--format", "json"], dir);
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout)).toMatchObject({
      status: "changed",
      records,
      firstDifference: { line: 15 },
      changes: { before: records - 1, after: records },
    });
  });

  test("a first line without a citationAddress, or not an object, is said in words (never `undefined`)", async () => {
    await mkdir(join(dir, "a"));
    for (const [line, words] of [
      ['{"x":1}', "(the file's record there has no citationAddress): artifactRelativePath differs"],
      ["[1]", "line 1 is not a JSON object: expected the record for mvfg/"],
    ] as const) {
      await writeFile(join(dir, "a/mvfg.jsonl"), `${line}\n`);
      const result = await runBin(["generate", MANIFEST, "--check", "a/mvfg.jsonl"], dir);
      expect(result.code, line).toBe(1);
      expect(result.stderr, line).toContain(words);
      expect(result.stderr, line).not.toContain("undefined");
    }
  });
});

describe("item 5: a cache, journal or job summary that is a device or a FIFO", () => {
  test("generate --check of a FIFO or /dev/zero says what it is, without waiting on it", async () => {
    execFileSync("mkfifo", [join(dir, "fifo.jsonl")]);
    for (const [target, kind] of [
      ["fifo.jsonl", "a FIFO (named pipe)"],
      ["/dev/zero", "a character device"],
    ] as const) {
      const run = await bounded(["generate", MANIFEST, "--check", target]);
      expect(run.code, target).toBe(2);
      expect(run.stderr, target).toBe(
        `citation-targets: cannot read ${target}: it is ${kind}, not a regular file: only regular files are read\n`,
      );
    }
  });

  test("generate -o of a dataset whose artifact became a FIFO or a link to /dev/zero names the artifact, without waiting", async () => {
    const law = join(dir, LAW);
    await rm(law);
    execFileSync("mkfifo", [law]);
    const fifo = await bounded(["generate", MANIFEST, "-o", "out.jsonl"]);
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toBe(
      `citation-targets: cannot read ${LAW}: it is a FIFO (named pipe), not a regular file: only regular files are read\n`,
    );
    await rm(law);
    await symlink("/dev/zero", law);
    const zero = await bounded(["generate", MANIFEST, "-o", "out.jsonl"]);
    expect(zero.code).toBe(2); // a device: not read, as a FIFO is not
    expect(zero.stderr).toMatch(/^citation-targets: mvfg\.md: resolves to \/dev\/zero, outside the dataset root /);
  });

  test("schema reads the tooling folder's manifests as inputs: a FIFO is not waited on, a link out is not followed", async () => {
    execFileSync("mkfifo", [join(dir, ".tooling/citation-targets/evil.lock.json")]);
    const fifo = await bounded(["schema", "--legislation-host", "www.fedlex.admin.ch"]);
    expect(fifo.code, fifo.stderr).toBe(0); // it hung, reading the FIFO
    expect(fifo.stderr).toContain("www.legislation.gov.au"); // the readable manifests' host, still warned of
    await rm(join(dir, ".tooling/citation-targets/evil.lock.json"));
    // A manifest outside the repository, linked in: its host is not read (and not named).
    const outside = join(dir, "..", `outside-${Date.now()}.lock.json`);
    await writeFile(outside, JSON.stringify({ slug: "evil", legislationHost: "evil.example.org" }));
    try {
      await symlink(outside, join(dir, ".tooling/citation-targets/evil.lock.json"));
      const linked = await bounded(["schema"]);
      expect(linked.code).toBe(0);
      expect(linked.stderr).not.toContain("evil.example.org");
    } finally {
      await rm(outside);
      await rm(join(dir, ".tooling/citation-targets/evil.lock.json"), { force: true });
    }
  });

  test("a config found in its place that is a FIFO or a link to /dev/zero is refused by name, not taken for none", async () => {
    execFileSync("mkfifo", [join(dir, ".citation-targets.json")]);
    const fifo = await bounded(["validate", JSONL]);
    expect(fifo.code, fifo.stdout + fifo.stderr).toBe(2);
    expect(fifo.stderr).toContain(".citation-targets.json");
    expect(fifo.stderr).toMatch(/FIFO/);
    await rm(join(dir, ".citation-targets.json"));
    await symlink("/dev/zero", join(dir, ".citation-targets.json"));
    const device = await bounded(["validate", JSONL]);
    expect(device.code).toBe(2);
    expect(device.stderr).toContain(".citation-targets.json");
    expect(device.stderr).toMatch(/character device/);
    // update and lock refuse it too (exit 2, named): the default host would check the datasets by another host's rules.
    for (const args of [
      ["update", "--check"],
      ["lock", "fixtures/datasets/mvfg", "--check"],
    ]) {
      const run = await bounded(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(
        /cannot read config .*\.citation-targets\.json: it is a character device/,
      );
    }
  });

  test("an invalid config stops update and lock as it stops validate: exit 2, the config named", async () => {
    await writeFile(join(dir, ".citation-targets.json"), '{"maxProblem": 3}\n');
    for (const args of [
      ["validate"],
      ["update", "--check"],
      ["update", "--check", "--staged"],
      ["update"],
      ["lock", "fixtures/datasets/mvfg", "--check"],
    ]) {
      const run = await bounded(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain(`config ${join(dir, ".citation-targets.json")} is not valid:`);
      expect(run.stderr, args.join(" ")).toContain(
        `unknown member "maxProblem" (line 1, column 2): did you mean "maxProblems"?`,
      );
    }
  });

  test("a cache that is /dev/zero (named, or at the default location through a link) is refused by name, not read", async () => {
    const named = await bounded(["validate", "--cache-location", "/dev/zero"]);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      "citation-targets: refusing the cache file /dev/zero: it is a character device, not a regular file; name another with --cache-location, or run with --no-cache\n",
    );
    await mkdir(join(dir, "node_modules/.cache/citation-targets"), { recursive: true });
    execFileSync("ln", ["-s", "/dev/zero", join(dir, "node_modules/.cache/citation-targets/update.json")]);
    const linked = await bounded(["update"]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain("update.json: it is a character device, not a regular file");
  });

  test("a FIFO as the cache is refused by name, without waiting on it", async () => {
    execFileSync("mkfifo", [join(dir, "cache.fifo")]);
    for (const argv of [
      ["validate", "--cache-location", "cache.fifo"],
      ["update", "--cache-location", "cache.fifo"],
    ]) {
      const result = await bounded(argv);
      expect(result.code, argv[0]).toBe(2);
      expect(result.stderr, argv[0]).toContain("cache.fifo: it is a FIFO (named pipe), not a regular file");
    }
  });

  test("a FIFO or a device as the job summary is passed over with a warning; the result stands", async () => {
    execFileSync("mkfifo", [join(dir, "summary.fifo")]);
    for (const [path, kind] of [
      [join(dir, "summary.fifo"), "a FIFO (named pipe) with no reader"],
      ["/dev/zero", "a character device"],
    ] as const) {
      const result = await bounded(["validate", JSONL], { GITHUB_STEP_SUMMARY: path });
      expect(result.code, path).toBe(0);
      expect(result.stderr, path).toBe(
        `citation-targets: not appending the job summary to ${path} (GITHUB_STEP_SUMMARY): it is ${kind}, not a regular file; the result above stands\n`,
      );
    }
  });

  test("adopt names a FIFO among a dataset's markdown files (first in order, or later), as lock does, without waiting on it", async () => {
    await cp(join(dir, "fixtures/datasets/mvfg"), join(dir, "laws/x"), { recursive: true });
    const adopt = [
      "adopt",
      "laws/*",
      "--title-id",
      "T1",
      "--name",
      "Test",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.legislation.gov.au/{folder}/text",
    ];
    execFileSync("mkfifo", [join(dir, "laws/x/a.md")]);
    const first = await bounded(adopt);
    expect(first.code).toBe(2);
    expect(first.stderr).toBe(
      "citation-targets: laws/x: cannot read laws/x/a.md: it is a FIFO (named pipe), not a regular file: only regular files are read\n",
    );
    execFileSync("mv", [join(dir, "laws/x/a.md"), join(dir, "laws/x/z.md")]);
    const later = await bounded(adopt);
    expect(later.code).toBe(2);
    expect(later.stderr).toContain("cannot read laws/x/z.md: it is a FIFO (named pipe), not a regular file");
  });

  test("adopt of markdown files named by a glob, or by name, names a FIFO among them: it is not left out in silence", async () => {
    await writeFile(join(dir, "a.md"), "# a\n\n## § 1 Eins\n");
    execFileSync("mkfifo", [join(dir, "b.md")]);
    const adopt = (named: string) =>
      bounded(["adopt", named, "--title-id", "T1", "--name", "Test", "--version-date", "2024-01-01", "--check"]);
    for (const named of ["*.md", "b.md"]) {
      const run = await adopt(named);
      expect(run.code, named).toBe(2);
      expect(run.stderr, named).toBe(
        "citation-targets: b.md: a FIFO (named pipe), not a regular file: only regular files are read\n",
      );
    }
  });
});

describe("a JSONL or lock manifest that is something else is refused by name, never passed over", () => {
  test("validate's default pattern meets a FIFO, a folder or a dangling link named like the JSONL: each named, exit 2", async () => {
    await rm(join(dir, JSONL));
    for (const [make, kind] of [
      [() => execFileSync("mkfifo", [join(dir, JSONL)]), "it is a FIFO (named pipe), not a regular file"],
      [() => mkdir(join(dir, JSONL)), "it is a folder, not a regular file"],
      [
        () => symlink("../../nowhere.jsonl", join(dir, JSONL)),
        "it is a symbolic link to ../../nowhere.jsonl, which is not there",
      ],
    ] as const) {
      await make();
      const run = await bounded(["validate"]);
      expect(run.code, kind).toBe(2);
      expect(run.stderr, kind).toBe("");
      expect(run.stdout, kind).toContain(`error  cannot read ${JSONL}: ${kind}`);
      await rm(join(dir, JSONL), { recursive: true });
    }
  });

  test("a JSONL that cannot be read has that error only: nothing about records generate writes that are 'not in this file'", async () => {
    await rm(join(dir, JSONL));
    execFileSync("mkfifo", [join(dir, JSONL)]);
    const run = await bounded(["validate", JSONL, "--format", "json"]);
    expect(run.code).toBe(2);
    const [file] = (JSON.parse(run.stdout) as { files: { error?: string; problems: unknown[] }[] }).files;
    expect(file!.error).toContain("it is a FIFO (named pipe), not a regular file");
    expect(file!.problems).toEqual([]);
  });

  test("a FIFO or a folder in the lock manifest's place: validate, update --check and update name it, exit 2; never checked as if absent", async () => {
    await rm(join(dir, MANIFEST));
    for (const [make, kind] of [
      [() => execFileSync("mkfifo", [join(dir, MANIFEST)]), "it is a FIFO (named pipe), not a regular file"],
      [() => mkdir(join(dir, MANIFEST)), "it is a folder, not a regular file"],
      [
        () => symlink("../../nowhere.lock.json", join(dir, MANIFEST)),
        "it is a symbolic link to ../../nowhere.lock.json, which is not there",
      ],
    ] as const) {
      await make();
      const validated = await bounded(["validate"]);
      expect(validated.code, kind).toBe(2);
      expect(validated.stdout, kind).toContain(`error  cannot read lock manifest ${MANIFEST}: ${kind}`);
      for (const args of [["update", "--check"], ["update"]]) {
        const updated = await bounded(args);
        expect(updated.code, `${args.join(" ")}: ${kind}`).toBe(2);
        expect(updated.stderr, `${args.join(" ")}: ${kind}`).toContain(
          `citation-targets: cannot read lock manifest ${MANIFEST}: ${kind}`,
        );
      }
      await rm(join(dir, MANIFEST), { recursive: true });
    }
  });
});

describe("an artifact that cannot be read: exit 2 in every command, where a stale dataset is exit 1", () => {
  test("a FIFO or a folder in an artifact's place: validate, generate, generate --check, update --check, update and lock exit 2, naming it from the working directory", async () => {
    const commands = [
      ["validate", JSONL],
      ["generate", MANIFEST],
      ["generate", MANIFEST, "--check", JSONL],
      ["generate", MANIFEST, "--check", JSONL, "--format", "sarif"],
      ["update", "mvfg", "--check"],
      ["update", "mvfg"],
      ["lock", "fixtures/datasets/mvfg", "--check", "-o", MANIFEST],
    ];
    await rm(join(dir, LAW));
    execFileSync("mkfifo", [join(dir, LAW)]);
    const fifo = `cannot read ${LAW}: it is a FIFO (named pipe), not a regular file: only regular files are read`;
    for (const args of commands) {
      const result = await bounded(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(`${result.stdout}${result.stderr}`, args.join(" ")).toContain(fifo);
    }
    // A folder there (the dataset holds another file, so that lock and update see the folder as a folder, not as
    // markdown: the artifact is gone for them, as `git rm` would leave it).
    await rm(join(dir, LAW));
    await mkdir(join(dir, LAW));
    const folder = `cannot read ${LAW}: it is a folder, not a regular file: only regular files are read`;
    for (const args of commands.slice(0, 3)) {
      const result = await bounded(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(`${result.stdout}${result.stderr}`, args.join(" ")).toContain(folder);
    }
  });

  test("an artifact changed since it was pinned stays the dataset's fault: exit 1, with update as the fix", async () => {
    await writeFile(join(dir, LAW), `${await readFile(join(dir, LAW), "utf8")}\nAmended.\n`);
    for (const args of [
      ["generate", MANIFEST],
      ["generate", MANIFEST, "--check", JSONL],
    ]) {
      const result = await bounded(args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toContain(`run \`citation-targets update ${MANIFEST}\``);
    }
    expect((await bounded(["update", "mvfg", "--check"])).code).toBe(1);
  });
});

describe("a dataset root that is something else: named for what it is, never 'not there'", () => {
  const FOLDER = "fixtures/datasets/mvfg";

  test("a FIFO in the dataset folder's place: validate, update --check and lock say so, and none blocks on it", async () => {
    execFileSync("rm", ["-r", join(dir, FOLDER)]);
    execFileSync("mkfifo", [join(dir, FOLDER)]);
    const validated = await bounded(["validate", JSONL]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain(
      "the dataset folder fixtures/datasets/mvfg (datasetRoot of lock manifest .tooling/citation-targets/mvfg.lock.json) is a FIFO (named pipe), not a folder, so none of its artifacts can be checked",
    );
    expect(validated.stdout).not.toContain("is not there");
    const checked = await bounded(["update", "--check"]);
    expect(checked.code).toBe(1); // the dataset's fault, as for validate
    expect(checked.stderr).toContain(
      `${MANIFEST}: its dataset folder fixtures/datasets/mvfg (datasetRoot "../../fixtures/datasets/mvfg") is a FIFO (named pipe), not a folder: a dataset root is a folder of markdown files or one markdown file`,
    );
    const locked = await bounded(["lock", FOLDER]);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toBe(
      `citation-targets: dataset directory ${FOLDER} is a FIFO (named pipe), not a folder: a dataset is a folder of markdown files, or one markdown file\n`,
    );
  });

  test("a file in the folder's place, and a folder where a one-file dataset's markdown should be", async () => {
    execFileSync("rm", ["-r", join(dir, FOLDER)]);
    await writeFile(join(dir, FOLDER), "# Not a folder\n");
    const validated = await bounded(["validate", JSONL]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain(
      "(datasetRoot of lock manifest .tooling/citation-targets/mvfg.lock.json) is a file, not a folder",
    );
    await mkdir(join(dir, "act.md"));
    const locked = await bounded(["lock", "act.md"]);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toBe(
      "citation-targets: dataset file act.md is a folder, not a markdown file (a dataset root whose name ends in .md names one markdown file)\n",
    );
  });

  test("a dataset folder that is not there keeps its own words", async () => {
    execFileSync("rm", ["-r", join(dir, FOLDER)]);
    const validated = await bounded(["validate", JSONL]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain("is not there (moved or deleted?)");
    const locked = await bounded(["lock", FOLDER]);
    expect(locked.stderr).toBe(
      `citation-targets: dataset directory ${FOLDER} does not exist: a dataset is a folder of markdown files, or one markdown file\n`,
    );
  });
});

describe("generate -o: every artifact is compared with the output, and each must be in the dataset root", () => {
  const lockTwo = async () => {
    await mkdir(join(dir, "law"), { recursive: true });
    await writeFile(join(dir, "law/a.md"), "# A\n\nText.\n");
    await writeFile(join(dir, "law/b.md"), "# B\n\nText.\n");
    const locked = await runBin(
      [
        "lock",
        "law",
        "--slug",
        "two",
        "--title-id",
        "TWO",
        "--name",
        "Two",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        "https://www.legislation.gov.au/two/text",
        "-o",
        "two.lock.json",
      ],
      dir,
    );
    expect(locked.code, locked.stderr).toBe(0);
  };

  test("naming the second artifact is refused by name, though the first is missing", async () => {
    await lockTwo();
    await rm(join(dir, "law/a.md"));
    const before = await readFile(join(dir, "law/b.md"));
    const result = await runBin(["generate", "two.lock.json", "-o", "law/b.md"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "citation-targets: refusing to write law/b.md: it is the artifact b.md of two.lock.json, an input of this run; write the output elsewhere\n",
    );
    expect(await readFile(join(dir, "law/b.md"))).toEqual(before);
  });

  test("an artifact that is a link out of the dataset root is named by the verification, and nothing is written", async () => {
    await lockTwo();
    await writeFile(join(dir, "outside.md"), "# A\n\nText.\n");
    await rm(join(dir, "law/a.md"));
    await symlink(join(dir, "outside.md"), join(dir, "law/a.md"));
    const result = await runBin(["generate", "two.lock.json", "-o", "two.jsonl"], dir);
    expect(result.code).toBe(2); // not read, as validate does not read it
    expect(result.stderr).toMatch(/a\.md: resolves to .*outside\.md, outside the dataset root/);
    await expect(readFile(join(dir, "two.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});
