/** The dataset lock manifest (docs/spec.md, section 8, "Lock manifest"). */

import canonicalize from "canonicalize";
import { CALENDAR_DATE, NON_EMPTY_STRING } from "../schema/schema.js";
import { sha256Hex } from "../bytes.js";
import {
  type ArtifactKind,
  type IndexKind,
  LEGISLATION_HOST_PATTERN,
  MANIFEST_DATASET_FIELDS,
  MARKDOWN_ARTIFACT_KINDS,
  SLUG_PATTERN,
  SOURCE_INDEX_KINDS,
} from "../model.js";

export const LOCK_VERSION = 1;
export { DEFAULT_MANIFEST_NAME } from "./manifest-name.js";

export interface ManifestArtifact {
  path: string;
  sha256: string;
  kind?: ArtifactKind;
  indexKind?: IndexKind;
  sourceDocumentPath?: string;
}

export interface LockManifest {
  lockVersion: 1;
  slug: string;
  titleId: string;
  name: string;
  versionDate: string;
  sourceTextUrl: string;
  /** Where the artifacts are, relative to the manifest's folder; "." when absent. Not part of the digest. */
  datasetRoot?: string;
  /**
   * Globs (relative to the dataset root) of markdown files that are not artifacts: `lock` and `validate` leave them
   * out. Not part of the digest.
   */
  ignore?: string[];
  /**
   * The host `sourceTextUrl` is on, when it is not the host of the config or the default (docs/spec.md, section 8):
   * `validate` checks the records against the schema of this host. Not part of the digest.
   */
  legislationHost?: string;
  /**
   * Set (always `true`) when the dataset has targets for the units below the heading (docs/spec.md, "Units below the
   * heading"); absent means none. Part of the digest: it changes what the records are.
   */
  units?: true;
  /**
   * Other names of the law (abbreviations such as `BGB`), read from the front matter keys named with `--alias` (README,
   * "resolve"); `resolve` finds the law by them. Not part of the digest.
   */
  aliases?: string[];
  /**
   * A dataset of several laws (a statute book kept as one dataset): each law's other names, by the artifact path of the
   * document whose front matter gives them, in path order; such a dataset has no `aliases`. `resolve` finds a law in
   * the dataset by them. Not part of the digest.
   */
  documentAliases?: Record<string, string[]>;
  artifacts: ManifestArtifact[];
  datasetDigest: string;
}

/**
 * The members that do not enter datasetDigest: the digest itself, where the dataset happens to be stored, which files
 * the walk leaves out, and what checks the records without changing them (the legislation host, the aliases).
 */
const UNDIGESTED = new Set(["datasetDigest", "datasetRoot", "ignore", "legislationHost", "aliases", "documentAliases"]);

/**
 * datasetDigest: lowercase hex SHA-256 of the JCS bytes of the manifest without `datasetDigest` (and `datasetRoot`,
 * `ignore`, `legislationHost`, `aliases`, `documentAliases`).
 */
export function computeDatasetDigest(manifest: Omit<LockManifest, "datasetDigest"> | LockManifest): string {
  const content = Object.fromEntries(Object.entries(manifest).filter(([key]) => !UNDIGESTED.has(key)));
  return sha256Hex(canonicalize(content) ?? "");
}

