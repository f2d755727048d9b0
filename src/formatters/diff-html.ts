/**
 * `diff --format html`: an amendment as one self-contained page (docs/spec.md, section 17), for the
 * people who review law. The gate's verdict and the counts first; then the changes that fail the
 * gate, by dataset; then the approvals that apply, one row per approval entry with the number of
 * changes it covers; then the changes by kind; then the other changes, one section per dataset
 * (datasets with breaking changes first), each dataset headed by its law's name and titleId with its
 * file under them. Each change shows its kind and class, gate state, likely moves and changed fields
 * and, when the caller passed the texts, the target's text rendered: the old and the new version side
 * by side, the removed words marked in the old and the added ones in the new (src/formatters/markdown-html.ts).
 */
import { datasetLine } from "../core/diff/datasets.js";
import {
  type Approval,
  approves,
  type DiffChange,
  type DiffPair,
  type DiffReport,
  isPlaceholderReason,
} from "../core/diff/diff.js";
import {
  changeLevel,
  type DiffFormatContext,
  type DiffFormatter,
  describeField,
  describeTextChange,
  describeUnits,
  summaryLine,
} from "./diff-common.js";
import { plural } from "../core/text.js";
import { escapeHtml, renderPage } from "./html-common.js";
import { MARKDOWN_STYLE, markedTexts, renderMarkdown, type WordDiffBudget, wordDiffBudget } from "./markdown-html.js";

/** The old and new markdown of one changed target (one side only for a target added or removed). */
export interface TextPair {
  before?: string;
  after?: string;
}

/** The texts of changed targets, by `textKey(pair.new, address)`; read by the Node layer (src/node/diff/diff-texts.ts). */
export type DiffTexts = ReadonlyMap<string, TextPair>;

export const textKey = (file: string, address: string): string => `${file}\u0000${address}`;

/** What a dataset's records say of its law: the name and titleId its page heads its section with. */
export interface DatasetTitle {
  name?: string;
  titleId?: string;
}

export interface HtmlDiffContext extends DiffFormatContext {
  texts?: DiffTexts;
  /** The law of each records pair, by `pair.new` (src/node/diff/diff-texts.ts). */
  titles?: ReadonlyMap<string, DatasetTitle>;
  /** The approvals file's entries, in its order: the approvals table has one row per entry that approved a change. */
  approvals?: readonly Approval[];
}

const STYLE = `
nav.toc ul{margin:.3rem 0;padding-left:1.2rem}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.change{border:1px solid var(--line);border-left-width:6px;border-radius:4px;padding:.5rem .7rem;margin:.6rem 0;content-visibility:auto;contain-intrinsic-size:auto 14rem}
.change.error{border-left-color:var(--bad)}
.change.warning{border-left-color:#b36b00}
.change.note{border-left-color:var(--good)}
.change h4{font-size:1rem;font-weight:600;margin:0}
.change ul.details{margin:.3rem 0;padding-left:1.2rem}
.pair h3{font-size:1.1rem;margin:1.2rem 0 .1rem}
.pair h3 .title-id{font-weight:400}
.pair-note{margin:.1rem 0 .3rem}
.dataset-line{margin:.2rem 0;font-weight:600}
.editorial{color:#055160}
.badge.editorial{background:#cff4fc;color:#055160}
.synopsis{display:grid;grid-template-columns:1fr 1fr;gap:.6rem;margin:.4rem 0}
.synopsis .side{min-width:0;border:1px solid var(--line);border-radius:4px;padding:.3rem .6rem;background:#fcfcfc}
.synopsis .side-label{margin:0 0 .2rem;font-size:.85em;font-weight:600;color:var(--muted)}
@media (max-width:48rem){.synopsis{grid-template-columns:1fr}}
`;

const GATE_WORDS = { error: "fails the gate", warning: "approved or allowed", note: "additive" } as const;

function gateBadge(change: DiffChange, report: DiffReport): string {
  const level = changeLevel(change, report);
  if (level === "error") return '<span class="badge breaking">fails the gate</span>';
  if (change.approved) return '<span class="badge approved">approved</span>';
  return level === "warning" ? '<span class="badge approved">allowed (--fail-on)</span>' : "";
}

