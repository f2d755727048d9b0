/**
 * The texts `diff --format html` shows side by side: the old and new markdown of every target
 * whose text changed (record-changed with a changed `markdown`), and the text of a target added to
 * or removed from a dataset that is on both sides. The report keeps only their lengths
 * (src/core/diff/diff.ts, VALUE_LIMIT), so the pairs whose texts are shown are read once more, and
 * only those targets' texts are kept. With them, each changed dataset's law: the `name` and
 * `titleId` of its records, which head its part of the page. A side at a git revision (`<rev>:<path>`, from
 * `--against`, or either side of `diff REV1 REV2`) is read from git; any other is a file, as the report shows it from `cwd`.
 */
import { resolve } from "node:path";
import type { DiffPair, DiffReport } from "../../core/diff/diff.js";
import { type DatasetTitle, type DiffTexts, type TextPair, textKey } from "../../formatters/diff-html.js";
import { type DiffSide, fileSide, readRecords } from "./diff.js";
import { gitBlob, gitTopLevel } from "../git/diff-git.js";

/** The addresses of a pair whose markdown changed, and those added and removed: the texts the page shows. */
function changedTexts(pair: DiffPair): Set<string> {
  const addresses = new Set<string>();
  for (const change of pair.changes) {
    if (change.address === undefined) continue;
    if (
      (change.kind === "record-changed" && change.fields?.some((f) => f.field === "markdown")) ||
      change.kind === "record-added" ||
      change.kind === "record-removed"
    )
      addresses.add(change.address);
  }
  return addresses;
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The first lines of a file looked at for its law's name and titleId (every record of a dataset carries them). */
const TITLE_LINES = new Set([1, 2, 3, 4, 5]);

export interface CollectedTexts {
  texts: DiffTexts;
  /** The law of each records pair that changed, by `pair.new`. */
  titles: ReadonlyMap<string, DatasetTitle>;
}

/** Reads the old and new markdown of every target whose text the page shows, and the law of each changed dataset. */
export async function collectDiffTexts(report: DiffReport, cwd: string): Promise<CollectedTexts> {
  const texts = new Map<string, TextPair>();
  const titles = new Map<string, DatasetTitle>();
  const title = (pair: DiffPair, record: Record<string, unknown>) => {
    if (titles.has(pair.new)) return;
    const name = text(record.name);
    const titleId = text(record.titleId);
    if (name !== undefined || titleId !== undefined)
      titles.set(pair.new, {
        ...(name !== undefined ? { name } : {}),
        ...(titleId !== undefined ? { titleId } : {}),
      });
  };
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
    if (pair.type !== "records" || (pair.changes.length === 0 && pair.warnings.length === 0)) continue;
    const wanted = pair.oldMissing || pair.newMissing ? new Set<string>() : changedTexts(pair);
    if (wanted.size === 0) {
      // Only the law's name: the first records of the side that exists.
      const side = pair.newMissing ? await sideOf(pair.old, report.against) : await sideOf(pair.new, report.to);
      await readRecords(side, (record) => title(pair, record), TITLE_LINES);
      continue;
    }
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
      title(pair, record);
      const address = record.citationAddress as string;
      if (wanted.has(address) && typeof record.markdown === "string") entry(address).after = record.markdown;
    });
  }
  return { texts, titles };
}
