/**
 * `diff --format html`: an amendment as one self-contained page (docs/spec.md, section 17). The
 * gate's verdict and the counts first; then the approvals that apply; then one section per dataset
 * that changed, datasets with breaking changes first, each change by citation address with its
 * kind and class (breaking first, as the report orders them), its likely moves, its changed
 * fields and, when the caller passed the texts, the changed text as a word-level diff.
 */
import { diffWordsWithSpace } from "diff";
import { datasetLine } from "../core/diff/datasets.js";
import type { DiffChange, DiffPair, DiffReport } from "../core/diff/diff.js";
import {
  changeLevel,
  type DiffFormatContext,
  type DiffFormatter,
  describeField,
  describeTextChange,
  summaryLine,
} from "./diff-common.js";
import { plural } from "../core/text.js";
import { escapeHtml, renderPage } from "./html-common.js";

/** The old and new markdown of one changed target. */
export interface TextPair {
  before?: string;
  after?: string;
}

/** The texts of changed targets, by `textKey(pair.new, address)`; read by the Node layer (src/node/diff/diff-texts.ts). */
export type DiffTexts = ReadonlyMap<string, TextPair>;

export const textKey = (file: string, address: string): string => `${file}\u0000${address}`;

export interface HtmlDiffContext extends DiffFormatContext {
  texts?: DiffTexts;
}

/**
 * Edits past which two texts are not diffed word by word (jsdiff's maxEditLength): the whole old
 * text is shown removed and the new one added. Deterministic, unlike a time limit; a section
 * rewritten from end to end reads better that way anyway.
 */
const MAX_EDIT_LENGTH = 2000;

/** A word-level diff as HTML: unchanged text as it is, removed words in `<del>`, added ones in `<ins>`. */
export function wordDiffHtml(before: string, after: string): string {
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (parts === undefined) return `<del>${escapeHtml(before)}</del><ins>${escapeHtml(after)}</ins>`;
  return parts
    .map((part) =>
      part.removed
        ? `<del>${escapeHtml(part.value)}</del>`
        : part.added
          ? `<ins>${escapeHtml(part.value)}</ins>`
          : escapeHtml(part.value),
    )
    .join("");
}

const STYLE = `
nav.toc ul{margin:.3rem 0;padding-left:1.2rem}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.change{border:1px solid var(--line);border-left-width:6px;border-radius:4px;padding:.5rem .7rem;margin:.6rem 0}
.change.error{border-left-color:var(--bad)}
.change.warning{border-left-color:#b36b00}
.change.note{border-left-color:var(--good)}
.change h3{font-size:1rem;font-weight:600}
.change ul.details{margin:.3rem 0;padding-left:1.2rem}
.pair-note{margin:.2rem 0}
.dataset-line{margin:.2rem 0;font-weight:600}
.editorial{color:#055160}
.badge.editorial{background:#cff4fc;color:#055160}
`;

const GATE_WORDS = { error: "fails the gate", warning: "approved or allowed", note: "additive" } as const;

function gateBadge(change: DiffChange, report: DiffReport): string {
  const level = changeLevel(change, report);
  if (level === "error") return '<span class="badge breaking">fails the gate</span>';
  if (change.approved) return '<span class="badge approved">approved</span>';
  return level === "warning" ? '<span class="badge approved">allowed (--fail-on)</span>' : "";
}