/** The old and new text side by side, the changed words marked; one side for a target added or removed. */
function synopsis(text: TextPair, pair: DiffPair, docId: string, words: WordDiffBudget): string {
  const version = (date: string | undefined) => (date !== undefined ? ` (${escapeHtml(date)})` : "");
  const oldLabel = `Old text${version(pair.dataset?.versionDate.before)}`;
  const newLabel = `New text${version(pair.dataset?.versionDate.after)}`;
  const side = (which: "old" | "new", label: string, html: string) =>
    `<div class="side ${which}"><p class="side-label">${label}</p><div class="md">${html}</div></div>`;
  const none = (words: string) => `<p class="muted">${words}</p>`;
  if (text.before !== undefined && text.after !== undefined) {
    const marked = markedTexts(text.before, text.after, docId, words);
    return (
      `<div class="synopsis" role="group" aria-label="The text, old and new">` +
      side("old", oldLabel, marked.before) +
      side("new", newLabel, marked.after) +
      "</div>" +
      (marked.wordByWord
        ? ""
        : marked.spent
          ? '<p class="muted">Not compared word by word: the word comparisons this page may make (a cap, so that a page of long texts is made in seconds) leave no room for these texts. Each version is marked whole.</p>'
          : '<p class="muted">Rewritten from end to end: each version is marked whole.</p>')
    );
  }
  if (text.after !== undefined)
    return `<div class="synopsis" role="group" aria-label="The text, new">${side("old", oldLabel, none("Not in the old version."))}${side("new", newLabel, renderMarkdown(text.after, `${docId}-new`))}</div>`;
  if (text.before !== undefined)
    return `<div class="synopsis" role="group" aria-label="The text, old">${side("old", oldLabel, renderMarkdown(text.before, `${docId}-old`))}${side("new", newLabel, none("Not in the new version."))}</div>`;
  return "";
}

function renderChange(
  change: DiffChange,
  pair: DiffPair,
  report: DiffReport,
  texts: DiffTexts | undefined,
  docId: string,
  words: WordDiffBudget,
): string {
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
  const units = describeUnits(change, pair.changes);
  if (units !== undefined) details.push(escapeHtml(units));
  const editorial = describeTextChange(change);
  if (editorial !== undefined) details.push(`<span class="editorial">${escapeHtml(editorial)}</span>`);
  for (const field of change.fields ?? []) details.push(escapeHtml(describeField(field)));
  if (change.approved) details.push(`<span class="approved">approved: ${escapeHtml(change.approved.reason)}</span>`);
  const list = details.length > 0 ? `<ul class="details">${details.map((d) => `<li>${d}</li>`).join("")}</ul>` : "";
  const text = change.address !== undefined ? texts?.get(textKey(pair.new, change.address)) : undefined;
  const body =
    text !== undefined && (text.before !== text.after || change.kind !== "record-changed")
      ? synopsis(text, pair, docId, words)
      : "";
  return (
    `<div class="change ${level}" id="${docId}" data-kind="${change.kind}" data-class="${change.class}"${change.address !== undefined ? ` data-address="${escapeHtml(change.address)}"` : ""}>` +
    `<h4><span class="badge ${change.class}">${change.class}</span><span class="badge">${change.kind}</span>${editorial !== undefined ? '<span class="badge editorial">editorial</span>' : ""}${gateBadge(change, report)} ${subject}${heading}</h4>` +
    `<span class="sr-only">${GATE_WORDS[level]}. </span>${list}${body}</div>`
  );
}

function pairHeader(pair: DiffPair): string {
  if (pair.newMissing) return `deleted (was <code>${escapeHtml(pair.old)}</code>)`;
  if (pair.oldMissing) return `new (not in <code>${escapeHtml(pair.old)}</code>)`;
  const records = pair.records ? `, ${pair.records.before} → ${pair.records.after} records` : "";
  return `against <code>${escapeHtml(pair.old)}</code>${records}`;
}

/** The dataset's name for a reader: its law's name, else its slug, else its file. */
function datasetName(pair: DiffPair, titles: HtmlDiffContext["titles"]): string {
  return titles?.get(pair.new)?.name ?? pair.dataset?.slug ?? pair.new;
}

/** The heading of a dataset's part of a section: the law's name and titleId, its file and what was compared under them. */
function datasetHeading(pair: DiffPair, id: string, titles: HtmlDiffContext["titles"], note: string): string {
  const title = titles?.get(pair.new);
  const titleId =
    title?.titleId !== undefined ? ` <span class="title-id muted">${escapeHtml(title.titleId)}</span>` : "";
  const line = datasetLine(pair);
  return (
    `<h3 id="${id}-h">${escapeHtml(datasetName(pair, titles))}${titleId}</h3>\n` +
    `<p class="pair-note muted"><code>${escapeHtml(pair.new)}</code> ${pairHeader(pair)}: ${note}</p>\n` +
    (line !== undefined ? `<p class="dataset-line">${escapeHtml(line)}</p>\n` : "")
  );
}

