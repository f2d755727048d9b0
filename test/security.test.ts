/**
 * The promises of SECURITY.md that a test can hold: no network, no writes outside the named
 * outputs, and paths with spaces, #, % and non-ASCII names working end to end.
 */
import { execFile, execFileSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PRIVACY_ACT_LOCK_FLAGS, tempDir } from "./helpers/datasets.js";
import { repoRoot } from "./helpers/records.js";

const run = promisify(execFile);
const bin = join(repoRoot, "bin/citation-targets.js");
const preload = join(repoRoot, "test/helpers/no-network.mjs");

const unshareWorks = (() => {
  try {
    execFileSync("unshare", ["-n", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Runs the built bin with the no-network preload, and inside a new network namespace (no interface but loopback) where
 * the system allows it.
 */
async function isolated(args: string[], cwd: string) {
  const command = unshareWorks ? "unshare" : process.execPath;
  const argv = unshareWorks
    ? ["-n", process.execPath, "--import", preload, bin, ...args]
    : ["--import", preload, bin, ...args];
  try {
    const { stdout, stderr } = await run(command, argv, {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      maxBuffer: 64 * 2 ** 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(root, path));
    }
  };
  await walk(root);
  return out.sort();
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

describe("no network, no writes outside the named outputs", () => {
  test(`every command runs with networking disabled and opens no socket${unshareWorks ? " (in a fresh network namespace, and with net and dns refused)" : " (net and dns refused; unshare is not available here)"}`, async () => {
    const root = join(dir, "offline");
    await mkdir(join(root, ".git"), { recursive: true });
    await cp(join(repoRoot, "fixtures"), join(root, "fixtures"), { recursive: true });
    await cp(join(repoRoot, ".tooling"), join(root, ".tooling"), { recursive: true });
    await writeFile(join(root, "fixtures/datasets/privacy-act-1988/part-i/section-7.md"), "### 7 New\n\nText.\n");
    const before = await listFiles(root);
    const steps: [string[], number, string[]][] = [
      [["validate"], 1, []],
      [["validate", "--format", "sarif", "--jobs", "2", "--no-lock"], 0, []],
      [
        [
          "lock",
          "fixtures/datasets/privacy-act-1988",
          "-o",
          ".tooling/citation-targets/privacy-act-1988.lock.json",
          "--check",
        ],
        1,
        [],
      ],
      [["update", "--check"], 1, []],
      [["update"], 0, []],
      [
        ["generate", ".tooling/citation-targets/mvfg.lock.json", "-o", "out/mvfg.jsonl", "--jobs", "2"],
        0,
        ["out/mvfg.jsonl"],
      ],
      [
        [
          "generate",
          ".tooling/citation-targets/privacy-act-1988.lock.json",
          "--check",
          ".tooling/citation-targets/privacy-act-1988.jsonl",
        ],
        0,
        [],
      ],
      [["schema", "-o", "out/schema.json"], 0, ["out/schema.json"]],
      [["validate", "--format", "junit", "--output-file", "out/report.xml"], 0, ["out/report.xml"]],
    ];
    const expected = new Set(before);
    for (const [args, code, outputs] of steps) {
      const result = await isolated(args, root);
      expect(result.stderr, args.join(" ")).not.toContain("NETWORK-USE");
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(code);
      for (const output of outputs) expected.add(output);
      expect(await listFiles(root), args.join(" ")).toEqual([...expected].sort());
    }
  });

  test("the preload does catch a network use (the test can fail)", async () => {
    const probe = join(dir, "probe.mjs");
    await writeFile(probe, 'import net from "node:net"; try { net.connect(9, "127.0.0.1"); } catch {}');
    const { stderr } = await run(process.execPath, ["--import", preload, probe]).catch((e: { stderr: string }) => e);
    expect(stderr).toContain("NETWORK-USE: net.connect");
  });
});

describe("paths", () => {
  test("a dataset and files whose names have spaces, #, % and non-ASCII characters work end to end", async () => {
    const root = join(dir, "Gesetze # 100% Übersicht");
    await mkdir(join(root, ".git"), { recursive: true });
    await cp(join(repoRoot, "fixtures/datasets/privacy-act-1988"), join(root, "Daten sätze/privacy act"), {
      recursive: true,
    });
    await rename(join(root, "Daten sätze/privacy act/part-i"), join(root, "Daten sätze/privacy act/Teil Ä #1 %20"));
    const order = (await readFile(join(repoRoot, "fixtures/datasets/privacy-act-1988.order"), "utf8")).replaceAll(
      "part-i/",
      "Teil Ä #1 %20/",
    );
    await writeFile(join(root, "order.txt"), order);
    const ct = (args: string[]) => isolated(args, root);
    const manifest = ".tooling/citation-targets/privacy-act-1988.lock.json";
    const locked = await ct([
      "lock",
      "Daten sätze/privacy act",
      "-o",
      manifest,
      "--order",
      "order.txt",
      ...PRIVACY_ACT_LOCK_FLAGS,
    ]);
    expect(locked.code, locked.stderr).toBe(0);
    expect((await ct(["generate", manifest, "-o", ".tooling/citation-targets/privacy-act-1988.jsonl"])).code).toBe(0);
    const validated = await ct(["validate", "--format", "json"]);
    expect(validated.code, validated.stdout).toBe(0);
    const text = await readFile(join(root, ".tooling/citation-targets/privacy-act-1988.jsonl"), "utf8");
    expect(text).toContain('"artifactRelativePath":"Teil Ä #1 %20/section-1.md"');
    // The escaped path in the address round-trips (docs/spec.md, "citationAddress").
    expect(text).toMatch(/"citationAddress":"privacy-act-1988\/Teil%20Ä%20%231%20%2520\/section-1\.md#1"/); // letters stay, the rest is %-escaped
    await writeFile(join(root, "Daten sätze/privacy act/Teil Ä #1 %20/section-7.md"), "### 7 New\n");
    const stale = await ct(["validate"]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('markdown file "Teil Ä #1 %20/section-7.md"');
    expect((await ct(["update"])).code).toBe(0);
    expect((await ct(["validate"])).code).toBe(0);
  });
});

describe("reads stay in the repository (issue 32, item 3)", () => {
  /**
   * A repository whose committed symbolic links lead to files outside it (a pull request can commit such links), and
   * those files, each holding a value that must never be printed.
   */
  async function linkedRepository() {
    const base = join(dir, `links-${Math.random().toString(16).slice(2)}`);
    const root = join(base, "repo");
    const outside = join(base, "outside");
    await mkdir(join(root, ".git"), { recursive: true });
    await mkdir(outside, { recursive: true });
    await cp(join(repoRoot, "fixtures"), join(root, "fixtures"), { recursive: true });
    await cp(join(repoRoot, ".tooling"), join(root, ".tooling"), { recursive: true });
    const jsonl = await readFile(join(repoRoot, ".tooling/citation-targets/mvfg.jsonl"), "utf8");
    await writeFile(join(outside, "leak.jsonl"), jsonl.replaceAll('"mvfg/', '"leakedsecret/'));
    const manifest = await readFile(join(repoRoot, ".tooling/citation-targets/mvfg.lock.json"), "utf8");
    await writeFile(
      join(outside, "leak.lock.json"),
      manifest.replace(/"name": "[^"]*"/, '"name": "LEAKED-SECRET-NAME"'),
    );
    await writeFile(join(outside, "leak.md"), "---\nTitle: LEAKED-FRONT-VALUE\nSecretKey: x\n---\n# Leak\n");
    await mkdir(join(root, "old"));
    await writeFile(join(root, "old/mvfg.jsonl"), jsonl);
    return { root, outside };
  }
  const leaked = (run: { stdout: string; stderr: string }) =>
    /leakedsecret|LEAKED-SECRET-NAME|LEAKED-FRONT-VALUE|SecretKey/.test(run.stdout + run.stderr);

  test("update --check and diff refuse a JSONL symlinked outside, naming it, and print none of its addresses", async () => {
    const { root, outside } = await linkedRepository();
    const target = join(root, ".tooling/citation-targets/mvfg.jsonl");
    await rm(target);
    await symlink(join(outside, "leak.jsonl"), target);
    const updated = await isolated(["update", "--check", ".tooling/citation-targets/mvfg.lock.json"], root);
    expect(updated.code).toBe(2);
    expect(updated.stderr).toContain(".tooling/citation-targets/mvfg.jsonl");
    expect(updated.stderr).toContain(`it resolves to ${join(outside, "leak.jsonl")}, outside the repository`);
    expect(leaked(updated)).toBe(false);
    const diffed = await isolated(["diff", "old/mvfg.jsonl", ".tooling/citation-targets/mvfg.jsonl"], root);
    expect(diffed.code).toBe(2);
    expect(diffed.stderr).toContain("outside the repository");
    // generate --check and resolve too, each naming the file in plain words (no bare error code first).
    for (const args of [
      ["generate", ".tooling/citation-targets/mvfg.lock.json", "--check", ".tooling/citation-targets/mvfg.jsonl"],
      ["resolve", "§ 1 MVfG"],
    ]) {
      const run = await isolated(args, root);
      expect(run.code, args[0]).toBe(2);
      expect(run.stderr, args[0]).toMatch(
        /citation-targets: cannot (?:read|access) \S*\.tooling\/citation-targets\/mvfg\.jsonl: it resolves to /,
      );
      expect(leaked(run), args[0]).toBe(false);
    }
    expect(leaked(diffed)).toBe(false);
    // The flag lets them read it (the refusal is the confinement, nothing else).
    const allowed = await isolated(
      ["diff", "old/mvfg.jsonl", ".tooling/citation-targets/mvfg.jsonl", "--allow-outside-repository"],
      root,
    );
    expect(allowed.code, allowed.stderr).toBe(1);
    expect(allowed.stdout).toContain("leakedsecret");
  });

  test("validate refuses a lock manifest symlinked outside and prints none of its fields", async () => {
    const { root, outside } = await linkedRepository();
    const manifest = join(root, ".tooling/citation-targets/mvfg.lock.json");
    await rm(manifest);
    await symlink(join(outside, "leak.lock.json"), manifest);
    const validated = await isolated(["validate", ".tooling/citation-targets/mvfg.jsonl"], root);
    expect(validated.code).toBe(2);
    expect(validated.stdout + validated.stderr).toContain("outside the repository");
    expect(leaked(validated)).toBe(false);
  });

  test("a named path that is a symbolic link leading outside (a glob or pre-commit's list names it) is refused unless --allow-outside-repository", async () => {
    const { root, outside } = await linkedRepository();
    await symlink(join(outside, "leak.jsonl"), join(root, "link.jsonl"));
    await symlink(outside, join(root, "linked-folder"));
    for (const named of ["link.jsonl", "linked-folder/leak.jsonl"]) {
      const refused = await isolated(["validate", "--no-lock", named], root);
      expect(refused.code, named).toBe(2);
      expect(refused.stdout + refused.stderr).toContain(`it resolves to ${join(outside, "leak.jsonl")}`);
      expect(leaked(refused)).toBe(false);
    }
    const allowed = await isolated(
      ["validate", "--no-lock", "--format", "json", "link.jsonl", "--allow-outside-repository"],
      root,
    );
    expect(allowed.stdout).toContain('"path": "link.jsonl"');
    expect(allowed.stdout).not.toContain("outside the repository");
  });

  test("adopt refuses an index.md symlinked outside and echoes none of its front matter", async () => {
    const { root, outside } = await linkedRepository();
    await mkdir(join(root, "laws/x"), { recursive: true });
    await symlink(join(outside, "leak.md"), join(root, "laws/x/index.md"));
    const fields = [
      "--title-id",
      "X",
      "--version-date",
      "2024-01-01",
      "--source-text-url",
      "https://www.legislation.gov.au/X/text",
    ];
    const adopted = await isolated(["adopt", "laws/x", "--check", "--name", "{front.Title}", ...fields], root);
    expect(adopted.code).not.toBe(0);
    expect(adopted.stderr).toContain("laws/x/index.md");
    expect(adopted.stderr).toContain("outside the repository");
    expect(leaked(adopted)).toBe(false);
    // Missing templates: adopt says what the front matter offers, of a file in the repository only.
    const missing = await isolated(["adopt", "laws/x", "--check"], root);
    expect(missing.code).not.toBe(0);
    expect(leaked(missing)).toBe(false);
  });
});
