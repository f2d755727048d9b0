/**
 * `adopt`: a whole corpus under citation targets in one command (README, "Adopting a corpus";
 * docs/spec.md, "Field templates"). Each dataset folder's fields come from templates filled from
 * the folder and its front matter; every manifest and JSONL is written by `update`'s machinery
 * (one pool, all or nothing, every fault named) into `.tooling/citation-targets/`.
 */
import { layerManifestOptions } from "../dataset/manifest-options.js";
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative as relativePath, sep } from "node:path";
import {
  checkDatasetFields,
  type DatasetFields,
  fillTemplate,
  TEMPLATE_HELP,
  type TemplateContext,
  TemplateError,
} from "../../core/lock/dataset-fields.js";
import { DatasetError } from "../../core/errors.js";
import { DEFAULT_MANIFEST_NAME } from "../../core/lock/manifest.js";
import { MANIFEST_DATASET_FIELDS } from "../../core/model.js";
import { comparePaths } from "../../core/address/natural-sort.js";
import { detached, frontDocument, readFrontMatter, templateContext } from "../dataset/dataset-context.js";
import { listDatasetFiles } from "../dataset/dataset-files.js";
import { isFileRoot, rootPresent } from "../dataset/dataset-root.js";
import { hostInForce, hostProblems, manifestHost } from "../config/legislation-host.js";
import { namedList, shellQuote } from "../../core/text.js";
import { type AdoptSection, coveringSection, datasetRoots } from "./adopt-sections.js";
import { OperationalError } from "../errors.js";
import { withOutsideReads } from "../files/regular-file.js";
import { displayPath, findRepositoryRoot, isInside } from "../files/files.js";
import { FLAG } from "../dataset/lock.js";
import { datasetRootOf, MANIFEST_FOLDER } from "../files/files.js";
import { type AdoptedDataset, update, type UpdateOptions } from "./update.js";
import type { DatasetUpdate } from "./update-dataset.js";
import { JOURNAL_NAME } from "../writes/journal.js";
import { readRegularFileSync } from "../files/regular-file.js";
import { writeFileAtomic } from "../writes/write.js";
import { noteOf, WRITER_LOCK_NAME, withWriterLock } from "../writes/writer-lock.js";
import { addGitattributes, gitattributesLines, removeGitattributes } from "./gitattributes.js";
import { orphanedManifests, ownersOf } from "./move-dataset.js";

export interface AdoptOptions extends Omit<UpdateOptions, "manifests" | "datasets" | "set"> {
  /**
   * Dataset roots: folders, markdown files (a dataset of one file), or globs of them (relative to cwd); none: those of
   * the `sections`.
   */
  datasets: string[];
  /**
   * A template (or value) per field, over the section's; slug defaults to the front matter's `slug`, else the folder
   * name (or the file's, without `.md`) as a slug.
   */
  templates: Partial<DatasetFields>;
  /** The host the datasets' sourceTextUrl is on, over the section's (written in the manifest when it is not in force). */
  legislationHost?: string;
  /**
   * The config's `adopt` sections (adopt-sections.ts): each dataset root takes the templates and host of the section
   * that names it (of the only one, when there is one); with no `datasets`, each section's datasets are adopted.
   * @internal Not of the library's API: filled from the config (`config: true`).
   */
  sections?: AdoptSection[];
  /**
   * The folders are datasets moved (`git mv`): each repoints the orphaned manifest it belongs to (the one whose dataset
   * folder is not there and whose every artifact is in it; for a one-file law, move-dataset.ts), keeping its slug,
   * fields and addresses (a one-file law's file renamed on the way: its addresses change). No templates.
   */
  move?: boolean;
}

export interface AdoptResult {
  updates: DatasetUpdate[];
  /** Where the manifests and JSONL went. */
  folder: string;
  /**
   * The lines added to the repository's `.gitattributes` (with --check: those it would add), so that git never
   * converts the line endings of what the manifests pin (gitattributes.ts).
   */
  gitattributes: string[];
  /** adopt --move: the lines of the folders the datasets left, removed from `.gitattributes` (with --check: to remove). */
  gitattributesRemoved?: string[];
  /**
   * adopt --move: the one-file laws whose file was renamed on the way (`gg.md` to `gg/index.md`), by slug: their
   * addresses start `<slug>/<to>#` now, no longer `<slug>/<from>#` (`to` unknown when the file was told by the folder's
   * name alone and the folder holds several).
   */
  renamed?: { slug: string; from: string; to?: string; root: string }[];
}

