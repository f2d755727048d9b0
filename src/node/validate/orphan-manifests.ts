/**
 * Lock manifests without their JSONL (the `lock-pair` rule, docs/spec.md): `git rm` of a published
 * `<slug>.jsonl` leaves `<slug>.lock.json` behind, which no file check sees. A run looks in every
 * folder it checked JSONL files in (and at the manifests --staged names) for a `<name>.lock.json`
 * with no `<name>.jsonl` beside it, and reports each on the manifest.
 */
import type { ManifestReadOptions } from "../dataset/manifest-io.js";
import { type Dirent, statSync } from "node:fs";
import { listFolder } from "../files/folder-listing.js";
import { basename, dirname, join } from "node:path";
import type { Problem, Severity } from "../../core/report/problem.js";
import type { FileReport } from "../../core/report/report.js";
import { interpolate } from "../../core/text.js";
import { DEFAULT_MANIFEST_NAME } from "../../core/lock/manifest.js";
import { lockPair } from "../../rules/lock-pair.js";
import { OperationalError } from "../errors.js";
import { displayPath } from "../files/files.js";

const SUFFIX = ".lock.json";

/**
 * `<name>.lock.json` files in the folders given and the manifests named whose `<name>.jsonl` is not there, absolute and
 * sorted.
 */
export function manifestsWithoutJsonl(folders: Iterable<string>, named: Iterable<string> = []): string[] {
  const found = new Set<string>();
  /**
   * `listed`: the names of the manifest's folder that are no symbolic link, when it was listed (a stat a manifest is
   * spared: thousands a run).
   */
  const consider = (manifest: string, listed?: ReadonlySet<string>) => {
    const name = basename(manifest);
    // citation-targets.lock.json (inside a dataset folder) names its JSONL by slug, not by its own name: not held to a
    // pair here.
    if (!name.endsWith(SUFFIX) || name === DEFAULT_MANIFEST_NAME) return;
    const jsonl = `${manifest.slice(0, -SUFFIX.length)}.jsonl`;
    const there = listed?.has(basename(jsonl)) || statSync(jsonl, { throwIfNoEntry: false }) !== undefined; // a link: there when it leads somewhere
    if (!there && statSync(manifest, { throwIfNoEntry: false })?.isFile()) found.add(manifest);
  };
  for (const folder of folders) {
    let entries: Dirent[];
    try {
      entries = listFolder(folder);
    } catch {
      continue;
    }
    const listed = new Set(entries.filter((entry) => !entry.isSymbolicLink()).map((entry) => entry.name));
    for (const { name } of entries) {
      // A manifest whose JSONL is listed beside it is passed by its name alone (no path made: thousands a run).
      if (!name.endsWith(SUFFIX) || listed.has(`${name.slice(0, -SUFFIX.length)}.jsonl`)) continue;
      consider(join(folder, name), listed);
    }
  }
  for (const manifest of named) consider(manifest);
  return [...found].sort();
}

/**
 * One report per manifest without its JSONL, under the lock-pair rule at its severity (none when the rule is off). A
 * manifest that cannot be read as one (not JSON, not a lock manifest) is the manifest's error instead, in the words
 * every command says it (a file that could not be read: exit 2, as for a JSONL beside it): the `update` lock-pair
 * advises reads it first, and would fail on it.
 */
export async function orphanReports(
  manifests: readonly string[],
  cwd: string,
  severity: Severity | undefined,
  options: ManifestReadOptions = {},
): Promise<FileReport[]> {
  if (severity === undefined || manifests.length === 0) return [];
  const { loadManifest } = await import("../dataset/manifest-io.js"); // its schema check loads only then
  const reports: FileReport[] = [];
  for (const manifest of manifests) {
    const shown = displayPath(manifest, cwd);
    try {
      await loadManifest(manifest, cwd, shown, options);
    } catch (error) {
      if (!(error instanceof OperationalError)) throw error;
      reports.push({ path: shown, records: 0, problems: [], error: error.message });
      continue;
    }
    const data = { manifest: shown, expected: `${basename(manifest).slice(0, -SUFFIX.length)}.jsonl` };
    const problem: Problem = {
      ruleId: lockPair.id,
      messageId: "withoutJsonl",
      data,
      message: interpolate(lockPair.messages.withoutJsonl, data),
      severity,
      file: shown,
      line: 0,
      pointer: "",
    };
    reports.push({ path: shown, records: 0, problems: [problem] });
  }
  return reports;
}

/** The folders of the JSONL files checked. */
export function foldersOf(paths: readonly string[]): Set<string> {
  return new Set(paths.filter((path) => path.endsWith(".jsonl")).map((path) => dirname(path)));
}
