/** The folder of a POSIX path ("" for the root). */
export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

let lastPath: string | undefined;
let lastChain: readonly string[] = [];

/**
 * Every folder of a POSIX path from the outermost in: "a/b/c.md" → ["a", "a/b"]. The last answer is
 * remembered, because consecutive records mostly share their artifact; treat the result as read-only.
 */
export function folderChain(path: string): string[] {
  if (path !== lastPath) {
    const segments = path.split("/").slice(0, -1);
    lastChain = segments.map((_, i) => segments.slice(0, i + 1).join("/"));
    lastPath = path;
  }
  return lastChain as string[];
}
