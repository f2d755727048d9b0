/**
 * `citation-targets view`: one dataset as one self-contained HTML page (docs/spec.md, section 17).
 * Registered on the program by `registerViewCommand`; problems are OperationalErrors (exit 2).
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { packageJson } from "./context.js";
import { parsePositive } from "./options.js";

export interface ViewCommandContext {
  cwd: string;
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

interface ViewCliOptions {
  output?: string;
  maxTextBytes?: number;
}

/** Adds the `view` command to the program. */
export function registerViewCommand(program: Command, context: ViewCommandContext): void {
  program
    .command("view")
    .summary("write one dataset as a self-contained HTML page (tree, texts, search)")
    .description(
      "Write one self-contained HTML page for a dataset file: its containers and targets as a tree in document order, each with its " +
        "citation address, heading and trail, its text on demand (rendered), and a search in the addresses, headings and texts. Styles and script are inline: the " +
        "page needs no network (docs/spec.md, section 17).",
    )
    .argument(
      "<dataset>",
      "the dataset: its JSONL file (<slug>.jsonl), its lock manifest, a markdown file or its folder, or its slug",
    )
    .option("-o, --output <file>", "write the page to FILE (atomically) instead of standard output")
    .option(
      "--max-text-bytes <n>",
      "the most bytes of text the page holds (default 16777216, 16 MiB); past it, the texts are left out and the tree and search kept",
      parsePositive,
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 written, 2 usage or I/O error.\n\nExamples:\n  citation-targets view .tooling/citation-targets/mvfg.jsonl -o mvfg.html",
    )
    .action(async (operand: string, options: ViewCliOptions) => {
      const { datasetJsonlOperand } = await import("./dataset-operand.js");
      const file = await datasetJsonlOperand(operand, context.cwd);
      const { pageChunks, viewDataset } = await import("../node/view/view.js");
      const result = await viewDataset({
        cwd: context.cwd,
        path: file,
        toolVersion: packageJson.version,
        ...(options.maxTextBytes !== undefined ? { maxTextBytes: options.maxTextBytes } : {}),
      });
      for (const warning of result.warnings) context.stderr.write(`${warning}\n`);
      if (options.output === undefined) {
        for (const chunk of pageChunks(result.pieces)) context.stdout.write(chunk);
        return;
      }
      const { refuseOverInputs, openAtomic } = await import("../node/writes/write.js");
      const { displayPath } = await import("../node/files/files.js");
      const { manifestBeside, manifestInputs, refuseOverOtherDataset } = await import("../node/writes/run-inputs.js");
      const output = resolve(context.cwd, options.output);
      // Never over the dataset's own files: its JSONL, and the lock manifest beside it with the markdown it pins (as
      // generate -o and diff -o refuse them).
      const jsonl = resolve(context.cwd, file);
      const manifest = manifestBeside(jsonl);
      refuseOverInputs(
        output,
        [
          { path: jsonl, what: "the dataset file" },
          ...(manifest === undefined ? [] : manifestInputs(manifest, displayPath(manifest, context.cwd))),
        ],
        options.output,
      );
      // Nor over another dataset's files: a lock manifest, a JSONL with its manifest beside it.
      refuseOverOtherDataset(output, undefined, undefined, options.output);
      // Written PAGE_CHUNK characters at a time, each piece made as it is asked for: a statute book's page (51 MB; 234
      // MB with its units) is never held whole, as text, as pieces or as bytes.
      const page = await openAtomic(output);
      try {
        for (const chunk of pageChunks(result.pieces)) await page.write(chunk);
        await page.commit();
      } catch (error) {
        await page.abort();
        throw error;
      }
      context.stderr.write(
        `wrote ${options.output} (${result.view.targets.length} ${result.view.targets.length === 1 ? "target" : "targets"})\n`,
      );
    });
}
