/**
 * The schema half of `diff`: two versions of the record JSON Schema, and the contract around it
 * (docs/spec.md, sections 12.2 and 12.3). Pure: works on parsed JSON.
 *
 * The walk pairs the two schemas keyword by keyword and names each difference by the finest kind
 * that fits: a property added to or removed from a `properties` object (field-added, field-removed),
 * a value added to or removed from an `enum` or `const` (enum-value-added, enum-value-removed), a
 * `pattern` of a path field (path-pattern-changed). Whatever is left is schema-digest-changed; the
 * contract's other inputs are compared by value (digest-framing-changed, path-pattern-changed for the
 * dataset path pattern, contract-digest-changed for the address grammar).
 */
import canonicalize from "canonicalize";
import { CITATION_TARGET_ID_FRAMING } from "../digest.js";
import { sha256Hex } from "../bytes.js";
import { classOf, type ChangeKind, type DiffChange, type DigestPair, MAX_POINTERS } from "./diff.js";

/** The address grammar of docs/spec.md, section 7, by version. */
export const ADDRESS_GRAMMAR = "citation-address/v1";
/** Where a dataset's file lives (docs/spec.md, section 1). */
export const DATASET_PATH_PATTERN = ".tooling/citation-targets/<slug>.jsonl";

/** The contract a record schema stands for: what a consumer relies on beyond the schema's own bytes. */
export interface SchemaContract {
  addressGrammar: string;
  citationTargetIdFraming: string;
  datasetPathPattern: string;
  schemaDigest: string;
}

const TOKENS = {
  citationTargetIdFraming: /citation-target-id\/v[0-9]+/,
  addressGrammar: /citation-address\/v[0-9]+/,
  datasetPathPattern: /[^\s"'`()]*<slug>\.jsonl/,
} as const;
type Token = keyof typeof TOKENS;
const DEFAULTS: Record<Token, string> = {
  citationTargetIdFraming: CITATION_TARGET_ID_FRAMING,
  addressGrammar: ADDRESS_GRAMMAR,
  datasetPathPattern: DATASET_PATH_PATTERN,
};
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples"]);

const escapeToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const jcs = (value: unknown) => canonicalize(value) ?? "undefined";

/** SHA-256 of the schema's RFC 8785 (JCS) bytes. */
export function schemaDigest(schema: unknown): string {
  return sha256Hex(jcs(schema));
}

/** Annotation strings (description, $comment) in canonical key order, with their pointers. */
function annotations(
  node: unknown,
  pointer = "",
  out: { pointer: string; text: string }[] = [],
): { pointer: string; text: string }[] {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) annotations(item, `${pointer}/${i}`, out);
  } else if (isObject(node)) {
    for (const key of Object.keys(node).sort()) {
      const value = node[key];
      if ((key === "description" || key === "$comment") && typeof value === "string")
        out.push({ pointer: `${pointer}/${escapeToken(key)}`, text: value });
      else annotations(value, `${pointer}/${escapeToken(key)}`, out);
    }
  }
  return out;
}

/**
 * What the schema declares of its contract (tokens in its descriptions), with the pointer of each declaration; the v1
 * values of docs/spec.md where it declares none.
 */
export function contractOf(schema: unknown): { contract: SchemaContract; declaredAt: Partial<Record<Token, string>> } {
  const declaredAt: Partial<Record<Token, string>> = {};
  const found: Partial<Record<Token, string>> = {};
  for (const { pointer, text } of annotations(schema)) {
    for (const token of Object.keys(TOKENS) as Token[]) {
      if (found[token] !== undefined) continue;
      const match = TOKENS[token].exec(text);
      if (match) {
        found[token] = match[0];
        declaredAt[token] = pointer;
      }
    }
  }
  const value = (token: Token) => found[token] ?? DEFAULTS[token];
  return {
    contract: {
      addressGrammar: value("addressGrammar"),
      citationTargetIdFraming: value("citationTargetIdFraming"),
      datasetPathPattern: value("datasetPathPattern"),
      schemaDigest: schemaDigest(schema),
    },
    declaredAt,
  };
}

/** SHA-256 of the JCS bytes of the contract: schema digest, framing, address grammar and dataset path pattern. */
export function contractDigest(contract: SchemaContract): string {
  return sha256Hex(jcs(contract));
}

/** A description with the contract tokens blanked: two that differ only in them are explained by the contract kinds. */
const withoutTokens = (text: string) =>
  Object.values(TOKENS).reduce((t, re) => t.replace(new RegExp(re.source, "g"), "\u0000"), text);

/** `urn:…:1.2.3` → prefix and version parts, for $id changes that are only a minor or patch bump. */
function versionedId(id: unknown): { prefix: string; major: number } | undefined {
  if (typeof id !== "string") return undefined;
  const match = /^(.*?)([0-9]+)\.([0-9]+)\.([0-9]+)$/.exec(id);
  return match ? { prefix: match[1]!, major: Number(match[2]) } : undefined;
}

