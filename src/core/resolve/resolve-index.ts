/**
 * The matcher of `resolve` (docs/spec.md, section 19): an index of the records of one or more datasets, and a citation
 * read (citation-reader.ts) found in it. Pure: records in, results out.
 *
 * A heading record is found by the designation key of the last segment of its local coordinate (`§-823`, `art-8`,
 * `6aa`; qualifiers and the tie-break left out), a unit record by its address: the heading's address with one step per
 * unit appended (`…#§-823/abs-1`, `…#§-309/nr-9/bst-a`, `…#6/subsec-1/para-a`).
 */
import { deriveCitationTargetId } from "../digest.js";
import {
  type Citation,
  type CitationKeys,
  type CitationStep,
  createCitationReader,
  READER_TABLES,
} from "./citation-reader.js";

/** What the index keeps of a record. */
export interface ResolveRecord {
  citationAddress: string;
  citationTargetId: string;
  headingText: string;
}

/** One dataset given to the index: its dataset-level fields, its aliases and its records in document order. */
export interface ResolveDataset {
  slug: string;
  titleId: string;
  name: string;
  aliases?: readonly string[];
  /** A dataset of several laws: each law's aliases by the path of its document (the manifest's documentAliases). */
  documentAliases?: Readonly<Record<string, readonly string[]>>;
  /** The manifest's `units`: an answer that stops above a unit named says why. */
  units?: true;
  records: readonly ResolveRecord[];
  /** Lines of its JSONL left out (no record with a citationAddress): a citation not found there says so. */
  unreadable?: number;
}

/**
 * A dataset as the index cache keeps it (src/node/resolve/resolve.ts): its fields, and its records as the JSON text of
 * `[addresses, headings, ids]` (`records`, read only when a citation first looks in the dataset): the addresses and
 * headings in document order, and a record's citationTargetId only where it is not the one derived from
 * `datasetDigest` and its address (docs/spec.md, section 3), by position.
 */
export interface ResolveColumns {
  slug: string;
  titleId: string;
  name: string;
  aliases?: readonly string[];
  documentAliases?: Readonly<Record<string, readonly string[]>>;
  /** The manifest's `units`: its targets go below the heading, so an answer that stops above a unit named says why. */
  units?: true;
  datasetDigest: string;
  records: string;
  /** Lines of its JSONL left out (no record with a citationAddress): a citation not found there says so. */
  unreadable?: number;
}

/**
 * The records text of ResolveColumns: `[addresses, headings, ids]`, the addresses as one text, each on a line of its
 * own (an address has no line break) as the length it shares with the address before it, a space and the rest
 * (`12 abs-2`): a dataset's addresses share their slug, path and heading, and the text is a third of the list's.
 */
export function columnsText(
  addresses: readonly string[],
  headings: readonly string[],
  ids: Record<string, string>,
): string {
  const lines: string[] = [];
  let previous = "";
  for (const address of addresses) {
    let shared = 0;
    const most = Math.min(previous.length, address.length);
    while (shared < most && previous.charCodeAt(shared) === address.charCodeAt(shared)) shared++;
    lines.push(`${shared} ${address.slice(shared)}`);
    previous = address;
  }
  return JSON.stringify([lines.join("\n"), headings, ids]);
}

/** The records of a records text (columnsText). */
export function readColumnsText(text: string): {
  addresses: string[];
  headings: string[];
  ids: Record<string, string>;
} {
  const [coded, headings, ids] = JSON.parse(text) as [string, string[], Record<string, string>];
  const addresses: string[] = [];
  if (coded !== "") {
    let previous = "";
    for (const line of coded.split("\n")) {
      const space = line.indexOf(" ");
      previous = previous.slice(0, Number(line.slice(0, space))) + line.slice(space + 1);
      addresses.push(previous);
    }
  }
  return { addresses, headings, ids };
}

export type ResolveOutcome = "match" | "ambiguous" | "no-match";
export type ResolvePrecision = "unit" | "enclosing";

/** A candidate of an ambiguous result (the shape of the reference's address validation). */
export interface ResolveCandidate {
  id: string;
  label: string;
  secondaryLabel: string;
  matchedRanges: [number, number][];
}

/** The answer for one input. */
export interface ResolveResult {
  input: string;
  outcome: ResolveOutcome;
  precision: ResolvePrecision | null;
  citationAddress: string | null;
  citationTargetId: string | null;
  candidates: ResolveCandidate[];
  /** Set (true) when the citation names a range (`§§ 305 bis 310`) or a following (`§ 433 ff.`). */
  range?: true;
  /** Why it did not match, what makes it ambiguous, or why the match is only the enclosing target of a unit named. */
  reason?: string;
  /**
   * Set (true) when lines of the JSONL of a dataset looked in could not be read and what was not found may stand on
   * one of them: the unit of an `enclosing` match, the provision of a `no-match`. The command counts such a match as
   * not matched.
   */
  incomplete?: true;
}

