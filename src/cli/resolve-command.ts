/**
 * `citation-targets resolve`: citations as lawyers write them, each to its target (README, "resolve"; docs/spec.md,
 * section 19). Registered on the program by `registerResolveCommand`.
 */
import { type Command, Option } from "commander";
import type { ResolveResult } from "../core/resolve/resolve-index.js";
import { plural } from "../core/text.js";
import { OperationalError } from "../node/errors.js";
import type { CommandIo, MainContext } from "./context.js";

interface ResolveCliOptions {
  dataset?: string[];
  format: "text" | "json";
  exact?: boolean;
  cache: boolean;
  cacheLocation?: string;
}

/** One line per input: the input, an arrow, then the target (with its precision) or why there is none. */
export function resolveText(results: readonly ResolveResult[]): string {
  return results
    .map((r) => {
      const range = r.range ? ", range" : "";
      if (r.outcome === "match")
        return `${r.input} → ${r.citationAddress} (${r.precision}${range})${r.reason !== undefined ? `: ${r.reason}` : ""}\n`;
      if (r.outcome === "ambiguous")
        return `${r.input} → ambiguous${range}: ${r.reason}: ${r.candidates.map((c) => c.label).join(", ")}\n`;
      return `${r.input} → no match${range}: ${r.reason}\n`;
    })
    .join("");
}

/**
 * The JSON document: `{ "results": [ … ] }`, one entry per input in input order; with `"unreadable": [ … ]`, the lock
 * manifests left out, only when there are any.
 */
export function resolveJson(results: readonly ResolveResult[], unreadable?: readonly string[]): string {
  return `${JSON.stringify({ results, ...(unreadable !== undefined ? { unreadable } : {}) }, null, 2)}\n`;
}

/** The citations of the operands: each as given, or those on standard input (one per line, blank lines skipped) for `-`. */
async function citationsOf(operands: readonly string[], stdin: MainContext["stdin"]): Promise<string[]> {
  if (!operands.includes("-")) return [...operands];
  if (operands.length > 1)
    throw new OperationalError("- (citations on standard input) cannot be given with citations: name one or the other");
  if (!stdin) throw new OperationalError("no standard input to read");
  const chunks: Uint8Array[] = [];
  for await (const chunk of stdin) chunks.push(chunk);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new OperationalError("standard input: not UTF-8 text");
  }
  return text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
}

/** Adds the `resolve` command to the program. */
export function registerResolveCommand(
  program: Command,
  context: MainContext,
  { stdout, stderr, setExitCode }: CommandIo,
): void {
  program
    .command("resolve")
    .summary("find the targets of citations as lawyers write them (§ 823 Abs. 1 BGB, s 6(1)(a))")
    .description(
      "Read each citation as lawyers write it (§ 823 Abs. 1 S. 2 BGB, § 823 I 2 BGB, §§ 305 bis 310 BGB, Art. 6 Abs. 1 lit. a DSGVO, s 6(1)(a) Privacy Act 1988, article L. 121-1) and find its target in the datasets of the repository (or those named with --dataset): the law by its titleId, name, slug or an alias of its manifest, the provision by its designation, the units below it by their addresses. Each answer is a match (the unit itself, or its nearest enclosing target), ambiguous (the candidates) or no match (and why).",
    )
    .argument("<citation...>", "the citations, or - to read one citation per line from standard input")
    .option(
      "--dataset <dataset>",
      "resolve against this dataset only (its lock manifest, its JSONL, its folder or its slug; repeatable); a citation that names no law is then looked for in it",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json"]).default("text"))
    .option(
      "--exact",
      "exit 1 unless every citation's target is the one it names (an enclosing match, its unit not there, counts as not matched)",
    )
    .option("--no-cache", "neither read nor write the index cache")
    .option(
      "--cache-location <file>",
      "the index cache file (default node_modules/.cache/citation-targets/resolve.json of the repository, when it has a node_modules folder)",
    )
    .addHelpText(
      "after",
      '\nExit codes: 0 every citation matched, 1 any did not (ambiguous or no match, or a match whose unit may stand on a line of its JSONL that could not be read; with --exact, an enclosing match too), 2 usage or I/O error.\n\nExamples:\n  citation-targets resolve "§ 823 Abs. 1 S. 2 BGB" "Art. 8 Abs. 2 BV"\n  citation-targets resolve --dataset privacy-act-1988 "s 6(1)(a)" --format json\n  citation-targets resolve - < citations.txt',
    )
    .action(async (operands: string[], options: ResolveCliOptions) => {
      const citations = await citationsOf(operands, context.stdin);
      const { resolveCitations } = await import("../node/resolve/resolve.js");
      const report = await resolveCitations({
        citations,
        cwd: context.cwd,
        ...(options.dataset !== undefined ? { datasets: options.dataset } : {}),
        ...(options.cache === false
          ? { cache: false as const }
          : options.cacheLocation !== undefined
            ? { cache: options.cacheLocation }
            : {}),
      });
      for (const warning of report.warnings) stderr.write(`${warning}\n`);
      stdout.write(
        options.format === "json" ? resolveJson(report.results, report.unreadable) : resolveText(report.results),
      );
      // A dataset left out because its manifest cannot be read: the answers of the others are given, but none can be
      // trusted as the whole repository's (a citation of that law matched elsewhere, an ambiguity gone): exit 2.
      if (report.unreadable !== undefined) {
        stderr.write(
          `${plural(report.unreadable.length, "lock manifest")} could not be read, so ${report.unreadable.length === 1 ? "its dataset was" : "their datasets were"} left out and the results may be wrong (exit 2): fix ${report.unreadable.length === 1 ? "it" : "them"} (citation-targets validate says how), or name the datasets with --dataset\n`,
        );
        setExitCode(2);
      }
      // A match whose unit may stand on a line of its JSONL that could not be read (`incomplete`) is no sure answer:
      // not matched, as a no-match of that dataset is.
      else
        setExitCode(
          report.results.every(
            (r) => r.outcome === "match" && r.incomplete !== true && (options.exact !== true || r.precision === "unit"),
          )
            ? 0
            : 1,
        );
    });
}