/**
 * The default slug template: the front matter's `slug` when it has one, else the folder's (or file's) name made a
 * slug. A folder whose documents' front matter give different slugs (a statute book of many laws kept as one dataset)
 * takes the folder's name: the first law's slug would name the whole book.
 */
async function slugTemplate(
  dir: string,
  fileRoot: boolean,
  context: TemplateContext,
  maxFrontMatterBytes: number | undefined,
): Promise<string> {
  if (context.front === undefined || typeof context.front.slug !== "string") return "{folder|slug}";
  if (!fileRoot && (await titlesOfFiles(dir, "{front.slug}", context, maxFrontMatterBytes)).size > 1)
    return "{folder|slug}";
  return "{front.slug|slug}";
}

/** The manifests of the tooling folder by the dataset folder (absolute) their datasetRoot points to. */
function manifestsByRoot(folder: string): Map<string, string> {
  const byRoot = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".lock.json"));
  } catch {
    return byRoot;
  }
  for (const name of names.sort()) {
    const root = datasetRootOf(join(folder, name));
    if (root !== undefined && !byRoot.has(root)) byRoot.set(root, join(folder, name));
  }
  return byRoot;
}

/**
 * The adopted datasets whose roots are there, for nestedDataset: each root with its manifest, and each folder above a
 * root with one root below it. Made once a run: a look-up is then a walk up the folder's own path, never a pass over
 * the datasets (thousands of them).
 */
interface KnownRoots {
  roots: Map<string, string>;
  above: Map<string, string>;
}

function knownRoots(known: ReadonlyMap<string, string>): KnownRoots {
  const roots = new Map<string, string>();
  const above = new Map<string, string>();
  for (const [root, manifest] of known) {
    if (!rootPresent(root)) continue;
    roots.set(root, manifest);
    for (let up = dirname(root); up !== dirname(up) && !above.has(up); up = dirname(up)) above.set(up, root);
  }
  return { roots, above };
}

/**
 * An adopted dataset (its folder and manifest) that the folder holds or stands in, other than the folder itself (a
 * dataset root that is there: a moved one is for adopt --move).
 */
function nestedDataset(dir: string, known: KnownRoots): [string, string] | undefined {
  const inside = known.above.get(dir);
  if (inside !== undefined) return [inside, known.roots.get(inside)!];
  for (let up = dirname(dir); up !== dirname(up); up = dirname(up)) {
    const manifest = known.roots.get(up);
    if (manifest !== undefined) return [up, manifest];
  }
  return undefined;
}

/**
 * adopt --move of a folder that is a dataset's already (a manifest of the tooling folder has it as its datasetRoot):
 * said so, with update to refresh it; undefined when none has.
 */
function alreadyDataset(dir: string, folder: string, cwd: string): string | undefined {
  const manifest = manifestsByRoot(folder).get(dir);
  if (manifest === undefined) return undefined;
  const shown = displayPath(manifest, cwd);
  return `${displayPath(dir, cwd) || "."}: it is the dataset folder of ${shown} already: nothing to move (citation-targets update ${shellQuote(shown)} refreshes it)`;
}

/**
 * Whether a dataset moved from `root` to `dir` keeps its addresses: a folder's artifact paths are relative to it, but a
 * one-file law's file name is in each (docs/spec.md, "One-file datasets"): kept while the file has its name there.
 */
function addressesKept(root: string, dir: string): boolean {
  if (!isFileRoot(root)) return true;
  const name = basename(root);
  return isFileRoot(dir) ? basename(dir) === name : statSync(join(dir, name), { throwIfNoEntry: false }) !== undefined;
}

/** A manifest's datasetRoot for a dataset folder: the folder relative to the manifest's, POSIX. */
function relativeRoot(manifest: string, dir: string): string {
  return relativePath(dirname(manifest), dir).split(sep).join("/");
}

/**
 * adopt --move: each folder repoints the one orphaned manifest it belongs to (move-dataset.ts), then update re-locks
 * and regenerates it from there; all or nothing, every fault named.
 */