/**
 * A version written after a law's name: `a.F.` (alte Fassung, an earlier version), `n.F.` (neue Fassung), `aF`, `a. F.`,
 * in brackets or not (`BGB (a.F.)`); or before it, after the provision (`§ 2 a.F. BGB`).
 */
const VERSION_MARK = /[\s\u00a0]+\(?([an]\.[\s\u00a0]?F\.?|[an]F)\)?$/;
const VERSION_MARK_BEFORE = /^\(?([an]\.[\s\u00a0]?F\.?|[an]F)\)?[\s\u00a0]+/;

/** The most candidates an ambiguous result lists. */
export const MAX_CANDIDATES = 3;

/** The runs of a restarting list looked through for a unit (`~r2` … `~r32`: a parent with more is not met in law). */
const MAX_RUNS = 32;

/** A law's name, title id, slug or alias as compared: NFC, lower case, white space collapsed, no closing dot. */
export function lawKey(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\s\u00a0\u202f]+/g, " ")
    .replace(/[.,;:]+$/, "")
    .trim();
}

/** The key of the last segment of an address's local coordinate, its qualifiers and tie-break left out. */
export function lastSegmentKey(address: string): string | undefined {
  const hash = address.indexOf("#");
  if (hash < 0) return undefined;
  const slash = address.lastIndexOf("/");
  const segment = address.slice(Math.max(hash, slash) + 1);
  const tilde = segment.indexOf("~");
  return tilde < 0 ? segment : segment.slice(0, tilde);
}

/** The keys of every segment of an address's local coordinate, qualifiers and tie-break left out. */
function segmentKeys(address: string): string[] {
  const hash = address.indexOf("#");
  return address
    .slice(hash + 1)
    .split("/")
    .map((segment) => segment.split("~")[0]!);
}

const isColumns = (dataset: ResolveDataset | ResolveColumns): dataset is ResolveColumns =>
  typeof dataset.records === "string";

/** A dataset's records, as the index reads them. */
interface Records {
  addresses: readonly string[];
  headings: readonly string[];
  /** A record's citationTargetId. */
  id(k: number): string;
}

interface IndexedDataset {
  slug: string;
  /** Lines of its JSONL left out (ResolveColumns'). */
  unreadable?: number;
  /** Its targets go below the heading (the manifest's `units`). */
  units?: true;
  /** The records, read when a citation first looks in the dataset: a repository of thousands of laws loads without. */
  load(): Records;
  records?: Records;
  maps?: {
    /** Record position by address. */
    byAddress: Map<string, number>;
    /** Record positions by the key of their last local segment, in document order. */
    byKey: Map<string, number[]>;
    /** The keys of the headings of ranges (`§§-3-bis-13` of `§§ 3 bis 13 (weggefallen)`), with their records. */
    sectionRanges: { key: string; records: number[] }[];
    /** The artifacts whose first heading opens an annex (`…/schedule-1/index.md#`), with the annex's key. */
    annexArtifacts: Map<string, string>;
    /** The artifacts that have a `§` heading (`<slug>/<path>#`): a bare number names no provision of their law. */
    paragraphArtifacts: Set<string>;
  };
}

/** An annex's key: its word and numeral (`schedule-1`, `anlage-i-kap-x`: docs/spec.md, section 7). */
const ANNEX_KEY = new RegExp(`^(?:${READER_TABLES.annexWords.join("|")})-`);

/**
 * Where a law is: a dataset, or (a law of a dataset of several laws, named by its document's aliases) the records of
 * one document of it, those whose address starts with `prefix` (`<slug>/<document path>#`).
 */
interface LawPlace {
  dataset: number;
  prefix?: string;
}

/** The index of `resolve`: built once from the datasets, then asked any number of citations. */
export class ResolveIndex {
  private readonly datasets: IndexedDataset[];
  private readonly laws = new Map<string, LawPlace[]>();
  private readonly reader = createCitationReader(READER_TABLES);
  /** Each law key's name as first given (a titleId, name, slug or alias), for a suggestion. */
  private readonly lawNames = new Map<string, string>();
  /** The suggestion for each law text no law has, once worked out. */
  private readonly suggestions = new Map<string, string | undefined>();
  /** The places of each law text as written, once looked up (a batch names the same laws again and again). */
  private readonly lawTexts = new Map<string, LawPlace[]>();

  /** Notes that `name` names the law at `place`; once a dataset is named whole, its documents are not noted too. */
  private addLaw(name: string, place: LawPlace): void {
    const key = lawKey(name);
    if (key === "") return;
    const list = this.laws.get(key);
    if (list === undefined) {
      this.laws.set(key, [place]);
      this.lawNames.set(key, name);
      return;
    }
    if (
      list.some(
        (other) => other.dataset === place.dataset && (other.prefix === undefined || other.prefix === place.prefix),
      )
    )
      return;
    list.push(place);
  }

