/**
 * Texts that try to run a script or change the page through the rendered markdown (issue 35): the
 * pages render a target's text with markdown-it, keeping only `<sup>`, `<sub>`, `<br>`, footnotes,
 * tables and markdown's own markup. The tests (jsdom and Chromium) put these texts in a dataset and
 * in an amendment and check that nothing runs, that only allowed elements come out of a text, and
 * that the U+202E of a text cannot reorder what follows it.
 */

/** Each line a different attack; every one must stay inert, most of them shown as the characters they are. */
export const HOSTILE_MARKDOWN = [
  "##### **Art. 1** Zweck <script>document.title='owned'</script>",
  "",
  '<sup onclick="document.title=\'owned\'">1</sup> attributes are not kept <sub style="x">2</sub> <br onmouseover=x>',
  "",
  "<img src=x onerror=\"document.title='owned'\"> an image tag, and a markdown image ![i](https://example.org/x.png)",
  "",
  "[a javascript: link](javascript:document.title='owned') [a data: link](data:text/html,<script>alert(1)</script>) [vb](vbscript:msgbox)",
  "",
  '<a href="javascript:alert(1)">raw anchor</a> <iframe src="https://example.org"></iframe> <svg onload=alert(1)>',
  "",
  "an unclosed <sup>superscript and an unclosed <b>bold",
  "",
  "a stray </sup> and </div></div></main>",
  "",
  "<style>body{display:none}</style>",
  "",
  "<script>",
  "document.title='owned'",
  "</script>",
  "",
  "</script><script>document.title='owned'</script> <!-- a comment --> &lt;script&gt; \u2028",
  "",
  "reversed: \u202Eevil\u202C and an override left open \u202Eright-to-left[^x]",
  "",
  '<table onclick=x><tr><td colspan="2" onmouseover=x>a cell <img src=x onerror=alert(1)></td></tr>',
  "",
  "[^x]: A footnote <script>document.title='owned'</script> [link](javascript:alert(1))",
  "",
].join("\n");

/** The elements a rendered text may hold (markdown's own, the allow-list's, the footnotes'). */
export const ALLOWED_ELEMENTS = new Set([
  "P",
  "STRONG",
  "EM",
  "CODE",
  "PRE",
  "A",
  "SUP",
  "SUB",
  "BR",
  "UL",
  "OL",
  "LI",
  "BLOCKQUOTE",
  "HR",
  "S",
  "TABLE",
  "THEAD",
  "TBODY",
  "TFOOT",
  "TR",
  "TH",
  "TD",
  "DIV",
  "SPAN",
  "DEL",
  "INS",
]);

/** What is wrong in a rendered text's element: an element not allowed, an attribute that runs or loads something. */
export function unsafeParts(root: Element): string[] {
  const found: string[] = [];
  for (const element of Array.from(root.querySelectorAll("*"))) {
    if (!ALLOWED_ELEMENTS.has(element.tagName)) found.push(`<${element.tagName.toLowerCase()}>`);
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith("on") || name === "style" || name === "src") found.push(`${name}= on ${element.tagName}`);
      if (name === "href" && !/^(?:#|https?:)/.test(attribute.value)) found.push(`href=${attribute.value}`);
    }
  }
  return found;
}
