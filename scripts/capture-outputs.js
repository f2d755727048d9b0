#!/usr/bin/env node
// Byte-for-byte capture of what every command says and writes, to prove that a refactor changes no output
// (CONTRIBUTING.md, "Proving a refactor changes no output").
//
//   node scripts/capture-outputs.js --cli <built-checkout> --data <data-dir> --out <out-dir> [--jobs 2] [--only RE]
//   node scripts/capture-outputs.js compare <out-a> <out-b>
//
// Capture: every scenario below runs in a fresh copy of its data set (<data-dir>/examples, repository, statute-book:
// made once by scripts/capture-data.js) in a temporary folder of its own, with a fixed environment. For each step it
// keeps the standard output, the standard error (timings masked), the exit code and every file the step wrote,
// changed or removed (outside .git; cache files excepted), with the scenario folder shown as <ROOT>, the checkout as
// <CLI>. It also keeps every command's --help and the exported names and types of dist/index.d.ts and
// dist/core-api.d.ts, normalised so that moving a module between files changes nothing.
// Compare: prints each file that differs (or is only on one side) with its first differing line; exit 1 on any.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

// ---------------------------------------------------------------- scenarios

/** Edits a file of the scenario: the first match of pattern replaced (a missing match is an error of the harness). */
const edit = (path, pattern, replacement) => ({ edit: path, pattern, replacement });
const append = (path, text) => ({ append: path, text });
const ct = (...args) => ({ ct: args });
const git = (...args) => ({ git: args });

