/**
 * One dataset as one self-contained HTML page (`citation-targets view`, docs/spec.md, section 17):
 * the tree of containers and targets in document order, each with its citation address, heading
 * and trail, its text on demand, rendered (src/formatters/markdown-html.ts), and a search in the
 * addresses, headings and texts. Pure: records in, a string out.
 *
 * The tree is markup, so that it shows before any script runs; the rendered texts are one JSON array
 * in the page, put into the tree only when a text is asked for (a closed text costs the browser
 * nothing to lay out). The search walks an array of keys and a parent index, never the DOM tree; the
 * texts' words join the keys at the first search.
 */
import { isPositionalAddress } from "../core/diff/unit-changes.js";
import { READER_TABLES } from "../core/resolve/citation-reader.js";
import { CITATION_READER_SOURCE } from "../core/resolve/citation-reader-source.js";
import { plural } from "../core/text.js";
import { escapeHtml, renderPagePieces } from "./html-common.js";
import { MARKDOWN_STYLE, renderMarkdown } from "./markdown-html.js";

/** One record as the page shows it. */
export interface ViewTarget {
  address: string;
  kind: "markdown-artifact" | "structural-container" | string;
  heading: string;
  trail: string[];
  /** The folder of a container, or the artifact file of a markdown target (`part-i/section-1.md`). */
  artifact: string;
  /** The target's markdown; absent for a container. */
  text?: string;
}

export interface DatasetView {
  /** The JSONL file the page was made from, as shown to the user. */
  file: string;
  slug?: string;
  name?: string;
  titleId?: string;
  versionDate?: string;
  /** The official text of this version (the records' sourceTextUrl), linked from the page's head. */
  sourceTextUrl?: string;
  targets: ViewTarget[];
  /** Set when the texts were left out (larger than the limit): the page keeps the tree and the search. */
  textsOmitted?: { bytes: number; limit: number };
  /** The tool's version, named in the footer. */
  toolVersion?: string;
}

/**
 * The parent of each target, or -1: the nearest target before it that holds it. A container holds
 * the targets of the files below its folder; a markdown target holds the later targets of the same
 * file whose heading trail continues its own trail and heading. Records are in document order (a
 * pre-order of the tree), so a stack of open targets finds each parent in one pass.
 */
export function parentsOf(targets: readonly ViewTarget[]): number[] {
  const parents: number[] = [];
  const stack: number[] = [];
  const holds = (p: ViewTarget, t: ViewTarget): boolean => {
    if (p.kind === "structural-container") return t.artifact.startsWith(`${p.artifact}/`);
    if (p.artifact !== t.artifact || t.trail.length <= p.trail.length) return false;
    for (let k = 0; k < p.trail.length; k++) if (t.trail[k] !== p.trail[k]) return false;
    return t.trail[p.trail.length] === p.heading;
  };
  for (const [index, target] of targets.entries()) {
    while (stack.length > 0 && !holds(targets[stack[stack.length - 1]!]!, target)) stack.pop();
    parents.push(stack.length > 0 ? stack[stack.length - 1]! : -1);
    stack.push(index);
  }
  return parents;
}

/**
 * The tree's rules name its own items (`li[data-i]`) and lists (`li[data-i]>ul`), never `ul.tree li` or `ul.tree ul`: a
 * rendered text sits inside an item, and its lists would lose their bullets, and its numbered items their numbers
 * (content-visibility contains paint, which clips a list item's marker), the Nummer a lawyer cites.
 */
const STYLE = `
.search{position:sticky;top:0;background:#fff;padding:.6rem 0;border-bottom:1px solid var(--line);z-index:1}
.search label{font-weight:600;margin-right:.5rem}
.search input{font:inherit;width:min(32rem,100%);padding:.3rem .5rem;border:1px solid #767676;border-radius:4px}
#status{margin-left:.6rem}
ul.tree,li[data-i]>ul{list-style:none;margin:0;padding-left:1.3rem}
li.here>.row{background:#fff4c2;outline:2px solid #8a6d00}
li[data-i]{scroll-margin-top:4rem}
ul.tree{padding-left:0}
li[data-i]{margin:.15rem 0;content-visibility:auto;contain-intrinsic-size:auto 2.6em}
.row{padding:.15rem .3rem;border-radius:3px}
.row .heading{font-weight:600;margin-right:.4rem}
.row .meta{font-size:.85em}
.row .trail{margin-left:.5rem}
li.hit>.row{background:#fff5c2}
.kind{font-size:.8em}
div.text{background:#fafafa;border:1px solid var(--line);border-radius:4px;padding:.2rem .8rem;margin:.3rem 0 .5rem;max-height:40rem;overflow:auto}
`;

