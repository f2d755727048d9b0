/**
 * What a run reads of a dataset, for the rule that no output is written over an input (`refuseOverInputs`, and the job
 * summary: SECURITY.md, "Outputs never over inputs"): a lock manifest and the artifacts it pins, as `generate -o`
 * refuses them.
 */
import { lstatSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { OperationalError } from "../errors.js";
import { rootParts } from "../dataset/dataset-root.js";
import { readRegularIfPresent } from "../files/regular-file.js";

/** An input of a run: its absolute path, and how a refusal names it. */
export interface RunInput {
  path: string;
  what: string;
}

/**
 * A lock manifest and the artifacts it pins (`datasetRoot` and each artifact's path, read from the manifest as it is):
 * the manifest alone when it cannot be read or parsed as one (its problem is reported where it is checked).
 */
export function manifestInputs(manifest: string, shown: string): RunInput[] {
  const inputs: RunInput[] = [{ path: manifest, what: `the lock manifest ${shown}` }];
  const bytes = readRegularIfPresent(manifest);
  if (bytes === undefined) return inputs;
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch {
    return inputs;
  }
  if (typeof data !== "object" || data === null) return inputs;
  const { datasetRoot, artifacts } = data as { datasetRoot?: unknown; artifacts?: unknown };
  if (!Array.isArray(artifacts)) return inputs;
  const { folder } = rootParts(resolve(dirname(manifest), typeof datasetRoot === "string" ? datasetRoot : "."));
  for (const artifact of artifacts) {
    const path = (artifact as { path?: unknown } | null)?.path;
    if (typeof path === "string")
      inputs.push({ path: join(folder, ...path.split("/")), what: `the artifact ${path} of ${shown}` });
  }
  return inputs;
}

/** The lock manifest beside a JSONL (`<name>.lock.json` beside `<name>.jsonl`), as validate finds it; or undefined. */
export function manifestBeside(jsonl: string): string | undefined {
  return jsonl.endsWith(".jsonl") ? `${jsonl.slice(0, -".jsonl".length)}.lock.json` : undefined;
}

/**
 * Refuses to write `output` over a dataset's own files that are not inputs of this run: a lock manifest
 * (`*.lock.json`), or another dataset's JSONL (`<name>.jsonl` beside a lock manifest `<name>.lock.json` that is not
 * `manifest`, the one generating; for `view`, none is). `generate A -o B.jsonl` would destroy B's file, which
 * `generate --check` calls "named after another slug"; `-o B.lock.json`, B's manifest.
 */
export function refuseOverOtherDataset(
  output: string,
  manifest: string | undefined,
  slug: string | undefined,
  shown = output,
): void {
  const theirs = slug === undefined ? "" : `; the JSONL of this manifest (slug ${slug}) is ${slug}.jsonl`;
  if (output.endsWith(".lock.json") && lstatSync(output, { throwIfNoEntry: false }) !== undefined)
    throw new OperationalError(
      `refusing to write ${shown}: it is a lock manifest${theirs}: write the output elsewhere`,
    );
  const beside = manifestBeside(output);
  if (beside === undefined) return;
  let other: Stats | undefined;
  let own: Stats | undefined;
  try {
    other = statSync(beside, { throwIfNoEntry: false });
    own = manifest === undefined ? undefined : statSync(manifest, { throwIfNoEntry: false });
  } catch {
    return; // a folder of the path is a file: no manifest there (the write says why it fails)
  }
  if (other === undefined || !other.isFile()) return;
  if (own !== undefined && own.dev === other.dev && own.ino === other.ino) return;
  throw new OperationalError(
    `refusing to write ${shown}: it is the JSONL of ${manifest === undefined ? "a" : "another"} dataset, whose lock manifest ${basename(beside)} is beside it${theirs}: write the output ${slug === undefined ? "" : "there, or "}elsewhere`,
  );
}