function renderChange(change: DiffChange, pair: DiffPair, report: DiffReport, texts: DiffTexts | undefined): string {
  const level = changeLevel(change, report);
  const subject =
    change.address !== undefined
      ? `<code class="addr">${escapeHtml(change.address)}</code>`
      : escapeHtml(change.message);
  const heading =
    change.headingText !== undefined && change.headingText !== ""
      ? ` <span class="heading">${escapeHtml(change.headingText)}</span>`
      : "";
  const details: string[] = [];
  if (change.address === undefined && change.pointer !== undefined)
    details.push(`at <code>${escapeHtml(change.pointer)}</code>`);
  if (change.likelyMoves) {
    const moves = change.likelyMoves
      .map((move) => `<code>${escapeHtml(move.address)}</code> (same ${escapeHtml(move.by.join(" and "))})`)
      .join(", ");
    details.push(
      `likely moved to ${moves}${change.otherMoveCandidates ? ` and ${change.otherMoveCandidates} more candidates` : ""}`,
    );
  }
  const editorial = describeTextChange(change);
  if (editorial !== undefined) details.push(`<span class="editorial">${escapeHtml(editorial)}</span>`);
  for (const field of change.fields ?? []) details.push(escapeHtml(describeField(field)));
  if (change.approved) details.push(`<span class="approved">approved: ${escapeHtml(change.approved.reason)}</span>`);
  const list = details.length > 0 ? `<ul class="details">${details.map((d) => `<li>${d}</li>`).join("")}</ul>` : "";
  const text = change.address !== undefined ? texts?.get(textKey(pair.new, change.address)) : undefined;
  let body = "";
  if (text?.before !== undefined && text.after !== undefined && text.before !== text.after) {
    body = `<p class="muted">The text, word by word:</p><pre class="text wdiff">${wordDiffHtml(text.before, text.after)}</pre>`;
  }
  return (
    `<div class="change ${level}" data-kind="${change.kind}" data-class="${change.class}"${change.address !== undefined ? ` data-address="${escapeHtml(change.address)}"` : ""}>` +
    `<h3><span class="badge ${change.class}">${change.class}</span><span class="badge">${change.kind}</span>${editorial !== undefined ? '<span class="badge editorial">editorial</span>' : ""}${gateBadge(change, report)} ${subject}${heading}</h3>` +
    `<span class="sr-only">${GATE_WORDS[level]}. </span>${list}${body}</div>`
  );
}

function pairHeader(pair: DiffPair): string {
  if (pair.newMissing) return `deleted (was ${escapeHtml(pair.old)})`;
  if (pair.oldMissing) return `new (not in ${escapeHtml(pair.old)})`;
  const records = pair.records ? `, ${pair.records.before} → ${pair.records.after} records` : "";
  return `against <code>${escapeHtml(pair.old)}</code>${records}`;
}

