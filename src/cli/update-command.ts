/**
 * `citation-targets update` and `citation-targets adopt`: refresh lock manifests and regenerate their
 * JSONL, or bring a corpus under citation targets (both update's run). Registered on the program by
 * `registerUpdateCommand` and `registerAdoptCommand`.
 */
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { TEMPLATE_HELP } from "../core/lock/dataset-fields.js";
import { MANIFEST_DATASET_FIELDS } from "../core/model.js";
import { plural } from "../core/text.js";
import { OperationalError } from "../node/errors.js";
import { DEFAULT_MANIFEST_PATTERN, MANIFEST_FOLDER } from "../node/files/tooling-paths.js";
import { shellQuote } from "../core/text.js";
import {
  type CommandIo,
  datasetProgress,
  type MainContext,
  noteJobs,
  OUTSIDE_NOTE,
  onRunEnd,
  packageJson,
} from "./context.js";
import { CHECK_FORMATS, isFreshnessFormat } from "./freshness-formats.js";
import {
  type ArtifactCapOptions,
  artifactCaps,
  addCapOptions,
  allowOutsideOption,
  parsePositive,
  parseHost,
  pick,
} from "./options.js";
import type { DatasetUpdate } from "../node/update/update-dataset.js";
import { createProgressLine, progressEnabled } from "./progress.js";

