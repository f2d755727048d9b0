/** What to say of files that differ only in CR LF (crlf.ts): the commands that convert them back to LF. */
import { shellQuote } from "../../core/text.js";

/** How many files the advice of `backToLf` names one by one; past that, their folder. */
const NAMED_AT_MOST = 5;

/**
 * What to do about files whose bytes differ from what is pinned or generated only in CR LF: convert them back to LF.
 * Never `lock` or `update`, which would pin the CR LF bytes; nor `git add --renormalize`, which stages them as they are
 * under the `-text` that adopt writes. `files` are shown paths (from the working directory); `folder`, the dataset
 * root's, stands for its files in git checkout when there are many.
 */
export function backToLf(files: readonly string[], folder?: string): string {
  const it = files.length === 1 ? "it" : "them";
  if (files.length > NAMED_AT_MOST && folder !== undefined) {
    const inside = (file: string) =>
      folder === "." ? !file.startsWith("../") && !file.startsWith("/") : file.startsWith(`${folder}/`);
    const outside = files.filter((file) => !inside(file));
    const named = [folder, ...outside].map(shellQuote).join(" ");
    return `convert them back to LF: \`git checkout -- ${named}\` (the bytes as committed; with the -text lines adopt writes in .gitattributes, Git keeps them LF), or convert each file's line endings to LF`;
  }
  const named = files.map(shellQuote).join(" ");
  return `convert ${it} back to LF: \`sed -i 's/\\r$//' ${named}\`, or \`git checkout -- ${named}\` (the bytes as committed; with the -text lines adopt writes in .gitattributes, Git keeps ${it} LF)`;
}