const EX_MVFG = "fixtures/datasets/mvfg/mvfg.md";
const EX_LOCK = ".tooling/citation-targets/mvfg.lock.json";
const EX_JSONL = ".tooling/citation-targets/mvfg.jsonl";
const PA_JSONL = ".tooling/citation-targets/privacy-act-1988.jsonl";
/** The example's amendment: a section retitled (breaking), one inserted (additive), one's text changed (breaking). */
const amendMvfg = [
  edit(EX_MVFG, /^#### § 2 Begriffsbestimmungen$/m, "#### § 2 Begriffe"),
  edit(EX_MVFG, /^#### § 4 Amtshilfe$/m, "#### § 3a Eingefügt\n\nEin neuer Paragraph.\n\n#### § 4 Amtshilfe"),
  edit(EX_MVFG, /^(#### § 35 Begriff des Verwaltungsaktes\n\n)/m, "$1Geänderter Text. "),
];
const DIFF_FORMATS = ["stylish", "json", "github", "sarif", "junit"];
const VALIDATE_FORMATS = ["stylish", "json", "github", "sarif", "junit"];

// The repository data set (scripts/capture-data.js): laws in laws/<folder>, one dataset each.
const R_TOOL = ".tooling/citation-targets";

/** @type {{name: string, data: string, steps: object[], env?: object}[]} */
const SCENARIOS = [
  // ---- the example datasets
  {
    name: "examples-validate-formats",
    data: "examples",
    steps: [
      ...VALIDATE_FORMATS.map((format) => ct("validate", "--format", format)),
      ct("validate", "--no-lock"),
      ct("validate", "--no-lock", "--format", "json"),
    ],
  },
  {
    name: "examples-validate-options",
    data: "examples",
    steps: [
      ct("validate", "--print-config"),
      ct("validate", "--no-config", "--print-config"),
      ct("validate", PA_JSONL, "--lock", ".tooling/citation-targets/privacy-act-1988.lock.json"),
      ct("validate", "fixtures", "--no-error-on-unmatched-pattern"),
      ct("validate", ".tooling/citation-targets/*.jsonl", "--rule", "non-canonical=warning", "--max-problems", "2"),
      ct("validate", "--shard", "1/2"),
      ct("validate", "--shard", "2/2", "--format", "json"),
      ct("validate", "--jobs", "2", "--format", "json"),
      ct("validate", "--legislation-host", "www.gesetze-im-internet.de"),
      ct("validate", "--quiet", "--legislation-host", "www.gesetze-im-internet.de"),
      ct("validate", "--format", "junit", "--output-file", "reports/citation-targets.xml"),
      ct("validate", "--format", "sarif", "--output-file", "reports/citation-targets.sarif"),
      ct("validate", "--cache-location", ".capture-cache/validate.json"),
      ct("validate", "--cache-location", ".capture-cache/validate.json"),
      { ct: ["validate", "-", "--stdin-filename", EX_JSONL], stdin: EX_JSONL },
      { ct: ["validate", "--stdin", "--format", "json"], stdin: PA_JSONL },
      ct("validate", EX_MVFG),
    ],
  },
  {
    name: "examples-validate-github-summary",
    data: "examples",
    env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: "<ROOT>/step-summary.md" },
    steps: [
      ct("validate"),
      ...amendMvfg,
      ct("validate"),
      ct("update", EX_LOCK, "--no-cache", "--version-date", "2025-02-01"),
      ct("diff", "--against", "HEAD"),
      ct("diff", "--against", "HEAD", "--format", "html", "--output-file", "amendment.html"),
    ],
  },
  {
    name: "examples-invalid-line",
    data: "examples",
    steps: [
      append(EX_JSONL, '{"broken": \n'),
      edit(PA_JSONL, /"citationAddress":"/, '"citationAddress": "'),
      ...VALIDATE_FORMATS.map((format) => ct("validate", "--format", format)),
      ct("validate", "--no-lock", "--max-problems", "1"),
      ct("validate", "--rule", "json-syntax=off", "--rule", "non-canonical=off"),
      ct("generate", EX_LOCK, "--check", EX_JSONL),
      ct("diff", "--against", "HEAD"),
      ct("view", EX_JSONL, "-o", "broken.html"),
    ],
  },
  {
    name: "examples-lock-generate",
    data: "examples",
    steps: [
      ct("lock", "fixtures/datasets/mvfg", "--check"),
      ct("lock", "fixtures/datasets/mvfg", "--output", EX_LOCK),
      ct("lock", "fixtures/datasets/mvfg", "--output", EX_LOCK, "--format", "json"),
      ct("lock", "fixtures/datasets/example-act", "--check"),
      ct("lock", "fixtures/datasets/example-act"),
      ct(
        "lock",
        "fixtures/datasets/mvfg",
        "--slug",
        "mvfg-copy",
        "--title-id",
        "BJNR0",
        "--name",
        "MVfG copy",
        "--version-date",
        "2024-06-01",
        "--source-text-url",
        "https://www.legislation.gov.au/BJNR0/2024-06-01/text",
        "--output",
        ".tooling/citation-targets/mvfg-copy.lock.json",
      ),
      ct(
        "generate",
        ".tooling/citation-targets/mvfg-copy.lock.json",
        "-o",
        ".tooling/citation-targets/mvfg-copy.jsonl",
      ),
      ct("generate", EX_LOCK),
      ct("generate", ".tooling/citation-targets/privacy-act-1988.lock.json", "--jobs", "2", "-o", "pa.jsonl"),
      ct("generate", EX_LOCK, "--check", EX_JSONL),
      ct("generate", EX_LOCK, "--check", EX_JSONL, "--format", "json"),
      ct("generate", EX_LOCK, "--check", PA_JSONL),
      ct("generate", EX_LOCK, "--check", PA_JSONL, "--format", "json"),
      ct("validate"),
      ct("update", "--check", "--no-cache"),
    ],
  },
  {
    name: "examples-amend-update",
    data: "examples",
    steps: [
      ct("update", "--check", "--no-cache"),
      ct("update", "--check", "--no-cache", "--format", "json"),
      ...amendMvfg,
      ct("update", "--check", "--no-cache"),
      ct("update", "--check", "--no-cache", "--format", "json"),
      ct("validate"),
      ct("generate", EX_LOCK, "--check", EX_JSONL),
      ct("generate", EX_LOCK, "--check", EX_JSONL, "--format", "json"),
      ct(
        "update",
        EX_LOCK,
        "--no-cache",
        "--version-date",
        "2025-02-01",
        "--source-text-url",
        "https://www.legislation.gov.au/BJNR012530976/2025-02-01/text",
      ),
      ct("update", "--check", "--no-cache"),
      ct("validate"),
      ...DIFF_FORMATS.map((format) => ct("diff", "--against", "HEAD", "--format", format)),
      ct("diff", "--against", "HEAD", "--format", "html", "-o", "amendment.html"),
      ct("diff", "--against", "HEAD", "--format", "json", "-o", "reports/diff.json"),
      ct("diff", "--against", "HEAD", "--fail-on", "any"),
      ct("diff", "--against", "HEAD", "--fail-on", "none"),
      ct("diff", "--against", "HEAD", "--write-approvals", "approvals.json"),
      ct("diff", "--against", "HEAD", "--approvals", "approvals.json"),
      edit("approvals.json", /"TODO: [^"]*"/g, '"Reviewed: renumbered by the amendment"'),
      ct("diff", "--against", "HEAD", "--approvals", "approvals.json"),
      ct("diff", "--against", "HEAD", "--approvals", "approvals.json", "--format", "json"),
      ct("diff", "--against", "HEAD", "--jobs", "2", "--format", "sarif"),
      { git: ["show", `HEAD:${EX_JSONL}`], stdoutTo: "old-mvfg.jsonl" },
      ct("diff", "old-mvfg.jsonl", EX_JSONL),
      ct("diff", "old-mvfg.jsonl", EX_JSONL, "--format", "html"),
      ct("view", EX_JSONL, "-o", "mvfg.html"),
      ct("update", "--no-cache", "--name", "Musterverfahrensgesetz (neu)", EX_LOCK),
      ct("validate", "--format", "json"),
    ],
  },
  {
    name: "examples-staged-hooks",
    data: "examples",
    steps: [
      ct("validate", "--staged"),
      ct("update", "--check", "--staged", "--no-cache"),
      ...amendMvfg,
      git("add", EX_MVFG),
      ct("validate", "--staged"),
      ct("update", "--check", "--staged", "--no-cache"),
      ct("update", "--staged", "--no-cache", "--version-date", "2025-02-01"),
      git("add", "-A"),
      ct("validate", "--staged", "--format", "json"),
      ct("update", "--check", "--staged", "--no-cache"),
      git("rm", "-q", PA_JSONL),
      ct("update", "--check", "--staged", "--no-cache"),
      ct("validate", "--staged"),
    ],
  },
  {
    name: "examples-view-schema",
    data: "examples",
    steps: [
      ct("view", EX_JSONL, "-o", "mvfg.html"),
      ct("view", PA_JSONL),
      ct("view", PA_JSONL, "--max-text-bytes", "1000", "-o", "pa-small.html"),
      ct("schema"),
      ct("schema", "--legislation-host", "www.gesetze-im-internet.de", "-o", "schemas/record.schema.json"),
      ct("diff", "--schema", "schemas/record.schema.json", "schemas/record.schema.json"),
      ct("schema", "-o", "schemas/default.schema.json"),
      ct("diff", "--schema", "schemas/record.schema.json", "schemas/default.schema.json"),
      ct("diff", "--schema", "schemas/record.schema.json", "schemas/default.schema.json", "--format", "json"),
    ],
  },
  {
    name: "examples-resolve",
    data: "examples",
    steps: [
      ct("resolve", "--no-cache", "§ 2a Abs. 1 MVfG", "s 6(1)(a) Privacy Act 1988", "§ 99 MVfG", "§ 1"),
      ct(
        "resolve",
        "--no-cache",
        "--format",
        "json",
        "§ 2a Musterverfahrensgesetz",
        "section 13 of the Privacy Act 1988",
      ),
      ct("resolve", "--no-cache", "--dataset", "mvfg", "§ 3", "§ 4 Abs. 1"),
      ct("update", "--no-cache", "--alias", "jurabk"),
      ct("resolve", "--no-cache", "§ 2a MVfG"),
      ct("resolve", "--no-cache", "--dataset", "nope", "§ 1"),
    ],
  },
  {
    name: "examples-errors",
    data: "examples",
    steps: [
      ct("validate", "missing.jsonl"),
      ct("validate", "--bogus"),
      ct("validate", "--format", "nope"),
      ct("validate", "--max-problems", "zero"),
      ct("validate", "--rule", "no-such-rule=error"),
      ct("validate", "--shard", "3/2"),
      ct("validate", "--schema", "missing.schema.json"),
      ct("validate", "--config", "missing.json"),
      ct("lock", "missing-folder"),
      ct("lock", "fixtures/datasets/mvfg", "--slug", "Bad Slug", "--output", "x.lock.json"),
      ct("lock", "fixtures/datasets/mvfg", "--version-date", "2024-02-30", "--output", EX_LOCK),
      ct("generate", "missing.lock.json"),
      ct("generate"),
      ct("update", "missing.lock.json", "--no-cache"),
      ct("update", "--version-date", "2024-02-30", "--no-cache"),
      ct("update", "--source-text-url", "https://www.legislation.gov.au/x/text", "--no-cache"),
      ct("adopt", "--no-cache"),
      ct("adopt", "fixtures/datasets/*", "--no-cache", "--check"),
      ct("diff", "missing-a.jsonl", "missing-b.jsonl"),
      ct("diff", "--against", "no-such-revision"),
      ct("diff", "--format", "nope"),
      ct("diff", "--against", "HEAD", "--approvals", "missing-approvals.json"),
      ct("view", "missing.jsonl"),
      ct("view"),
      ct("schema", "--bogus"),
      ct("nope"),
      append(EX_LOCK, "not json"),
      ct("validate"),
      ct("update", "--check", "--no-cache"),
      ct("generate", EX_LOCK),
      append("fixtures/datasets/privacy-act-1988/preamble.md", "\nchanged\n"),
      ct("generate", ".tooling/citation-targets/privacy-act-1988.lock.json"),
      { write: ".citation-targets.json", text: "{ not json" },
      ct("validate"),
      ct("schema"),
    ],
  },
  {
    name: "examples-adopt",
    data: "examples",
    steps: [
      {
        write: "laws/gg/index.md",
        text:
          "---\nTitle: Grundgesetz für die Bundesrepublik Deutschland\njurabk: GG\nslug: gg\nstand: 2022-12-19\n---\n" +
          "# Grundgesetz für die Bundesrepublik Deutschland\n\n## I. Die Grundrechte\n\n### Art 1\n\n" +
          "(1) Die Würde des Menschen ist unantastbar.\n\n### Art 2\n\n(1) Jeder hat das Recht auf die freie Entfaltung.\n",
      },
      {
        write: "laws/sgb_5/index.md",
        text:
          "---\nTitle: Sozialgesetzbuch (SGB) Fünftes Buch (V)\njurabk: SGB 5\nslug: sgb_5\nstand: 2023-06-01\n---\n" +
          "# Sozialgesetzbuch (SGB) Fünftes Buch (V)\n\n## Erstes Kapitel - Allgemeine Vorschriften\n\n" +
          "### § 1 Solidarität und Eigenverantwortung\n\nDie Krankenversicherung hat die Aufgabe.\n",
      },
      ct(
        "adopt",
        "laws/*",
        "--title-id",
        "{front.jurabk}",
        "--name",
        "{front.Title}",
        "--version-date",
        "{front.stand}",
        "--source-text-url",
        "https://www.legislation.gov.au/{front.slug}/",
        "--check",
        "--no-cache",
      ),
      ct(
        "adopt",
        "laws/*",
        "--title-id",
        "{front.jurabk}",
        "--name",
        "{front.Title}",
        "--version-date",
        "{front.stand}",
        "--source-text-url",
        "https://www.legislation.gov.au/{front.slug}/",
        "--no-cache",
        "--format",
        "json",
      ),
      ct(
        "adopt",
        "laws/*",
        "--title-id",
        "{front.jurabk}",
        "--name",
        "{front.Title}",
        "--version-date",
        "{front.stand}",
        "--source-text-url",
        "https://www.legislation.gov.au/{front.slug}/",
        "--check",
        "--no-cache",
      ),
      ct(
        "adopt",
        "laws/*",
        "--title-id",
        "{front.missing}",
        "--name",
        "x",
        "--version-date",
        "2024-01-01",
        "--no-cache",
      ),
      ct("validate"),
    ],
  },
  {
    // Issue 36: a host per dataset (adopt and lock --legislation-host, the config's adopt sections) and one-file
    // datasets ('ch/*.md', lock of one file, a folder of several acts refused).
    name: "examples-jurisdictions",
    data: "examples",
    steps: [
      {
        write: "ch/sr-210.md",
        text:
          '---\nsr_number: "210"\ntitle: Schweizerisches Zivilgesetzbuch\neli: cc/24/233_245_233\nversion_date: 2024-01-01\n---\n' +
          "# Schweizerisches Zivilgesetzbuch\n\n## Art. 1\n\n<sup>1</sup> Das Gesetz findet Anwendung.\n",
      },
      {
        write: "ch/sr-220.md",
        text:
          '---\nsr_number: "220"\ntitle: Obligationenrecht\neli: cc/27/317_321_377\nversion_date: 2024-01-01\n---\n' +
          "# Obligationenrecht\n\n## Art. 1\n\n<sup>1</sup> Zum Abschlusse eines Vertrages.\n",
      },
      ...["ch", "ch/*.md"].map((datasets) =>
        ct(
          "adopt",
          datasets,
          "--title-id",
          "{front.sr_number}",
          "--name",
          "{front.title}",
          "--version-date",
          "{front.version_date}",
          "--source-text-url",
          "https://www.fedlex.admin.ch/eli/{front.eli}/de",
          "--check",
          "--no-cache",
        ),
      ),
      ct(
        "adopt",
        "ch/sr-210.md",
        "--title-id",
        "{front.sr_number}",
        "--name",
        "{front.title}",
        "--version-date",
        "{front.version_date}",
        "--source-text-url",
        "https://www.fedlex.admin.ch/eli/{front.eli}/de",
        "--legislation-host",
        "www.fedlex.admin.ch",
        "--no-cache",
      ),
      ct(
        "lock",
        "ch/sr-220.md",
        "--slug",
        "sr-220",
        "--title-id",
        "220",
        "--name",
        "Obligationenrecht",
        "--version-date",
        "2024-01-01",
        "--source-text-url",
        "https://www.fedlex.admin.ch/eli/cc/27/317_321_377/de",
        "--legislation-host",
        "www.fedlex.admin.ch",
      ),
      ct("update", "--no-cache"),
      ct("validate", "--no-cache"),
      ct("schema"),
    ],
  },

  // ---- the repository: one dataset per law, ~1,500 laws, an amended working tree (scripts/capture-data.js).
  // A command that reads every law costs seconds: each runs once, its other formats written with --output-file.
  {
    name: "repository-validate",
    data: "repository",
    env: { GITHUB_STEP_SUMMARY: "<ROOT>/step-summary.md" },
    steps: [
      ct("validate", "--no-cache", "--format", "json", "--output-file", "reports/validate.json"),
      ct("validate", "--no-lock", "--format", "github"),
      ct("validate", "--no-lock", "--format", "sarif", "--output-file", "reports/validate.sarif"),
    ],
  },
  {
    name: "repository-update",
    data: "repository",
    steps: [
      ct("update", "--check", "--no-cache"),
      ct("update", "--check", "--no-cache", "--format", "json"),
      {
        ctOf: ([first]) => [
          "update",
          first.manifest,
          "--no-cache",
          "--version-date",
          "2025-03-01",
          "--source-text-url",
          `https://www.gesetze-im-internet.de/${first.law}/2025-03-01/`,
        ],
      },
      ct("update", "--no-cache"),
      ct("diff", "--against", "HEAD", "--format", "json", "-o", "reports/diff.json"),
      ct("diff", "--against", "HEAD", "--write-approvals", "approvals.json"),
      ct("diff", "--against", "HEAD", "--approvals", "approvals.json"),
    ],
  },
  {
    name: "repository-diff",
    data: "repository",
    env: { GITHUB_STEP_SUMMARY: "<ROOT>/step-summary.md" },
    steps: [
      ...DIFF_FORMATS.map((format) => ct("diff", "--against", "HEAD", "--format", format)),
      ct("diff", "--against", "HEAD", "--format", "html", "-o", "amendment.html"),
      ct("diff", "--against", "HEAD", "--write-approvals", "approvals.json"),
      ct("diff", "--against", "HEAD", "--approvals", "approvals.json", "--fail-on", "any", "--format", "json"),
    ],
  },
  {
    name: "repository-adopt",
    data: "repository",
    steps: [ct("adopt", "--check", "--no-cache", "--format", "json"), ct("adopt", "--no-cache")],
  },
  {
    name: "repository-staged-lock-generate-view",
    data: "repository",
    steps: [
      git("add", "laws"),
      ct("update", "--check", "--staged", "--no-cache"),
      ct("validate", "--staged"),
      git("add", "-A"),
      ct("update", "--check", "--staged", "--no-cache", "--format", "json"),
      ct("validate", "--staged", "--format", "json"),
      ct("update", "--staged", "--no-cache"),
      ct("lock", "laws/ausgerfg", "--check"),
      ct("lock", "laws/ausgerfg"),
      ct("generate", `${R_TOOL}/ausgerfg.lock.json`, "--check", `${R_TOOL}/ausgerfg.jsonl`),
      ct("generate", `${R_TOOL}/ausgerfg.lock.json`),
      { ctOf: ([stale]) => ["generate", stale.manifest, "--check", stale.jsonl] },
      ct("view", `${R_TOOL}/ausgerfg.jsonl`, "-o", "ausgerfg.html"),
    ],
  },

  // ---- the statute book: one dataset of ~450 laws, one law amended and not regenerated
  {
    name: "statute-book",
    data: "statute-book",
    steps: [
      ct("update", "--check", "--no-cache"),
      ct(
        "generate",
        ".tooling/citation-targets/statute-book.lock.json",
        "--check",
        ".tooling/citation-targets/statute-book.jsonl",
      ),
      ct(
        "update",
        "--no-cache",
        "--version-date",
        "2025-03-01",
        "--source-text-url",
        "https://www.gesetze-im-internet.de/aktuell/2025-03-01/",
      ),
      ct("validate", "--no-cache", "--format", "json", "--output-file", "reports/validate.json"),
      ct("diff", "--against", "HEAD", "--format", "json", "--output-file", "reports/diff.json"),
      ct("diff", "--against", "HEAD", "--format", "html", "-o", "amendment.html"),
      ct("diff", "--against", "HEAD", "--write-approvals", "approvals.json"),
      ct("view", ".tooling/citation-targets/statute-book.jsonl", "-o", "book.html"),
    ],
  },
];

const HELP = [
  [],
  ["validate"],
  ["schema"],
  ["lock"],
  ["generate"],
  ["update"],
  ["adopt"],
  ["diff"],
  ["view"],
  ["resolve"],
  ["help"],
];

// ---------------------------------------------------------------- running

const TIMEOUT_MS = 180_000;
const CACHE_DIR = ".capture-cache";

function baseEnv(home) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TZ: "UTC",
    LANG: "C",
    LC_ALL: "C",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "capture",
    GIT_AUTHOR_EMAIL: "capture@example.org",
    GIT_COMMITTER_NAME: "capture",
    GIT_COMMITTER_EMAIL: "capture@example.org",
    GIT_AUTHOR_DATE: "2025-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2025-01-01T00:00:00Z",
  };
}

/** Runs a child process to its end; resolves to its bytes and code (a timeout is a code of its own). */
function runProcess(command, args, { cwd, env, stdin }) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout = [];
    const stderr = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, TIMEOUT_MS);
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.stdin.on("error", () => {});
    child.stdin.end(stdin ?? Buffer.alloc(0));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
        code: timedOut ? "timeout" : code === null ? `signal ${signal}` : String(code),
      });
    });
  });
}