/** Adds the `update` command to the program. */
export function registerUpdateCommand(
  program: Command,
  context: MainContext,
  { stdout, stderr, setExitCode }: CommandIo,
): void {
  /** What a writer notes on the way (a writer lock taken over), on stderr. */
  const note = (text: string) => stderr.write(`${text}\n`);
  addCapOptions(
    program
      .command("update")
      .summary("refresh lock manifests and regenerate their JSONL in one step")
      .description(
        `After amending the law: re-lock each dataset (new, renamed and deleted files, changed digests; kinds, order and ignores kept) and regenerate its JSONL (<name>.jsonl beside <name>.lock.json), then say what changed: artifacts, and records added, removed and changed by citation address. Atomic: on any error nothing is written. With no manifests, updates every ${DEFAULT_MANIFEST_PATTERN} of the repository.`,
      )
      .argument(
        "[datasets...]",
        "datasets: lock manifests, their JSONL, markdown files or folders of datasets (the tooling folder: all), or slugs",
      )
      .option("--check", "write no manifest or JSONL; exit 1 when anything would change (for CI)")
      .option(
        "--alias <key>",
        "a front matter key (e.g. jurabk) whose value becomes one of each manifest's aliases, the law's other names that resolve finds it by (repeatable)",
        (v: string, p: string[] = []) => [...p, v],
      )
      .option(
        "--staged",
        "only the datasets that what git has staged belongs to (lock manifests, JSONL, markdown; deletions too), for a pre-commit hook",
      )
      .option(
        "--jobs <n>",
        "worker threads (default: one per core; at most 4 per core): many datasets are spread over them whole, a few large ones artifact by artifact",
        parsePositive,
      )
      .option("--no-cache", "regenerate every dataset: do not use or write the cache")
      .option(
        "--units",
        'give the datasets targets for the units below the heading (Absatz, Nummer, Buchstabe; subsection, paragraph): their manifests\' "units": true, kept from then on',
      )
      .option(
        "--cache-location <file>",
        "the cache file (default node_modules/.cache/citation-targets/update.json of the repository, when it has node_modules)",
      ),
  )
    .addOption(allowOutsideOption())
    .option(
      "--recover",
      "only complete an update that was interrupted (its journal at the repository root): roll its renames forward, or back, then exit",
    )
    .option(
      "--version-date <date|template>",
      "a new version: set versionDate in every dataset named; with none named, in those whose markdown changed (YYYY-MM-DD, or a template such as '{front.stand}')",
    )
    .option(
      "--source-text-url <url|template>",
      "a new version: set sourceTextUrl (one manifest; for several, a template such as 'https://host/{front.slug}/2024-06-01')",
    )
    .option("--name <name|template>", "set the title's name (a law renamed by the amendment)")
    .addOption(
      new Option(
        "-f, --format <format>",
        "report format on stdout: text (default) or json (docs/spec.md, section 15); with --check, for CI: github, sarif, junit, gitlab",
      )
        .choices(CHECK_FORMATS)
        .default("text"),
    )
    .addHelpText(
      "after",
      `\nDatasets: a lock manifest, its JSONL, a markdown file or folder of a dataset (a folder holding datasets, the tooling folder: each of them), or a slug.\n\nA new published version: set --version-date (and --source-text-url); without them, when the markdown changed, the config's adopt.versionDate and adopt.sourceTextUrl templates fill them; update warns when the markdown changed and they did not. Templates: ${TEMPLATE_HELP}.\n\nExit codes: 0 up to date (or updated), 1 --check found changes or a dataset is at fault, 2 usage or I/O error.\n\nExamples:\n  citation-targets update\n  citation-targets update .tooling/citation-targets/privacy-act-1988.lock.json --version-date 2024-06-01 --source-text-url https://www.legislation.gov.au/C2004A03712/2024-06-01/text\n  citation-targets update ch/cc-2006-218\n  citation-targets update --check`,
    )
    .action(
      async (
        named: string[],
        options: {
          check?: boolean;
          staged?: boolean;
          jobs?: number;
          cache: boolean;
          cacheLocation?: string;
          recover?: boolean;
          units?: boolean;
          versionDate?: string;
          sourceTextUrl?: string;
          name?: string;
          alias?: string[];
          format: (typeof CHECK_FORMATS)[number];
        } & ArtifactCapOptions,
      ) => {
        if (options.allowOutsideRepository) stderr.write(OUTSIDE_NOTE);
        noteJobs(options.jobs, stderr);
        if (isFreshnessFormat(options.format) && !options.check)
          throw new OperationalError(
            `--format ${options.format} is the report of --check (for CI): add --check (citation-targets update --check --format ${options.format})`,
          );
        const [{ upToDate, update }, { displayPath }, { describeUpdates, updatesJson }, { warnLeftovers }] =
          await Promise.all([
            import("../node/update/update.js"),
            import("../node/files/files.js"),
            import("./dataset-reports.js"),
            import("./validate-notes.js"),
          ]);
        if (options.recover && (options.check || options.staged || named.length > 0))
          throw new OperationalError(
            "--recover only completes an interrupted update: name no manifests, --check or --staged with it",
          );
        // A check writes nothing into the folders it lists: each listing is kept for the run (folder-listing.ts).
        if (options.check) {
          const { endListings, keepListings } = await import("../node/files/folder-listing.js");
          keepListings();
          onRunEnd(endListings);
        }
        if (!options.check) {
          const { journalPath, recoverJournal } = await import("../node/writes/journal.js");
          const { withWriterLock } = await import("../node/writes/writer-lock.js");
          const journal = await journalPath(context.cwd);
          // One writer at a time: never beside a running update (writer-lock.ts).
          const recovered = await withWriterLock(context.cwd, "update --recover", note, () => recoverJournal(journal));
          if (recovered)
            stderr.write(
              `completed the interrupted update of ${displayPath(journal, context.cwd)}: ${plural(recovered.files, "file")} ${recovered.direction === "forward" ? "renamed into place (rolled forward)" : "restored as they were (rolled back)"}\n`,
            );
          else if (options.recover) stderr.write("no interrupted update to complete\n");
          if (options.recover) return;
        }
        let manifests = named;
        if (named.length > 0) {
          const { resolveDatasetOperands } = await import("../node/dataset/dataset-operands.js");
          manifests = await resolveDatasetOperands(named, context.cwd);
        }
        // The legislation host in force (the config's, else the default): a sourceTextUrl written on another host than
        // its dataset's is refused before anything is written (legislation-host.ts). An invalid config stops the run
        // here, before anything else (with --staged and nothing staged too).
        const inForce = await (await import("./host-in-force.js")).hostInForceHere(context.cwd);
        let stagedRoot: string | undefined;
        if (options.staged) {
          if (named.length > 0)
            throw new OperationalError("--staged chooses the datasets itself: name no manifests with it");
          const { stagedDatasets } = await import("../node/git/staged.js");
          // The manifests' dataset folders from their cache when update's is at its default place (roots-cache.ts).
          const staged = await stagedDatasets(context.cwd, {
            cache: options.cache !== false && options.cacheLocation === undefined,
          });
          stagedRoot = staged.root;
          manifests = staged.manifests.map((manifest) => displayPath(manifest, context.cwd));
          if (manifests.length === 0) {
            stderr.write("citation-targets: nothing staged belongs to a dataset: nothing to check\n");
            // A machine format is one document however little is checked: a CI parser, or a report file, reads it.
            if (isFreshnessFormat(options.format)) {
              const { updateFreshness } = await import("./freshness-output.js");
              stdout.write(await updateFreshness(options.format, [], upToDate, context.cwd, packageJson.version));
            } else if (options.format === "json") stdout.write(updatesJson("update", [], options.check === true));
            return;
          }
        }
        const set = pick(options, ["versionDate", "sourceTextUrl", "name"]);
        const progress = progressEnabled(context.env, context.stderr.isTTY)
          ? createProgressLine((text) => context.stderr.write(text))
          : undefined;
        const updateOptions = {
          manifests,
          hostInForce: inForce,
          onNote: note,
          configTemplates: true,
          units: options.units, // with aliasKeys, as given: update writes only what is set (manifest-options.ts)
          aliasKeys: options.alias,
          ...(Object.keys(set).length > 0 ? { set } : {}),
          // No dataset named: a new version's date and address go to the datasets whose markdown changed.
          ...(named.length === 0 ? { versionOnlyIfChanged: true } : {}),
          ...datasetProgress(progress, "updating"),
          ...(options.cache === false
            ? { cache: false as const }
            : options.cacheLocation !== undefined
              ? { cache: options.cacheLocation }
              : {}),
          cwd: context.cwd,
          ...(options.check ? { check: true } : {}),
          ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
          ...artifactCaps(options),
        };
        /** With --check --staged: what the commit holds is checked (staged-index.ts), and what to stage is known. */
        let stage = new Map<string, string[]>();
        let results: DatasetUpdate[];
        if (options.check && stagedRoot !== undefined) {
          const { checkStaged } = await import("../node/git/staged-index.js");
          ({ results, stage } = await checkStaged(
            stagedRoot,
            manifests.map((manifest) => resolve(context.cwd, manifest)),
            context.cwd,
            updateOptions,
            update,
          ));
        } else results = await update(updateOptions);
        progress?.done();
        // A new version's fields that no dataset took (none named, none changed): said, never silently dropped.
        const versionFlags = (["versionDate", "sourceTextUrl"] as const).filter((field) => set[field] !== undefined);
        if (
          named.length === 0 &&
          versionFlags.length > 0 &&
          results.length > 0 &&
          !results.some(
            (r) =>
              r.fields.some((f) => (versionFlags as readonly string[]).includes(f.field)) ||
              versionFlags.some((field) => r[field] === set[field]), // already that version (a value, not a template)
          )
        )
          stderr.write(
            `note: ${versionFlags.map((f) => (f === "versionDate" ? "--version-date" : "--source-text-url")).join(" and ")} reached no dataset: with none named, they go to the datasets whose markdown changed since their lock manifest, or (in a git repository) whose manifest was locked since the last commit and not dated yet, and none was; name the datasets of the new version (citation-targets update SLUG … ${versionFlags.map((f) => (f === "versionDate" ? "--version-date …" : "--source-text-url …")).join(" ")})\n`,
          );
        if (options.check)
          warnLeftovers(
            stderr,
            results.flatMap((r) => [r.manifest, r.output]),
            context.cwd,
          );
        if (isFreshnessFormat(options.format)) {
          const { updateFreshness } = await import("./freshness-output.js");
          stdout.write(await updateFreshness(options.format, results, upToDate, context.cwd, packageJson.version));
        } else if (options.format === "json") stdout.write(updatesJson("update", results, options.check === true));
        else {
          stdout.write(`${describeUpdates(results, options.check === true).join("\n")}\n`);
          for (const warning of results.flatMap((r) => r.warnings)) stderr.write(`warning: ${warning}\n`);
        }
        if (options.check && results.some((r) => !upToDate(r))) {
          const staleResults = results.filter((r) => !upToDate(r));
          // The hint keeps the run's own flags (a new version's fields), so that the command it gives does what was meant.
          const flags = (
            [
              ["--version-date", options.versionDate],
              ["--source-text-url", options.sourceTextUrl],
              ["--name", options.name],
            ] as const
          )
            .flatMap(([flag, value]) => (value === undefined ? [] : [` ${flag} ${shellQuote(value)}`]))
            .concat(
              options.units ? [" --units"] : [],
              (options.alias ?? []).map((key) => ` --alias ${shellQuote(key)}`),
            );
          if (options.staged) {
            // What the commit holds is stale: stage what the working tree holds regenerated, else regenerate and stage.
            const stageable = staleResults.filter((r) => stage.has(r.manifest));
            const rest = staleResults.filter((r) => !stage.has(r.manifest));
            const add = (paths: string[]) => `\`git add ${paths.map(shellQuote).join(" ")}\``;
            if (stageable.length > 0)
              stderr.write(
                `not staged: the working tree holds ${stageable.length === 1 ? "this dataset" : "these datasets"} regenerated, but the commit does not: stage ${stageable.length === 1 ? "it" : "them"}: ${add(stageable.flatMap((r) => stage.get(r.manifest)!))}\n`,
              );
            if (rest.length > 0)
              stderr.write(
                `not up to date: run \`citation-targets update${rest.map((r) => ` ${shellQuote(r.manifest)}`).join("")}${flags.join("")}\` to refresh and regenerate, then stage the files: ${add(rest.flatMap((r) => [r.manifest, r.output]))}\n`,
              );
          } else {
            const stale = named.length > 0 ? staleResults.map((r) => ` ${shellQuote(r.manifest)}`) : [];
            stderr.write(
              `not up to date: run \`citation-targets update${stale.join("")}${flags.join("")}\` to refresh and regenerate\n`,
            );
          }
          setExitCode(1);
        }
      },
    );
}

