/**
 * Listings of folders, kept for the rest of a run that writes nothing into the folders it lists (`validate`,
 * `update --check`): a publisher's tooling folder holds two files a law, thirteen thousand names, and one pre-commit
 * hook listed it two or three times (the manifests a staged file belongs to, the manifests without their JSONL, the
 * temporary files an interrupted write left), 10 ms each (bench/RESULTS.md, the hooks). A folder is listed at most
 * twice a run, by names (listNames) and with types (listFolder), and once when the listing with types comes first. A
 * run that writes lists afresh.
 */
import { type Dirent, readdirSync } from "node:fs";
import { resolve } from "node:path";

const kept = new Map<string, Dirent[]>();
/** Listings of names alone (a run that needs no types: `update --check`), by folder. */
const keptNames = new Map<string, string[]>();
let keeping = false;

/** From now on, the listings made are kept, until endListings: for a command that writes into no folder it lists. */
export function keepListings(): void {
  keeping = true;
}

/**
 * The run is over: its listings are let go, and a later run in the same process (the command line's in-process, the
 * library's) lists afresh. A command that keeps listings has it called as it ends (context.ts, onRunEnd).
 */
export function endListings(): void {
  keeping = false;
  kept.clear();
  keptNames.clear();
}

/** A folder's entries, with their types (`readdirSync(folder, { withFileTypes: true })`: it throws as that does). */
export function listFolder(folder: string): Dirent[] {
  const key = keeping ? resolve(folder) : folder;
  const known = keeping ? kept.get(key) : undefined;
  if (known !== undefined) return known;
  const entries = readdirSync(folder, { withFileTypes: true });
  if (keeping) kept.set(key, entries);
  return entries;
}

/**
 * A folder's names (`readdirSync(folder)`: it throws as that does), from its kept listing with types when there is one;
 * a third cheaper to make than the listing with types, for a run that needs no types.
 */
export function listNames(folder: string): string[] {
  if (!keeping) return readdirSync(folder);
  const key = resolve(folder);
  const known = keptNames.get(key);
  if (known !== undefined) return known;
  const typed = kept.get(key);
  const names = typed !== undefined ? typed.map((entry) => entry.name) : readdirSync(folder);
  keptNames.set(key, names);
  return names;
}