/**
 * The search's reading of a citation (`§433`, `§ 433 BGB`, `Art. 3 Abs. 2`, `s 6(1)(a)`): the reader of `resolve`
 * (src/core/resolve/citation-reader.ts), its source text (citation-reader-source.ts) given its tables, and the targets it names among the page's
 * addresses, found as `resolve` finds them (the provision's heading by the key of its last local segment, the nearest
 * of several, then each unit's address below it). The law a citation names is not looked at: the page is one dataset.
 */
const CITATION_SCRIPT = `const tables = JSON.parse(document.getElementById("reader").textContent);
  const reader = (${CITATION_READER_SOURCE})(tables);
  const annexKey = new RegExp("^(?:" + tables.annexWords.join("|") + ")-");
  let byAddress, annexArtifacts, paragraphs;
  // The annex an address's artifact is, when its first heading opens one (a file that is Schedule 1 keeps the
  // provisions in it flat: schedule-1/index.md#2), and whether the address is such a flat one below it.
  function annexFlat(address) {
    const segments = address.slice(address.indexOf("#") + 1).split("/").map((s) => s.split("~")[0]);
    const annex = annexArtifacts.get(address.slice(0, address.indexOf("#") + 1));
    return annex !== undefined && segments.length === 1 && segments[0] !== annex ? annex : undefined;
  }
  function cited(q, addresses) {
    const citation = reader.read(q);
    if (!citation) return [];
    const keys = reader.keys(citation);
    if (!byAddress) {
      byAddress = new Map();
      annexArtifacts = new Map();
      // A § heading: a bare number names no provision of the law then (Paragraph 2 is no item 2 of a § 3).
      paragraphs = addresses.some((a) => /#(?:[^#]*\\/)?§/.test(a));
      let artifact = "";
      addresses.forEach((a, i) => {
        byAddress.set(a, i);
        const hash = a.indexOf("#");
        if (hash < 0 || (artifact !== "" && a.startsWith(artifact))) return;
        artifact = a.slice(0, hash + 1);
        const first = a.slice(hash + 1) === "_top" ? addresses[i + 1] || "" : a;
        const local = first.startsWith(artifact) ? first.slice(hash + 1) : "";
        if (annexKey.test(local) && local.indexOf("/") < 0) annexArtifacts.set(artifact, local.split("~")[0]);
      });
    }
    const last = keys.provisions[keys.provisions.length - 1];
    const before = keys.provisions.slice(0, -1);
    let heads = [];
    for (let i = 0; i < addresses.length; i++) {
      const hash = addresses[i].indexOf("#");
      if (hash < 0) continue;
      const segments = addresses[i].slice(hash + 1).split("/").map((s) => s.split("~")[0]);
      const key = segments[segments.length - 1];
      if (keys.range !== undefined && key === keys.range) { heads = [i]; break; }
      if (!last.includes(key) || !reader.provisionHeading(segments, paragraphs)) continue;
      const at = segments.length - 1 - before.length;
      if (before.every((options, k) => options.includes(segments[at + k] || ""))) heads.push(i);
      else if (keys.annex && before.length === 1 && before[0].includes(annexFlat(addresses[i]))) heads.push(i);
    }
    // No heading of its own, as resolve finds it then: a § or article in a range printed as one heading (§§ 5 bis 7
    // (weggefallen)) is that heading; else a provision cited in an annex is the annex. Their units are not looked for.
    const whole = heads.length === 0;
    let counted = keys.provisions.length;
    if (whole) {
      for (const key of last) {
        for (let i = 0; i < addresses.length; i++) {
          const hash = addresses[i].indexOf("#");
          if (hash < 0) continue;
          const segments = addresses[i].slice(hash + 1).split("/").map((s) => s.split("~")[0]);
          if (!reader.covers(segments[segments.length - 1], key)) continue;
          const at = segments.length - 1 - before.length;
          if (before.every((options, k) => options.includes(segments[at + k] || ""))) heads.push(i);
        }
      }
      if (heads.length === 0 && before.length > 0 && citation.steps.some((step) => step.kind === "annex")) {
        counted = 1;
        for (let i = 0; i < addresses.length; i++) {
          const hash = addresses[i].indexOf("#");
          const segments = hash < 0 ? [] : addresses[i].slice(hash + 1).split("/");
          if (segments.length > 0 && segments[segments.length - 1].split("~")[0] === keys.provisions[0][0]) heads.push(i);
        }
      }
    }
    if (heads.length > 1) {
      const distances = heads.map((i) => reader.distance(addresses[i], counted) + (annexFlat(addresses[i]) ? 1 : 0));
      const nearest = Math.min.apply(null, distances);
      heads = heads.filter((_, k) => distances[k] === nearest);
    }
    if (whole) return heads;
    return heads.map((head) => {
      let address = addresses[head];
      let found = head;
      for (const step of keys.units) {
        if (step === null) continue;
        address += "/" + step;
        if (byAddress.has(address)) found = byAddress.get(address);
      }
      return found;
    });
  }`;

