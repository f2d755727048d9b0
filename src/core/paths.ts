/** The folder of a POSIX path ("" for the root). */
export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** Every folder of a POSIX path from the outermost in: "a/b/c.md" → ["a", "a/b"]. */
export function folderChain(path: string): string[] {
  const segments = path.split("/").slice(0, -1);
  return segments.map((_, i) => segments.slice(0, i + 1).join("/"));
}
