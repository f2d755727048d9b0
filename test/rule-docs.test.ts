/**
 * The **Bad:** and **Fix:** of every rule in docs/spec.md, section 11, are true: each bad example is
 * built here from the fixture `privacy-act-1988` (records, manifest and dataset folder), mutated as
 * the section says; the checker must report that rule for it (and nothing else but the rules the
 * section names as reported with it), with the very line the section prints; and the input after
 * the section's fix must check clean. Where the fix is a command (`generate`, `update`), it is run.
 */
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LockContext } from "../src/core/lock/lock-context.js";
import type { Report } from "../src/core/report/report.js";
import { createColor } from "../src/formatters/color.js";
import { formatStylish } from "../src/formatters/stylish.js";
import { generate } from "../src/node/generate/generate.js";
import { lock } from "../src/node/dataset/lock.js";
import { loadLockContext } from "../src/node/validate/validate-lock.js";
import { update } from "../src/node/update/update.js";
import { type RuleId, ruleIds } from "../src/rules/index.js";
import { check, fixtureRecords, type Rec, refresh, repoRoot, toJsonl } from "./helpers/records.js";
import { escapeRegExp } from "../src/core/text.js";

const SLUG = "privacy-act-1988";
const FILE = `.tooling/citation-targets/${SLUG}.jsonl`;
const MANIFEST = `.tooling/citation-targets/${SLUG}.lock.json`;
const DATASET = `fixtures/datasets/${SLUG}`;
/** The default of `--max-line-bytes`, as section 11 gives it. */
const MAX_LINE_BYTES = 64 * 2 ** 20;

/** What one check runs on: the file's content and name, and the lock manifest in force, if any. */
interface Input {
  text: string | Uint8Array;
  file: string;
  lock?: LockContext;
}

interface Example {
  /** The situation of the section's **Bad:**. */
  bad(): Input | Promise<Input>;
  /** The same after the section's **Fix:**. */
  fixed(): Input | Promise<Input>;
  /** Rules that the section says are reported together with this one, for the same cause. */
  also?: RuleId[];
}

const base = (): Rec[] => structuredClone(fixtureRecords(SLUG));
const jsonl = (records: Rec[] = base()): Input => ({ text: toJsonl(records), file: FILE });
/** Index (0-based) of the record with this address. */
const indexOf = (records: Rec[], address: string) => {
  const i = records.findIndex((r) => r.citationAddress === address);
  if (i < 0) throw new Error(`no record ${address}`);
  return i;
};
const address = (local: string) => `${SLUG}/${local}`;
/** The records with documentOrder renumbered in file order, as a consistent generator would leave them. */
const renumber = (records: Rec[]) => {
  let order = 0;
  for (const r of records) if (r.targetKind === "markdown-artifact") r.documentOrder = order++;
  return records;
};
/** The lines of the fixture JSONL, one string each, without LF. */
const fixtureLines = () => toJsonl(base()).split("\n").slice(0, -1);
const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * A working copy of the repository's layout in a temporary folder: the fixture's manifest and
 * JSONL in `.tooling/citation-targets/`, its dataset in `fixtures/datasets/`. Paths in messages
 * are then exactly as `citation-targets validate` prints them at the repository root.
 */
class Workspace {
  constructor(readonly dir: string) {}

  static async create(root: string): Promise<Workspace> {
    const dir = await mkdtemp(join(root, "ws-"));
    await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
    for (const name of [`${SLUG}.jsonl`, `${SLUG}.lock.json`])
      await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
    await cp(join(repoRoot, DATASET), join(dir, DATASET), { recursive: true });
    return new Workspace(dir);
  }

  path(relative: string): string {
    return join(this.dir, ...relative.split("/"));
  }

  /** The JSONL checked against the manifest, as validate does (the lock context read from the files). */
  async input(): Promise<Input> {
    return {
      text: await readFile(this.path(FILE)),
      file: FILE,
      lock: await loadLockContext(this.path(MANIFEST), MANIFEST, this.dir),
    };
  }