/**
 * The page's script: text on demand, search in addresses, headings and texts, and by citation (CITATION_SCRIPT).
 * Plain ES2017, no library. The texts (HTML made by the formatter, every value in it escaped) are parsed when the
 * first one is asked for or the search's keys are made, and a text's element made when it is first
 * shown. The keys (a target's address, heading and text as the reader sees it: tags taken for
 * spaces) are made while the browser is idle after the page loads; a search made earlier finishes them.
 */
const SCRIPT = `(() => {
  ${CITATION_SCRIPT}
  const parent = JSON.parse(document.getElementById("parents").textContent);
  const rows = Array.from(document.querySelectorAll("li[data-i]"));
  const input = document.getElementById("q");
  const status = document.getElementById("status");
  const total = status.textContent;
  const textData = document.getElementById("texts");
  let texts;
  const keys = new Array(rows.length);
  let keyed = 0;
  let addresses;
  const loadTexts = () => {
    if (texts === undefined) texts = textData ? JSON.parse(textData.textContent) : [];
    return texts;
  };
  const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
  const plain = (html) => html.replace(/(?:<[^>]*>|\\s)+/g, " ").replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);
  document.querySelector("main").addEventListener("click", (event) => {
    const button = event.target.closest("button.tx");
    if (!button) return;
    const li = button.closest("li");
    const i = Number(li.dataset.i);
    let text = document.getElementById("x" + i);
    if (!text) {
      text = document.createElement("div");
      text.className = "text md";
      text.id = "x" + i;
      text.hidden = true;
      text.setAttribute("role", "region");
      text.setAttribute("aria-label", "Text of " + li.querySelector(".addr").textContent);
      text.innerHTML = loadTexts()[i];
      li.querySelector(".row").after(text);
      button.setAttribute("aria-controls", text.id);
    }
    const open = text.hidden;
    text.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? "Hide text" : "Show text";
  });
  // The search's keys: made while the page is idle after it loads, a slice at a time; a search finishes them.
  function makeKeys(deadline) {
    const all = loadTexts();
    for (; keyed < rows.length && (!deadline || deadline.timeRemaining() > 1); keyed++) {
      const row = rows[keyed];
      keys[keyed] = (row.querySelector(".addr").textContent + "\\n" + row.querySelector(".heading").textContent + "\\n" + (all[keyed] ? plain(all[keyed]) : "")).toLowerCase();
    }
    if (keyed < rows.length && deadline) idle();
  }
  const idle = () => (window.requestIdleCallback ? window.requestIdleCallback(makeKeys) : setTimeout(() => makeKeys({ timeRemaining: () => 8 }), 20));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle);
  function search() {
    const q = input.value.trim().toLowerCase();
    if (keyed < rows.length) makeKeys();
    const n = rows.length;
    const shown = new Uint8Array(n);
    const hit = new Uint8Array(n);
    let matches = 0;
    // A citation first (\u00a7 433 BGB, Art. 3 Abs. 2): its targets; else, or when it names none here, the words.
    if (q !== "" && !addresses) addresses = rows.map((row) => row.querySelector(".addr").textContent);
    const targets = q === "" ? [] : cited(input.value.trim(), addresses);
    for (let i = 0; i < n; i++) {
      if (targets.length > 0 ? targets.includes(i) : q === "" || keys[i].includes(q)) {
        shown[i] = 1;
        if (q !== "") { hit[i] = 1; matches++; }
      }
    }
    for (let i = n - 1; i >= 0; i--) if (shown[i] && parent[i] >= 0) shown[parent[i]] = 1;
    for (let i = 0; i < n; i++) {
      const row = rows[i];
      if (row.hidden !== !shown[i]) row.hidden = !shown[i];
      if (row.classList.contains("hit") !== (hit[i] === 1)) row.classList.toggle("hit", hit[i] === 1);
    }
    status.textContent = q === "" ? total : matches + (matches === 1 ? " target matches" : " targets match") + " \\u201c" + input.value.trim() + "\\u201d";
  }
  input.addEventListener("input", search);
  document.getElementById("search").addEventListener("submit", (event) => { event.preventDefault(); search(); });
  if (input.value !== "") search();
  // A link to one target: the page's address, # and the target's citationAddress (view.html#gg/index.md#art-1, as
  // resolve prints it). The target is shown (a search that hides it is cleared), marked, its text opened, and scrolled
  // to; an address the page does not hold changes nothing.
  function goTo() {
    let wanted;
    try { wanted = decodeURIComponent(location.hash.slice(1)); } catch (error) { return; }
    if (wanted === "") return;
    const li = rows.find((row) => row.querySelector(".addr").textContent === wanted);
    if (!li) return;
    if (li.hidden) { input.value = ""; search(); }
    for (const row of document.querySelectorAll("li.here")) row.classList.remove("here");
    li.classList.add("here");
    const button = li.querySelector(":scope > .row button.tx");
    if (button && button.getAttribute("aria-expanded") === "false") button.click();
    // Again once the rows below the window have been laid out (content-visibility: their sizes were estimates).
    const scroll = () => { if (li.scrollIntoView) li.scrollIntoView({ block: "start" }); };
    scroll();
    if (window.requestAnimationFrame) requestAnimationFrame(() => requestAnimationFrame(scroll));
  }
  window.addEventListener("hashchange", goTo);
  // Once the page has loaded: the browser's own look for the fragment (no element has it as an id) comes before and
  // would otherwise leave the page at its top.
  if (document.readyState === "complete") goTo();
  else window.addEventListener("load", goTo);
})();`;