/** What an approval entry names, in words: `kind record-changed · dataset gg · version 2025-07-01`. */
function describeEntry(approval: Approval): string {
  const parts: string[] = [];
  if (approval.address !== undefined) parts.push(`<code>${escapeHtml(approval.address)}</code>`);
  if (approval.addressPrefix !== undefined)
    parts.push(`addresses under <code>${escapeHtml(approval.addressPrefix)}</code>`);
  if (approval.pointer !== undefined) parts.push(`at <code>${escapeHtml(approval.pointer)}</code>`);
  if (approval.kind !== undefined) parts.push(`kind ${escapeHtml(approval.kind)}`);
  if (approval.dataset !== undefined) parts.push(`dataset ${escapeHtml(approval.dataset)}`);
  if (approval.versionDate !== undefined) parts.push(`version ${escapeHtml(approval.versionDate)}`);
  return parts.length > 0 ? parts.join(" · ") : "every change";
}

interface ApprovalRow {
  what: string;
  reason: string;
  changes: number;
}

/**
 * One row per approval entry that approved a change, in the file's order, with the number of changes it covers: the
 * entry a change was approved by is the first of the file that names it with a written reason (as the gate applies
 * them). A change approved otherwise (--pass-editorial, or with no entries given) is counted under its reason.
 */
function approvalRows(report: DiffReport, approvals: readonly Approval[]): ApprovalRow[] {
  const byEntry = new Map<number, number>();
  const byReason = new Map<string, number>();
  for (const pair of report.pairs)
    for (const change of pair.changes) {
      if (!change.approved) continue;
      const entry = approvals.findIndex(
        (approval) =>
          !isPlaceholderReason(approval.reason) &&
          approval.reason === change.approved!.reason &&
          approves(approval, change, pair),
      );
      if (entry >= 0) byEntry.set(entry, (byEntry.get(entry) ?? 0) + 1);
      else byReason.set(change.approved.reason, (byReason.get(change.approved.reason) ?? 0) + 1);
    }
  const rows: ApprovalRow[] = [...byEntry.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([entry, changes]) => ({
      what: describeEntry(approvals[entry]!),
      reason: approvals[entry]!.reason,
      changes,
    }));
  for (const [reason, changes] of byReason)
    rows.push({
      what: reason.endsWith("(--pass-editorial)") ? "--pass-editorial" : "an approval",
      reason,
      changes,
    });
  return rows;
}