  constructor(datasets: readonly (ResolveDataset | ResolveColumns)[]) {
    this.datasets = datasets.map((dataset, position) => {
      for (const name of [dataset.titleId, dataset.name, dataset.slug, ...(dataset.aliases ?? [])])
        this.addLaw(name, { dataset: position });
      for (const [path, aliases] of Object.entries(dataset.documentAliases ?? {}))
        for (const alias of aliases) this.addLaw(alias, { dataset: position, prefix: `${dataset.slug}/${path}#` });
      if (!isColumns(dataset)) {
        const records = dataset.records;
        return {
          slug: dataset.slug,
          ...(dataset.units === true ? { units: true as const } : {}),
          ...(dataset.unreadable ? { unreadable: dataset.unreadable } : {}),
          load: () => ({
            addresses: records.map((r) => r.citationAddress),
            headings: records.map((r) => r.headingText),
            id: (k: number) => records[k]!.citationTargetId,
          }),
        };
      }
      const { records, datasetDigest } = dataset;
      return {
        slug: dataset.slug,
        ...(dataset.units === true ? { units: true as const } : {}),
        ...(dataset.unreadable ? { unreadable: dataset.unreadable } : {}),
        load: () => {
          const { addresses, headings, ids } = readColumnsText(records);
          return {
            addresses,
            headings,
            id: (k: number) => ids[k] ?? deriveCitationTargetId(datasetDigest, addresses[k]!),
          };
        },
      };
    });
  }

  /** A dataset's records, read on first use. */
  private recordsOf(indexed: IndexedDataset): Records {
    indexed.records ??= indexed.load();
    return indexed.records;
  }

  /** The maps of a dataset, made on first use. */
  private mapsOf(indexed: IndexedDataset): NonNullable<IndexedDataset["maps"]> {
    if (indexed.maps !== undefined) return indexed.maps;
    const byAddress = new Map<string, number>();
    const byKey = new Map<string, number[]>();
    const annexArtifacts = new Map<string, string>();
    const paragraphArtifacts = new Set<string>();
    /** The artifact of the record before (`<slug>/<path>#`), and whether its first heading came. */
    let artifact = "";
    let headed = false;
    this.recordsOf(indexed).addresses.forEach((address, index) => {
      byAddress.set(address, index);
      const key = lastSegmentKey(address);
      if (key === undefined) return;
      const hash = address.indexOf("#");
      if (artifact === "" || !address.startsWith(artifact)) {
        artifact = address.slice(0, hash + 1);
        headed = false;
      }
      // Its first heading (records are in document order, an artifact's together), when it is an annex's.
      if (!headed && address.slice(hash + 1) !== "_top") {
        headed = true;
        if (!address.includes("/", hash) && ANNEX_KEY.test(key)) annexArtifacts.set(artifact, key);
      }
      if (key.startsWith("§")) paragraphArtifacts.add(artifact);
      const list = byKey.get(key);
      if (list === undefined) byKey.set(key, [index]);
      else list.push(index);
    });
    // Which of them a provision is in, the reader says (`covers`): the view page asks it alike.
    const sectionRanges: { key: string; records: number[] }[] = [];
    for (const [key, records] of byKey) if (key.includes("-bis-")) sectionRanges.push({ key, records });
    indexed.maps = { byAddress, byKey, sectionRanges, annexArtifacts, paragraphArtifacts };
    return indexed.maps;
  }

  /** How many datasets the index holds. */
  get size(): number {
    return this.datasets.length;
  }

  /** The places a law text names (memoised, up to 100,000 texts). */
  private lawsOf(text: string): LawPlace[] {
    let found = this.lawTexts.get(text);
    if (found === undefined) {
      found = this.laws.get(lawKey(text)) ?? [];
      if (this.lawTexts.size < 100_000) this.lawTexts.set(text, found);
    }
    return found;
  }

  /**
   * The one law whose key is nearest a law text no law has, by edits (a letter added, dropped, changed, or two swapped):
   * at most one edit for a text of up to five letters, two for a longer one; undefined when none is that near, or two
   * are equally near. Worked out once a text (up to 10,000 texts).
   */
  private nearestLaw(text: string): string | undefined {
    if (this.suggestions.has(text)) return this.suggestions.get(text);
    const wanted = lawKey(text);
    const most = wanted.length <= 5 ? 1 : 2;
    let best: string | undefined;
    let bestDistance = most;
    let tie = false;
    for (const key of this.laws.keys()) {
      if (Math.abs(key.length - wanted.length) > most || key.length < 2) continue;
      const distance = editDistance(wanted, key, bestDistance);
      if (distance > bestDistance) continue;
      if (best === undefined || distance < bestDistance) {
        best = key;
        bestDistance = distance;
        tie = false;
      } else if (!samePlaces(this.laws.get(key)!, this.laws.get(best)!)) tie = true;
    }
    let found = best !== undefined && !tie ? this.lawNames.get(best) : undefined;
    // Else the one law whose name starts with the text's words (`Grundgesetz` of `Grundgesetz für die Bundesrepublik
    // Deutschland`): a shorter name, suggested, never matched (another law may start so too).
    if (best === undefined && wanted.length >= 3) {
      let start: string | undefined;
      for (const key of this.laws.keys())
        if (key.startsWith(`${wanted} `)) {
          if (start !== undefined && !samePlaces(this.laws.get(key)!, this.laws.get(start)!)) {
            start = undefined;
            break;
          }
          start ??= key;
        }
      if (start !== undefined) found = this.lawNames.get(start);
    }
    if (this.suggestions.size < 10_000) this.suggestions.set(text, found);
    return found;
  }