/** The page for a diff report; `context.texts` adds the word diff of each changed text. */
export function renderDiffPage(report: DiffReport, context: HtmlDiffContext): string {
  const { summary } = report;
  const changed = report.pairs
    .map((pair, index) => ({ pair, index }))
    .filter(({ pair }) => pair.changes.length > 0 || pair.warnings.length > 0);
  // Datasets with breaking changes first, then the others, each group in the report's order.
  const sections = [...changed].sort(
    (a, b) =>
      Number(!a.pair.changes.some((c) => c.class === "breaking")) -
        Number(!b.pair.changes.some((c) => c.class === "breaking")) || a.index - b.index,
  );
  const moves = report.pairs.reduce(
    (sum, pair) => sum + pair.changes.filter((c) => c.likelyMoves !== undefined).length,
    0,
  );
  const against = report.against
    ? ` against <code>${escapeHtml(report.against.revision)}</code> (${escapeHtml(report.against.commit.slice(0, 12))})${report.to ? `, at <code>${escapeHtml(report.to.revision)}</code> (${escapeHtml(report.to.commit.slice(0, 12))})` : ""}`
    : "";
  const verdict = summary.passed
    ? `<p class="verdict pass" data-verdict="pass">✔ The gate passes (--fail-on ${summary.failOn})</p>`
    : `<p class="verdict fail" data-verdict="fail">✖ ${plural(summary.failing, "change fails", "changes fail")} the gate (--fail-on ${summary.failOn})</p>`;
  const count = (name: string, value: number, words: string) =>
    `<li data-count="${name}"><strong>${value}</strong> ${words}</li>`;
  const header =
    `<h1>Amendment: ${plural(summary.changes, "change")}</h1>\n<p class="muted">${plural(report.pairs.length, "pair")} compared${against}</p>\n${verdict}\n` +
    `<ul class="counts" aria-label="Counts">${count("changes", summary.changes, summary.changes === 1 ? "change" : "changes")}${count("breaking", summary.breaking, "breaking")}` +
    `${count("additive", summary.additive, "additive")}${count("approved", summary.approved, "approved")}${count("failing", summary.failing, "failing the gate")}` +
    `${count("moves", moves, moves === 1 ? "likely move" : "likely moves")}${count("datasets", changed.length, changed.length === 1 ? "dataset changed" : "datasets changed")}</ul>\n` +
    `<p class="muted">${escapeHtml(summaryLine(report))}</p>`;
  const main: string[] = [];
  const kinds = Object.entries(summary.byKind);
  if (kinds.length > 0) {
    main.push(
      `<h2 id="kinds">Changes by kind</h2>\n<table aria-labelledby="kinds"><thead><tr><th scope="col">kind</th><th scope="col">class</th><th scope="col">changes</th></tr></thead><tbody>` +
        kinds
          .map(
            ([kind, n]) =>
              `<tr><td>${kind}</td><td>${report.pairs.some((p) => p.changes.some((c) => c.kind === kind && c.class === "breaking")) ? "breaking" : "additive"}</td><td>${n}</td></tr>`,
          )
          .join("") +
        "</tbody></table>",
    );
  }
  const approved = report.pairs.flatMap((pair) =>
    pair.changes.filter((c) => c.approved).map((c) => ({ pair, change: c })),
  );
  if (approved.length > 0 || report.warnings.length > 0) {
    const rows = approved
      .map(
        ({ change }) =>
          `<tr><td>${change.address !== undefined ? `<code>${escapeHtml(change.address)}</code>` : escapeHtml(change.pointer ?? change.message)}</td><td>${change.kind}</td><td>${escapeHtml(change.approved!.reason)}</td></tr>`,
      )
      .join("");
    main.push(
      `<h2 id="approvals">Approvals that apply</h2>\n` +
        (approved.length > 0
          ? `<table aria-labelledby="approvals"><thead><tr><th scope="col">change</th><th scope="col">kind</th><th scope="col">reason</th></tr></thead><tbody>${rows}</tbody></table>`
          : '<p class="muted">No approval applies to a change.</p>') +
        (report.warnings.length > 0
          ? `<ul>${report.warnings.map((w) => `<li class="approved">${escapeHtml(w)}</li>`).join("")}</ul>`
          : ""),
    );
  }
  if (sections.length > 1) {
    main.push(
      `<nav class="toc" aria-label="Datasets that changed"><h2>Datasets that changed</h2><ul>${sections
        .map(
          ({ pair, index }) =>
            `<li><a href="#pair-${index}">${escapeHtml(pair.new)}</a> (${plural(pair.changes.length, "change")}, ${pair.changes.filter((c) => c.class === "breaking").length} breaking)</li>`,
        )
        .join("")}</ul></nav>`,
    );
  }
  for (const { pair, index } of sections) {
    main.push(
      `<section class="pair" id="pair-${index}" aria-labelledby="pair-${index}-h" data-file="${escapeHtml(pair.new)}">\n<h2 id="pair-${index}-h"><code>${escapeHtml(pair.new)}</code></h2>\n` +
        `<p class="pair-note muted">${pairHeader(pair)}: ${plural(pair.changes.length, "change")}</p>\n` +
        (datasetLine(pair) !== undefined ? `<p class="dataset-line">${escapeHtml(datasetLine(pair)!)}</p>\n` : "") +
        pair.changes.map((change) => renderChange(change, pair, report, context.texts)).join("\n") +
        (pair.warnings.length > 0
          ? `<ul>${pair.warnings.map((w) => `<li class="approved">warning: ${escapeHtml(w)}</li>`).join("")}</ul>`
          : "") +
        "\n</section>",
    );
  }
  const unchanged = report.pairs.length - changed.length;
  if (unchanged > 0) main.push(`<p class="muted">${plural(unchanged, "other pair")} compared: no changes.</p>`);
  if (summary.changes > 0 && context.texts !== undefined)
    main.push(
      '<p class="muted">In the texts, removed words are struck through on red, added words underlined on green.</p>',
    );
  return renderPage({
    title: `citation-targets diff: ${summary.passed ? "passes" : "fails"}, ${plural(summary.changes, "change")}`,
    style: STYLE,
    header,
    main: main.join("\n"),
    footer: `<p class="muted">Made by citation-targets${context.toolVersion !== undefined ? ` ${escapeHtml(context.toolVersion)}` : ""}. The page needs no network.</p>`,
  });
}

/** The html format as a diff formatter (without texts, the changed fields are still listed). */
export const formatDiffHtml: DiffFormatter = (report, context) => renderDiffPage(report, context);
