// markdown-it-footnote ships no types: the plugin as src/formatters/markdown-html.ts uses it.
declare module "markdown-it-footnote" {
  import type { MarkdownIt } from "markdown-it";
  const footnote: (md: MarkdownIt) => void;
  export default footnote;
}