  /** Reads and resolves one citation. `lawOptional`: a citation naming no law is looked for in every dataset. */
  resolve(input: string, options: { lawOptional?: boolean } = {}): ResolveResult {
    const citation = this.reader.read(input);
    if (citation === undefined) {
      // A word before a number that the reader does not know (`Kapitel 1`, `Rn. 5`): named, so that the user sees
      // what was not understood.
      const word = /^[\s\u00a0]*([^\s\u00a0\d§]+)[\s\u00a0]*\d/.exec(input);
      return noMatch(
        input,
        `not read as a citation: ${word !== null ? `"${word[1]}" is no word it reads as a provision or an annex` : "no provision with its number"} (§ 823, Art. 6, s 6, section 13, article L. 121-1, Anlage 1, Schedule 1)`,
      );
    }
    return this.resolveCitation(input, citation, options);
  }

  /** Resolves a citation read. */
  resolveCitation(input: string, citation: Citation, options: { lawOptional?: boolean } = {}): ResolveResult {
    const range = citation.range ? { range: true as const } : {};
    let places: LawPlace[];
    if (citation.law === undefined) {
      if (!options.lawOptional)
        return { ...noMatch(input, "names no law, and no dataset was named (--dataset)"), ...range };
      places = this.datasets.map((_, position) => ({ dataset: position }));
    } else {
      places = this.lawsOf(citation.law.text);
      // A law named with its version (`BGB a.F.`, the earlier version; `BGB n.F.`, the current one): the law without it.
      const version =
        places.length === 0
          ? (VERSION_MARK.exec(citation.law.text) ?? VERSION_MARK_BEFORE.exec(citation.law.text))
          : null;
      if (version !== null) {
        const law =
          version.index === 0 ? citation.law.text.slice(version[0].length) : citation.law.text.slice(0, version.index);
        const bare = this.lawsOf(law);
        // An earlier version is a dataset of that version: the one named with --dataset, else none can be told.
        if (bare.length > 0 && version[1]!.startsWith("a") && !options.lawOptional) {
          const slugs = [...new Set(bare.map((place) => this.datasets[place.dataset]!.slug))];
          // As written: the law's closing dot is not in its text (`a.F.`).
          const mark = /^[an]\.[\s\u00a0]?F$/.test(version[1]!) ? `${version[1]}.` : version[1]!;
          return {
            ...noMatch(
              input,
              `"${mark}" names an earlier version of ${law} (alte Fassung), and ${slugs.length === 1 ? `its dataset here, ${slugs[0]}, may be another` : `its ${slugs.length} datasets here (${slugs.slice(0, 3).join(", ")}${slugs.length > 3 ? ", …" : ""}) may hold another`}: name the dataset of that version with --dataset`,
            ),
            ...range,
          };
        }
        places = bare;
      }
      if (places.length === 0) {
        const near = this.nearestLaw(citation.law.text);
        return {
          ...noMatch(
            input,
            `no dataset${options.lawOptional ? " of those named" : ""} is the law "${citation.law.text}" (by its titleId, name, slug or an alias)${near !== undefined ? `; did you mean "${near}"?` : ""}`,
          ),
          ...range,
        };
      }
    }
    const keys = this.reader.keys(citation);
    const provisions = citation.steps.slice(0, keys.provisions.length);
    const units = citation.steps.slice(provisions.length);
    /** The provision cited (in an annex, the one in it; else the annex), named in the reasons. */
    const innermost = provisions.filter((step) => step.kind !== "annex").pop() ?? provisions[0]!;
    const found: {
      dataset: number;
      record: number;
      precision: ResolvePrecision;
      ranges: [number, number][];
      reason?: string;
      /** What was not found may stand on a line of the dataset that could not be read. */
      incomplete?: true;
    }[] = [];
    const lawRange: [number, number][] = citation.law !== undefined ? [[citation.law.start, citation.law.end]] : [];
    /** The range headings that hold the provision, in the places that have no heading of its own (coveringRanges). */
    const inRanges: typeof found = [];
    for (const { dataset: position, prefix } of places) {
      const indexed = this.datasets[position]!;
      const inPlace = (record: number) =>
        prefix === undefined || this.recordsOf(indexed).addresses[record]!.startsWith(prefix);
      const headings = this.headings(indexed, keys, prefix);
      // A section with no heading of its own, in a range printed as one heading (`§§ 3 bis 13 (weggefallen)`): that
      // heading holds it; so does an annex's heading hold a part of it cited as a compound annex with no heading of its
      // own (`Anlage I Kap X` in `Anlage I`). Its units are not looked for: the range has none of its own. Kept aside:
      // only when no place of the law has a heading of its own for it (another edition where it stands is the answer,
      // as before).
      if (headings.length === 0)
        for (const range of innermost.kind === "annex" && keys.provisions.length === 1
          ? this.annexHolders(indexed, keys.provisions[0]!, prefix)
          : this.coveringRanges(indexed, keys).filter(inPlace)) {
          // Named by its kind and label (`§ 200` of `§§ 200 bis 202`, written as it may be), an annex as written.
          const provision =
            innermost.kind === "annex"
              ? input.slice(innermost.start, innermost.end)
              : `${innermost.kind === "art" ? "Art." : innermost.kind} ${innermost.label}`;
          // Its heading may be on a line that could not be read: said, not denied.
          const lost = linesLost(indexed);
          inRanges.push({
            dataset: position,
            record: range,
            precision: "enclosing",
            ranges: [...provisions.map((step): [number, number] => [step.start, step.end]), ...lawRange],
            reason: `${provision} has no heading of its own${lost === "" ? "" : " in the lines read"}: it is in ${this.recordsOf(indexed).headings[range]!}, the target that holds it${lost === "" ? "" : `; ${lost}`}`,
            ...(lost === "" ? {} : { incomplete: true as const }),
          });
        }
      for (const heading of headings) {
        const ranges: [number, number][] = provisions.map((step) => [step.start, step.end]);
        // Walk down the units: the address grows by each unit an address names; the deepest record there is the target,
        // the unit itself when it is the whole citation's.
        let address = this.recordsOf(indexed).addresses[heading]!;
        let record = heading;
        let exact = true;
        /** Why the answer is the enclosing target: the first unit that is not there, or that cannot be told. */
        let reason: string | undefined;
        /** A unit not found, in a dataset with lines that could not be read: it may stand on one of them. */
        let incomplete = false;
        /** A step no address names (a Satz) came before: the units after it may stand in another list of its parent. */
        let unmarked: CitationStep | undefined;
        // A Satz written by its number alone (`§ 823 I 2`: Abs. 1, Satz 2) is said as one.
        const named = (step: CitationStep) => {
          const text = input.slice(step.start, step.end);
          return step.kind === "satz" && /^[0-9]/.test(text) ? `Satz ${text}` : text;
        };
        const addresses = this.recordsOf(indexed).addresses;
        /** Whether a record has units (or headings) below it: its records follow it in pre-order. */
        const hasUnitsBelow = (at: number) => addresses[at + 1]?.startsWith(`${addresses[at]!}/`) === true;
        for (const [k, step] of units.entries()) {
          const name = keys.units[k];
          if (name === null || name === undefined) {
            // A Satz: not marked in the text (an Unterabsatz, a Halbsatz… are other steps no address names).
            if (step.kind === "satz") unmarked ??= step;
            if (k === units.length - 1) {
              // Said only where the walk found each unit before it, in a dataset with units there (one without stops
              // at the heading: nothing to say).
              if (exact && (record !== heading || hasUnitsBelow(record) || indexed.units === true))
                reason ??= `${named(step)} is no target of its own${step.kind === "satz" ? " (Sätze are not marked in the text)" : ""}: the target that holds it`;
              exact = false;
            }
            continue;
          }
          const byAddress = this.mapsOf(indexed).byAddress;
          let next = `${address}/${name}`;
          let below = byAddress.get(next);
          // A unit of a list that restarts in its parent stands in the first run (`nr-1`) or a later one (`nr-1~r2`,
          // docs/spec.md, section 7). Without a Satz cited, the first run's is meant; one in a single later run only
          // (`nr-1a~r2`) is that one. After a Satz, which is not marked in the text (section 19), one that stands in
          // more than one run cannot be told apart.
          if (below === undefined || unmarked !== undefined) {
            const runs = below === undefined ? [] : [next];
            for (let k = 2; k <= MAX_RUNS; k++)
              if (byAddress.has(`${address}/${name}~r${k}`)) runs.push(`${next}~r${k}`);
            if (runs.length > 1) {
              exact = false;
              reason ??=
                unmarked !== undefined
                  ? `${named(unmarked)} is not marked in the text, and ${named(step)} stands in more than one list there: the target that holds them`
                  : `${named(step)} stands in more than one list there: the target that holds them`;
              break;
            }
            if (runs.length === 1) {
              next = runs[0]!;
              below = byAddress.get(next);
            }
          }
          // A subsection printed as a paragraph `(2)`, not a bullet, is read as an Absatz (the same form: docs/spec.md,
          // section 5): `s 6(2)` finds `6/abs-2` there.
          if (below === undefined && name.startsWith("subsec-")) {
            const asAbsatz = `${address}/abs-${name.slice("subsec-".length)}`;
            const found = byAddress.get(asAbsatz);
            if (found !== undefined) {
              below = found;
              next = asAbsatz;
            }
          }
          address = next;
          if (below === undefined) {
            // A unit is looked for below a target with units below it, or any in a dataset with units (a section of
            // one sentence has none); in a dataset without units the answer stops at the heading: nothing to say, and
            // no line that could not be read holds the unit.
            const unitsHere = hasUnitsBelow(record) || indexed.units === true;
            const lost = linesLost(indexed);
            if (lost !== "" && unitsHere) {
              // Lines of the dataset could not be read: the unit may stand on one of them, so it is not said to be
              // absent, and the answer is not taken for a sure one.
              if (exact)
                reason ??= `${addresses[record]!.split("#")[1]} has no ${named(step)} in the lines read: ${lost}; the target that holds it`;
              incomplete = true;
            } else if (exact && unitsHere)
              // "among its targets": a unit written in the text but not marked as one (a label that starts no line of
              // its own: README, "Citing below the heading") is not said to be missing from the law.
              reason ??= `${addresses[record]!.split("#")[1]} has no ${named(step)} among its targets: the target that holds it`;
            exact = false;
            continue;
          }
          record = below;
          exact = true;
          ranges.push([step.start, step.end]);
        }
        found.push({
          dataset: position,
          record,
          precision: exact ? "unit" : "enclosing",
          ranges: [...ranges, ...lawRange],
          ...(!exact && reason !== undefined ? { reason } : {}),
          ...(!exact && incomplete ? { incomplete: true as const } : {}),
        });
      }
    }
    if (found.length === 0) found.push(...inRanges);
    // A provision of an annex that has no heading of its own (a clause of a schedule, a § of an Anlage printed as
    // text): the annex holds it.
    if (found.length === 0 && keys.provisions.length > 1 && provisions.some((step) => step.kind === "annex"))
      for (const { dataset: position, prefix } of places) {
        const indexed = this.datasets[position]!;
        const annexKeys = { provisions: keys.provisions.slice(0, 1), units: [] };
        for (const annex of this.headings(indexed, annexKeys, prefix)) {
          const address = this.recordsOf(indexed).addresses[annex]!;
          const lost = linesLost(indexed);
          found.push({
            dataset: position,
            record: annex,
            precision: "enclosing",
            ranges: [
              ...provisions
                .filter((step) => step.kind === "annex")
                .map((step): [number, number] => [step.start, step.end]),
              ...lawRange,
            ],
            reason: `${address.split("#")[1]} has no ${input.slice(innermost.start, innermost.end)}${lost === "" ? " among its targets:" : ` in the lines read: ${lost};`} the target that holds it`,
            ...(lost === "" ? {} : { incomplete: true as const }),
          });
        }
      }
    if (found.length === 0) {
      const what = input.slice(provisions[0]!.start, provisions[provisions.length - 1]!.end);
      const where =
        citation.law !== undefined
          ? `"${citation.law.text}" (${places
              .map((place) => place.prefix?.slice(0, -1) ?? this.datasets[place.dataset]!.slug)
              .slice(0, 3)
              .join(", ")}${places.length > 3 ? ", …" : ""})`
          : places.length === 1
            ? this.datasets[places[0]!.dataset]!.slug
            : `the ${places.length} datasets named`;
      // Lines of those datasets left out: the provision may stand on one of them.
      const partial = places
        .map((place) => this.datasets[place.dataset]!)
        .filter((dataset, k, all) => (dataset.unreadable ?? 0) > 0 && all.indexOf(dataset) === k);
      const lost =
        partial.length === 0
          ? ""
          : `; ${partial.map((d) => `${d.unreadable} ${d.unreadable === 1 ? "line" : "lines"} of ${d.slug}'s JSONL`).join(", ")} could not be read, and it may stand there (run citation-targets validate)`;
      // The same number under another word (`§ 1 GG`: the Grundgesetz has articles; `§ 2` of an Act of sections): said,
      // as a lawyer would. (A section's word finds a `§` already: see the reader's keys.)
      const label = innermost.label;
      const otherWords: [string, string][] =
        innermost.kind === "§"
          ? [
              [`art-${label}`, "Art."],
              [label, "section"],
            ]
          : innermost.kind === "art"
            ? [
                [`§-${label}`, "§"],
                [label, "section"],
              ]
            : innermost.kind === "section"
              ? [[`art-${label}`, "Art."]]
              : [];
      const otherWord =
        keys.provisions.length === 1
          ? otherWords.find(([otherKey]) =>
              // Found as a citation of that word finds it: an item 2 of a § is no section 2.
              places.some(
                (place) =>
                  this.headings(this.datasets[place.dataset]!, { provisions: [[otherKey]], units: [] }, place.prefix)
                    .length > 0,
              ),
            )
          : undefined;
      // A compound annex cited by its first parts (`Anlage I Kap X`) whose headings are of longer ones: those named.
      const parts =
        innermost.kind === "annex" && keys.provisions.length === 1
          ? places.flatMap((place) => this.annexParts(this.datasets[place.dataset]!, keys.provisions[0]!, place.prefix))
          : [];
      const other =
        otherWord !== undefined
          ? `; it has ${otherWord[1]} ${label}`
          : parts.length > 0
            ? `; its parts have headings of their own: ${parts.slice(0, 3).join(", ")}${parts.length > 3 ? ", …" : ""}: cite one`
            : "";
      return {
        ...noMatch(input, `${where} has no ${what}${other}${lost}`),
        ...range,
        ...(partial.length > 0 ? { incomplete: true as const } : {}),
      };
    }
    if (found.length === 1) {
      const only = found[0]!;
      const indexed = this.recordsOf(this.datasets[only.dataset]!);
      return {
        input,
        outcome: "match",
        precision: only.precision,
        citationAddress: indexed.addresses[only.record]!,
        citationTargetId: indexed.id(only.record),
        candidates: [],
        ...range,
        ...(only.reason !== undefined ? { reason: only.reason } : {}),
        ...(only.incomplete ? { incomplete: true as const } : {}),
      };
    }
    const inDatasets = new Set(found.map((f) => f.dataset)).size;
    return {
      input,
      outcome: "ambiguous",
      precision: null,
      citationAddress: null,
      citationTargetId: null,
      candidates: found.slice(0, MAX_CANDIDATES).map((f) => {
        const indexed = this.recordsOf(this.datasets[f.dataset]!);
        return {
          id: indexed.id(f.record),
          label: indexed.addresses[f.record]!,
          secondaryLabel: indexed.headings[f.record]!,
          matchedRanges: f.ranges,
        };
      }),
      ...range,
      reason:
        inDatasets > 1
          ? `${found.length} targets in ${inDatasets} datasets (editions or versions of the law?): name one with --dataset`
          : `${found.length} targets of the same designation in ${this.datasets[found[0]!.dataset]!.slug}`,
    };
  }

