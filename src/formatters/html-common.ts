/**
 * What the two HTML pages share (the dataset view and `diff --format html`, docs/spec.md, section
 * 16): escaping, data embedded in a script element, and the page shell with its one inline style
 * sheet. The pages are self-contained: no network, no external font, no script or style from
 * elsewhere, so that they open from a CI artifact or an e-mail as they are.
 */

import { isolateBidi } from "../core/text.js";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for an element's content or a quoted attribute value, isolated when it holds directional controls (isolateBidi). */
export function escapeHtml(text: string): string {
  return isolateBidi(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON for a `<script type="application/json">` element, each string isolated as escapeHtml isolates it: `<` is written `\u003c`, so that no
 * `</script>` or `<!--` in a legal text can end the element early; U+2028 and U+2029 likewise.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => (typeof member === "string" ? isolateBidi(member) : member))
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Colours and sizes both pages use, chosen for WCAG 2.1 AA: every text colour has a contrast of
 * at least 4.5:1 on its background (the muted grey #595959 is 7:1 on white), focus is always
 * visible, and nothing depends on colour alone (a change's kind and class are also words).
 */
const STYLE = `
:root{color-scheme:light;--fg:#1a1a1a;--muted:#595959;--line:#d0d0d0;--accent:#0b4f9c;--bad:#a4161a;--warn:#7a4a00;--good:#1d6b2f;--del:#ffe3e3;--ins:#dcf5dc}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:#fff}
header,main,footer{max-width:72rem;margin:0 auto;padding:0 1rem}
header{padding-top:1rem}
h1{font-size:1.5rem;margin:.2rem 0 .4rem}
h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
h3{font-size:1rem;margin:0}
code,pre,.addr{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
.muted{color:var(--muted)}
.counts{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;margin:.4rem 0;padding:0;list-style:none}
.counts li{white-space:nowrap}
.counts strong{font-size:1.1em}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button{font:inherit;font-size:.85em;color:var(--accent);background:#fff;border:1px solid var(--accent);border-radius:4px;padding:.05rem .5rem;cursor:pointer}
button:hover{background:#eef4fb}
pre.text{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;border:1px solid var(--line);border-radius:4px;padding:.5rem .7rem;margin:.3rem 0 .5rem;max-height:40rem;overflow:auto}
.verdict{font-weight:700;padding:.4rem .7rem;border-radius:4px;display:inline-block;margin:.3rem 0}
.verdict.pass{color:var(--good);border:2px solid var(--good)}
.verdict.fail{color:var(--bad);border:2px solid var(--bad)}
.badge{display:inline-block;font-size:.8em;font-weight:600;border:1px solid currentColor;border-radius:3px;padding:0 .35rem;margin-right:.3rem;white-space:nowrap}
.breaking{color:var(--bad)}
.approved{color:var(--warn)}
.additive{color:var(--good)}
del{background:var(--del);color:#000;text-decoration:line-through}
ins{background:var(--ins);color:#000;text-decoration:underline}
del::before,del::after,ins::before,ins::after{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
del::before{content:" [deleted: "}
ins::before{content:" [inserted: "}
del::after,ins::after{content:"] "}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`;

export interface PageParts {
  title: string;
  /** Extra style rules of the page. */
  style?: string;
  header: string;
  main: string;
  /** The inline script, if the page has one (run after the body is parsed). */
  script?: string;
  /**
   * Data for the script, embedded as JSON, one `<script type="application/json" id="…">` per entry (parsed when the
   * script needs it).
   */
  data?: Record<string, unknown>;
  footer?: string;
}

/** A whole page: one HTML document, its style and script inline. */
export function renderPage(parts: PageParts): string {
  return [...renderPagePieces(parts)].join("");
}

/**
 * renderPage as the pieces it is made of, in order, `main` given as pieces too, each made when it is asked for: a page
 * of a large dataset (a statute book with its units: a 234 MB page) is written a piece at a time, never held whole,
 * as text or as pieces (view.ts).
 */
export function* renderPagePieces(
  parts: Omit<PageParts, "main"> & { main: string | Iterable<string> },
): Generator<string, void, undefined> {
  yield `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(parts.title)}</title>\n<style>${STYLE}${parts.style ?? ""}</style>\n</head>\n<body>\n` +
    `<header>\n${parts.header}\n</header>\n<main>\n`;
  if (typeof parts.main === "string") yield parts.main;
  else yield* parts.main;
  const data = Object.entries(parts.data ?? {})
    .map(([id, value]) => `<script type="application/json" id="${id}">${jsonForScript(value)}</script>\n`)
    .join("");
  const script = parts.script !== undefined ? `<script>${parts.script}</script>\n` : "";
  yield "\n</main>\n" +
    (parts.footer !== undefined ? `<footer>\n${parts.footer}\n</footer>\n` : "") +
    data +
    script +
    `</body>\n</html>\n`;
}
