/**
 * The cache of `validate` (README, "validate"; docs/spec.md, "Worker threads and the cache"). For each
 * JSONL checked with the lock manifest beside it, it remembers that the lock-side checks (the manifest
 * rules, with the artifact files read and digested and the dataset folder walked) found no problem at
 * all, with the stat fingerprint (size, mtime and ctime in nanoseconds, inode, device) of every file
 * they read: the JSONL, the manifest, each artifact, and each folder the dataset walk listed. A run that
 * finds every fingerprint unchanged, under the same key (this tool's code and the settings that decide
 * the lock-side checks), with the dataset folder still really inside the repository, knows what those
 * checks would say (nothing) without reading an artifact; the JSONL itself is still checked in full by
 * every other rule.
 *
 * Only clean outcomes are kept: any problem, or a check that could not run, is checked again on every
 * run. A fingerprint taken less than SETTLE_MS before the run started is not trusted ("racily clean",
 * as git says: a file written again within the same tick of the clock could keep its fingerprint), so
 * its entry is not stored. A cache that cannot be read is ignored; one that cannot be written is not
 * an error.
 */
import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { sha256Hex } from "../../core/bytes.js";
import type { Problem, RuleSetting } from "../../core/report/problem.js";
import { resolveSeverities } from "../../engine/check-file.js";
import { DEFAULT_LIMITS, type Limits } from "../../rules/define.js";
import { rules } from "../../rules/index.js";
import { PRECOMPILED_NAMES, precompiledModule } from "../config/precompiled.js";
import { type Fingerprint, fingerprintAt, fingerprintOf } from "../files/fingerprints.js";
import { cacheLocation, openCacheFile } from "./cache-file.js";
import { codeIdentity } from "./code-identity.js";
import type { TwinFacts } from "../update/twin-datasets.js";

/**
 * What a run knows of one JSONL's lock-side checks (with the lock manifest beside it): they found no
 * problem, reading these files with these fingerprints. Paths are absolute here; in the cache file,
 * relative to its folder.
 */
export interface LockVerdict {
  /** The fingerprints of the JSONL and of the lock manifest beside it. */
  jsonl: Fingerprint;
  manifest: Fingerprint;
  /** The dataset folder (the manifest's datasetRoot resolved). */
  root: string;
  /** Each folder the walk listed, by its path from the root ("" for the root, else POSIX without a final slash). */
  folders: Record<string, Fingerprint>;
  /** Each artifact, by its path from the root (the manifest's). */
  artifacts: Record<string, Fingerprint>;
  /** The manifest's legislationHost, when it has one: the schema its records are checked against. */
  legislationHost?: string;
  /** What the warning about two datasets of one law reads of the manifest (CheckedFile's `twin`). */
  twin?: TwinFacts;
}

export { SETTLE_MS } from "../files/fingerprints.js";

/** The rules whose problems are lock-side: any of them on a file, and its outcome is not kept. */
export const LOCK_RULE_IDS: ReadonlySet<string> = new Set(
  rules.filter((rule) => rule.scope === "manifest").map((rule) => rule.id),
);

/**
 * True when a whole number written in decimal (no sign, no leading zero) is less than another: by length, then digit by
 * digit.
 */