  /**
   * The heading records a citation's provisions name in one dataset, or in the document of it that starts with
   * `prefix`: those whose local coordinate ends with the provisions' keys (`art-229/§-1`) and that are the provision a
   * key names (the reader's `provisionHeading`: `Paragraph 2` is no item 2 of a § 3), the nearest of them (the
   * reader's `distance`). A range whose heading is there (`§§ 3 bis 13 (weggefallen)` → `§§-3-bis-13`) is that
   * heading; else its first provision.
   */
  private headings(indexed: IndexedDataset, keys: CitationKeys, prefix: string | undefined): number[] {
    const { byKey, paragraphArtifacts } = this.mapsOf(indexed);
    const addresses = this.recordsOf(indexed).addresses;
    const inPlace = (record: number) => prefix === undefined || addresses[record]!.startsWith(prefix);
    if (keys.range !== undefined) {
      const whole = (byKey.get(keys.range) ?? []).filter(inPlace);
      if (whole.length > 0) return whole;
    }
    const paragraphs = prefix === undefined ? paragraphArtifacts.size > 0 : paragraphArtifacts.has(prefix);
    const out: number[] = [];
    for (const key of keys.provisions[keys.provisions.length - 1]!)
      for (const record of byKey.get(key) ?? [])
        if (inPlace(record) && this.reader.provisionHeading(segmentKeys(addresses[record]!), paragraphs))
          out.push(record);
    return this.nearest(indexed, keys, out);
  }