async function moveFolders(
  folders: string[],
  folder: string,
  repository: string,
  cwd: string,
  rest: Omit<AdoptOptions, "datasets" | "templates" | "onProgress" | "move">,
  onProgress: AdoptOptions["onProgress"],
): Promise<AdoptResult> {
  const orphans = orphanedManifests(folder);
  const problems: string[] = [];
  const moved: { manifest: string; dir: string; fields: Partial<DatasetFields>; move: boolean }[] = [];
  const renamed: { manifest: string; from: string; to?: string; root: string }[] = [];
  const taken = new Set<string>();
  for (const dir of folders) {
    const shown = displayPath(dir, cwd) || ".";
    const owners = ownersOf(dir, orphans).filter((o) => !taken.has(o.manifest));
    if (owners.length !== 1) {
      problems.push(
        owners.length === 0
          ? (alreadyDataset(dir, folder, cwd) ??
              `${shown}: no lock manifest in ${displayPath(folder, cwd)} ${
                isFileRoot(dir)
                  ? "is of a one-file law whose file is gone and is this one (the same name, the same bytes, or moved into a folder named after it)"
                  : "has its dataset folder gone and every artifact in it, nor is of a one-file law moved into it"
              }: nothing to move (adopt it without --move as a new dataset, or repoint a manifest with \`citation-targets lock ${shellQuote(shown)} -o MANIFEST\`)`)
          : `${shown}: more than one lock manifest could be its own (${owners.map((o) => displayPath(o.manifest, cwd)).join(", ")}): repoint one with \`citation-targets lock ${shown} -o MANIFEST\``,
      );
      continue;
    }
    const { manifest, renamed: rename } = owners[0]!;
    taken.add(manifest);
    moved.push({ manifest, dir, fields: {}, move: true });
    if (rename !== undefined) renamed.push({ manifest, ...rename, root: dir });
  }
  if (problems.length > 0) throw new DatasetError(problems);
  // The folders the moved manifests leave: their `.gitattributes` lines go, unless an orphan not moved still names one.
  const rootOf = (manifest: string) => datasetRootOf(manifest);
  const left = new Set(moved.map(({ manifest }) => rootOf(manifest)).filter((root) => root !== undefined));
  for (const orphan of orphans) if (!taken.has(orphan.manifest)) left.delete(rootOf(orphan.manifest) ?? "");
  const updates = await update({ ...rest, cwd, datasets: moved, ...(onProgress ? { onProgress } : {}) });
  const gitattributes = await addGitattributes(
    repository,
    gitattributesLines(repository, folders),
    rest.check === true,
  );
  const stale = gitattributesLines(repository, [...left]).slice(1); // not the tooling folder's line
  const gitattributesRemoved = await removeGitattributes(repository, stale, rest.check === true);
  return {
    updates,
    folder,
    gitattributes,
    ...(gitattributesRemoved.length > 0 ? { gitattributesRemoved } : {}),
    ...(renamed.length > 0
      ? {
          renamed: renamed.map(({ manifest, ...rename }) => ({
            slug: updates.find((u) => u.manifest === displayPath(manifest, cwd))!.slug,
            ...rename,
          })),
        }
      : {}),
  };
}

/** Writes (or, with `check`, computes) a manifest and a JSONL for every dataset folder named; all or nothing. */
export async function adopt(options: AdoptOptions): Promise<AdoptResult> {
  return withOutsideReads(options.allowOutsideRepository, () => adoptConfined(options));
}

async function adoptConfined(options: AdoptOptions): Promise<AdoptResult> {
  const cwd = options.cwd ?? process.cwd();
  if (options.check) return adoptLocked(options, cwd);
  // One writer at a time (writer-lock.ts), from the first look at the tooling folder to the last rename.
  return withWriterLock(cwd, "adopt", noteOf(options), () => adoptLocked(options, cwd));
}