/** Every file below root except .git and the cache folder: relative path → { size, mtimeMs, full }. */
function listFiles(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const rel = relative(root, full);
      if (rel === ".git" || rel === CACHE_DIR || rel === "node_modules") continue;
      if (entry.isDirectory()) walk(full);
      else {
        const stat = lstatSync(full);
        files.set(rel.split("\\").join("/"), { size: stat.size, mtimeMs: stat.mtimeMs, full });
      }
    }
  };
  walk(root);
  return files;
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** A snapshot keeps each file's stat and, once read, its digest; a file whose size and mtime stay is unchanged. */
function snapshot(root, previous) {
  const files = listFiles(root);
  for (const [rel, info] of files) {
    const before = previous?.get(rel);
    // unchanged: the earlier entry stands, with the path its bytes can still be read from (the data, at first)
    if (before && before.size === info.size && before.mtimeMs === info.mtimeMs) files.set(rel, before);
  }
  return files;
}
const digestOf = (info) => {
  info.sha ??= sha256(readFileSync(info.full));
  return info.sha;
};

/** The digests of the files a step wrote, read now: a later step may write them again. */
function settle(next, previous) {
  for (const [rel, info] of next) if (previous.get(rel) !== info) digestOf(info);
  return next;
}

/** What changed between two snapshots: written (new or other bytes) and removed paths, sorted. */
function changes(before, after) {
  const written = [];
  const removed = [];
  for (const [rel, info] of after) {
    const old = before.get(rel);
    if (old === info) continue;
    if (old === undefined) written.push(rel);
    else if (old.sha !== undefined && info.sha !== undefined && old.sha === info.sha) continue;
    else if (old.size !== info.size || digestOf(old) !== digestOf(info)) written.push(rel);
  }
  for (const rel of before.keys()) if (!after.has(rel)) removed.push(rel);
  return { written: written.sort(), removed: removed.sort() };
}