  /**
   * When a citation's section or article has no heading of its own, the headings of the ranges that hold it (`§ 5` in
   * `§§ 3 bis 13 (weggefallen)`, `Art. 5` in `Art. 2 bis 26 (weggefallen)`: repealed provisions printed as one
   * heading), the nearest of them as `headings` says.
   */
  private coveringRanges(indexed: IndexedDataset, keys: CitationKeys): number[] {
    const { sectionRanges } = this.mapsOf(indexed);
    if (sectionRanges.length === 0) return [];
    const out: number[] = [];
    for (const key of keys.provisions[keys.provisions.length - 1]!)
      for (const range of sectionRanges) if (this.reader.covers(range.key, key)) out.push(...range.records);
    return this.nearest(indexed, keys, out);
  }

  /**
   * The headings of the annex that holds a compound annex cited (`Anlage I Kap X Sachgebiet D`, keys `spellings`) with
   * no heading of its own: those of the longest first parts of it that have one (`Anlage I Kap X`, else `Anlage I`).
   */
  private annexHolders(indexed: IndexedDataset, spellings: readonly string[], prefix: string | undefined): number[] {
    const pieces = spellings.map((key) => key.split("-"));
    for (let length = pieces[0]!.length - 1; length >= 2; length--) {
      const shorter = [...new Set(pieces.map((key) => key.slice(0, length).join("-")))];
      const found = this.headings(indexed, { provisions: [shorter], units: [] }, prefix);
      if (found.length > 0) return found;
    }
    return [];
  }

