/**
 * Issue #31, the cost of item 1: validate with a lock manifest builds what generate writes, and the
 * rules that derive a field from a record's own fields (text-digest, citation-target-id) take the value
 * generate made from the same inputs instead of deriving it again; lock-generated compares members
 * without looking twice at the equal ones. Every report stays what the plain derivations give: each
 * edit below is validated with the lock manifest (where generate's records are at hand) and with
 * `--no-lock` (where they are not), and the two say the same of those rules.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sha256Hex } from "../src/core/bytes.js";
import { deriveCitationTargetId } from "../src/core/digest.js";
import { tempDir } from "./helpers/datasets.js";
import { runMain } from "./helpers/in-process.js";
import { repoRoot } from "./helpers/records.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const JSONL = ".tooling/citation-targets/privacy-act-1988.jsonl";

/** A git repository holding the privacy-act-1988 dataset (folders, so container records too), as committed. */
async function repository(): Promise<void> {
  execFileSync("git", ["init", "-q"], { cwd: dir });
  await mkdir(join(dir, ".tooling/citation-targets"), { recursive: true });
  for (const name of ["privacy-act-1988.jsonl", "privacy-act-1988.lock.json"])
    await cp(join(repoRoot, ".tooling/citation-targets", name), join(dir, ".tooling/citation-targets", name));
  await cp(join(repoRoot, "fixtures/datasets/privacy-act-1988"), join(dir, "fixtures/datasets/privacy-act-1988"), {
    recursive: true,
  });
}

type Rec = Record<string, unknown>;

/** Edits the records of the JSONL by hand: `change` gets each with its 0-based index; the lines are written back. */
async function editRecords(change: (record: Rec, index: number) => Rec | undefined): Promise<void> {
  const path = join(dir, JSONL);
  const lines = (await readFile(path, "utf8")).split("\n").slice(0, -1);
  const edited = lines.map((line, index) => {
    const record = JSON.parse(line) as Rec;
    return JSON.stringify(change(record, index) ?? record);
  });
  await writeFile(path, `${edited.join("\n")}\n`);
}