/** Text with the run's absolute paths replaced by placeholders; bytes that are not UTF-8 text stay as they are. */
function masker(pairs) {
  const ordered = pairs.filter(([path]) => path).sort((a, b) => b[0].length - a[0].length);
  return (bytes, { timings = false } = {}) => {
    if (bytes.includes(0)) return bytes;
    const text = bytes.toString("utf8");
    if (!Buffer.from(text, "utf8").equals(bytes)) return bytes;
    let masked = text;
    for (const [path, name] of ordered) masked = masked.split(path).join(name);
    // Temporary names of atomic writes and of the system's temporary folder, if ever shown.
    masked = masked.replace(/\.tmp-[0-9a-z.-]+/gi, ".tmp-<ID>");
    if (timings) {
      masked = masked
        .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s|seconds?|µs|us|ns|min)\b/g, "<TIME>")
        .replace(/\bpid \d+\b/g, "pid <PID>");
    }
    return Buffer.from(masked, "utf8");
  };
}

function writeOut(path, bytes) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

const quote = (arg) => (/^[\w./:=@{}|,+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/** The laws scripts/capture-data.js amended and left stale in the repository data set: folder, manifest, JSONL. */
function staleLaws(root, data) {
  const { stale } = JSON.parse(readFileSync(join(data, "repository.json"), "utf8"));
  const manifests = readdirSync(join(root, R_TOOL)).filter((name) => name.endsWith(".lock.json"));
  return stale.map((law) => {
    const name = manifests.find(
      (candidate) =>
        JSON.parse(readFileSync(join(root, R_TOOL, candidate), "utf8")).datasetRoot === `../../laws/${law}`,
    );
    const base = `${R_TOOL}/${name.replace(/\.lock\.json$/, "")}`;
    return { law, manifest: `${base}.lock.json`, jsonl: `${base}.jsonl` };
  });
}

async function runScenario(scenario, context) {
  const { cli, data, tmp, out } = context;
  const root = join(tmp, scenario.name);
  const home = join(tmp, `${scenario.name}.home`);
  mkdirSync(home, { recursive: true });
  const copied = await runProcess("cp", ["-a", join(data, scenario.data), root], { cwd: tmp, env: process.env });
  if (copied.code !== "0") throw new Error(`copying ${scenario.data}: ${copied.stderr}`);
  const mask = masker([
    [root, "<ROOT>"],
    [realpathSync(root), "<ROOT>"],
    [home, "<HOME>"],
    [cli, "<CLI>"],
    [realpathSync(cli), "<CLI>"],
    [data, "<DATA>"],
    [tmp, "<TMP>"],
    [realpathSync(tmp), "<TMP>"],
  ]);
  const env = { ...baseEnv(home) };
  for (const [key, value] of Object.entries(scenario.env ?? {})) env[key] = value.split("<ROOT>").join(root);
  const dir = join(out, "scenarios", scenario.name);
  const log = [];
  // The copy keeps the data's sizes and times (cp -a): its files are read, to be compared, only once a step changed them.
  let state = snapshot(join(data, scenario.data));
  const started = Date.now();
  let index = 0;
  for (const step of scenario.steps) {
    index += 1;
    const id = String(index).padStart(2, "0");
    if (step.edit || step.append || step.write) {
      const file = join(root, step.edit ?? step.append ?? step.write);
      if (step.edit) {
        const text = readFileSync(file, "utf8");
        if (!step.pattern.test(text)) throw new Error(`${scenario.name} step ${id}: no match in ${step.edit}`);
        step.pattern.lastIndex = 0;
        writeFileSync(file, text.replace(step.pattern, step.replacement));
        log.push(`${id} edit ${step.edit}`);
      } else if (step.append) {
        writeFileSync(file, readFileSync(file, "utf8") + step.text);
        log.push(`${id} append ${step.append}`);
      } else {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, step.text);
        log.push(`${id} write ${step.write}`);
      }
      state = settle(snapshot(root, state), state);
      continue;
    }
    let command;
    let args;
    const ctArgs = step.ctOf ? step.ctOf(staleLaws(root, data)) : step.ct;
    if (step.git) {
      command = "git";
      args = step.git;
    } else {
      command = process.execPath;
      args = [join(cli, "bin/citation-targets.js"), ...ctArgs];
    }
    const stdin = step.stdin ? readFileSync(join(root, step.stdin)) : undefined;
    const stepStarted = Date.now();
    const result = await runProcess(command, args, { cwd: join(root, step.cwd ?? "."), env, stdin });
    if (context.timings) console.error(`  ${scenario.name} ${id}: ${((Date.now() - stepStarted) / 1000).toFixed(1)} s`);
    const shown = `${step.git ? "git" : "citation-targets"} ${(step.git ?? ctArgs).map(quote).join(" ")}${step.stdin ? ` < ${step.stdin}` : ""}`;
    if (step.stdoutTo) writeFileSync(join(root, step.stdoutTo), result.stdout);
    writeOut(join(dir, `${id}.stdout`), mask(result.stdout));
    writeOut(join(dir, `${id}.stderr`), mask(result.stderr, { timings: true }));
    const next = snapshot(root, state);
    const { written, removed } = changes(state, next);
    settle(next, state);
    for (const rel of written) writeOut(join(dir, `${id}.files`, rel), mask(readFileSync(join(root, rel))));
    log.push(
      `${id} ${shown}\n   exit ${result.code}` +
        (written.length ? `\n   wrote ${written.join(", ")}` : "") +
        (removed.length ? `\n   removed ${removed.join(", ")}` : ""),
    );
    state = next;
  }
  writeOut(join(dir, "steps.txt"), mask(Buffer.from(`${log.join("\n")}\n`)));
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  return (Date.now() - started) / 1000;
}

async function captureHelp({ cli, tmp, out }) {
  const cwd = join(tmp, "help");
  mkdirSync(cwd, { recursive: true });
  const mask = masker([
    [cli, "<CLI>"],
    [cwd, "<ROOT>"],
  ]);
  const lines = [];
  for (const command of HELP) {
    for (const args of command.length === 0 ? [["--help"], ["--version"], []] : [[...command, "--help"]]) {
      const result = await runProcess(process.execPath, [join(cli, "bin/citation-targets.js"), ...args], {
        cwd,
        env: baseEnv(cwd),
      });
      const name = args.length ? args.join("_").replace(/^-+/, "") : "no-arguments";
      writeOut(join(out, "help", `${name}.stdout`), mask(result.stdout));
      writeOut(join(out, "help", `${name}.stderr`), mask(result.stderr, { timings: true }));
      lines.push(`citation-targets ${args.join(" ")}: exit ${result.code}`);
    }
  }
  writeOut(join(out, "help", "exit-codes.txt"), Buffer.from(`${lines.join("\n")}\n`));
}

// ---------------------------------------------------------------- the public declarations

/** The top-level statements of a .d.ts file, comments removed, whitespace collapsed. */
function statementsOf(text) {
  const statements = [];
  let current = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      current += " ";
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      current += " ";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      current += text.slice(i, j + 1);
      i = j;
      continue;
    }
    current += c;
    if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") depth--;
    const blockEnd =
      c === "}" &&
      depth === 0 &&
      /^\s*(export\s+)?(default\s+)?(declare\s+)?(abstract\s+)?(const\s+)?(interface|class|enum|namespace|module|function)\b/.test(
        current,
      );
    if ((c === ";" && depth === 0) || blockEnd) {
      const statement = current.replace(/\s+/g, " ").trim();
      if (statement && statement !== ";") statements.push(statement);
      current = "";
    }
  }
  const rest = current.replace(/\s+/g, " ").trim();
  if (rest) statements.push(rest);
  return statements;
}

