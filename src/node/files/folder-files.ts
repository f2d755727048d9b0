/**
 * The files of one folder whose names end in a suffix: what a pattern `<folder>/*<suffix>` matches (dot files too),
 * read with one `readdir` instead of loading the glob library (about a hundred modules) for a pattern that has no other
 * glob in it (bench/RESULTS.md, start-up).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The absolute paths of the entries directly in `folder` whose names end in `suffix` (the suffix alone too, as
 * fast-glob's `*` matches nothing), unsorted; none when the folder is not there. Regular files and links to them, and
 * also whatever else bears such a name (a FIFO, a folder, a device, a dangling link): the caller reads each, and so
 * refuses such a one by name, where passing over it would drop its dataset without a word.
 */
export function filesEndingIn(folder: string, suffix: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
  return entries.filter((entry) => entry.name.endsWith(suffix)).map((entry) => join(folder, entry.name));
}
