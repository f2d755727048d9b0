/**
 * `citation-targets lock`: write or refresh a dataset's lock manifest. Registered on the program by
 * `registerLockCommand`.
 */
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { DEFAULT_MANIFEST_NAME } from "../core/lock/manifest-name.js";
import {
  type ArtifactKind,
  type IndexKind,
  MANIFEST_DATASET_FIELDS,
  MARKDOWN_ARTIFACT_KINDS,
  SOURCE_INDEX_KINDS,
} from "../core/model.js";
import { describeIoError, OperationalError } from "../node/errors.js";
import { MANIFEST_FOLDER } from "../node/files/tooling-paths.js";
import { shellQuote } from "../core/text.js";
import type { CommandIo, MainContext } from "./context.js";
import { capOption, collectPair, parseHost, pick } from "./options.js";

/** Adds the `lock` command to the program. */
export function registerLockCommand(
  program: Command,
  context: MainContext,
  { stdout, stderr, setExitCode }: CommandIo,
): void {
  program
    .command("lock")
    .summary("write or refresh a dataset's lock manifest")
    .description(
      "Walk a dataset directory of markdown files and write its lock manifest: the dataset fields, every artifact in document order with the sha256 of its bytes, and datasetDigest. Rerun, it refreshes the digests and keeps kinds, index kinds and the order set before. Order: index.md (then README.md) first in each folder, then names in natural order; or --order FILE.",
    )
    .argument("<datasetDir>", "the dataset root")
    .option("--slug <slug>", "dataset slug (the JSONL is named <slug>.jsonl)")
    .option("--title-id <id>", "the legal title's identifier")
    .option("--name <name>", 'the title\'s name, e.g. "Privacy Act 1988"')
    .option("--version-date <date>", "the version's date, YYYY-MM-DD")
    .option("--source-text-url <url>", "https address of the published text")
    .option(
      "--legislation-host <host>",
      "the host --source-text-url is on, when it is not the config's legislationHost (or the default): written in the manifest, so that validate checks this dataset's records against it",
      parseHost,
    )
    .option(
      "-o, --output <file>",
      `where to write the manifest (default: <datasetDir>/${DEFAULT_MANIFEST_NAME} when it is there; else, in a git repository, ${MANIFEST_FOLDER}/<slug>.lock.json at its root; else <datasetDir>/${DEFAULT_MANIFEST_NAME}); away from the dataset, datasetRoot records the way back`,
    )
    .option("--order <file>", "explicit document order: a text file with every artifact path, one per line")
    .option(
      "--kind <path=kind>",
      `an artifact's kind: ${MARKDOWN_ARTIFACT_KINDS.join(", ")} (repeatable)`,
      collectPair(MARKDOWN_ARTIFACT_KINDS),
    )
    .option(
      "--index-kind <path=kind>",
      `an artifact's index kind: ${SOURCE_INDEX_KINDS.join(", ")} (repeatable)`,
      collectPair(SOURCE_INDEX_KINDS),
    )
    .option("--source-document <path=source>", "an artifact's sourceDocumentPath (repeatable)", collectPair())
    .option("--ignore <glob>", "markdown files that are not artifacts (repeatable)", (v: string, p: string[] = []) => [
      ...p,
      v,
    ])
    .option(
      "--units",
      'give the dataset targets for the units below the heading (Absatz, Nummer, Buchstabe; subsection, paragraph): the manifest\'s "units": true, kept from then on',
    )
    .option(
      "--alias <key>",
      "a front matter key (e.g. jurabk) whose value becomes one of the manifest's aliases, the law's other names that resolve finds it by (repeatable; read again on each run that names it)",
      (v: string, p: string[] = []) => [...p, v],
    )
    .option("--check", "write nothing; exit 1 when the manifest is missing or not up to date")
    .addOption(
      new Option(
        "-f, --format <format>",
        "report format on stdout: text (default: on stderr) or json (docs/spec.md, section 15)",
      )
        .choices(["text", "json"])
        .default("text"),
    )
    .addOption(capOption("maxArtifactBytes"))
    .addHelpText(
      "after",
      `\nFields: --slug lowercase a-z0-9 groups joined by hyphens; --version-date a real date YYYY-MM-DD; --source-text-url https://host/path (a path after the host); --title-id and --name not empty.\nFor a whole corpus at once, see \`citation-targets adopt --help\`.\n\nExit codes: 0 written (or, with --check, up to date), 1 --check found the manifest stale or the dataset is at fault (a non-UTF-8 file, a folder out of order), 2 usage or I/O error (a file that cannot be read: a FIFO, a link out of the folder, permission denied).\n\nExamples:\n  citation-targets lock laws/privacy-act --slug privacy-act-1988 --title-id C2004A03712 --name "Privacy Act 1988" --version-date 2024-06-01 --source-text-url https://www.legislation.gov.au/C2004A03712/latest/text\n  citation-targets lock laws/privacy-act --check`,
    )
    .action(async (dir: string, options: LockCliOptions) => {
      const order = options.order ? await readOrderFile(resolve(context.cwd, options.order), options.order) : undefined;
      const [{ lock }, { displayPath }, { lockJson, lockText }] = await Promise.all([
        import("../node/dataset/lock.js"),
        import("../node/files/files.js"),
        import("./dataset-reports.js"),
      ]);
      const { hostProblems, manifestHost } = await import("../node/config/legislation-host.js");
      const inForce = await (await import("./host-in-force.js")).hostInForceHere(context.cwd);
      const host = manifestHost(options.legislationHost, inForce);
      const result = await lock({
        // The manifest's optional members, as given (lock writes only those set: manifest-options.ts).
        legislationHost: host,
        units: options.units,
        aliasKeys: options.alias,
        dir,
        onNote: (text) => stderr.write(`${text}\n`),
        cwd: context.cwd,
        kinds: (options.kind ?? {}) as Record<string, ArtifactKind>, // the repeatable options have no default, so that --help shows none
        indexKinds: (options.indexKind ?? {}) as Record<string, IndexKind>,
        sourceDocumentPaths: options.sourceDocument ?? {},
        ignore: options.ignore ?? [],
        ...(options.output ? { output: options.output } : {}),
        ...(order ? { order } : {}),
        ...(options.check ? { check: true } : {}),
        ...(options.maxArtifactBytes !== undefined ? { maxArtifactBytes: options.maxArtifactBytes } : {}),
        ...pick(options, [...MANIFEST_DATASET_FIELDS]),
      });
      const shown = displayPath(result.path, context.cwd);
      // A sourceTextUrl written on another host than its dataset's: warned of (update and adopt refuse it), in the same
      // words (legislation-host.ts).
      const { previous, manifest } = result;
      if (
        previous === undefined ||
        previous.sourceTextUrl !== manifest.sourceTextUrl ||
        previous.legislationHost !== manifest.legislationHost
      )
        for (const warning of hostProblems([manifest], inForce, "lock")) stderr.write(`warning: ${warning}\n`);
      if (options.format === "json") {
        stdout.write(lockJson(result, shown, options.check === true, result.previous));
        if (options.check) setExitCode(result.changed ? 1 : 0);
        return;
      }
      const refresh = ["citation-targets", ...context.argv.filter((arg) => arg !== "--check")]
        .map(shellQuote)
        .join(" ");
      stderr.write(lockText(result, shown, options.check === true, refresh));
      if (options.check) setExitCode(result.changed ? 1 : 0);
    });
}

interface LockCliOptions {
  slug?: string;
  titleId?: string;
  name?: string;
  versionDate?: string;
  sourceTextUrl?: string;
  legislationHost?: string;
  output?: string;
  order?: string;
  kind?: Record<string, string>;
  indexKind?: Record<string, string>;
  sourceDocument?: Record<string, string>;
  ignore?: string[];
  units?: boolean;
  alias?: string[];
  check?: boolean;
  format: "text" | "json";
  maxArtifactBytes?: number;
}

/** An order file: one artifact path per line; blank lines and `#` comments ignored. */
async function readOrderFile(path: string, shown: string): Promise<string[]> {
  let text: string;
  try {
    const { readRegularFileSync } = await import("../node/files/regular-file.js");
    text = readRegularFileSync(path).toString("utf8");
  } catch (error) {
    throw new OperationalError(describeIoError(error, "read order file", shown));
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
