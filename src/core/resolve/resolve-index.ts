/**
 * The matcher of `resolve` (docs/spec.md, section 19): an index of the records of one or more datasets, and a citation
 * read (citation-reader.ts) found in it. Pure: records in, results out.
 *
 * A heading record is found by the designation key of the last segment of its local coordinate (`§-823`, `art-8`,
 * `6aa`; qualifiers and the tie-break left out), a unit record by its address: the heading's address with one step per
 * unit appended (`…#§-823/abs-1`, `…#§-309/nr-9/bst-a`, `…#6/subsec-1/para-a`).
 */
import {
  type Citation,
  type CitationStep,
  createCitationReader,
  type ProvisionKind,
  READER_TABLES,
  type StepKind,
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
  records: readonly ResolveRecord[];
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
  /** Why it did not match, or what makes it ambiguous. */
  reason?: string;
}

/** The most candidates an ambiguous result lists. */
export const MAX_CANDIDATES = 3;

/** The step kinds an address names, with their prefix (docs/spec.md, section 7, unit addresses). */
const ADDRESSED: Partial<Record<StepKind, string>> = {
  abs: "abs",
  nr: "nr",
  bst: "bst",
  dbst: "dbst",
  subsec: "subsec",
  para: "para",
  subpara: "subpara",
};

/** A law's name, title id, slug or alias as compared: NFC, lower case, white space collapsed, no closing dot. */
export function lawKey(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\s\u00a0\u202f]+/g, " ")
    .replace(/[.,;:]+$/, "")
    .trim();
}

/** The designation keys a provision step can have in an address (an Australian section is a bare number). */
export function provisionKeys(kind: ProvisionKind, label: string): string[] {
  if (kind === "§") return [`§-${label}`];
  if (kind === "art") return [`art-${label}`];
  return [label, `sec-${label}`];
}

