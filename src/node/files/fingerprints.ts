/**
 * Stat fingerprints of files and folders, for validate's cache (validate-cache.ts): what a file is
 * (inode, device) and how it was last left (size, mtime and ctime in nanoseconds). A change to a
 * file's bytes, its metadata or, for a folder, its entries changes its ctime; a file put in its place
 * has another inode.
 */
import { type BigIntStats, fstatSync, statSync } from "node:fs";

/** How long a file must have been left alone before a run for its fingerprint to be trusted (the caches'). */
export const SETTLE_MS = 2000;

/** A file's stat fingerprint: `size:mtimeNs:ctimeNs:ino:dev`. */
export type Fingerprint = string;

/** A stat's fingerprint. */
export function fingerprintOf(info: BigIntStats): Fingerprint {
  return `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}:${info.dev}`;
}

/** The fingerprint of what `path` leads to (links followed), or undefined when it cannot be had. */
export function fingerprintAt(path: string): Fingerprint | undefined {
  try {
    const info = statSync(path, { bigint: true, throwIfNoEntry: false });
    return info === undefined ? undefined : fingerprintOf(info);
  } catch {
    return undefined;
  }
}

/**
 * The fingerprints a lock context's gathering collects, each taken before what it fingerprints is
 * read (so that a change while the check runs is caught by the next run): the dataset folder's (from
 * the descriptor opened to find its real path), each artifact's (from the descriptor it is read
 * through) and each folder's the walk lists (just before it is listed).
 */
export class DatasetPrints {
  /** The dataset folder (absolute, as the manifest's datasetRoot resolves). */
  root: string | undefined;
  readonly folders: Record<string, Fingerprint> = {};
  readonly artifacts: Record<string, Fingerprint> = {};
  /** False once anything could not be fingerprinted: the outcome is then not kept. */
  complete = true;

  /** A folder about to be listed (`prefix` as the walk has it: "" for the root, else ending in "/"). */
  folder(absolute: string, prefix: string): void {
    const name = prefix === "" ? "" : prefix.slice(0, -1);
    if (this.folders[name] !== undefined) return; // the root: taken when it was opened
    const print = fingerprintAt(absolute);
    if (print === undefined) this.complete = false;
    else this.folders[name] = print;
  }

  /** The dataset folder, opened (links followed) on `fd` when it could be. */
  openedRoot(root: string, fd: number | undefined): void {
    try {
      this.folders[""] = fingerprintOf(
        fd !== undefined ? fstatSync(fd, { bigint: true }) : statSync(root, { bigint: true }),
      );
    } catch {
      this.complete = false;
    }
  }

  artifact(path: string, print: Fingerprint | undefined): void {
    if (print === undefined) this.complete = false;
    else this.artifacts[path] = print;
  }
}
