/**
 * Listings of folders, kept for the rest of a run that writes nothing into the folders it lists (`validate`,
 * `update --check`): a publisher's tooling folder holds two files a law, thirteen thousand names, and one pre-commit
 * hook listed it two or three times (the manifests a staged file belongs to, the manifests without their JSONL, the
 * temporary files an interrupted write left), 10 ms each (bench/RESULTS.md, the hooks). A run that writes lists afresh.
 */
import { type Dirent, readdirSync } from "node:fs";
import { resolve } from "node:path";

const kept = new Map<string, Dirent[]>();
let keeping = false;

/** From now on, this process keeps the listings it makes: for a command that writes into no folder it lists. */
export function keepListings(): void {
  keeping = true;
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