/** One module's scope: its declarations by name, its imports, its exports. */
function parseModule(file) {
  const module = { file, declarations: new Map(), imports: new Map(), exports: new Map(), stars: [] };
  const names = (list) =>
    list
      .split(",")
      .map((part) => part.trim().replace(/^type\s+/, ""))
      .filter(Boolean)
      .map((part) => {
        const [name, alias] = part.split(/\s+as\s+/);
        return [name.trim(), (alias ?? name).trim()];
      });
  const forms = [
    [
      /^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']([^"']+)["']/,
      (m) => {
        for (const [name, local] of names(m[1])) module.imports.set(local, { spec: m[2], name });
      },
    ],
    [
      /^import\s+(?:type\s+)?\*\s+as\s+([\w$]+)\s+from\s+["']([^"']+)["']/,
      (m) => module.imports.set(m[1], { spec: m[2], name: "*" }),
    ],
    [
      /^import\s+(?:type\s+)?([\w$]+)\s+from\s+["']([^"']+)["']/,
      (m) => module.imports.set(m[1], { spec: m[2], name: "default" }),
    ],
    [
      /^export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']([^"']+)["']/,
      (m) => {
        for (const [name, alias] of names(m[1])) module.exports.set(alias, { spec: m[2], name });
      },
    ],
    [/^export\s+(?:type\s+)?\*\s+from\s+["']([^"']+)["']/, (m) => module.stars.push(m[1])],
    [
      /^export\s+(?:type\s+)?\{([^}]*)\}\s*;?$/,
      (m) => {
        for (const [name, alias] of names(m[1])) module.exports.set(alias, { local: name });
      },
    ],
    [
      /^(export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:const\s+enum|function|const|let|var|class|interface|type|enum|namespace)\s+([\w$]+)/,
      (m, statement) => {
        const text = statement.replace(/^export\s+/, "").replace(/^declare\s+/, "");
        module.declarations.set(m[2], [...(module.declarations.get(m[2]) ?? []), text]);
        if (m[1]) module.exports.set(m[2], { local: m[2] });
      },
    ],
  ];
  for (const statement of statementsOf(readFileSync(file, "utf8"))) {
    const form = forms.find(([pattern]) => pattern.test(statement));
    if (form) form[1](form[0].exec(statement), statement);
    else if (statement !== "export {};")
      module.declarations.set(`(statement ${module.declarations.size})`, [statement]);
  }
  return module;
}