/** The address step of a unit (`abs-1`), or undefined for a unit no address names (Satz, Unterabsatz, alinéa). */
export function unitStep(step: CitationStep): string | undefined {
  const prefix = ADDRESSED[step.kind];
  return prefix === undefined ? undefined : `${prefix}-${step.label}`;
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

interface IndexedDataset {
  dataset: ResolveDataset;
  /** Record position by address. */
  byAddress: Map<string, number>;
  /** Record positions by the key of their last local segment, in document order. */
  byKey: Map<string, number[]>;
}

/** The index of `resolve`: built once from the datasets, then asked any number of citations. */
export class ResolveIndex {
  private readonly datasets: IndexedDataset[];
  private readonly laws = new Map<string, number[]>();
  private readonly reader = createCitationReader(READER_TABLES);

  constructor(datasets: readonly ResolveDataset[]) {
    this.datasets = datasets.map((dataset, position) => {
      for (const name of [dataset.titleId, dataset.name, dataset.slug, ...(dataset.aliases ?? [])]) {
        const key = lawKey(name);
        if (key === "") continue;
        const list = this.laws.get(key);
        if (list === undefined) this.laws.set(key, [position]);
        else if (list[list.length - 1] !== position) list.push(position);
      }
      const byAddress = new Map<string, number>();
      const byKey = new Map<string, number[]>();
      dataset.records.forEach((record, index) => {
        byAddress.set(record.citationAddress, index);
        const key = lastSegmentKey(record.citationAddress);
        if (key === undefined) return;
        const list = byKey.get(key);
        if (list === undefined) byKey.set(key, [index]);
        else list.push(index);
      });
      return { dataset, byAddress, byKey };
    });
  }

  /** How many datasets the index holds. */
  get size(): number {
    return this.datasets.length;
  }

  /** Reads and resolves one citation. `lawOptional`: a citation naming no law is looked for in every dataset. */
  resolve(input: string, options: { lawOptional?: boolean } = {}): ResolveResult {
    const citation = this.reader.read(input);
    if (citation === undefined)
      return noMatch(
        input,
        "not read as a citation: no provision with its number (§ 823, Art. 6, s 6, section 13, article L. 121-1)",
      );
    return this.resolveCitation(input, citation, options);
  }

  /** Resolves a citation read. */
  resolveCitation(input: string, citation: Citation, options: { lawOptional?: boolean } = {}): ResolveResult {
    const range = citation.range ? { range: true as const } : {};
    let datasets: number[];
    if (citation.law === undefined) {
      if (!options.lawOptional)
        return { ...noMatch(input, "names no law, and no dataset was named (--dataset)"), ...range };
      datasets = this.datasets.map((_, position) => position);
    } else {
      datasets = this.laws.get(lawKey(citation.law.text)) ?? [];
      if (datasets.length === 0)
        return {
          ...noMatch(
            input,
            `no dataset${options.lawOptional ? " of those named" : ""} is the law "${citation.law.text}" (by its titleId, name, slug or an alias)`,
          ),
          ...range,
        };
    }
    const provisions = citation.steps.filter(
      (step) => step.kind === "§" || step.kind === "art" || step.kind === "section",
    );
    const units = citation.steps.slice(provisions.length);
    const found: { dataset: number; record: number; precision: ResolvePrecision; ranges: [number, number][] }[] = [];
    const lawRange: [number, number][] = citation.law !== undefined ? [[citation.law.start, citation.law.end]] : [];
    for (const position of datasets) {
      const indexed = this.datasets[position]!;
      for (const heading of this.headings(indexed, provisions, citation)) {
        const ranges: [number, number][] = provisions.map((step) => [step.start, step.end]);
        // Walk down the units: the address grows by each unit an address names; the deepest record there is the target,
        // the unit itself when it is the whole citation's.
        let address = indexed.dataset.records[heading]!.citationAddress;
        let record = heading;
        let exact = true;
        for (const step of units) {
          const name = unitStep(step);
          if (name === undefined) {
            if (step === units[units.length - 1]) exact = false;
            continue;
          }
          address = `${address}/${name}`;
          const below = indexed.byAddress.get(address);
          if (below === undefined) {
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
        });
      }
    }
    if (found.length === 0) {
      const what = input.slice(provisions[0]!.start, provisions[provisions.length - 1]!.end);
      const where =
        citation.law !== undefined
          ? `"${citation.law.text}" (${datasets
              .map((p) => this.datasets[p]!.dataset.slug)
              .slice(0, 3)
              .join(", ")}${datasets.length > 3 ? ", …" : ""})`
          : datasets.length === 1
            ? this.datasets[datasets[0]!]!.dataset.slug
            : `the ${datasets.length} datasets named`;
      return { ...noMatch(input, `${where} has no ${what}`), ...range };
    }
    if (found.length === 1) {
      const only = found[0]!;
      const record = this.datasets[only.dataset]!.dataset.records[only.record]!;
      return {
        input,
        outcome: "match",
        precision: only.precision,
        citationAddress: record.citationAddress,
        citationTargetId: record.citationTargetId,
        candidates: [],
        ...range,
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
        const record = this.datasets[f.dataset]!.dataset.records[f.record]!;
        return {
          id: record.citationTargetId,
          label: record.citationAddress,
          secondaryLabel: record.headingText,
          matchedRanges: f.ranges,
        };
      }),
      ...range,
      reason:
        inDatasets > 1
          ? `${found.length} targets in ${inDatasets} datasets (editions or versions of the law?): name one with --dataset`
          : `${found.length} targets of the same designation in ${this.datasets[found[0]!.dataset]!.dataset.slug}`,
    };
  }

  /**
   * The heading records a citation's provisions name in one dataset: those whose local coordinate ends with the
   * provisions' keys (`art-229/§-1`), the one at the top of its artifact preferred (`§-1` over `art-2/§-1`). A range
   * whose heading is there (`§§ 3 bis 13 (weggefallen)` → `§§-3-bis-13`) is that heading; else its first provision.
   */
  private headings(indexed: IndexedDataset, provisions: CitationStep[], citation: Citation): number[] {
    const last = provisions[provisions.length - 1]!;
    if (citation.rangeEnd !== undefined && last.kind === "§") {
      const whole = indexed.byKey.get(`§§-${last.label}-bis-${citation.rangeEnd}`);
      if (whole !== undefined) return whole;
    }
    const before = provisions.slice(0, -1).map((step) => provisionKeys(step.kind as ProvisionKind, step.label));
    const out: number[] = [];
    for (const key of provisionKeys(last.kind as ProvisionKind, last.label)) {
      for (const index of indexed.byKey.get(key) ?? []) {
        if (before.length > 0) {
          const keys = segmentKeys(indexed.dataset.records[index]!.citationAddress);
          const ok = before.every((options, k) => options.includes(keys[keys.length - 1 - before.length + k] ?? ""));
          if (!ok) continue;
        }
        out.push(index);
      }
    }
    if (out.length <= 1) return out;
    // Of several, the provision itself before one in a scope of its own: not one qualified by what it stands under
    // (`art-2~übergangsbestimmungen-…`, a transitional provision), and not one inside another provision the citation
    // does not name (`art-2/§-1` for `§ 1`), and not one deeper (`anlage-3/§-1`, `schedule-1/6`). Truly identical siblings (`§-37`, `§-37~2`) stay ambiguous.
    const rank = (index: number): number => {
      const address = indexed.dataset.records[index]!.citationAddress;
      const local = address.slice(address.indexOf("#") + 1).split("/");
      const last = local[local.length - 1]!;
      const qualified = /~(?!\d+$)/.test(last) ? 1000 : 0;
      const inside = local.slice(0, -provisions.length).filter((s) => /^(§|art-)/.test(s)).length;
      return qualified + inside * 100 + local.length; // and the one at the top before one in an annex or schedule
    };
    const ranks = out.map(rank);
    const best = Math.min(...ranks);
    return out.filter((_, k) => ranks[k] === best);
  }
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