/** The manifest as written by `lock`: members in a fixed order, two-space indentation, final newline. */
export function formatManifest(manifest: LockManifest): string {
  const ordered = {
    lockVersion: manifest.lockVersion,
    slug: manifest.slug,
    titleId: manifest.titleId,
    name: manifest.name,
    versionDate: manifest.versionDate,
    sourceTextUrl: manifest.sourceTextUrl,
    ...(manifest.datasetRoot !== undefined ? { datasetRoot: manifest.datasetRoot } : {}),
    ...(manifest.ignore !== undefined ? { ignore: manifest.ignore } : {}),
    ...(manifest.legislationHost !== undefined ? { legislationHost: manifest.legislationHost } : {}),
    ...(manifest.units === true ? { units: true } : {}),
    ...(manifest.aliases !== undefined ? { aliases: manifest.aliases } : {}),
    ...(manifest.documentAliases !== undefined ? { documentAliases: manifest.documentAliases } : {}),
    artifacts: manifest.artifacts.map((a) => ({
      path: a.path,
      sha256: a.sha256,
      ...(a.kind !== undefined ? { kind: a.kind } : {}),
      ...(a.indexKind !== undefined ? { indexKind: a.indexKind } : {}),
      ...(a.sourceDocumentPath !== undefined ? { sourceDocumentPath: a.sourceDocumentPath } : {}),
    })),
    datasetDigest: manifest.datasetDigest,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

// Patterns rather than `minLength`/`format`, so the schema precompiles to a standalone validator with no runtime
// imports.
const SHA256 = { type: "string", pattern: "^[0-9a-f]{64}$" };
const ARTIFACT_PATH = {
  type: "string",
  pattern: "^(?!/)(?![\\s\\S]*//)(?!(?:[\\s\\S]*/)?\\.\\.(?:/|$))[^\\u0000\\r\\n\\\\]*\\.md$",
  description:
    "relative POSIX path ending in .md: no leading slash, no empty or '..' segment, no NUL, CR, LF or backslash",
};

/** JSON Schema (2020-12) of the lock manifest; shipped as schemas/citation-targets.lock.schema.json. */
export function buildManifestSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "urn:citation-targets:schema:lock:1",
    title: "citation-targets dataset lock manifest",
    type: "object",
    required: ["lockVersion", ...MANIFEST_DATASET_FIELDS, "artifacts", "datasetDigest"],
    additionalProperties: false,
    properties: {
      lockVersion: { const: LOCK_VERSION },
      slug: { type: "string", pattern: SLUG_PATTERN },
      titleId: NON_EMPTY_STRING,
      name: NON_EMPTY_STRING,
      versionDate: { type: "string", pattern: CALENDAR_DATE },
      sourceTextUrl: { type: "string", pattern: "^https://[^\\s/]+/\\S+$" },
      datasetRoot: {
        type: "string",
        pattern: "^[^\\u0000\\r\\n\\\\]+$",
        description:
          "the dataset root relative to the manifest's folder: a folder, or one markdown file (a name ending in .md); not digested",
      },
      ignore: {
        type: "array",
        items: NON_EMPTY_STRING,
        description: "globs (relative to the dataset root) of markdown files that are not artifacts; not digested",
      },
      legislationHost: {
        type: "string",
        pattern: LEGISLATION_HOST_PATTERN,
        description:
          "the host sourceTextUrl is on, when it is not the config's or the default: validate checks the records against the schema of this host; not digested",
      },
      units: {
        const: true,
        description: "the dataset has targets for the units below the heading (Absatz, Nummer, subsection …); digested",
      },
      aliases: {
        type: "array",
        items: NON_EMPTY_STRING,
        description:
          "other names of the law (abbreviations), read from front matter keys named with --alias; resolve finds the law by them; not digested",
      },
      documentAliases: {
        type: "object",
        propertyNames: ARTIFACT_PATH,
        additionalProperties: { type: "array", minItems: 1, items: NON_EMPTY_STRING },
        description:
          "a dataset of several laws: each law's other names, by the path of the artifact whose front matter gives them; resolve finds a law in the dataset by them; not digested",
      },
      artifacts: {
        type: "array",
        items: {
          type: "object",
          required: ["path", "sha256"],
          additionalProperties: false,
          properties: {
            path: ARTIFACT_PATH,
            sha256: SHA256,
            kind: { enum: [...MARKDOWN_ARTIFACT_KINDS] },
            indexKind: { enum: [...SOURCE_INDEX_KINDS] },
            sourceDocumentPath: NON_EMPTY_STRING,
          },
        },
      },
      datasetDigest: SHA256,
    },
  };
}