function lessThan(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

/**
 * True when every fingerprint of the verdict was taken of a file left alone (mtime and ctime) since `before` (ns since
 * the epoch, in decimal).
 */
export function isSettled(verdict: LockVerdict, before: string): boolean {
  const prints = [
    verdict.jsonl,
    verdict.manifest,
    ...Object.values(verdict.folders),
    ...Object.values(verdict.artifacts),
  ];
  return prints.every((print) => {
    const [, mtime, ctime] = print.split(":");
    return (
      mtime !== undefined &&
      ctime !== undefined &&
      /^\d+$/.test(mtime) &&
      /^\d+$/.test(ctime) &&
      lessThan(mtime, before) &&
      lessThan(ctime, before)
    );
  });
}

/**
 * The real path of a dataset folder (links resolved) and its fingerprint, for a verdict: one lstat when
 * the folder itself is no link (its real path is then its parent's, asked once a run in `realParents`,
 * and its name); undefined when it is not a folder or cannot be had.
 */
function folderNow(root: string, realParents: Map<string, string>): { print: Fingerprint; real: string } | undefined {
  try {
    const info = lstatSync(root, { bigint: true, throwIfNoEntry: false });
    if (info === undefined) return undefined;
    if (info.isSymbolicLink()) {
      const print = fingerprintAt(root);
      return print === undefined ? undefined : { print, real: realpathSync.native(root) };
    }
    if (!info.isDirectory()) return undefined;
    const parent = dirname(root);
    let realParent = realParents.get(parent);
    if (realParent === undefined) {
      realParent = realpathSync.native(parent);
      realParents.set(parent, realParent);
    }
    return { print: fingerprintOf(info), real: join(realParent, basename(root)) };
  } catch {
    return undefined;
  }
}

/**
 * True when a verdict still holds for a JSONL and the manifest beside it (their fingerprints now):
 * every fingerprint unchanged, and the dataset folder really inside `confinedTo` when datasets are
 * confined (the same folder reached another way, an ancestor moved or linked, would be refused).
 * `realParents` holds the real paths of the dataset folders' parents met in this run. Any error: it
 * does not hold.
 */
export function verdictHolds(
  verdict: LockVerdict,
  jsonl: Fingerprint | undefined,
  manifest: Fingerprint,
  confinedTo: string | undefined,
  realParents: Map<string, string>,
): boolean {
  if (jsonl === undefined || verdict.jsonl !== jsonl || verdict.manifest !== manifest) return false;
  const folder = folderNow(verdict.root, realParents);
  if (folder === undefined || folder.print !== verdict.folders[""]) return false;
  // Both real paths, normalised: inside is a prefix of whole folder names (path.relative costs microseconds a file).
  if (
    confinedTo !== undefined &&
    folder.real !== confinedTo &&
    !folder.real.startsWith(confinedTo.endsWith(sep) ? confinedTo : `${confinedTo}${sep}`)
  )
    return false;
  for (const [name, print] of Object.entries(verdict.folders))
    if (name !== "" && fingerprintAt(join(verdict.root, ...name.split("/"))) !== print) return false;
  for (const [path, print] of Object.entries(verdict.artifacts))
    if (fingerprintAt(join(verdict.root, ...path.split("/"))) !== print) return false;
  return true;
}

/**
 * True when a file's outcome may be kept: checked against its manifest, every check ran, and no lock-side problem,
 * stored or only counted.
 */
export function lockSideClean(result: {
  problems: readonly Problem[];
  unstored?: { errors: number; warnings: number };
  error?: string;
}): boolean {
  if (result.error !== undefined || (result.unstored?.errors ?? 0) > 0 || (result.unstored?.warnings ?? 0) > 0)
    return false;
  return !result.problems.some((problem) => LOCK_RULE_IDS.has(problem.ruleId));
}

/**
 * The settings that decide the lock-side outcome of a file: every rule's severity in force, the limits, and whether
 * datasets are confined.
 */
export interface LockSettings {
  rules?: Partial<Record<string, RuleSetting>>;
  limits?: Partial<Limits>;
  allowOutsideRepository?: boolean;
}

/** The key of the lock-side outcomes of a run: this tool's identity and the settings that decide them. */
export function verdictKey(settings: LockSettings): string {
  const severities = [...resolveSeverities(rules, settings.rules)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const limits = { ...DEFAULT_LIMITS, ...settings.limits };
  return sha256Hex(
    `${validatorIdentity()}\0${JSON.stringify(severities)}\0${JSON.stringify([limits.maxLineBytes, limits.maxDepth, limits.maxStoredProblems])}\0${settings.allowOutsideRepository === true}`,
  );
}

export interface ValidateCache {
  /** The cache file. */
  path: string;
  /** The verdict kept for a JSONL (absolute path), if any. */
  get(jsonl: string): LockVerdict | undefined;
  set(jsonl: string, verdict: LockVerdict): void;
  /** Writes the cache when it changed, atomically; a failure to write is not an error of the run. */
  save(): Promise<void>;
}

/** The cache file in force: as update's (`cacheLocation`), named validate.json. */
export function validateCacheLocation(cwd: string, location: string | false | undefined): Promise<string | undefined> {
  return cacheLocation(cwd, location, "validate.json");
}

/**
 * Opens the cache at `path` for a run whose verdicts have `key`: empty when it is not there, cannot be
 * read or was written under another key (another build of the tool, other settings); a run that
 * stores a verdict then writes it anew under its own key. Entries are kept by the JSONL's path from
 * the cache's folder (POSIX), the dataset folder likewise.
 */
export function openValidateCache(path: string, key: string, named = false): ValidateCache {
  const folder = dirname(path);
  // Thousands of files of a few folders: each folder's way from the cache's folder worked out once.
  const ways = new Map<string, string>();
  const toName = (absolute: string) => {
    const parent = dirname(absolute);
    let way = ways.get(parent);
    if (way === undefined) {
      way = relative(folder, parent).split(sep).join("/");
      ways.set(parent, way);
    }
    const name = absolute.slice(parent.length + (parent.endsWith(sep) ? 0 : 1));
    return way === "" ? name : `${way}/${name}`;
  };
  const places = new Map<string, string>();
  const fromName = (name: string) => {
    const cut = name.lastIndexOf("/");
    const way = cut === -1 ? "" : name.slice(0, cut);
    let place = places.get(way);
    if (place === undefined) {
      place = resolve(folder, ...way.split("/"));
      places.set(way, place);
    }
    const last = name.slice(cut + 1);
    return last === "" || last === "." || last === ".."
      ? join(place, last)
      : `${place}${place.endsWith(sep) ? "" : sep}${last}`;
  };
  const file = openCacheFile(path, { field: "key", value: key }, isVerdict, named);
  return {
    path,
    get(jsonl) {
      const stored = file.get(toName(jsonl));
      return stored ? { ...stored, root: fromName(stored.root) } : undefined;
    },
    set: (jsonl, verdict) => file.set(toName(jsonl), { ...verdict, root: toName(verdict.root) }),
    save: () => file.save(),
  };
}

/** A stored verdict of the right shape (a cache file is data: anything else is not trusted). */
function isVerdict(value: unknown): value is LockVerdict {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  const map = (m: unknown) => m !== null && typeof m === "object" && !Array.isArray(m);
  // The fingerprints are compared with strings (anything else differs): their own types need no check.
  return (
    typeof v.jsonl === "string" &&
    typeof v.manifest === "string" &&
    typeof v.root === "string" &&
    map(v.folders) &&
    map(v.artifacts) &&
    (v.legislationHost === undefined || typeof v.legislationHost === "string") &&
    (v.twin === undefined || isTwinFacts(v.twin))
  );
}

function isTwinFacts(value: unknown): value is TwinFacts {
  if (value === null || typeof value !== "object") return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.titleId === "string" &&
    typeof t.versionDate === "string" &&
    typeof t.name === "string" &&
    (t.datasetRoot === undefined || typeof t.datasetRoot === "string")
  );
}

/**
 * The code the validate cache serves: the per-file validator (file-validator.ts), whose lock-side checks read the
 * manifest, the artifacts and the dataset folder, with the rules, the engine and this cache; and the precompiled
 * validators, which it loads by name. Its identity is that of every module they import, read from the import graph
 * (code-identity.ts).
 */
export const VALIDATE_CACHE_CODE: readonly string[] = [
  "node/validate/file-validator",
  ...PRECOMPILED_NAMES.map(precompiledModule),
];

/**
 * This tool's identity for the lock-side checks: the SHA-256 of the code that decides them (the modules
 * VALIDATE_CACHE_CODE reaches as built), the package's version and the versions of the packages they import. A new
 * build that changes any of them misses every entry.
 */
export function validatorIdentity(): string {
  return codeIdentity(VALIDATE_CACHE_CODE);
}