  /** An amendment of an artifact: a paragraph appended. */
  async amend(artifact: string): Promise<void> {
    const file = this.path(`${DATASET}/${artifact}`);
    await writeFile(file, `${await readFile(file, "utf8")}\n(2) This subsection was inserted by an amendment.\n`);
  }

  async editManifest(change: (manifest: Record<string, unknown>) => void): Promise<void> {
    const manifest = JSON.parse(await readFile(this.path(MANIFEST), "utf8")) as Record<string, unknown>;
    change(manifest);
    await writeFile(this.path(MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  }

  async editRecords(change: (records: Rec[]) => Rec[]): Promise<void> {
    const text = await readFile(this.path(FILE), "utf8");
    const records = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Rec);
    await writeFile(this.path(FILE), toJsonl(change(records)));
  }

  /** `citation-targets lock fixtures/datasets/<slug> -o <manifest>` */
  async lock(): Promise<void> {
    await lock({ dir: DATASET, output: MANIFEST, cwd: this.dir });
  }

  /** `citation-targets generate <manifest> -o <file>` */
  async generate(): Promise<void> {
    await generate({ manifest: MANIFEST, output: FILE, cwd: this.dir });
  }

  /** `citation-targets update <manifest>` */
  async update(): Promise<void> {
    await update({ manifests: [MANIFEST], cwd: this.dir });
  }
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "citation-targets-rule-docs-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});
/** An example in a workspace: `make` brings about the bad situation, `fix` runs the section's fix on it. */
function inWorkspace(
  make: (ws: Workspace) => Promise<unknown>,
  fix: (ws: Workspace) => Promise<unknown>,
  also?: RuleId[],
): Example {
  const state = async (fixed: boolean) => {
    const ws = await Workspace.create(scratch);
    await make(ws);
    if (fixed) await fix(ws);
    return ws.input();
  };
  return { bad: () => state(false), fixed: () => state(true), ...(also ? { also } : {}) };
}

/** Every rule's bad example and its fix (the docs' order). A rule without one does not compile. */
const examples = {
  "line-length": {
    // the records of a large dataset written as one JSON array on one line, longer than the default cap
    bad: () => {
      const one = fixtureLines().join(",");
      const copies = Math.ceil(MAX_LINE_BYTES / Buffer.byteLength(one)) + 1;
      return { text: `[${Array.from({ length: copies }, () => one).join(",")}]\n`, file: FILE };
    },
    fixed: () => jsonl(),
  },
  "invalid-utf8": {
    // line 5 edited in an editor that saved it as Windows-1252, where — is the one byte 0x97
    bad: () => {
      const lines = fixtureLines();
      const chunks = lines.map((line, i) =>
        i === 4
          ? line.split("—").flatMap((part, j) => (j === 0 ? [utf8(part)] : [Uint8Array.of(0x97), utf8(part)]))
          : [utf8(line)],
      );
      const bytes = chunks.flatMap((parts) => [...parts, utf8("\n")]);
      return { text: Buffer.concat(bytes), file: FILE };
    },
    fixed: () => jsonl(),
  },
  bom: {
    bad: () => ({ text: `\uFEFF${toJsonl(base())}`, file: FILE }),
    fixed: () => jsonl(),
  },
  "carriage-return": {
    bad: () => ({ text: toJsonl(base()).replaceAll("\n", "\r\n"), file: FILE }),
    fixed: () => jsonl(),
  },
  "blank-line": {
    bad: () => ({ text: `${toJsonl(base())}\n`, file: FILE }),
    fixed: () => jsonl(),
  },
  "final-newline": {
    bad: () => ({ text: toJsonl(base()).slice(0, -1), file: FILE }),
    fixed: () => jsonl(),
  },
  "json-syntax": {
    // a member deleted by hand, its comma left behind
    bad: () => {
      const lines = fixtureLines();
      lines[41] = lines[41]!.replace(/,"versionDate":"[^"]*"\}$/, ",}");
      return { text: `${lines.join("\n")}\n`, file: FILE };
    },
    fixed: () => jsonl(),
  },
  "record-not-object": {
    // the records written as one JSON array
    bad: () => ({ text: `[${fixtureLines().join(",")}]\n`, file: FILE }),
    fixed: () => jsonl(),
  },
  "nesting-depth": {
    // line 42 with its headingTrail wrapped in 64 arrays
    bad: () => {
      const lines = fixtureLines();
      lines[41] = lines[41]!.replace(
        '"headingTrail":["Endnotes"]',
        `"headingTrail":${"[".repeat(64)}["Endnotes"]${"]".repeat(64)}`,
      );
      return { text: `${lines.join("\n")}\n`, file: FILE };
    },
    fixed: () => jsonl(),
  },
  "duplicate-key": {
    bad: () => {
      const lines = fixtureLines();
      lines[0] = lines[0]!.replace(/("titleId":"[^"]*")/, "$1,$1");
      return { text: `${lines.join("\n")}\n`, file: FILE };
    },
    fixed: () => jsonl(),
  },
  "non-canonical": {
    // Python's json.dumps(sort_keys=True, separators=(",", ":")): ensure_ascii escapes every non-ASCII character
    bad: () => ({
      text: toJsonl(base()).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      file: FILE,
    }),
    fixed: () => jsonl(),
  },
  schema: {
    bad: () => {
      const records = base();
      records[indexOf(records, address("part-i/section-6.md#6"))]!.documentOrder = "7";
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "file-name": {
    bad: () => ({ ...jsonl(), file: ".tooling/citation-targets/privacy-act.jsonl" }),
    fixed: () => jsonl(),
  },
  "dataset-fields": {
    bad: () => {
      const records = base();
      records[indexOf(records, address("part-i/section-6.md#6"))]!.name = "Privacy Act 1988 (Cth)";
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "schema-version": {
    bad: () => jsonl(base().map((r) => ({ ...r, schemaVersion: "1.1.0" }))),
    fixed: () => jsonl(),
  },
  "text-digest": {
    bad: () => {
      const records = base();
      const r = records[indexOf(records, address("part-i/section-1.md#1"))]!;
      r.markdown = String(r.markdown).replace("*Privacy Act 1988*", "*Privacy Act 1988 (Cth)*");
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "directional-control": {
    // a right-to-left override left open in a section's text (a hostile pull request's Trojan Source)
    bad: () => {
      const records = base();
      const r = records[indexOf(records, address("part-i/section-1.md#1"))]!;
      r.markdown = String(r.markdown).replace("This Act", "This \u202eAct");
      refresh(r);
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "citation-target-id": {
    // another generator's ids: SHA-256 of the parts without the NUL framing of section 3
    bad: () =>
      jsonl(
        base().map((r) => ({
          ...r,
          citationTargetId: createHash("sha256")
            .update(`citation-target-id/v1${String(r.datasetDigest)}${String(r.citationAddress)}`)
            .digest("hex"),
        })),
      ),
    fixed: () => jsonl(),
  },
  "unique-citation-address": {
    bad: () => {
      const records = base();
      const i = indexOf(records, address("endnotes.md#endnote-2"));
      const first = records[i - 1]!;
      Object.assign(records[i]!, {
        citationAddress: first.citationAddress,
        canonicalPath: first.canonicalPath,
        structuralPath: first.structuralPath,
      });
      refresh(records[i]!);
      return jsonl(records);
    },
    fixed: () => jsonl(),
    also: ["unique-citation-target-id"],
  },
  "unique-citation-target-id": {
    bad: () => {
      const records = base();
      const i = indexOf(records, address("endnotes.md#endnote-2"));
      records[i]!.citationTargetId = records[i - 1]!.citationTargetId;
      return jsonl(records);
    },
    fixed: () => jsonl(),
    also: ["citation-target-id"],
  },
  "document-order": {
    bad: () => {
      const records = base();
      records.splice(indexOf(records, address("part-i/section-2.md#2")), 1);
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "structural-preorder-index": {
    bad: () =>
      jsonl(
        base().map((r) =>
          r.targetKind === "structural-container"
            ? { ...r, structuralPreorderIndex: Number(r.structuralPreorderIndex) + 1 }
            : r,
        ),
      ),
    fixed: () => jsonl(),
  },
  "block-range": {
    bad: () => {
      const records = base();
      records[indexOf(records, address("schedule-1/index.md#2.1"))]!.sourceArtifactBlockStartIndex = 10;
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "citation-address": {
    bad: () => {
      const records = base();
      const r = records[indexOf(records, address("part-i/"))]!;
      r.citationAddress = address("part-i");
      refresh(r);
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "structural-path": {
    bad: () => {
      const records = base();
      Object.assign(records[indexOf(records, address("part-i/index.md#part-i"))]!, {
        structuralPath: ["part-i", "index", "part-i"],
        canonicalPath: "part-i/index/part-i",
      });
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "parent-container": {
    bad: () => {
      const records = base();
      records[indexOf(records, address("part-iii/division-1/section-13.md#13"))]!.headingTrail = [
        "Division 1—Interferences with privacy",
      ];
      return jsonl(records);
    },
    fixed: () => jsonl(),
  },
  "record-order": {
    // the record of part-i/section-6aa.md appended at the end of the file by hand, its documentOrder continuing the
    // count
    bad: () => {
      const records = base();
      const [moved] = records.splice(indexOf(records, address("part-i/section-6aa.md#6aa")), 1);
      records.push(moved!);
      return jsonl(renumber(records));
    },
    fixed: () => jsonl(),
  },
  "lock-manifest-digest": inWorkspace(
    (ws) =>
      ws.editManifest((m) => {
        m.name = "Privacy Act 1988 (Cth)";
      }),
    (ws) => ws.update(),
    ["lock-dataset-fields"],
  ),
  "lock-dataset-digest": inWorkspace(
    async (ws) => {
      await ws.amend("part-i/section-6.md");
      await ws.lock();
    },
    (ws) => ws.generate(),
    ["lock-artifact-body"],
  ),
  "lock-dataset-fields": inWorkspace(
    (ws) => ws.editRecords((records) => records.map((r) => ({ ...r, name: "Privacy Act 1988 (Cth)" }))),
    (ws) => ws.generate(),
  ),
  "lock-artifacts": inWorkspace(
    (ws) => ws.editRecords((records) => records.filter((r) => r.artifactRelativePath !== "endnotes.md")),
    (ws) => ws.generate(),
    ["lock-generated"],
  ),
  "lock-artifact-body": inWorkspace(
    (ws) => ws.amend("part-i/section-6.md"),
    (ws) => ws.update(),
  ),
  "lock-generated": inWorkspace(
    (ws) =>
      ws.editRecords((records) =>
        records.map((r) =>
          r.headingText === "2A Objects of this Act" ? { ...r, headingText: "2A Object of this Act" } : r,
        ),
      ),
    (ws) => ws.generate(),
  ),
  "lock-dataset-files": inWorkspace(
    (ws) => unlink(ws.path(`${DATASET}/part-i/section-2a.md`)),
    (ws) => ws.update(),
  ),
  "lock-pair": inWorkspace(
    // the slug edited in the manifest by hand, to rename the dataset
    (ws) =>
      ws.editManifest((m) => {
        m.slug = "privacy-act";
      }),
    (ws) =>
      ws.editManifest((m) => {
        m.slug = SLUG;
      }),
    ["lock-manifest-digest", "lock-dataset-fields"],
  ),
} satisfies Record<RuleId, Example>;

const specText = () => readFile(join(repoRoot, "docs/spec.md"), "utf8");

/** The section of a rule in docs/spec.md: from its anchor to the next rule's anchor or the next `## ` heading. */
function sectionOf(spec: string, id: string): string {
  const start = spec.indexOf(`<a id="rule-${id}"></a>`);
  if (start < 0) throw new Error(`no section for ${id}`);
  const rest = spec.slice(start + 1);
  const ends = [rest.indexOf('<a id="rule-'), rest.indexOf("\n## ")].filter((i) => i >= 0);
  return rest.slice(0, Math.min(...ends));
}

interface DocExample {
  /** The lines of the ```jsonl blocks of the **Bad:** (… stands for any text). */
  lines: string[];
  /** The problem as the section prints it: the last fenced block before **Fix:**. */
  printed: string;
}

function docExample(section: string): DocExample {
  const bad = section.slice(section.indexOf("**Bad:**"), section.indexOf("**Fix:**"));
  const fences = [...bad.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  const last = fences.at(-1);
  if (last === undefined || last.lang !== "text")
    throw new Error("the **Bad:** must end with the printed problem in a ```text block");
  return {
    lines: fences
      .slice(0, -1)
      .filter((f) => f.lang === "jsonl")
      .flatMap((f) => f.body.split("\n").filter((l) => l !== "")),
    printed: last.body.trim(),
  };
}

/** A pattern from a documented text: … stands for any run of characters, white space runs for any white space. */
function pattern(documented: string): RegExp {
  const parts = documented
    .trim()
    .split("…")
    .map((part) => escapeRegExp(part).replace(/\s+/g, "\\s+"));
  return new RegExp(`^${parts.join("[\\s\\S]*")}$`);
}

/** The problem line as the stylish format prints it (without colour). */
function stylishLine(result: ReturnType<typeof check>, problem: (typeof result.problems)[number]): string {
  const report: Report = {
    files: [{ path: result.path, records: result.records, problems: [problem] }],
    summary: { files: 1, records: result.records, errors: 1, warnings: 0 },
    schemaSource: { kind: "bundled" },
    threads: 1,
    rules: [],
  };
  return formatStylish(report, { color: createColor(0) })
    .split("\n")[1]!
    .trim();
}

const run = (input: Input) => check(input.text, { file: input.file, ...(input.lock ? { lock: input.lock } : {}) });

describe("docs/spec.md, section 11: every rule has a bad example and its fix", () => {
  test("every rule of the registry has a **Bad:**, a printed problem and a **Fix:**, in that order", async () => {
    const spec = await specText();
    for (const id of ruleIds) {
      const section = sectionOf(spec, id);
      const bad = section.indexOf("**Bad:**");
      const fix = section.indexOf("**Fix:**");
      expect(bad, `${id}: **Bad:**`).toBeGreaterThan(0);
      expect(fix, `${id}: **Fix:** after **Bad:**`).toBeGreaterThan(bad);
      expect(section.indexOf("**Fix:**", fix + 1), `${id}: one **Fix:**`).toBe(-1);
      expect(() => docExample(section), id).not.toThrow();
    }
  });

  test("every rule's example is checked here", () => {
    expect(Object.keys(examples)).toEqual([...ruleIds]);
  });

  describe.each(ruleIds.map((id) => [id] as const))("%s", (id) => {
    const example: Example = examples[id];

    test("the bad example is reported as the section prints it, and by no other rule than those it names", async () => {
      const input = await example.bad();
      const result = run(input);
      const section = sectionOf(await specText(), id);
      const documented = docExample(section);
      const others = [...new Set(result.problems.map((p) => p.ruleId))].filter((r) => r !== id);
      expect(others, "rules reported besides").toEqual(example.also ?? []);
      for (const also of example.also ?? []) expect(section, `the section names ${also}`).toContain(also);
      const own = result.problems.filter((p) => p.ruleId === id);
      expect(own.length, "problems of the rule").toBeGreaterThan(0);
      // the printed line is one of the rule's problems (where a bad input gives one per line, the section shows one of
      // them)
      expect(own.map((p) => stylishLine(result, p))).toContainEqual(expect.stringMatching(pattern(documented.printed)));
      // each documented line of the bad input is a line of it, in order
      if (documented.lines.length === 0) return;
      const text = typeof input.text === "string" ? input.text : new TextDecoder().decode(input.text);
      const lines = text.split("\n");
      let from = 0;
      for (const line of documented.lines) {
        const at = lines.findIndex((candidate, i) => i >= from && pattern(line).test(candidate));
        expect(at, `documented line ${line.slice(0, 120)}`).toBeGreaterThanOrEqual(0);
        from = at + 1;
      }
    });

    test("after the fix, the file checks clean", async () => {
      const input = await example.fixed();
      expect(run(input).problems).toEqual([]);
    });
  });
});
