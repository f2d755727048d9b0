/**
 * A V8 code cache for the command line's own files (the bundle `dist/node/cli*.cjs` and the precompiled validators
 * `dist/generated/*.cjs`). Compiling them is some 20 of the 100 ms a command adds to starting Node (bench/RESULTS.md,
 * start-up); Node 22 caches compiled code itself (`module.enableCompileCache`), Node 20 does not. The first run of a
 * build compiles as before and, as it exits, writes what V8 compiled of each file (`vm.Script#createCachedData`, which
 * holds the functions the run used, not only the top level); later runs hand that to V8, which skips the compile.
 *
 * What makes it safe to trust:
 * - The cache sits in the package's own folder (`dist/.code-cache/`), beside the code it stands for: whoever can write
 *   there can change the code itself. Nothing goes to a shared temporary folder, where another user could plant one.
 * - V8 rejects data of another V8 version or other flags, and data of a source of another length; it does not compare
 *   the source itself. So each cache file is named for its source file's SHA-256 as the build wrote it (the build lists
 *   them in `dist/code-digests.json`: a file not listed there is left to Node), and for the file's size, modification
 *   time (ns) and inode as it is now: a file of another build, or one edited since, is compiled afresh, whatever its
 *   length. (The stat alone is not enough: an upgrade can give a file of the same name and size the same inode and,
 *   from a tarball, the same modification time.)
 * - A cache file is written under a name of its own and renamed into place, so that a run never reads half of one, and
 *   two runs writing at once leave one whole file.
 * - Any failure (a read-only install, a full disk, a rejected file) leaves the run to compile as without a cache; it
 *   writes nothing to standard error and changes no output. `CITATION_TARGETS_NO_CODE_CACHE=1` turns the cache off.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import Module from "node:module";
import { dirname, join, relative, sep } from "node:path";
import vm from "node:vm";

/** The members of Node's CommonJS `Module` the cache takes the place of or calls (not in @types/node). */
interface LoaderModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

/** What `install` did, for the tests: the files compiled from cache, and those compiled afresh whose cache is pending. */
export interface CodeCacheState {
  readonly folder: string;
  readonly accepted: string[];
  readonly compiled: string[];
  /** Writes the pending caches now (otherwise done as the process exits); returns how many it wrote. */
  flush(): number;
}

/**
 * Caches the compiled code of the CommonJS files under `root` (the package's `dist/`) that `root/code-digests.json`
 * lists (path from `root` with `/`, to its SHA-256 in hex) and that are required from now on, in
 * `root/.code-cache/<node version>-<arch>/<kind>/`. `kind` names the run's kind (the command): a cache holds the
 * functions its first run compiled, so that each command has its own. `main` is the entry's `require.main`, handed to
 * the files' `require`.
 * Returns undefined, and changes nothing, when the environment turns the cache off or the list cannot be read.
 */
