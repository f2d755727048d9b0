/**
 * citationAddress: the grammar, its formatter and its parser (docs/spec.md, "citationAddress").
 *
 *   markdown-artifact:    <slug> "/" <escaped artifact path> "#" <local coordinate>
 *   structural-container: <slug> "/" <escaped directory path> "/"
 *
 * The path is NFC-normalised and percent-encoded outside letters, digits, marks and `-._~/`, so
 * `#`, `%`, spaces and controls never appear raw; that makes the form injective and parseable.
 */
import { SLUG_REGEXP } from "../model.js";
import { isLatin1, LATIN1_LETTER, LATIN1_NUMBER, onFirstUse } from "./latin1.js";

export type TargetKind = "markdown-artifact" | "structural-container";

export interface AddressParts {
  slug: string;
  targetKind: TargetKind;
  /** The artifact path (markdown-artifact) or the directory path (structural-container), unescaped. */
  path: string;
  /** The local coordinate; present for markdown-artifact only. */
  local?: string;
}

/** The local coordinate of the text before an artifact's first heading (and of an artifact without blocks). */
export const TOP_LOCAL = "_top";

/** One segment of a local coordinate: a designation key (`art-r*123-4`) or a slug. */
const LOCAL_SEGMENT = "[\\p{L}\\p{N}\\p{M}§.*-]+";
/** A positional tie-break `~N` (N ≥ 2) among truly identical siblings. */
const TIE = "(?:~[1-9][0-9]*)?";
/** A unit below the heading that no label names (intro, wrap-up, text between): `_1`, `_2`, … */
const POSITIONAL = "_[1-9][0-9]*";
/**
 * Segments, each with its qualifiers and a positional tie-break; after the first, a segment may be a positional unit.
 * (A tie-break ends a heading's local or a unit's step: docs/spec.md, "Units below the heading".)
 */
const localPattern = (segment: string, flags: string) => {
  // A qualifier tells apart siblings with one designation (`~dispositions-générales`): a segment not only digits.
  const qualifier = `~(?![0-9]+(?:[~/]|$))${segment}`;
  return new RegExp(
    `^(?:${TOP_LOCAL}${TIE}|${segment}(?:${qualifier})*${TIE}(?:/(?:${POSITIONAL}|${segment}(?:${qualifier})*${TIE}))*)$`,
    flags,
  );
};
const localPatternU = onFirstUse(() => localPattern(LOCAL_SEGMENT, "u"));
/** The same for a local coordinate without a character above U+00FF (`latin1.ts`: cheaper to compile). */
const LATIN1_LOCAL_PATTERN = localPattern(`[${LATIN1_LETTER}${LATIN1_NUMBER}§.*-]+`, "");
/** Each pattern of this module with a Latin-1 form, and that form (test/latin1-classes.test.ts). */
export const latin1Forms = (): readonly (readonly [RegExp, RegExp])[] => [[localPatternU(), LATIN1_LOCAL_PATTERN]];
const SAFE_PATH_CHARACTER = /[\p{L}\p{N}\p{M}\-._~/]/u;
const ASCII_SAFE_PATH = /^[A-Za-z0-9\-._~/]*$/;

/**
 * The last slug, local coordinate and path seen well-formed (and the path's escaped form): one
 * dataset repeats its slug and an artifact its path on every record, and validate parses an address
 * and formats it back, asking twice in a row. Remembering the last answer makes the one derivation as
 * cheap as a shortcut around it.
 */
let lastSlug = "";
let lastLocal = "";
let lastPath = "";
let lastEscaped = "";

function isSlug(slug: string): boolean {
  if (slug === lastSlug && slug !== "") return true;
  if (!SLUG_REGEXP.test(slug)) return false;
  lastSlug = slug;
  return true;
}

/** True when `local` is a well-formed local coordinate. */
export function isLocalCoordinate(local: string): boolean {
  if (local === lastLocal && local !== "") return true;
  if (
    !(isLatin1(local) ? LATIN1_LOCAL_PATTERN : localPatternU()).test(local) ||
    /(?:^|[/~])\.{1,2}(?:\/|~|$)/.test(local) ||
    /~1(?:\/|$)/.test(local)
  )
    return false;
  lastLocal = local;
  return true;
}

/**
 * The parts of a local coordinate: its segments, each a key with the qualifiers that tell it apart, and a positional
 * tie-break.
 */
export interface LocalParts {
  /**
   * Each with the tie-break that ends it when a segment follows it (a heading's local that units below it extend:
   * `§-37~2/abs-1`). A positional unit's segment is its key alone (`_1`).
   */
  segments: { key: string; qualifiers: string[]; tie?: number }[];
  /** The positional tie-break among truly identical siblings (2 or more) that ends the local, if any. */
  tie?: number;
}

/** Whether a segment of a local is a positional unit (`_1`): one that citations never name. */
export function isPositionalSegment(key: string): boolean {
  return key.charCodeAt(0) === 0x5f && key !== TOP_LOCAL;
}