function row(target: ViewTarget): string {
  const container = target.kind === "structural-container";
  const heading =
    target.heading !== ""
      ? escapeHtml(target.heading)
      : isPositionalAddress(target.address)
        ? '<span class="muted">(text beside the units: intro, wrap-up)</span>'
        : '<span class="muted">(no heading)</span>';
  const kind = container ? '<span class="badge kind muted">container</span>' : "";
  // The text's element is made by the script when the text is first asked for.
  const button =
    target.text !== undefined && target.text !== ""
      ? '<button type="button" class="tx" aria-expanded="false">Show text</button>'
      : "";
  const trail =
    target.trail.length > 0 ? ` <span class="trail">in ${target.trail.map(escapeHtml).join(" › ")}</span>` : "";
  return `<div class="row">${kind}<span class="heading">${heading}</span>${button}<div class="meta muted"><code class="addr">${escapeHtml(target.address)}</code>${trail}</div></div>`;
}

/**
 * The tree as nested lists: each target's `<li>` holds the `<ul>` of the targets it holds. Made a row at a time as it is
 * asked for (a statute book with its units: 620,027 rows, whose pieces held at once took 600 MB of heap), depth first
 * with a stack of its own rather than recursion.
 */
function* tree(targets: readonly ViewTarget[], parents: readonly number[]): Generator<string, void, undefined> {
  const children: number[][] = targets.map(() => []);
  const roots: number[] = [];
  for (const [index, parent] of parents.entries()) (parent >= 0 ? children[parent]! : roots).push(index);
  /** The targets whose lists are open, each with the number of its children given so far. */
  const open: { index: number; given: number }[] = [];
  /** A target's `<li>` and row; its list opened (and the target put on the stack) when it holds targets. */
  const item = (index: number): string => {
    const start = `<li data-i="${index}">${row(targets[index]!)}`;
    if (children[index]!.length === 0) return `${start}</li>`;
    open.push({ index, given: 0 });
    return `${start}\n<ul>\n`;
  };
  yield '<ul class="tree">\n';
  for (const [k, root] of roots.entries()) {
    yield k > 0 ? `\n${item(root)}` : item(root);
    while (open.length > 0) {
      const top = open[open.length - 1]!;
      const below = children[top.index]!;
      if (top.given < below.length) {
        const child = below[top.given]!;
        const separator = top.given > 0 ? "\n" : "";
        top.given++;
        yield separator + item(child);
      } else {
        open.pop();
        yield "\n</ul></li>";
      }
    }
  }
  yield "\n</ul>";
}