/** Adds the `adopt` command to the program. */
export function registerAdoptCommand(
  program: Command,
  context: MainContext,
  { stdout, stderr, setExitCode }: CommandIo,
): void {
  /** What a writer notes on the way (a writer lock taken over), on stderr. */
  const note = (text: string) => stderr.write(`${text}\n`);
  addCapOptions(
    program
      .command("adopt")
      .summary("lock and generate a whole corpus: one dataset per folder (or markdown file), fields from front matter")
      .description(
        `Bring many dataset folders under citation targets in one command: for each folder, its fields are filled from templates (the folder's name and path, and the front matter of its index.md), and its lock manifest and JSONL are written to ${MANIFEST_FOLDER}/<slug>.lock.json and <slug>.jsonl at the repository root. A markdown file, or a glob ending in .md ('ch/*.md'), is a dataset of one file. A dataset's legislationHost (--legislation-host, else its config section's) is written into its manifest when it is not the host in force, and a sourceTextUrl on another host than its dataset's is refused. All or nothing: every fault of every folder is named, and then nothing is written. Rerun, it refreshes what it wrote, keeping each adopted dataset's fields (templates are needed only for folders not adopted yet).`,
      )
      .argument(
        "[datasets...]",
        "dataset folders, markdown files (one dataset each), or globs of them (e.g. 'laws/*', 'ch/*.md'); default: adopt.datasets of the config",
      )
      .option(
        "--slug <template>",
        "default: '{front.slug|slug}' when the front matter has a slug (and the folder's files agree on it), else '{folder|slug}'",
      )
      .option("--title-id <template>", "e.g. '{front.jurabk}'")
      .option("--name <template>", "e.g. '{front.Title}'")
      .option("--version-date <date|template>", "e.g. 2024-06-01 or '{front.stand}'")
      .option(
        "--source-text-url <template>",
        "e.g. 'https://www.gesetze-im-internet.de/{front.slug}/' (values are percent-encoded)",
      )
      .option(
        "--legislation-host <host>",
        "the host the source text URLs are on, when it is not the config's legislationHost (or the default): written in each manifest, so that validate checks the dataset against it",
        parseHost,
      )
      .option("--check", "write nothing; exit 1 when anything would be written")
      .option(
        "--units",
        'give the datasets targets for the units below the heading (Absatz, Nummer, Buchstabe; subsection, paragraph): their manifests\' "units": true (the config: adopt.units)',
      )
      .option(
        "--alias <key>",
        "a front matter key (e.g. jurabk) whose value becomes one of each manifest's aliases, the law's other names that resolve finds it by (repeatable; default: adopt.aliases of the config; with --units and neither, the keys jurabk, amtabk, abbreviation and shortTitle)",
        (v: string, p: string[] = []) => [...p, v],
      )
      .option(
        "--move",
        "the folders were moved (git mv): repoint the lock manifest each belongs to (its dataset folder gone, its artifacts here), keeping its slug and addresses",
      )
      .addOption(
        new Option(
          "-f, --format <format>",
          "report format on stdout: text (default) or json (docs/spec.md, section 15)",
        )
          .choices(["text", "json"])
          .default("text"),
      )
      .option("--config <file>", "read adopt's templates from this config file (default: the one validate finds)")
      .option("--no-config", "read no config file")
      .option("--jobs <n>", "worker threads (default: one per core)", parsePositive)
      .option("--no-cache", "do not use or write update's cache")
      .addOption(allowOutsideOption()),
  )
    .addHelpText(
      "after",
      `\nTemplates: ${TEMPLATE_HELP}. A flag wins over the config's adopt.<field>.\n\nExit codes: 0 adopted (or, with --check, nothing to write), 1 --check found something to write or a folder is at fault, 2 usage or I/O error.\n\nExamples:\n  citation-targets adopt 'laws/*' --title-id '{front.jurabk}' --name '{front.Title}' --version-date 2024-06-01 --source-text-url 'https://www.gesetze-im-internet.de/{front.slug}/' --legislation-host www.gesetze-im-internet.de\n  citation-targets adopt 'ch/*.md' --title-id '{front.sr_number}' --name '{front.title}' --version-date '{front.version_date}' --source-text-url 'https://www.fedlex.admin.ch/eli/{front.eli}/de' --legislation-host www.fedlex.admin.ch\n  citation-targets adopt            (folders and templates from the config's "adopt": one section, or an array of them)`,
    )
    .action(
      async (
        named: string[],
        options: {
          slug?: string;
          titleId?: string;
          name?: string;
          versionDate?: string;
          sourceTextUrl?: string;
          legislationHost?: string;
          check?: boolean;
          move?: boolean;
          units?: boolean;
          alias?: string[];
          format: "text" | "json";
          config?: string | boolean;
          jobs?: number;
          cache: boolean;
        } & ArtifactCapOptions,
      ) => {
        if (options.allowOutsideRepository) stderr.write(OUTSIDE_NOTE);
        noteJobs(options.jobs, stderr);
        const templates = pick(options, [...MANIFEST_DATASET_FIELDS]);
        const [
          { adopt },
          { adoptWithConfig },
          { displayPath },
          { adoptText, updatesJson },
          { manifestsIn, warnTwins },
        ] = await Promise.all([
          import("../node/update/adopt.js"),
          import("../node/config/library-config.js"),
          import("../node/files/files.js"),
          import("./dataset-reports.js"),
          import("./validate-notes.js"),
        ]);
        const progress = progressEnabled(context.env, context.stderr.isTTY)
          ? createProgressLine((text) => context.stderr.write(text))
          : undefined;
        const result = await adoptWithConfig(adopt, {
          datasets: named,
          templates,
          config: options.config ?? true,
          ...(options.legislationHost !== undefined ? { legislationHost: options.legislationHost } : {}),
          onNote: note,
          cwd: context.cwd,
          ...(options.check ? { check: true } : {}),
          ...(options.move ? { move: true } : {}),
          units: options.units, // with aliasKeys, as given: update writes only what is set (manifest-options.ts)
          aliasKeys: options.alias,
          ...(options.cache === false ? { cache: false as const } : {}),
          ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
          ...artifactCaps(options),
          ...datasetProgress(progress, "adopting"),
        });
        progress?.done();
        const changed = result.updates.filter((r) => r.manifestChanged || r.outputChanged);
        if (options.format === "json") stdout.write(updatesJson("adopt", result.updates, options.check === true));
        else {
          stdout.write(
            adoptText(result.updates, displayPath(result.folder, context.cwd) || ".", options.check === true),
          );
          for (const warning of result.updates.flatMap((r) => r.warnings)) stderr.write(`warning: ${warning}\n`);
        }
        if (!options.check) warnTwins(stderr, manifestsIn(result.folder), context.cwd);
        if (result.gitattributes.length > 0)
          stderr.write(
            `${options.check ? "would add" : "added"} ${plural(result.gitattributes.length, "line")} to .gitattributes (\`-text\`: git keeps the line endings of the pinned markdown and of the JSONL as committed, CR LF never)\n`,
          );
        if (result.gitattributesRemoved !== undefined) {
          const lines = result.gitattributesRemoved;
          // A folder's line ends in `/** -text`; a one-file law's names its file.
          const folders = lines.filter((line) => line.endsWith("/** -text")).length;
          const places = folders === lines.length ? "folder" : folders === 0 ? "file" : "folder and file";
          stderr.write(
            `${options.check ? "would remove" : "removed"} the .gitattributes ${lines.length === 1 ? "line" : "lines"} of the ${places}${lines.length === 1 ? "" : "s"} moved from: ${lines.join(", ")}\n`,
          );
        }
        // A one-file law's file renamed on the way: its name is in every address, so they change; say so plainly.
        for (const { slug, from, to, root } of result.renamed ?? [])
          stderr.write(
            `${slug}: its file ${from} was renamed (now ${displayPath(root, context.cwd)}${to !== undefined && !root.endsWith(".md") ? `/${to}` : ""}): its addresses ${options.check ? "would change" : "changed"} with it, ${slug}/${from}#… now ${to !== undefined ? `${slug}/${to}#…` : "under the folder's files"} (the records added and removed above; \`citation-targets diff --against HEAD\` shows them as breaking, each with its likely move)\n`,
          );
        if (options.check && changed.length > 0) setExitCode(1);
      },
    );
}