async function adoptLocked(options: AdoptOptions, cwd: string): Promise<AdoptResult> {
  const { datasets: patterns, templates, legislationHost, sections = [], onProgress, move, ...rest } = options;
  // Each dataset root with the section it takes (adopt-sections.ts).
  const chosen: { root: string; section: AdoptSection | undefined }[] = [];
  if (patterns.length > 0) {
    const expanded = new Map<AdoptSection, Set<string>>();
    for (const root of await datasetRoots(patterns, cwd))
      chosen.push({ root, section: await coveringSection(sections, root, cwd, expanded) });
  } else {
    const seen = new Set<string>();
    for (const section of sections)
      for (const root of await datasetRoots(section.datasets, cwd))
        if (!seen.has(root)) {
          seen.add(root);
          chosen.push({ root, section });
        }
  }
  if (chosen.length === 0)
    throw new OperationalError(
      "no dataset folders: name them (e.g. 'laws/*', or 'ch/*.md' for one file per law), or set adopt.datasets in the config",
    );
  chosen.sort((a, b) => comparePaths(a.root, b.root));
  const folders = chosen.map((c) => c.root);
  const found = await findRepositoryRoot(cwd);
  const repository = found ?? cwd;
  const folder = join(repository, ...MANIFEST_FOLDER.split("/"));
  if (move) return moveFolders(folders, folder, repository, cwd, rest, onProgress);
  const inForce = rest.hostInForce ?? (await hostInForce(cwd, undefined));
  const hostOf = (section: AdoptSection | undefined) =>
    manifestHost(legislationHost ?? section?.legislationHost, inForce);
  const templatesOf = (section: AdoptSection | undefined): Partial<DatasetFields> => ({
    ...section?.templates,
    ...templates,
  });
  // A dataset adopted before (its manifest in its folder, or one of the tooling folder for it) is refreshed keeping its
  // fields: the templates fill only the datasets not adopted yet, so only those need them.
  const known = manifestsByRoot(folder);
  const manifestOf = (dir: string) => {
    const inFolder = join(dir, DEFAULT_MANIFEST_NAME);
    return !isFileRoot(dir) && statSync(inFolder, { throwIfNoEntry: false })?.isFile() ? inFolder : known.get(dir);
  };
  const missingOf = (section: AdoptSection | undefined) =>
    MANIFEST_DATASET_FIELDS.filter((field) => field !== "slug" && templatesOf(section)[field] === undefined);
  const lacking = chosen.filter(({ root, section }) => missingOf(section).length > 0 && manifestOf(root) === undefined);
  if (lacking.length > 0)
    throw new OperationalError(
      await templatesNeeded(lacking, {
        chosen: chosen.length,
        patterns,
        missing: MANIFEST_DATASET_FIELDS.filter((field) =>
          lacking.some(({ section }) => missingOf(section).includes(field)),
        ),
        given: templatesOf(lacking[0]!.section),
        host: hostOf(lacking[0]!.section) ?? inForce.host,
        ...(legislationHost !== undefined ? { hostFlag: legislationHost } : {}),
        repository,
        cwd,
        maxFrontMatterBytes: options.maxFrontMatterBytes,
      }),
    );
  if (Object.values(templates).some((t) => t !== undefined) && chosen.every(({ root }) => manifestOf(root)))
    noteOf(options)(
      `the templates given were not used: ${chosen.length === 1 ? "the dataset is" : `the ${chosen.length} datasets are`} adopted already and keep${chosen.length === 1 ? "s its" : " their"} fields (a new version: citation-targets update <dataset> --version-date …)`,
    );

  const problems: string[] = [];
  /** A file among the problems could not be read (exit 2, as update says it), where the others are the datasets'. */
  let unreadable = false;
  const adopted: AdoptedDataset[] = [];
  const bySlug = new Map<string, string>();
  /** The adopted datasets' roots, for the nesting check: made when a folder without a manifest first asks. */
  let roots: KnownRoots | undefined;
  // A folder given that holds another folder given is no dataset of its own either (the one inside is).
  const given = new Set(chosen.map((c) => c.root));
  const holdsGiven = new Map<string, string>();
  for (const root of given)
    for (let up = dirname(root); up !== dirname(up); up = dirname(up))
      if (given.has(up) && !holdsGiven.has(up)) holdsGiven.set(up, root);
  for (const { root: dir, section } of chosen) {
    const shown = displayPath(dir, cwd) || ".";
    const fileRoot = isFileRoot(dir);
    const host = hostOf(section);
    if (!isInside(repository, dir)) {
      problems.push(`${shown}: outside the repository ${repository}`);
      continue;
    }
    // A manifest already in the dataset folder, or one of the tooling folder for it, is refreshed where it is, as
    // update refreshes it: its fields stay as they are (a version set with update --version-date is not undone by the
    // templates). A host given (flag or section) is set: it is not a dataset field, and the records stay.
    const existing = manifestOf(dir);
    if (existing !== undefined) {
      adopted.push({
        manifest: existing,
        dir,
        fields: {},
        ...layerManifestOptions({ legislationHost: host }, { units: section?.units, aliasKeys: section?.aliasKeys }),
      });
      continue;
    }
    // A folder that holds an adopted dataset, or stands in one, is no dataset of its own: its markdown would be
    // published twice (a law moved into a folder that a pattern matches, `laws/de/*` and `laws/de/wohnen/mietg`).
    const inner = holdsGiven.get(dir);
    if (inner !== undefined && !isFileRoot(dir)) {
      problems.push(
        `${shown}: it holds ${displayPath(inner, cwd)}, also given: a folder that holds a dataset is none itself; leave ${shown} out of the folders given (the config's "adopt" datasets, or the operands)`,
      );
      continue;
    }
    roots ??= knownRoots(known);
    const nested = nestedDataset(dir, roots);
    if (nested !== undefined) {
      const [root, manifest] = nested;
      const other = `${displayPath(root, cwd) || "."} (${displayPath(manifest, cwd)})`;
      problems.push(
        isInside(dir, root)
          ? `${shown}: it holds the dataset ${other}: a folder that holds a dataset is none itself. If the law moved into it, change the pattern that matched ${shown} (the config's "adopt" datasets, or the operand) to name ${displayPath(root, cwd)} and not ${shown}; adopt --move does not change the config`
          : `${shown}: it is inside the dataset ${other}: a dataset's folder holds no other dataset; leave ${shown} out of the folders given (the config's "adopt" datasets, or the operands)`,
      );
      continue;
    }
    if ((await frontDocument(dir)) === undefined) {
      problems.push(`${shown}: no markdown files: not a dataset folder (leave it out of the folders given)`);
      continue;
    }
    const fieldTemplates = templatesOf(section);
    const fields: Partial<DatasetFields> = {};
    let faulty = false;
    let context: TemplateContext;
    try {
      context = await templateContext(dir, repository, options.maxFrontMatterBytes);
    } catch (error) {
      if (!(error instanceof TemplateError || error instanceof OperationalError)) throw error;
      problems.push(`${shown}: ${error.message}`);
      if (error instanceof OperationalError) unreadable = true; // its front matter's file: a TemplateError is its text's
      continue;
    }
    // A folder whose files are several acts (one file per act, each with its own title) is not one dataset.
    if (!fileRoot) {
      const titles = await titlesOfFiles(dir, fieldTemplates.titleId!, context, options.maxFrontMatterBytes);
      if (titles.size > 1) {
        const named = [...titles].slice(0, 5).map(([title, file]) => `${JSON.stringify(title)} (${file})`);
        const more = titles.size > 5 ? `, … and ${titles.size - 5} more` : "";
        // Acts in subfolders of their own (`book/arbschg/index.md`) are datasets by subfolder, not by file.
        const nested = [...titles.values()].some((file) => file.includes("/"));
        problems.push(
          `${shown}: its markdown files carry front matter of ${titles.size} different titles (titleId ${named.join(", ")}${more}): ${
            nested
              ? `a folder of one subfolder per act is one dataset per subfolder: adopt ${shellQuote(`${shown}/*`)}`
              : `a folder of one file per act is one dataset per file: adopt ${shellQuote(`${shown}/*.md`)}`
          } (or, to keep it one dataset of several laws, give it one --title-id)`,
        );
        continue;
      }
    }
    // Every field's fault, not only the first: one run names them all.
    for (const field of MANIFEST_DATASET_FIELDS) {
      const template =
        fieldTemplates[field] ??
        (field === "slug" ? await slugTemplate(dir, fileRoot, context, options.maxFrontMatterBytes) : undefined);
      if (template === undefined) continue;
      try {
        fields[field] = detached(fillTemplate(template, context, field === "sourceTextUrl"));
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        problems.push(`${shown}: ${field}: ${error.message}`);
        faulty = true;
      }
    }
    const faults = checkDatasetFields(fields);
    for (const f of faults) problems.push(`${shown}: ${f.field} ${JSON.stringify(f.value)}: ${f.message}`);
    // Two folders of one slug: named with the other faults of the folder (its slug is good), not a run later.
    const slug = fields.slug;
    if (slug !== undefined && !faults.some((f) => f.field === "slug")) {
      const other = bySlug.get(slug);
      if (other !== undefined) {
        problems.push(
          `${shown}: slug ${JSON.stringify(slug)} is also the slug of ${other}: each dataset needs its own (set --slug to a template that tells them apart, or change what it reads: ${fieldTemplates.slug !== undefined ? `--slug ${JSON.stringify(fieldTemplates.slug)}` : "the folder's or its front matter's"})`,
        );
        continue;
      }
      bySlug.set(slug, shown);
    }
    if (faulty || faults.length > 0 || slug === undefined) continue;
    const manifest = join(folder, `${slug}.lock.json`);
    if (statSync(manifest, { throwIfNoEntry: false })) {
      const root = datasetRootOf(manifest);
      const gone = root !== undefined && !rootPresent(root);
      const relative = relativeRoot(manifest, dir);
      problems.push(
        `${shown}: ${displayPath(manifest, cwd)} already belongs to ${root === undefined ? "a manifest that cannot be read" : displayPath(root, cwd) || "."}${
          gone
            ? `, which is not there any more: if the law moved here, repoint that manifest with \`citation-targets adopt --move ${shellQuote(shown)}\` (${addressesKept(root!, dir) ? "its slug and addresses kept" : `its slug kept; its addresses change, the file's name ${basename(root!)} being in each`}; or set "datasetRoot": ${JSON.stringify(relative)} in it)`
            : ": a slug names one dataset"
        }`,
      );
      continue;
    }
    adopted.push({
      manifest,
      dir,
      fields,
      ...layerManifestOptions({ legislationHost: host }, { units: section?.units, aliasKeys: section?.aliasKeys }),
    });
  }
  // A new dataset's sourceTextUrl on another host than its own is named with the other faults, before any file is
  // made (update checks again what it writes: a refreshed dataset's fields).
  problems.push(
    ...hostProblems(
      adopted.flatMap(({ fields, legislationHost: host }) =>
        fields.slug !== undefined && fields.sourceTextUrl !== undefined
          ? [
              {
                slug: fields.slug,
                sourceTextUrl: fields.sourceTextUrl,
                ...(typeof host === "string" ? { legislationHost: host } : {}),
              },
            ]
          : [],
      ),
      inForce,
    ),
  );
  if (problems.length > 0) throw new DatasetError(problems, undefined, unreadable);
  const updates = await update({
    ...rest,
    hostInForce: inForce,
    cwd,
    datasets: adopted,
    ...(onProgress ? { onProgress } : {}),
  });
  const gitattributes = await addGitattributes(
    repository,
    gitattributesLines(repository, folders),
    rest.check === true,
  ).catch((error: unknown) => {
    throw new OperationalError(`cannot write ${join(repository, ".gitattributes")}: ${(error as Error).message}`);
  });
  if (!options.check && found !== undefined) await ignoreToolFiles(repository, noteOf(options));
  return { updates, folder, gitattributes };
}

/**
 * The refusal of datasets not adopted yet that lack a template for a field: the fields, the datasets (among others
 * adopted already, which need none), what the first one's front matter offers, and a command adopt would accept: the
 * templates given, keys that front matter has, the folder's name where it has none fitting, the legislation host the
 * dataset is on (a date without one in the front matter is the placeholder YYYY-MM-DD).
 */
async function templatesNeeded(
  lacking: { root: string; section: AdoptSection | undefined }[],
  at: {
    /** How many datasets were given, adopted or not. */
    chosen: number;
    patterns: string[];
    missing: (keyof DatasetFields)[];
    /** The templates the first dataset lacking some has: the example keeps them. */
    given: Partial<DatasetFields>;
    /** The legislation host of the first dataset lacking templates. */
    host: string;
    /** The host given with --legislation-host: the example gives it again (else adopt checks the URL against another). */
    hostFlag?: string;
    repository: string;
    cwd: string;
    maxFrontMatterBytes: number | undefined;
  },
): Promise<string> {
  const { chosen, patterns, missing, host, repository, cwd } = at;
  const first = lacking[0]!;
  const context = await templateContext(first.root, repository, at.maxFrontMatterBytes).catch(() => undefined);
  const front = context?.front ?? {};
  const keys = Object.keys(front);
  // Keys a template can name as they are; a key matched case-insensitively against the usual names of a field.
  const usable = keys.filter((key) => /^[A-Za-z0-9_-]+$/.test(key));
  const keyOf = (names: string[]) => usable.find((key) => names.includes(key.toLowerCase()));
  const dated = usable.find((key) => {
    const value = front[key];
    return value instanceof Date || (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value));
  });
  const titleKey = keyOf(["jurabk", "amtabk", "abbreviation", "shorttitle"]);
  const nameKey = keyOf(["title", "name", "longtitle"]);
  const example: Partial<DatasetFields> = {
    titleId: titleKey !== undefined ? `{front.${titleKey}}` : "{folder|upper}",
    name: nameKey !== undefined ? `{front.${nameKey}}` : "{folder}",
    versionDate: dated !== undefined ? `{front.${dated}}` : "YYYY-MM-DD",
    sourceTextUrl: `https://${host}/{folder}/`,
    // The templates given, the ones left undefined (a library caller's `titleId: undefined`) not over the suggestions.
    ...Object.fromEntries(Object.entries(at.given).filter(([, value]) => value !== undefined)),
  };
  const adoptedAlready = chosen - lacking.length;
  const which =
    chosen === 1
      ? ""
      : ` of a dataset not adopted yet (${namedList(lacking.map(({ root }) => displayPath(root, cwd) || "."))}${
          adoptedAlready > 0
            ? `; the ${adoptedAlready === 1 ? "one" : adoptedAlready} adopted already keep${adoptedAlready === 1 ? "s its" : " their"} fields and need${adoptedAlready === 1 ? "s" : ""} none`
            : ""
        })`;
  return [
    `adopt needs a template (or a value) for each dataset field${which}:`,
    ...missing.map((f) => `  ${f}: give ${FLAG[f]}, or adopt.${f} in the config`),
    ...(keys.length > 0
      ? [`the front matter of ${context!.frontSource} offers ${keys.map((k) => `{front.${k}}`).join(", ")}`]
      : []),
    `templates: ${TEMPLATE_HELP}`,
    `e.g. citation-targets adopt${patterns.map((p) => ` ${shellQuote(p)}`).join("")}${MANIFEST_DATASET_FIELDS.filter(
      (f) => f !== "slug",
    )
      .map((f) => ` ${FLAG[f]} ${shellQuote(example[f]!)}`)
      .join("")}${at.hostFlag !== undefined ? ` --legislation-host ${shellQuote(at.hostFlag)}` : ""}`,
  ].join("\n");
}

/**
 * The different titles of a folder's markdown files: the `titleId` template filled from each file's own front matter
 * (the folder's name and path as they are), by title, with the first file that carries it. Files whose front matter
 * cannot fill it (none, or without the key) are not counted; a template that reads no front matter gives one title.
 */
async function titlesOfFiles(
  dir: string,
  template: string,
  context: TemplateContext,
  maxFrontMatterBytes: number | undefined,
): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  if (!template.includes("{front.")) return titles;
  const files = await listDatasetFiles(dir).catch(() => []);
  if (files.length < 2) return titles;
  for (const file of files) {
    try {
      const front = await readFrontMatter(join(dir, ...file.split("/")), file, maxFrontMatterBytes);
      if (front === undefined) continue;
      const title = fillTemplate(template, { ...context, front, frontSource: file }, false);
      if (!titles.has(title)) titles.set(title, file);
    } catch {
      // not this file's title to tell: adopt names a front matter that cannot fill the template where it is read
    }
  }
  return titles;
}

/**
 * The files an interrupted or running writer leaves at the repository root, never to be committed: adopt puts them in
 * the root's `.gitignore` (SECURITY.md: a journal or a writer lock that git tracks is refused or ignored).
 */
export const TOOL_FILE_IGNORES = [`/${JOURNAL_NAME}`, `/${WRITER_LOCK_NAME}`];

/** Adds the lines of TOOL_FILE_IGNORES that `.gitignore` at `repository` lacks (a `.gitignore` that is a link is left). */
async function ignoreToolFiles(repository: string, note: (text: string) => void): Promise<void> {
  const path = join(repository, ".gitignore");
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (info !== undefined && !info.isFile()) {
    note(`.gitignore is not a regular file: add ${TOOL_FILE_IGNORES.join(" and ")} to what git ignores yourself`);
    return;
  }
  const text = info === undefined ? "" : readRegularFileSync(path, path, true).toString("utf8");
  const lines = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = TOOL_FILE_IGNORES.filter((line) => !lines.has(line) && !lines.has(line.slice(1)));
  if (missing.length === 0) return;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  await writeFileAtomic(path, `${text}${separator}${missing.join("\n")}\n`);
}