/** The whole page for one dataset. */
export function renderDatasetPage(view: DatasetView): string {
  return [...renderDatasetPagePieces(view)].join("");
}

/** renderDatasetPage as the pieces it is made of, in order (renderPagePieces): a large dataset's page is never held whole. */
export function renderDatasetPagePieces(view: DatasetView): Generator<string, void, undefined> {
  const parents = parentsOf(view.targets);
  const containers = view.targets.filter((t) => t.kind === "structural-container").length;
  const markdown = view.targets.length - containers;
  const artifacts = new Set(view.targets.filter((t) => t.kind !== "structural-container").map((t) => t.artifact)).size;
  const textBytes = view.targets.reduce((sum, t) => sum + (t.text !== undefined ? Buffer.byteLength(t.text) : 0), 0);
  const title = view.name ?? view.slug ?? view.file;
  const facts = [
    view.slug !== undefined ? `slug <code>${escapeHtml(view.slug)}</code>` : undefined,
    view.titleId !== undefined ? `title <code>${escapeHtml(view.titleId)}</code>` : undefined,
    view.versionDate !== undefined ? `version of ${escapeHtml(view.versionDate)}` : undefined,
    // The schema holds it to https (rule schema); anything else read from a file not checked is shown, not linked.
    view.sourceTextUrl !== undefined
      ? /^https:\/\//.test(view.sourceTextUrl)
        ? `<a href="${escapeHtml(view.sourceTextUrl)}" rel="noopener noreferrer">the official text</a>`
        : `official text <code>${escapeHtml(view.sourceTextUrl)}</code>`
      : undefined,
    `from <code>${escapeHtml(view.file)}</code>`,
  ].filter((f) => f !== undefined);
  const omitted = view.textsOmitted
    ? `<p role="note" class="verdict fail">The texts are left out: they hold ${view.textsOmitted.bytes} bytes, more than the limit of ${view.textsOmitted.limit} (--max-text-bytes). The tree and the search are complete.</p>`
    : "";
  const header =
    `<h1>${escapeHtml(title)}</h1>\n<p class="muted">${facts.join(" · ")}</p>\n` +
    `<ul class="counts" aria-label="Counts">` +
    `<li data-count="targets"><strong>${view.targets.length}</strong> ${view.targets.length === 1 ? "target" : "targets"}</li>` +
    `<li data-count="markdown"><strong>${markdown}</strong> markdown</li>` +
    `<li data-count="containers"><strong>${containers}</strong> ${containers === 1 ? "container" : "containers"}</li>` +
    `<li data-count="artifacts"><strong>${artifacts}</strong> ${artifacts === 1 ? "artifact file" : "artifact files"}</li>` +
    `<li data-count="text-bytes"><strong>${textBytes}</strong> bytes of text</li></ul>\n${omitted}` +
    // The texts and the search are the page's script: without it, say so (the tree is there all the same).
    `<noscript><p role="note" class="verdict fail">This page shows the texts and searches with JavaScript, which is off: the tree of targets below is complete, but "Show text" and the search do nothing.</p></noscript>\n`;
  const total = plural(view.targets.length, "target");
  function* main(): Generator<string, void, undefined> {
    yield `<form class="search" id="search" role="search"><label for="q">Search in addresses, headings and texts</label>` +
      `<input id="q" type="search" autocomplete="off" spellcheck="false"><span id="status" class="muted" role="status" aria-live="polite">${total}</span></form>\n` +
      `<h2 id="tree-heading">Targets in document order</h2>\n<nav aria-labelledby="tree-heading">\n`;
    yield* tree(view.targets, parents);
    yield "\n</nav>";
  }
  return renderPagePieces({
    title: `${title}: citation targets`,
    style: STYLE + MARKDOWN_STYLE,
    header,
    main: main(),
    footer: `<p class="muted">Made by citation-targets${view.toolVersion !== undefined ? ` ${escapeHtml(view.toolVersion)}` : ""}. The page needs no network.</p>`,
    data: {
      parents,
      reader: READER_TABLES,
      ...(view.textsOmitted
        ? {}
        : {
            texts: view.targets.map((t, i) =>
              t.text !== undefined && t.text !== "" ? renderMarkdown(t.text, `t${i}`) : "",
            ),
          }),
    },
    script: SCRIPT,
  });
}