interface Walk {
  changes: DiffChange[];
  residual: string[];
}

function change(walk: Walk, kind: ChangeKind, fields: Omit<DiffChange, "kind" | "class">): void {
  walk.changes.push({ kind, class: classOf(kind), ...fields });
}

/** The values an object allows by `enum` or `const`, or undefined. */
function allowed(node: Record<string, unknown>): { keyword: "enum" | "const"; values: unknown[] } | undefined {
  if ("enum" in node && Array.isArray(node.enum)) return { keyword: "enum", values: node.enum };
  if ("const" in node) return { keyword: "const", values: [node.const] };
  return undefined;
}

const isPathName = (name: string | undefined) => name !== undefined && /path$/i.test(name);

/**
 * Pairs two schema nodes at `pointer`. `pathField`: inside a path field (its name ends in "Path": the shared path
 * rule).
 */
function walkNode(walk: Walk, a: unknown, b: unknown, pointer: string, pathField: boolean, owner: string): void {
  if (jcs(a) === jcs(b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const at = `${pointer}/${i}`;
      if (i < a.length && i < b.length) walkNode(walk, a[i], b[i], at, pathField, owner);
      else patternOrResidual(walk, i < a.length ? a[i] : undefined, i < b.length ? b[i] : undefined, at, pathField);
    }
    return;
  }
  if (!isObject(a) || !isObject(b)) {
    walk.residual.push(pointer);
    return;
  }
  let classified = false;
  const residualBefore = walk.residual.length;
  const handled = new Set<string>();
  // enum / const: values added and removed.
  const before = allowed(a);
  const after = allowed(b);
  if (before && after) {
    handled.add("enum").add("const");
    const keyword = after.keyword;
    const oldValues = new Map(before.values.map((v) => [jcs(v), v]));
    const newValues = new Map(after.values.map((v) => [jcs(v), v]));
    let any = false;
    for (const [key, value] of oldValues) {
      if (newValues.has(key)) continue;
      any = true;
      change(walk, "enum-value-removed", {
        pointer: `${pointer}/${keyword}`,
        value,
        message: `enum value ${jcs(value)} removed at ${pointer}/${keyword}`,
      });
    }
    for (const [key, value] of newValues) {
      if (oldValues.has(key)) continue;
      any = true;
      change(walk, "enum-value-added", {
        pointer: `${pointer}/${keyword}`,
        value,
        message: `enum value ${jcs(value)} added at ${pointer}/${keyword}`,
      });
    }
    if (any) classified = true;
    else if (jcs(a.enum) !== jcs(b.enum) || jcs(a.const) !== jcs(b.const)) walk.residual.push(`${pointer}/${keyword}`); // same values, other form or order
  }
  // pattern: a path pattern in a path field, else a residual change.
  if (a.pattern !== b.pattern) {
    handled.add("pattern");
    if (pathField) {
      classified = true;
      change(walk, "path-pattern-changed", {
        pointer: `${pointer}/pattern`,
        ...(a.pattern !== undefined ? { before: a.pattern } : {}),
        ...(b.pattern !== undefined ? { after: b.pattern } : {}),
        message: `path pattern at ${pointer}/pattern ${a.pattern === undefined ? "added" : b.pattern === undefined ? "removed" : "changed"}: ${jcs(a.pattern)} → ${jcs(b.pattern)}`,
      });
    } else walk.residual.push(`${pointer}/pattern`);
  } else handled.add("pattern");
  // properties: fields added and removed.
  const fieldsAdded = new Set<string>();
  const fieldsRemoved = new Set<string>();
  if ("properties" in a || "properties" in b) {
    handled.add("properties");
    const pa = isObject(a.properties) ? a.properties : {};
    const pb = isObject(b.properties) ? b.properties : {};
    const where = typeof b.title === "string" ? b.title : typeof a.title === "string" ? a.title : pointer || "/";
    for (const name of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
      const at = `${pointer}/properties/${escapeToken(name)}`;
      if (!(name in pb)) {
        fieldsRemoved.add(name);
        change(walk, "field-removed", { pointer: at, message: `field "${name}" removed from ${where} (${at})` });
      } else if (!(name in pa)) {
        fieldsAdded.add(name);
        change(walk, "field-added", { pointer: at, message: `field "${name}" added to ${where} (${at})` });
      } else walkNode(walk, pa[name], pb[name], at, pathField || isPathName(name), where);
    }
  }
  // required: a name that comes or goes with its field is explained by it.
  if ("required" in a || "required" in b) {
    handled.add("required");
    const ra = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
    const rb = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
    const unexplained =
      [...rb].some((n) => !ra.has(n) && !fieldsAdded.has(n)) ||
      [...ra].some((n) => !rb.has(n) && !fieldsRemoved.has(n));
    if (unexplained) walk.residual.push(`${pointer}/required`);
  }
  // $defs: each definition walked; one added or removed is a residual change.
  if ("$defs" in a || "$defs" in b) {
    handled.add("$defs");
    const da = isObject(a.$defs) ? a.$defs : {};
    const db = isObject(b.$defs) ? b.$defs : {};
    for (const name of new Set([...Object.keys(da), ...Object.keys(db)])) {
      const at = `${pointer}/$defs/${escapeToken(name)}`;
      if (name in da && name in db) walkNode(walk, da[name], db[name], at, pathField || isPathName(name), owner);
      else walk.residual.push(at);
    }
  }
  // $id: a minor or patch bump of the same major version is explained by the changes it comes with.
  if (a.$id !== b.$id) {
    handled.add("$id");
    const ia = versionedId(a.$id);
    const ib = versionedId(b.$id);
    if (!(ia && ib && ia.prefix === ib.prefix && ia.major === ib.major)) walk.residual.push(`${pointer}/$id`);
  } else handled.add("$id");
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !handled.has(key));
  for (const key of keys) {
    if (ANNOTATIONS.has(key)) continue;
    const at = `${pointer}/${escapeToken(key)}`;
    if (!(key in a) || !(key in b)) patternOrResidual(walk, a[key], b[key], at, pathField);
    else walkNode(walk, a[key], b[key], at, pathField, owner);
  }
  // Annotations last: one is explained when another keyword of the same object changed (it describes that keyword),
  // or when it differs only in the contract's tokens (compared on their own); else it is a residual change.
  const ownKeyword = (p: string) => p.startsWith(`${pointer}/`) && !p.slice(pointer.length + 1).includes("/");
  const changedHere = classified || walk.residual.slice(residualBefore).some(ownKeyword);
  for (const key of keys) {
    if (!ANNOTATIONS.has(key) || jcs(a[key]) === jcs(b[key]) || changedHere) continue;
    if (
      typeof a[key] === "string" &&
      typeof b[key] === "string" &&
      withoutTokens(a[key] as string) === withoutTokens(b[key] as string)
    )
      continue;
    walk.residual.push(`${pointer}/${escapeToken(key)}`);
  }
}