  /** The keys of the annex headings of a dataset (or document) that are parts of a compound annex cited (`spellings`). */
  private annexParts(indexed: IndexedDataset, spellings: readonly string[], prefix: string | undefined): string[] {
    const addresses = this.recordsOf(indexed).addresses;
    const out: string[] = [];
    for (const [key, records] of this.mapsOf(indexed).byKey)
      if (
        spellings.some((spelling) => key.startsWith(`${spelling}-`)) &&
        records.some(
          (record) =>
            (prefix === undefined || addresses[record]!.startsWith(prefix)) &&
            segmentKeys(addresses[record]!).length === 1,
        )
      )
        out.push(key);
    return out;
  }

  /**
   * The key of the annex an artifact is, when its first heading opens an annex (`schedule-1` of
   * `…/schedule-1/index.md#2`): its provisions are flat there when it is the only annex (docs/spec.md, section 7).
   */
  private annexOfArtifact(indexed: IndexedDataset, address: string): string | undefined {
    return this.mapsOf(indexed).annexArtifacts.get(address.slice(0, address.indexOf("#") + 1));
  }

  /** Whether an address is a flat one in an artifact that is an annex, below its heading (`…/schedule-1/index.md#2`). */
  private inAnnexArtifact(indexed: IndexedDataset, address: string): boolean {
    const annex = this.annexOfArtifact(indexed, address);
    const keys = segmentKeys(address);
    return annex !== undefined && keys.length === 1 && keys[0] !== annex;
  }