export function installCodeCache(root: string, kind: string, main?: unknown): CodeCacheState | undefined {
  if (process.env.CITATION_TARGETS_NO_CODE_CACHE === "1" || !/^[a-z][a-z-]{0,31}$/.test(kind)) return undefined;
  const digests = readDigests(join(root, DIGESTS_FILE));
  if (digests === undefined) return undefined;
  const folder = join(root, ".code-cache", `${process.version}-${process.arch}`, kind);
  const prefix = root.endsWith(sep) ? root : root + sep;
  const loader = Module.prototype as unknown as LoaderModule;
  const compile = loader._compile;
  const pending = new Map<string, vm.Script>();
  const state: CodeCacheState = { folder, accepted: [], compiled: [], flush: () => writePending(folder, pending) };
  loader._compile = function cachedCompile(this: LoaderModule, content: string, filename: string): unknown {
    if (!filename.startsWith(prefix) || !filename.endsWith(".cjs")) return compile.call(this, content, filename);
    const path = relative(root, filename).split(sep).join("/");
    const digest = Object.hasOwn(digests, path) ? digests[path] : undefined;
    const name = digest === undefined ? undefined : cacheName(path, digest, filename);
    if (name === undefined) return compile.call(this, content, filename);
    const cachePath = join(folder, name);
    const cachedData = readIfThere(cachePath);
    const script = new vm.Script(Module.wrap(content), {
      filename,
      ...(cachedData === undefined ? {} : { cachedData }),
    }); // no importModuleDynamically: the bundle calls no import() (scripts/bundle-cli.js checks)
    if (cachedData !== undefined && !script.cachedDataRejected) state.accepted.push(filename);
    else {
      state.compiled.push(filename);
      pending.set(cachePath, script);
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    // `require.resolve` made only if called (the bundle never does): a require of its own costs path look-ups, a file.
    const require = Object.assign((id: string) => this.require(id), {
      resolve: (request: string, options?: { paths?: string[] }) =>
        Module.createRequire(filename).resolve(request, options),
      main,
    });
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  process.once("exit", () => {
    state.flush();
  });
  return state;
}

/** The list of the files to cache and their digests, written by the build (scripts/bundle-cli.js). */
export const DIGESTS_FILE = "code-digests.json";

function readDigests(path: string): Record<string, string> | undefined {
  try {
    const digests: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof digests !== "object" || digests === null || Array.isArray(digests)) return undefined;
    for (const digest of Object.values(digests))
      if (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest)) return undefined;
    return digests as Record<string, string>;
  } catch {
    return undefined;
  }
}

/**
 * The cache file's name for a source file: its path under the root (folders joined by `~`), the first 16 hex digits of
 * its digest, then its size, modification time (ns) and inode, so that a file of another build or changed in place,
 * even to the same length, has another name.
 */
function cacheName(path: string, digest: string, filename: string): string | undefined {
  try {
    const info = statSync(filename, { bigint: true });
    return `${path.split("/").join("~")}.${digest.slice(0, 16)}.${info.size}-${info.mtimeNs}-${info.ino}.v8`;
  } catch {
    return undefined;
  }
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes each pending script's cache (a new name, then renamed into place), after removing the folder's files of the
 * same source files that are out of date (another build's) and the folders of other Node versions. Any failure ends it
 * quietly: the cache is an aid, never a requirement.
 */
function writePending(folder: string, pending: Map<string, vm.Script>): number {
  if (pending.size === 0) return 0;
  let written = 0;
  try {
    mkdirSync(folder, { recursive: true });
    removeStale(folder, pending);
    for (const [path, script] of pending) {
      pending.delete(path);
      const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      const descriptor = openSync(temporary, "wx", 0o644);
      try {
        writeSync(descriptor, script.createCachedData());
      } finally {
        closeSync(descriptor);
      }
      renameSync(temporary, path);
      written++;
    }
  } catch {
    // an unwritable or full folder: no cache, as before
  }
  return written;
}

/** Removes the cache files of the pending sources' earlier versions, and the caches of other Node versions. */
function removeStale(folder: string, pending: Map<string, vm.Script>): void {
  const sources = new Set([...pending.keys()].map((path) => sourceOf(path.slice(folder.length + 1))));
  for (const name of readdirSync(folder))
    if (sources.has(sourceOf(name)) && !pending.has(join(folder, name)) && name.endsWith(".v8"))
      unlinkQuietly(join(folder, name));
  const versions = dirname(dirname(folder));
  for (const version of readdirSync(versions))
    if (join(versions, version) !== dirname(folder))
      for (const kind of listQuietly(join(versions, version))) removeFolderQuietly(join(versions, version, kind));
}

function listQuietly(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** The source part of a cache file's name: the chunk names of the bundle carry a content hash, so an old build's differ. */
const sourceOf = (name: string): string => name.replace(/\.[0-9a-f]{16}\.\d+-\d+-\d+\.v8$/, "");

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

/** Empties a folder of other Node versions' caches; the folder stays (another run may be writing into it). */
function removeFolderQuietly(path: string): void {
  for (const name of listQuietly(path)) unlinkQuietly(join(path, name));
}