/** A subschema that appears or disappears: a path pattern when it is one, else a residual change. */
function patternOrResidual(walk: Walk, a: unknown, b: unknown, pointer: string, pathField: boolean): void {
  const node = a ?? b;
  const onlyPattern =
    isObject(node) && "pattern" in node && Object.keys(node).every((k) => k === "pattern" || ANNOTATIONS.has(k));
  if (pathField && onlyPattern) {
    const before = isObject(a) ? a.pattern : undefined;
    const after = isObject(b) ? b.pattern : undefined;
    change(walk, "path-pattern-changed", {
      pointer: `${pointer}/pattern`,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
      message: `path pattern at ${pointer}/pattern ${before === undefined ? "added" : "removed"}: ${jcs(before)} → ${jcs(after)}`,
    });
  } else walk.residual.push(pointer);
}

export interface SchemaDiff {
  changes: DiffChange[];
  digests: { schema: DigestPair; contract: DigestPair };
  contracts: { before: SchemaContract; after: SchemaContract };
}

/** Compares two record schemas and their contracts; the changes come in the walk's order, contract kinds first. */
export function diffSchemas(before: unknown, after: unknown): SchemaDiff {
  const walk: Walk = { changes: [], residual: [] };
  const old = contractOf(before);
  const now = contractOf(after);
  const changes: DiffChange[] = [];
  const at = (token: Token) => now.declaredAt[token] ?? old.declaredAt[token] ?? "";
  const contractChange = (kind: ChangeKind, token: Token, what: string) => {
    const from = old.contract[token];
    const to = now.contract[token];
    if (from !== to)
      changes.push({
        kind,
        class: classOf(kind),
        pointer: at(token),
        before: from,
        after: to,
        message: `${what} changed: ${from} → ${to}`,
      });
  };
  contractChange("digest-framing-changed", "citationTargetIdFraming", "the citationTargetId framing");
  contractChange("path-pattern-changed", "datasetPathPattern", "the dataset path pattern");
  contractChange("contract-digest-changed", "addressGrammar", "the citation address grammar");
  walkNode(walk, before, after, "", false, "/");
  for (const change of walk.changes) changes.push(change);
  const schema = { before: old.contract.schemaDigest, after: now.contract.schemaDigest };
  if (walk.residual.length > 0) {
    const shown = walk.residual.slice(0, MAX_POINTERS);
    const more = walk.residual.length - shown.length;
    changes.push({
      kind: "schema-digest-changed",
      class: "breaking",
      pointer: "",
      before: schema.before,
      after: schema.after,
      pointers: shown,
      message: `the schema changed where no finer kind applies: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`,
    });
  }
  return {
    changes,
    digests: { schema, contract: { before: contractDigest(old.contract), after: contractDigest(now.contract) } },
    contracts: { before: old.contract, after: now.contract },
  };
}