  /**
   * Of the records whose last segment a citation's last provision names, those inside the provisions it names before
   * (`art-229/§-1` for `Art. 229 § 1`), and of those the nearest (the reader's `distance`).
   */
  private nearest(indexed: IndexedDataset, keys: CitationKeys, records: number[]): number[] {
    const before = keys.provisions.slice(0, -1);
    const addresses = this.recordsOf(indexed).addresses;
    const out =
      before.length === 0
        ? records
        : records.filter((index) => {
            const segments = segmentKeys(addresses[index]!);
            const at = segments.length - 1 - before.length;
            if (before.every((options, k) => options.includes(segments[at + k] ?? ""))) return true;
            // An artifact that is an annex keeps the provisions in it flat: `schedule-1/index.md#2` is clause 2 of
            // Schedule 1.
            return (
              keys.annex === true &&
              before.length === 1 &&
              segments.length === 1 &&
              before[0]!.includes(this.annexOfArtifact(indexed, addresses[index]!) ?? "")
            );
          });
    if (out.length <= 1) return out;
    // The annex an artifact is counts as a segment of its flat provisions (`schedule-1/index.md#2` is as far from `s 2`
    // as `#schedule-1/2`): a section of the body is nearer.
    const distances = out.map(
      (index) =>
        this.reader.distance(addresses[index]!, keys.provisions.length) +
        (this.inAnnexArtifact(indexed, addresses[index]!) ? 1 : 0),
    );
    const nearest = Math.min(...distances);
    return out.filter((_, k) => distances[k] === nearest);
  }
}

/**
 * The edits from `a` to `b` (a letter added, dropped or changed, two neighbours swapped) when they are at most `limit`,
 * else `limit + 1` (the work stops there).
 */
function editDistance(a: string, b: string, limit: number): number {
  let before = new Array<number>(b.length + 1);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        value = Math.min(value, before[j - 2]! + 1);
      row[j] = value;
      if (value < smallest) smallest = value;
    }
    if (smallest > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** Whether two keys name the same law: the same places (another of its names, `bgb` and `bürgerliches gesetzbuch`). */
function samePlaces(a: readonly LawPlace[], b: readonly LawPlace[]): boolean {
  return (
    a.length === b.length && a.every((place, k) => place.dataset === b[k]!.dataset && place.prefix === b[k]!.prefix)
  );
}

/** What a dataset's lines that could not be read may hold, said in a reason; "" for a dataset with none. */
function linesLost(dataset: { slug: string; unreadable?: number }): string {
  const lines = dataset.unreadable ?? 0;
  return lines === 0
    ? ""
    : `${lines} ${lines === 1 ? "line" : "lines"} of ${dataset.slug}'s JSONL could not be read, and it may stand there (run citation-targets validate)`;
}

function noMatch(input: string, reason: string): ResolveResult {
  return {
    input,
    outcome: "no-match",
    precision: null,
    citationAddress: null,
    citationTargetId: null,
    candidates: [],
    reason,
  };
}
