/**
 * Where `diff`'s report goes: standard output in the chosen format, or, with `--output-file`, the
 * chosen format to the file (atomically) and the stylish report to the terminal, as validate does;
 * for `--format html`, the texts of the changed targets are read to be shown side by side; and, in GitHub
 * Actions, a short summary appended to the job summary (GITHUB_STEP_SUMMARY).
 */
import { resolve } from "node:path";
import type { DiffReport } from "../core/diff/diff.js";
import { isEditorial } from "../core/diff/text-change.js";
import { changeLevel } from "../formatters/diff-common.js";
import { colorAt, colorLevel } from "../formatters/plain-color.js";
import type { DiffFormatContext } from "../formatters/diff-common.js";
import type { DiffFormatName } from "../formatters/diff-names.js";

export interface DiffOutputContext {
  cwd: string;
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
}

export interface DiffOutputOptions {
  format: DiffFormatName;
  outputFile?: string;
  color?: boolean;
  /** The inputs of the run (the approvals file, the files compared), which the output file must not be. */
  inputs: { path: string; what: string }[];
  /** The approvals file (as given): the html page has one row per entry of it that approved a change. */
  approvals?: string;
}

/** Writes the report as the options say, and the job summary when GITHUB_STEP_SUMMARY is set. */
export async function writeDiffOutput(
  report: DiffReport,
  options: DiffOutputOptions,
  context: DiffOutputContext,
  base: Omit<DiffFormatContext, "color">,
): Promise<void> {
  const render = async (format: DiffFormatName, color: DiffFormatContext["color"]): Promise<string> => {
    // The stylish report (the default, and the terminal's beside --output-file) loads its formatter alone, not the
    // others with the page's markdown renderer (bench/RESULTS.md, start-up).
    if (format === "stylish")
      return (await import("../formatters/diff-stylish.js")).formatDiffStylish(report, { ...base, color });
    if (format !== "html")
      return (await import("../formatters/diff.js")).diffFormatters[format](report, { ...base, color });
    const [{ collectDiffTexts }, { renderDiffPage }, { loadApprovals }] = await Promise.all([
      import("../node/diff/diff-texts.js"),
      import("../formatters/diff-html.js"),
      import("../node/diff/diff.js"),
    ]);
    const { texts, titles } = await collectDiffTexts(report, context.cwd);
    const approvals = options.approvals !== undefined ? await loadApprovals(options.approvals, context.cwd) : undefined;
    return renderDiffPage(report, { ...base, color, texts, titles, ...(approvals !== undefined ? { approvals } : {}) });
  };
  if (options.outputFile !== undefined) {
    const { refuseOverInputs, writeFileAtomic } = await import("../node/writes/write.js");
    const output = resolve(context.cwd, options.outputFile);
    refuseOverInputs(output, options.inputs, options.outputFile);
    // The terminal report first, so that a file that cannot be written does not hide it.
    context.stdout.write(
      await render("stylish", await colorAt(colorLevel(context.env, context.stdout.isTTY, options.color))),
    );
    await writeFileAtomic(output, await render(options.format, await colorAt(0)));
  } else {
    context.stdout.write(
      await render(
        options.format,
        await colorAt(options.format === "stylish" ? colorLevel(context.env, context.stdout.isTTY, options.color) : 0),
      ),
    );
  }
  if (!context.env.GITHUB_STEP_SUMMARY) return;
  const [{ appendStepSummary }, { diffStepSummary }] = await Promise.all([
    import("../node/writes/step-summary.js"),
    import("../formatters/step-summary.js"),
  ]);
  const warning = await appendStepSummary(context.env, () => diffStepSummary(report), options.inputs);
  if (warning !== undefined) context.stderr.write(`${warning}\n`);
}

/**
 * What to do about a failing gate, for standard error (the report is for standard output): how to let intended changes
 * through, and, with entries of the approvals file still placeholders, that their reasons are the step left (writing
 * the file again is not); editorial changes that fail, that --pass-editorial lets them pass. None when the gate passes.
 */
export function diffHints(report: DiffReport): string[] {
  if (report.summary.passed) return [];
  const placeholders = report.warnings.some((warning) => warning.includes(" has the placeholder reason "));
  const hints = [
    placeholders
      ? 'hint: replace each placeholder reason ("TODO: …") in the approvals file with why the change is right (e.g. the amending Act): an entry approves nothing until then (README, "Approvals"); --fail-on sets which changes fail'
      : 'hint: if these changes are intended (a section repealed, a subdivision renumbered), approve each in a reviewed JSON file (--write-approvals FILE writes one for you to fill in) and pass it with --approvals FILE (README, "Approvals"); --fail-on sets which changes fail',
  ];
  const editorial = report.pairs.some((pair) =>
    pair.changes.some((change) => isEditorial(change) && changeLevel(change, report) === "error"),
  );
  if (editorial)
    hints.push(
      "hint: the changes marked editorial only renumbered or reworded footnotes or changed white space: --pass-editorial lets them pass",
    );
  return hints;
}