/** A record with its members in code-unit order (the canonical form's), so that only the edit is a difference. */
function sorted(record: Rec): Rec {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

interface JsonProblem {
  ruleId: string;
  line: number;
  pointer: string;
  message: string;
}

async function problemsOf(args: string[]): Promise<JsonProblem[]> {
  const result = await runMain(["validate", "--no-cache", ...args, "--format", "json"], dir);
  const report = JSON.parse(result.stdout) as { files: { problems: JsonProblem[] }[] };
  return report.files.flatMap((f) => f.problems);
}

/**
 * The problems of the rules that derive from a record's own fields, with the lock manifest and without; their
 * messages without the command they suggest (which names the manifest only when there is one).
 */
async function derivedProblems(): Promise<{ withLock: JsonProblem[]; noLock: JsonProblem[] }> {
  const pick = (problems: JsonProblem[]) =>
    problems
      .filter((p) => p.ruleId === "text-digest" || p.ruleId === "citation-target-id")
      .map((p) => ({ ...p, message: p.message.replace(/; regenerate the file with `.*`$/, "") }));
  return { withLock: pick(await problemsOf([])), noLock: pick(await problemsOf(["--no-lock"])) };
}

const ARTIFACT = (r: Rec) => r.targetKind === "markdown-artifact";
const CONTAINER = (r: Rec) => r.targetKind === "structural-container";

describe("text-digest and citation-target-id with generate's records at hand say what they say without", () => {
  test("the committed dataset: no problem either way", async () => {
    await repository();
    expect(await derivedProblems()).toEqual({ withLock: [], noLock: [] });
  });

  test("an artifact's markdown edited: the digest expected is that of the edited text, not of generate's", async () => {
    await repository();
    let edited = "";
    let seen = 0;
    await editRecords((r) => {
      if (!ARTIFACT(r) || seen++ !== 3) return undefined;
      edited = `${r.markdown as string}Ein Satz mehr.\n`;
      return { ...r, markdown: edited };
    });
    const { withLock, noLock } = await derivedProblems();
    expect(withLock).toEqual(noLock);
    expect(withLock.map((p) => [p.ruleId, p.pointer])).toEqual([["text-digest", "/textDigest"]]);
    expect(withLock[0]!.message).toContain(`the SHA-256 of markdown is ${sha256Hex(edited)}`);
  });

  test("textDigest edited on an artifact and on a container; a container's headingText edited", async () => {
    await repository();
    const wrong = "0".repeat(64);
    let artifacts = 0;
    let containers = 0;
    await editRecords((r) => {
      if (ARTIFACT(r) && artifacts++ === 2) return { ...r, textDigest: wrong };
      if (CONTAINER(r) && containers++ === 1) return { ...r, textDigest: wrong };
      if (CONTAINER(r) && containers === 3) return { ...r, headingText: `${r.headingText as string} (neu)` };
      return undefined;
    });
    const { withLock, noLock } = await derivedProblems();
    expect(withLock).toEqual(noLock);
    expect(withLock.map((p) => p.ruleId)).toEqual(["text-digest", "text-digest", "text-digest"]);
    expect(withLock.map((p) => p.message).join("\n")).toContain(`textDigest is ${wrong}`);
  });

  test("an artifact record that calls itself a container: the digest of its headingText, not generate's of its markdown", async () => {
    await repository();
    let seen = 0;
    await editRecords((r) => (ARTIFACT(r) && seen++ === 5 ? { ...r, targetKind: "structural-container" } : undefined));
    const { withLock, noLock } = await derivedProblems();
    expect(withLock).toEqual(noLock);
    expect(withLock.map((p) => [p.ruleId, p.pointer])).toEqual([["text-digest", "/textDigest"]]);
  });

  test("citationTargetId edited; another record's datasetDigest edited: the ids expected are derived from each record's own", async () => {
    await repository();
    const otherDigest = "f".repeat(64);
    let address = "";
    await editRecords((r, index) => {
      if (index === 4) return { ...r, citationTargetId: "1".repeat(64) };
      if (index === 9) {
        address = r.citationAddress as string;
        return { ...r, datasetDigest: otherDigest };
      }
      return undefined;
    });
    const { withLock, noLock } = await derivedProblems();
    expect(withLock).toEqual(noLock);
    expect(withLock.map((p) => [p.ruleId, p.line])).toEqual([
      ["citation-target-id", 5],
      ["citation-target-id", 10],
    ]);
    expect(withLock[1]!.message).toContain(`gives ${deriveCitationTargetId(otherDigest, address)}`);
  });
});

describe("lock-generated: members absent, extra and differing, as before", () => {
  test("a member removed, a member added, one changed: one problem each, in the record's order", async () => {
    await repository();
    await editRecords((r, index) => {
      if (index === 2) {
        const { headingTrail: _, ...rest } = r;
        return rest;
      }
      if (index === 6) return sorted({ ...r, comment: "von Hand" });
      if (index === 7) return { ...r, sourceArtifactBlockStartIndex: (r.sourceArtifactBlockStartIndex as number) + 1 };
      return undefined;
    });
    const problems = (await problemsOf([])).filter((p) => p.ruleId === "lock-generated");
    expect(problems.map((p) => [p.line, p.pointer])).toEqual([
      [3, "/headingTrail"],
      [7, "/comment"],
      [8, "/sourceArtifactBlockStartIndex"],
    ]);
    expect(problems[0]!.message).toMatch(/^headingTrail is absent, generate writes \[/);
    expect(problems[1]!.message).toMatch(/^comment is "von Hand", generate writes no comment: regenerate/);
    expect(problems[2]!.message).toMatch(/^sourceArtifactBlockStartIndex is \d+, generate writes \d+: regenerate/);
  });
});
