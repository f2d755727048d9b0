/**
 * The texts `diff --format html` shows as word diffs: the old and new markdown of every target
 * whose text changed (record-changed with a changed `markdown`). The report keeps only their
 * lengths (src/core/diff/diff.ts, VALUE_LIMIT), so the pairs whose text changed are read once more,
 * and only those targets' texts are kept. A side at a git revision (`<rev>:<path>`, from
 * `--against`, or either side of `diff REV1 REV2`) is read from git; any other is a file, as the report shows it from `cwd`.
 */
import { resolve } from "node:path";
import type { DiffPair, DiffReport } from "../../core/diff/diff.js";
import { type DiffTexts, type TextPair, textKey } from "../../formatters/diff-html.js";
import { type DiffSide, fileSide, readRecords } from "./diff.js";
import { gitBlob, gitTopLevel } from "../git/diff-git.js";

/** The addresses of a pair whose markdown changed. */
function changedTexts(pair: DiffPair): Set<string> {
  const addresses = new Set<string>();
  for (const change of pair.changes) {
    if (
      change.kind === "record-changed" &&
      change.address !== undefined &&
      change.fields?.some((f) => f.field === "markdown")
    )
      addresses.add(change.address);
  }
  return addresses;
}

/** Reads the old and new markdown of every target whose text changed. */
export async function collectDiffTexts(report: DiffReport, cwd: string): Promise<DiffTexts> {
  const texts = new Map<string, TextPair>();
  let root: string | undefined;
  const sideOf = async (label: string, at: DiffReport["against"]): Promise<DiffSide> => {
    const prefix = at ? `${at.revision}:` : undefined;
    if (prefix !== undefined && at !== undefined && label.startsWith(prefix)) {
      root ??= await gitTopLevel(cwd);
      const { commit } = at;
      const rel = label.slice(prefix.length);
      const top = root;
      return { label, missing: false, open: () => gitBlob(top, commit, rel) };
    }
    return fileSide(resolve(cwd, label), label);
  };
  for (const pair of report.pairs) {
    if (pair.type !== "records" || pair.oldMissing || pair.newMissing) continue;
    const wanted = changedTexts(pair);
    if (wanted.size === 0) continue;
    const entry = (address: string) => {
      const key = textKey(pair.new, address);
      let found = texts.get(key);
      if (found === undefined) {
        found = {};
        texts.set(key, found);
      }
      return found;
    };
    await readRecords(await sideOf(pair.old, report.against), (record) => {
      const address = record.citationAddress as string;
      if (wanted.has(address) && typeof record.markdown === "string") entry(address).before = record.markdown;
    });
    await readRecords(await sideOf(pair.new, report.to), (record) => {
      const address = record.citationAddress as string;
      if (wanted.has(address) && typeof record.markdown === "string") entry(address).after = record.markdown;
    });
  }
  return texts;
}