/** The exported names of a public entry with their declarations, and every declaration they reach, by name. */
function describeDeclarations(entry) {
  const modules = new Map();
  const load = (file) => {
    if (!modules.has(file)) modules.set(file, parseModule(file));
    return modules.get(file);
  };
  const target = (from, spec) => {
    if (!spec.startsWith(".")) return undefined;
    const base = resolve(dirname(from), spec).replace(/\.(m|c)?js$/, "");
    for (const candidate of [`${base}.d.ts`, join(base, "index.d.ts")]) if (existsSync(candidate)) return candidate;
    return undefined;
  };
  /** A name exported by a module → { module, local } or { external }. */
  const resolveExport = (file, name, seen = new Set()) => {
    if (seen.has(`${file}\0${name}`)) return undefined;
    seen.add(`${file}\0${name}`);
    const module = load(file);
    const exported = module.exports.get(name);
    if (exported?.local !== undefined) return resolveLocal(file, exported.local, seen);
    if (exported) {
      const next = target(file, exported.spec);
      return next ? resolveExport(next, exported.name, seen) : { external: `${exported.spec}#${exported.name}` };
    }
    for (const spec of module.stars) {
      const next = target(file, spec);
      const found = next && resolveExport(next, name, seen);
      if (found) return found;
    }
    return undefined;
  };
  const resolveLocal = (file, name, seen = new Set()) => {
    const module = load(file);
    if (module.declarations.has(name)) return { file, name, texts: module.declarations.get(name) };
    const imported = module.imports.get(name);
    if (imported) {
      const next = target(file, imported.spec);
      if (!next) return { external: `${imported.spec}#${imported.name}` };
      return imported.name === "*" ? { namespace: next } : resolveExport(next, imported.name, seen);
    }
    return undefined;
  };
  const allExports = (file, seen = new Set()) => {
    if (seen.has(file)) return [];
    seen.add(file);
    const module = load(file);
    const list = [...module.exports.keys()];
    for (const spec of module.stars) {
      const next = target(file, spec);
      if (next) list.push(...allExports(next, seen).filter((name) => name !== "default"));
    }
    return [...new Set(list)].sort();
  };
  const normalise = (text) => text.replace(/import\(["'][^"']*["']\)\./g, "import(*).");
  const referenced = new Map(); // "name: text" → true
  const queue = [];
  const reach = (found) => {
    if (!found?.texts) return;
    const key = `${found.name}: ${found.texts.map(normalise).join(" ")}`;
    if (referenced.has(key)) return;
    referenced.set(key, found);
    queue.push(found);
  };
  const describe = (found) => {
    if (!found) return "(unresolved)";
    if (found.external) return `(from ${found.external})`;
    if (found.namespace) return `(namespace of ${allExports(found.namespace).join(", ")})`;
    return found.texts.map(normalise).join(" ");
  };
  const lines = [];
  for (const name of allExports(entry)) {
    const found = resolveExport(entry, name);
    lines.push(`export ${name} = ${describe(found)}`);
    if (found?.texts) queue.push(found);
  }
  // The closure: every declaration of the package that an exported declaration names in a type position.
  while (queue.length > 0) {
    const found = queue.shift();
    const text = found.texts
      .join(" ")
      .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
      .replace(/import\(["'][^"']*["']\)\.([\w$]+)/g, "");
    for (const inline of found.texts.join(" ").matchAll(/import\(["']([^"']*)["']\)\.([\w$]+)/g)) {
      const next = target(found.file, inline[1]);
      if (next) reach(resolveExport(next, inline[2]));
    }
    for (const match of text.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)(?![\w$])(\s*\??\s*[:(])?(\.[\w$]+)?/g)) {
      if (match[2]) continue; // a property, method or parameter name
      if (match[1] === found.name) continue;
      const local = resolveLocal(found.file, match[1]);
      if (local?.namespace && match[3]) reach(resolveExport(local.namespace, match[3].slice(1)));
      else reach(local);
    }
  }
  const closure = [...referenced.keys()].sort();
  return `${lines.join("\n")}\n\n# declarations reached from the exports (by name)\n${closure.join("\n")}\n`;
}

