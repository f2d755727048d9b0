/** What to say of files that differ only in CR LF (crlf.ts): the commands that convert them back to LF. */
import { shellQuote } from "../../core/text.js";

/** How many files the advice of `backToLf` names one by one; past that, the markdown of their folder. */
const NAMED_AT_MOST = 5;

/** The conversion: every CR before a line's end taken out, nothing else changed. */
const SED = "sed -i 's/\\r$//'";

/**
 * What to do about files whose bytes differ from what is pinned or generated only in CR LF: convert them back to LF,
 * with a command that changes the line endings and nothing else, so that an edit not yet committed (in these files or
 * beside them) is kept. Never `lock` or `update`, which would pin the CR LF bytes; nor `git add --renormalize`, which
 * stages them as they are under the `-text` that adopt writes; nor `git checkout`, which would throw away what was
 * edited and locked but not committed. `files` are shown paths (from the working directory); `folder`, the dataset
 * root's, stands for its markdown files when there are many.
 */
export function backToLf(files: readonly string[], folder?: string): string {
  const it = files.length === 1 ? "it" : "them";
  const macos = "on macOS, `sed -i ''`";
  if (files.length > NAMED_AT_MOST && folder !== undefined) {
    const inside = (file: string) =>
      folder === "." ? !file.startsWith("../") && !file.startsWith("/") : file.startsWith(`${folder}/`);
    const outside = files.filter((file) => !inside(file));
    const rest = outside.length > 0 ? `, and \`${SED} ${outside.map(shellQuote).join(" ")}\`` : "";
    return `convert them back to LF (the line endings only: edits are kept): \`find ${shellQuote(folder)} -type f \\( -name '*.md' -o -name '*.markdown' \\) -exec ${SED} {} +\`${rest} (${macos})`;
  }
  return `convert ${it} back to LF (the line endings only: edits are kept): \`${SED} ${files.map(shellQuote).join(" ")}\` (${macos})`;
}
