/**
 * `diff --write-approvals FILE`: merges the entries a report needs into FILE and writes it atomically
 * (src/core/diff/approvals-file.ts).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type ApprovalToAdd, approvalsToAdd, formatApprovalsFile } from "../../core/diff/approvals-file.js";
import { type Approval, type DiffReport, parseApprovals } from "../../core/diff/diff.js";
import { OperationalError } from "../errors.js";
import { readJsonFile } from "../files/json-file.js";
import { refuseOverInputs, writeFileAtomic } from "../writes/write.js";

export interface WrittenApprovals {
  /** The file, absolute. */
  path: string;
  /** The entries added, in the order written. */
  added: Approval[];
  /** The same entries, each with the changes it covers (their count and addresses). */
  covering: ApprovalToAdd[];
  /** How many entries the file held before (kept, in their order). */
  kept: number;
  /** False when there was nothing to add: the file is then left as it was (or not created). */
  written: boolean;
}

/**
 * Adds an entry with a placeholder reason for each change of the report that fails the gate for want
 * of an approval and that no entry of the file names yet; keeps the file's entries (and `$schema`) as
 * they are, first. A file that is not a valid approvals file is refused, named, and nothing is written.
 */
export async function writeApprovals(report: DiffReport, file: string, cwd: string): Promise<WrittenApprovals> {
  const path = resolve(cwd, file);
  // Never over a file the report compared (a side at a git revision, "<rev>:<path>", is no file here and is passed
  // over).
  const sides = report.pairs.flatMap((pair) => [
    ...(pair.oldMissing ? [] : [pair.old]),
    ...(pair.newMissing ? [] : [pair.new]),
  ]);
  refuseOverInputs(
    path,
    sides.map((side) => ({
      path: resolve(cwd, side.replace(/ \(bundled schema\)$/, "")),
      what: `the compared file ${side}`,
    })),
    file,
  );
  let existing: Approval[] = [];
  let schema: string | undefined;
  if (existsSync(path)) {
    const document = await readJsonFile(path, "approvals file", file);
    const { approvals, problems } = parseApprovals(document);
    if (problems.length > 0)
      throw new OperationalError(
        `approvals file ${file} is not valid, so it was not written:\n${problems.map((p) => `  ${p}`).join("\n")}`,
      );
    existing = approvals;
    const member = (document as { $schema?: unknown }).$schema;
    if (typeof member === "string") schema = member;
  }
  const covering = approvalsToAdd(report, existing);
  const added = covering.map((entry) => entry.approval);
  if (added.length === 0) return { path, added, covering, kept: existing.length, written: false };
  await writeFileAtomic(path, formatApprovalsFile([...existing, ...added], schema));
  return { path, added, covering, kept: existing.length, written: true };
}