function captureDeclarations({ cli, out }) {
  for (const entry of ["index.d.ts", "core-api.d.ts"]) {
    const file = join(cli, "dist", entry);
    const text = existsSync(file) ? describeDeclarations(file) : `(no ${entry}: is the checkout built?)\n`;
    writeOut(join(out, "declarations", `${entry}.txt`), Buffer.from(text));
  }
}

// ---------------------------------------------------------------- compare

function compare(a, b) {
  const list = (root) => {
    const files = [];
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else files.push(relative(root, full));
      }
    };
    walk(root);
    return files;
  };
  for (const root of [a, b]) {
    if (!existsSync(join(root, "capture.json"))) {
      console.error(`capture-outputs: ${root} is not a capture (no capture.json)`);
      process.exit(2);
    }
  }
  const left = new Set(list(a).filter((f) => f !== "capture.json"));
  const right = new Set(list(b).filter((f) => f !== "capture.json"));
  const all = [...new Set([...left, ...right])].sort();
  let differences = 0;
  const show = (line) =>
    line === undefined ? "(end of file)" : JSON.stringify(line.length > 300 ? `${line.slice(0, 300)}…` : line);
  for (const file of all) {
    if (!right.has(file)) {
      console.log(`${file}: only in ${a}`);
      differences++;
      continue;
    }
    if (!left.has(file)) {
      console.log(`${file}: only in ${b}`);
      differences++;
      continue;
    }
    const x = readFileSync(join(a, file));
    const y = readFileSync(join(b, file));
    if (x.equals(y)) continue;
    differences++;
    const xs = x.toString("utf8").split("\n");
    const ys = y.toString("utf8").split("\n");
    let line = 0;
    while (line < xs.length && line < ys.length && xs[line] === ys[line]) line++;
    console.log(`${file}: differs at line ${line + 1}\n  - ${show(xs[line])}\n  + ${show(ys[line])}`);
  }
  if (differences === 0) console.log(`identical: ${all.length} files`);
  else console.log(`${differences} of ${all.length} files differ`);
  process.exit(differences === 0 ? 0 : 1);
}