/**
 * Parses a local coordinate into its parts (`art-1~übergangsbestimmungen/§-2~3`); undefined when it is not one.
 * `formatLocal(parseLocal(l)) === l`.
 */
export function parseLocal(local: string): LocalParts | undefined {
  if (!isLocalCoordinate(local)) return undefined;
  let last: number | undefined;
  const pieces = local.split("/");
  const segments = pieces.map((segment, i) => {
    const [key, ...qualifiers] = segment.split("~");
    const tie =
      qualifiers.length > 0 && /^[0-9]+$/.test(qualifiers[qualifiers.length - 1]!) ? qualifiers.pop() : undefined;
    if (tie === undefined) return { key: key!, qualifiers };
    if (i === pieces.length - 1) {
      last = Number(tie);
      return { key: key!, qualifiers };
    }
    return { key: key!, qualifiers, tie: Number(tie) };
  });
  return last !== undefined ? { segments, tie: last } : { segments };
}

/** Formats a local coordinate from its parts; throws on parts that no local can carry. */
export function formatLocal(parts: LocalParts): string {
  const local =
    parts.segments
      .map((s) => [s.key, ...s.qualifiers, ...(s.tie === undefined ? [] : [String(s.tie)])].join("~"))
      .join("/") + (parts.tie === undefined ? "" : `~${parts.tie}`);
  const back = parseLocal(local);
  if (
    back === undefined ||
    JSON.stringify(back) !== JSON.stringify(parts.tie === undefined ? { segments: parts.segments } : parts)
  )
    throw new Error(`invalid local coordinate parts ${JSON.stringify(parts)}`);
  return local;
}

/**
 * Percent-encodes a path for an address: NFC, then every character outside letters, digits, marks and `-._~/` as UTF-8
 * `%XX`.
 */
export function escapePath(path: string): string {
  if (path === lastPath && path !== "") return lastEscaped;
  if (ASCII_SAFE_PATH.test(path)) return path; // the common case: nothing to normalise or escape
  let out = "";
  for (const character of path.normalize("NFC")) {
    if (SAFE_PATH_CHARACTER.test(character)) out += character;
    else
      for (const byte of new TextEncoder().encode(character))
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  lastPath = path;
  lastEscaped = out;
  return out;
}

/** Reverses escapePath; undefined for a malformed escape. */
export function unescapePath(escaped: string): string | undefined {
  if (ASCII_SAFE_PATH.test(escaped)) return escaped;
  if (/%(?![0-9A-F]{2})/.test(escaped)) return undefined;
  for (const character of escaped) if (character !== "%" && !SAFE_PATH_CHARACTER.test(character)) return undefined;
  try {
    const path = decodeURIComponent(escaped);
    return escapePath(path) === escaped ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Formats an address from its parts; throws on parts that no address can carry. */
export function formatAddress(parts: AddressParts): string {
  if (parts.targetKind === "structural-container") {
    checkSlugAndPath(parts.slug, parts.path);
    return `${parts.slug}/${escapePath(parts.path)}/`;
  }
  return targetAddress(targetAddressPrefix(parts.slug, parts.path), parts.local);
}

function checkSlugAndPath(slug: string, path: string): void {
  if (!isSlug(slug)) throw new Error(`invalid slug ${JSON.stringify(slug)}`);
  if (path === "" || path.startsWith("/") || path.endsWith("/"))
    throw new Error(`invalid path ${JSON.stringify(path)}`);
}

/**
 * What the addresses of an artifact's markdown-artifact targets start with (`slug/path#`), for targetAddress: the slug
 * and path checked once for all of them. Throws as formatAddress does.
 */
export function targetAddressPrefix(slug: string, path: string): string {
  checkSlugAndPath(slug, path);
  return `${slug}/${escapePath(path)}#`;
}

/** The address of the target at `local` in the artifact of `prefix` (targetAddressPrefix): formatAddress's. */
export function targetAddress(prefix: string, local: string | undefined): string {
  if (local === undefined || !isLocalCoordinate(local))
    throw new Error(`invalid local coordinate ${JSON.stringify(local)}`);
  return prefix + local;
}

/**
 * Parses an address into its parts; undefined when it is not in the grammar. `formatAddress(parseAddress(a)) === a`.
 */
export function parseAddress(address: string): AddressParts | undefined {
  const slash = address.indexOf("/");
  if (slash <= 0) return undefined;
  const slug = address.slice(0, slash);
  if (!isSlug(slug)) return undefined;
  const rest = address.slice(slash + 1);
  const hash = rest.indexOf("#");
  if (hash === -1) {
    if (!rest.endsWith("/") || rest.length < 2) return undefined;
    const path = unescapePath(rest.slice(0, -1));
    if (path === undefined || !isValidPath(path)) return undefined;
    return { slug, targetKind: "structural-container", path };
  }
  const path = unescapePath(rest.slice(0, hash));
  const local = rest.slice(hash + 1);
  if (path === undefined || !isValidPath(path) || !isLocalCoordinate(local)) return undefined;
  return { slug, targetKind: "markdown-artifact", path, local };
}

function isValidPath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.endsWith("/") && !path.includes("//");
}