/** The page for a diff report; `context.texts` adds the text of each changed target, `titles` the laws' names. */
export function renderDiffPage(report: DiffReport, context: HtmlDiffContext): string {
  const { summary } = report;
  const { titles } = context;
  // The page's word comparisons, spent in the order its changes are shown.
  const words = wordDiffBudget();
  const changed = report.pairs
    .map((pair, index) => ({ pair, index }))
    .filter(({ pair }) => pair.changes.length > 0 || pair.warnings.length > 0);
  // Datasets with breaking changes first, then the others, each group in the report's order.
  const sections = [...changed].sort(
    (a, b) =>
      Number(!a.pair.changes.some((c) => c.class === "breaking")) -
        Number(!b.pair.changes.some((c) => c.class === "breaking")) || a.index - b.index,
  );
  const fails = (change: DiffChange) => changeLevel(change, report) === "error";
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
  const changeId = new Map<DiffChange, string>();
  for (const { pair, index } of sections)
    pair.changes.forEach((change, k) => {
      changeId.set(change, `c${index}-${k}`);
    });
  const render = (change: DiffChange, pair: DiffPair) =>
    renderChange(change, pair, report, context.texts, changeId.get(change)!, words);

  if (summary.changes > 0 && context.texts !== undefined)
    main.push(
      '<p class="muted">The texts are shown old and new side by side: the words removed from the old text are struck through on red, the words added in the new text underlined on green.</p>',
    );
  // The changes that fail the gate, first: what the reviewer has to decide.
  const failing = sections.filter(({ pair }) => pair.changes.some(fails));
  if (failing.length > 0) {
    main.push(
      `<section id="failing" aria-labelledby="failing-h">\n<h2 id="failing-h">Changes that fail the gate</h2>\n` +
        `<p class="muted">${plural(summary.failing, "change")} in ${plural(failing.length, "dataset")}: approve each that is right (README, "Approvals"), or fix the dataset.</p>\n` +
        failing
          .map(({ pair, index }) => {
            const mine = pair.changes.filter(fails);
            return (
              `<section class="pair failing" id="fail-${index}" aria-labelledby="fail-${index}-h" data-file="${escapeHtml(pair.new)}">\n` +
              datasetHeading(pair, `fail-${index}`, titles, `${plural(mine.length, "change")} failing the gate`) +
              mine.map((change) => render(change, pair)).join("\n") +
              "\n</section>"
            );
          })
          .join("\n") +
        "\n</section>",
    );
  }

  const rows = approvalRows(report, context.approvals ?? []);
  if (rows.length > 0 || report.warnings.length > 0) {
    main.push(
      `<h2 id="approvals">Approvals that apply</h2>\n` +
        (rows.length > 0
          ? `<table aria-labelledby="approvals"><thead><tr><th scope="col">approval</th><th scope="col">reason</th><th scope="col">changes</th></tr></thead><tbody>${rows
              .map(
                (row) =>
                  `<tr><td>${row.what}</td><td>${escapeHtml(row.reason)}</td><td class="n">${row.changes}</td></tr>`,
              )
              .join("")}</tbody></table>`
          : '<p class="muted">No approval applies to a change.</p>') +
        (report.warnings.length > 0
          ? `<ul>${report.warnings.map((w) => `<li class="approved">${escapeHtml(w)}</li>`).join("")}</ul>`
          : ""),
    );
  }
  const kinds = Object.entries(summary.byKind);
  if (kinds.length > 0) {
    main.push(
      `<h2 id="kinds">Changes by kind</h2>\n<table aria-labelledby="kinds"><thead><tr><th scope="col">kind</th><th scope="col">class</th><th scope="col">changes</th></tr></thead><tbody>` +
        kinds
          .map(
            ([kind, n]) =>
              `<tr><td>${kind}</td><td>${report.pairs.some((p) => p.changes.some((c) => c.kind === kind && c.class === "breaking")) ? "breaking" : "additive"}</td><td class="n">${n}</td></tr>`,
          )
          .join("") +
        "</tbody></table>",
    );
  }
  // The other changes (approved, allowed, additive), and each dataset's warnings, by dataset.
  const others = sections.filter(({ pair }) => pair.changes.some((c) => !fails(c)) || pair.warnings.length > 0);
  if (others.length > 0) {
    main.push(`<h2 id="others">${failing.length > 0 ? "The other changes" : "The changes"}</h2>`);
    if (others.length > 1) {
      main.push(
        `<nav class="toc" aria-label="Datasets with other changes"><ul>${others
          .map(({ pair, index }) => {
            const title = titles?.get(pair.new)?.titleId;
            return `<li><a href="#pair-${index}">${escapeHtml(datasetName(pair, titles))}</a>${title !== undefined ? ` ${escapeHtml(title)}` : ""} (${plural(pair.changes.filter((c) => !fails(c)).length, "change")})</li>`;
          })
          .join("")}</ul></nav>`,
      );
    }
    for (const { pair, index } of others) {
      const mine = pair.changes.filter((c) => !fails(c));
      const failingHere = pair.changes.length - mine.length;
      const note =
        plural(mine.length, "change") +
        (failingHere > 0
          ? ` (and <a href="#fail-${index}">${plural(failingHere, "change")} failing the gate</a>, above)`
          : "");
      main.push(
        `<section class="pair" id="pair-${index}" aria-labelledby="pair-${index}-h" data-file="${escapeHtml(pair.new)}">\n` +
          datasetHeading(pair, `pair-${index}`, titles, note) +
          mine.map((change) => render(change, pair)).join("\n") +
          (pair.warnings.length > 0
            ? `<ul>${pair.warnings.map((w) => `<li class="approved">warning: ${escapeHtml(w)}</li>`).join("")}</ul>`
            : "") +
          "\n</section>",
      );
    }
  }
  const unchanged = report.pairs.length - changed.length;
  if (unchanged > 0) main.push(`<p class="muted">${plural(unchanged, "other pair")} compared: no changes.</p>`);
  return renderPage({
    title: `citation-targets diff: ${summary.passed ? "passes" : "fails"}, ${plural(summary.changes, "change")}`,
    style: STYLE + MARKDOWN_STYLE,
    header,
    main: main.join("\n"),
    footer: `<p class="muted">Made by citation-targets${context.toolVersion !== undefined ? ` ${escapeHtml(context.toolVersion)}` : ""}. The page needs no network.</p>`,
  });
}

/** The html format as a diff formatter (without texts, the changed fields are still listed). */
export const formatDiffHtml: DiffFormatter = (report, context) => renderDiffPage(report, context);