// ---------------------------------------------------------------- main

async function capture(args) {
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i === -1 ? fallback : args[i + 1];
  };
  const cli = option("--cli") && realpathSync(resolve(option("--cli")));
  const data = option("--data") && realpathSync(resolve(option("--data")));
  const out = option("--out") && resolve(option("--out"));
  const jobs = Number(option("--jobs", 2));
  const only = option("--only") && new RegExp(option("--only"));
  if (!cli || !data || !out) {
    console.error(
      "usage: node scripts/capture-outputs.js --cli <built-checkout> --data <data-dir> --out <out-dir> [--jobs 2] [--only RE] [--timings]\n" +
        "       node scripts/capture-outputs.js compare <out-a> <out-b>",
    );
    process.exit(2);
  }
  // The bundle: dist/node/cli.cjs, or dist/node/cli.js as built before it was CommonJS.
  const bundle = ["dist/node/cli.cjs", "dist/node/cli.js"].some((path) => existsSync(join(cli, path)));
  if (!existsSync(join(cli, "bin/citation-targets.js")) || !bundle) {
    console.error(`capture-outputs: ${cli} is not a built checkout (bin/citation-targets.js, dist/node/cli.cjs)`);
    process.exit(2);
  }
  if (existsSync(out) && readdirSync(out).length > 0) {
    console.error(`capture-outputs: ${out} is not empty`);
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), "ct-capture-")));
  const context = { cli, data, tmp, out, timings: args.includes("--timings") };
  const started = Date.now();
  try {
    await captureHelp(context);
    captureDeclarations(context);
    const queue = SCENARIOS.filter((s) => !only || only.test(s.name));
    const failures = [];
    const worker = async () => {
      while (queue.length > 0) {
        const scenario = queue.shift();
        try {
          const seconds = await runScenario(scenario, context);
          console.error(`${scenario.name}: ${scenario.steps.length} steps, ${seconds.toFixed(1)} s`);
        } catch (error) {
          failures.push(scenario.name);
          console.error(`${scenario.name}: FAILED: ${error.message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
    writeFileSync(
      join(out, "capture.json"),
      `${JSON.stringify({ cli, data, seconds: (Date.now() - started) / 1000 }, null, 2)}\n`,
    );
    console.error(`captured into ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (failures.length > 0) {
      console.error(`capture-outputs: the harness failed in ${failures.join(", ")}`);
      process.exitCode = 2;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === "declarations") {
  // node scripts/capture-outputs.js declarations <built-checkout>: the normalised exports, as captured
  for (const entry of ["index.d.ts", "core-api.d.ts"]) {
    process.stdout.write(`## ${entry}\n${describeDeclarations(join(resolve(args[1] ?? "."), "dist", entry))}`);
  }
} else if (args[0] === "compare") {
  if (args.length !== 3) {
    console.error("usage: node scripts/capture-outputs.js compare <out-a> <out-b>");
    process.exit(2);
  }
  compare(resolve(args[1]), resolve(args[2]));
} else {
  await capture(args);
}
