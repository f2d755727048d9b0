/**
 * Two datasets of one law (docs/spec.md, "Adopt"): a folder renamed with `git mv` and adopted again
 * becomes a second dataset under a new slug beside its orphaned manifest. Swiss acts legitimately
 * share an SR number and date across their German, French and Italian editions, with different
 * names; so a warning is said when two datasets share titleId, versionDate and name, or share titleId
 * and versionDate while one of them has lost its dataset folder.
 */
import { dirname, resolve } from "node:path";
import { displayPath, readSmallText } from "../files/files.js";
import { isFileRoot, rootPresent } from "../dataset/dataset-root.js";

/**
 * What the warning reads of a lock manifest: its titleId, versionDate and name, and its datasetRoot as written (absent:
 * its own folder).
 */
export interface TwinFacts {
  titleId: string;
  versionDate: string;
  name: string;
  datasetRoot?: string;
}

interface Dataset {
  shown: string;
  titleId: string;
  versionDate: string;
  name: string;
  /** Its dataset root (absolute). */
  root: string;
}

function readDataset(manifest: string, cwd: string, known?: TwinFacts): Dataset | undefined {
  try {
    const data = known ?? (JSON.parse(readSmallText(manifest)) as Record<string, unknown>);
    const { titleId, versionDate, name, datasetRoot } = data;
    if (typeof titleId !== "string" || typeof versionDate !== "string" || typeof name !== "string") return undefined;
    const root = resolve(dirname(manifest), typeof datasetRoot === "string" ? datasetRoot : ".");
    // Whether its root is there is asked only of a dataset that shares titleId and versionDate with another (a stat
    // each: thousands a run of validate).
    return { shown: displayPath(manifest, cwd), titleId, versionDate, name, root };
  } catch {
    return undefined; // an unreadable manifest is its own problem, said where it is read
  }
}

/**
 * The warnings about datasets that look like one law twice, among these lock manifests (absolute or cwd-relative).
 * `known`: what a manifest holds, by its path as given, when the caller read it already (validate's reports): that
 * manifest is not read again.
 */
export function twinDatasetWarnings(
  manifests: Iterable<string>,
  cwd: string,
  known?: ReadonlyMap<string, TwinFacts>,
): string[] {
  const groups = new Map<string, Dataset[]>();
  const facts = new Map<string, TwinFacts | undefined>();
  for (const given of manifests) {
    const manifest = resolve(cwd, given);
    if (!facts.has(manifest) || facts.get(manifest) === undefined) facts.set(manifest, known?.get(given));
  }
  for (const [manifest, read] of facts) {
    const dataset = readDataset(manifest, cwd, read);
    if (dataset === undefined) continue;
    const key = `${dataset.titleId}\u0000${dataset.versionDate}`;
    const group = groups.get(key);
    if (group) group.push(dataset);
    else groups.set(key, [dataset]);
  }
  const warnings: string[] = [];
  for (const read of groups.values()) {
    if (read.length < 2) continue;
    // A dataset whose root cannot be asked about (a stat error other than "not there": a file on its path, a name too
    // long) is left out, as when the stat was made as its manifest was read; its own check says why.
    const present = new Map<Dataset, boolean>();
    for (const d of read) {
      try {
        present.set(d, rootPresent(d.root));
      } catch {
        // left out
      }
    }
    const group = read.filter((d) => present.has(d));
    if (group.length < 2) continue;
    group.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    const gone = group.filter((d) => !present.get(d));
    const byName = new Map<string, Dataset[]>();
    for (const d of group) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
    const named = [...byName.values()].filter((same) => same.length > 1);
    if (named.length === 0 && gone.length === 0) continue; // editions in other languages: different names
    const { titleId, versionDate } = group[0]!;
    const list = (named.length > 0 ? named.flat() : group).map((d) => d.shown).join(", ");
    const why =
      named.length > 0
        ? `the same titleId "${titleId}", versionDate ${versionDate} and name`
        : `the same titleId "${titleId}" and versionDate ${versionDate}, and the ${gone.every((d) => isFileRoot(d.root)) ? "dataset file" : "dataset folder"} of ${gone.map((d) => d.shown).join(", ")} is not there`;
    // Laws kept one file each are moved as files (adopt --move NEW-FILE); else as folders.
    const [noun, operand] = group.every((d) => isFileRoot(d.root)) ? ["file", "NEW-FILE"] : ["folder", "NEW-FOLDER"];
    warnings.push(
      `${list} look like one law twice (${why}): was a dataset ${noun} moved and adopted again under a new slug? Repoint the old manifest with \`citation-targets adopt --move ${operand}\` (${noun === "file" ? "its slug kept, and its addresses unless the file's name changed" : "its slug and addresses kept"}) and remove the new one`,
    );
  }
  return warnings;
}
