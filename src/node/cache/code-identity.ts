/**
 * The code identity of a cache (docs/spec.md, "Worker threads and the cache"): what makes a cache's entries stand for
 * the code that would otherwise run. It is read from the import graph of the modules the cache serves, as built
 * (dist/; src/ in the test suite): every module they import, directly or through others, statically or by `import()` of
 * a literal, with its bytes; this package's version; and the version of every package those modules import. A module
 * moved, added to the graph or changed, or another version of a package, gives another identity, and the cache's
 * entries are missed: no list of modules is kept by hand.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, posix } from "node:path";
import { sha256Stream } from "../../core/bytes.js";
import { codePath } from "../code-root.js";
import { builtIdentity } from "./built-identities.js";

/**
 * The specifiers a module's text imports: the static imports and re-exports (with `from`), the bare imports of a module
 * for its effects, and the dynamic imports of a string literal (a specifier computed at run time cannot be read from
 * the text: the cache names such modules as roots).
 */
export function importsOf(text: string): string[] {
  const pattern =
    /(?:^|[\n;])\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"'\n]+)["']|(?:^|[\n;])\s*import\s*["']([^"'\n]+)["']|\bimport\(\s*["']([^"'\n]+)["']\s*\)/g;
  return [...text.matchAll(pattern)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/** The modules a cache's code is made of, by path from the code's folder, and the packages they import, each sorted. */
export interface CodeGraph {
  modules: string[];
  packages: string[];
}

/** A package's name from a bare specifier (`ajv/dist/2020.js` → `ajv`, `@scope/name/x` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

const BUILTIN = new Set(builtinModules);

/** A package's name as npm allows it (a text in a comment that looks like an import is not one). */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * The file of a module by its path from `root` without its extension or with `.js`: as built (`.js`) or as a source
 * (`.ts`, whose imports name `.js`); undefined when there is neither.
 */
function fileOf(root: string, path: string): { name: string; bytes: Buffer } | undefined {
  const stem = path.endsWith(".js") ? path.slice(0, -".js".length) : path;
  for (const name of [`${stem}.js`, `${stem}.ts`]) {
    try {
      return { name, bytes: readFileSync(join(root, ...name.split("/"))) };
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * Walks the imports from `roots` (paths from `root`, the code's folder, with or without `.js`): each module once,
 * relative specifiers followed, bare ones kept as packages (Node's own modules left out).
 */
export function codeGraph(
  roots: readonly string[],
  root: string = codePath(""),
): CodeGraph & { bytes: Map<string, Buffer | undefined> } {
  const bytes = new Map<string, Buffer | undefined>();
  const packages = new Set<string>();
  const pending = [...roots];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const path = posix.normalize(pending.pop()!);
    if (seen.has(path)) continue;
    seen.add(path);
    const file = fileOf(root, path);
    if (file === undefined) {
      bytes.set(path, undefined); // not there (src/ has no generated validators): named, so that its coming counts
      continue;
    }
    if (bytes.has(file.name)) continue;
    bytes.set(file.name, file.bytes);
    for (const specifier of importsOf(file.bytes.toString("utf8"))) {
      if (specifier.startsWith(".")) pending.push(posix.join(posix.dirname(file.name), specifier));
      else if (!specifier.startsWith("node:") && !BUILTIN.has(specifier) && PACKAGE_NAME.test(packageOf(specifier)))
        packages.add(packageOf(specifier));
    }
  }
  return { modules: [...bytes.keys()].sort(), packages: [...packages].sort(), bytes };
}

/** A package's installed version, as Node would find it from `from` (`?` when it is not installed). */
function installedVersion(name: string, from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    try {
      const text = readFileSync(join(folder, "node_modules", ...name.split("/"), "package.json"), "utf8");
      return String((JSON.parse(text) as { version?: unknown }).version ?? "");
    } catch {
      // not installed here
    }
    if (dirname(folder) === folder) return "?";
  }
}

/** This package's version (`?` when its package.json cannot be read). */
function ownVersion(root: string): string {
  try {
    return String(
      (JSON.parse(readFileSync(join(root, "..", "package.json"), "utf8")) as { version?: unknown }).version,
    );
  } catch {
    return "?";
  }
}

const identities = new Map<string, string>();

/**
 * The SHA-256 of the code reached from `roots` (codeGraph): each module's path and bytes, this package's version, and
 * each package's name and installed version. Worked out once per process for the same roots; as built, read from the
 * identities the build worked out (built-identities.ts) rather than from about a hundred modules each run.
 */
export function codeIdentity(roots: readonly string[], root: string = codePath("")): string {
  const key = `${root}\0${roots.join("\0")}`;
  const known = identities.get(key) ?? builtIdentity(roots, root);
  if (known !== undefined) return known;
  const identity = computeCodeIdentity(roots, root);
  identities.set(key, identity);
  return identity;
}

/** The identity of the code reached from `roots`, worked out from its files each time (codeIdentity). */
export function computeCodeIdentity(roots: readonly string[], root: string = codePath("")): string {
  const graph = codeGraph(roots, root);
  const hash = sha256Stream();
  for (const name of graph.modules) {
    hash.update(`${name}\0`);
    const bytes = graph.bytes.get(name);
    hash.update(bytes ?? "?");
    hash.update("\0");
  }
  hash.update(`${ownVersion(root)}\0`);
  for (const name of graph.packages) hash.update(`${name}\0${installedVersion(name, root)}\0`);
  return hash.digest("hex");
}
