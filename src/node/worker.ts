/**
 * The one worker entry of the pool (pool.ts): each exported function is a kind of task. A task's
 * input and result are plain data; errors a user acts on come back as data (`TaskFailure`), so
 * that their kind (a dataset problem, an operational error) survives the crossing. The same
 * functions run in the main thread when the run has one thread.
 */
import { workerData } from "node:worker_threads";
import { DatasetError } from "../core/errors.js";
import type { DiffPair } from "../core/diff/diff.js";
import type { ArtifactLines } from "../core/records/generate.js";
import type { LockManifest, ManifestArtifact } from "../core/lock/manifest.js";
import type { ArtifactLimits } from "../core/markdown/targets.js";
import { OperationalError } from "./errors.js";
import type { PairTask } from "./diff.js";
import type { TaskFailure } from "./pool.js";
import type { DatasetTask, DatasetTaskResult } from "./update-dataset.js";
import type { CheckedFile, FileToCheck, FileValidator, ValidateOptions } from "./validate.js";

// Each kind of task loads its modules when it first runs, so that a worker that only validates never
// loads the markdown parser, and one that only generates never compiles a schema.

/** Validators built in this thread, by their options (a run sends the same options with every batch). */
const validators = new Map<string, Promise<FileValidator>>();

/** Files of a batch in flight at once in one thread, so that one's reads overlap another's checks. */
const FILES_IN_FLIGHT = 4;

/**
 * Checks a batch of whole JSONL files, one after another, each with the lock manifest in force (and the cache's verdict
 * on it, if any).
 */
async function validateFiles(task: {
  options: ValidateOptions & { cwd: string };
  items: FileToCheck[];
}): Promise<CheckedFile[] | TaskFailure> {
  try {
    return await checkFiles(task);
  } catch (error) {
    return failureOf(error);
  }
}

async function checkFiles(task: {
  options: ValidateOptions & { cwd: string };
  items: FileToCheck[];
}): Promise<CheckedFile[]> {
  const key = JSON.stringify(task.options);
  let validator = validators.get(key);
  if (validator === undefined) {
    const { createFileValidator } = await import("./validate.js");
    validator = createFileValidator(task.options);
    validators.set(key, validator);
    if (validators.size > 4) validators.delete(validators.keys().next().value!);
  }
  const ready = await validator;
  const { mapWithLimit } = await import("./concurrency.js");
  return mapWithLimit(task.items, FILES_IN_FLIGHT, (input) => ready.check(input));
}

/**
 * The dataset-level part of a manifest: what a record needs besides its artifact (artifactLines reads no other field).
 */
export type DatasetFields = Omit<LockManifest, "artifacts" | "ignore">;

/** One artifact's lines, or why it could not be parsed. */
export type ArtifactResult = { lines: ArtifactLines } | { problems: string[]; operational: boolean };

/** Reads, parses and serialises a batch of artifacts of one dataset (generate of a large dataset). */
async function artifactBatch(task: {
  root: string;
  fields: DatasetFields;
  artifacts: ManifestArtifact[];
  limits: ArtifactLimits;
}): Promise<ArtifactResult[]> {
  const manifest = { ...task.fields, artifacts: [] } as LockManifest;
  const [{ artifactLines, parseArtifactBytes }, { resolveArtifact }, { readRegularFileSync }] = await Promise.all([
    import("../core/records/generate.js"),
    import("./manifest-io.js"),
    import("./regular-file.js"),
  ]);
  return task.artifacts.map((artifact) => {
    try {
      const { parsed } = parseArtifactBytes(
        artifact,
        readRegularFileSync(resolveArtifact(task.root, artifact.path)),
        task.limits,
      );
      return { lines: artifactLines(manifest, artifact, parsed) };
    } catch (error) {
      if (error instanceof DatasetError) return { problems: error.problems, operational: false };
      return {
        problems: [`${artifact.path}: ${error instanceof Error ? error.message : String(error)}`],
        operational: true,
      };
    }
  });
}

/**
 * Re-locks and regenerates a batch of whole datasets (update), one after another, each writing into temporary files
 * that the main thread renames; a dataset that fails gives its error as data and the batch goes on.
 */
async function updateDatasets(task: { datasets: DatasetTask[] }): Promise<(DatasetTaskResult | TaskFailure)[]> {
  let updateOneDataset: typeof import("./update-dataset.js").updateOneDataset;
  try {
    ({ updateOneDataset } = await import("./update-dataset.js"));
  } catch (error) {
    return task.datasets.map(() => failureOf(error));
  }
  const results: (DatasetTaskResult | TaskFailure)[] = [];
  for (const dataset of task.datasets) results.push(await updateOneDataset(dataset).catch(failureOf));
  return results;
}

/** Compares a batch of dataset file pairs (diff), in order; the first that fails ends the batch with its error. */
async function diffPairs(task: { pairs: PairTask[] }): Promise<(DiffPair | TaskFailure)[]> {
  const { comparePairTask } = await import("./diff.js");
  const results: (DiffPair | TaskFailure)[] = [];
  for (const pair of task.pairs) {
    try {
      results.push(await comparePairTask(pair));
    } catch (error) {
      results.push(failureOf(error));
      break;
    }
  }
  return results;
}

/** An error as plain data. */
export function failureOf(error: unknown): TaskFailure {
  if (error instanceof DatasetError)
    return { failed: { kind: "dataset", message: error.message, problems: error.problems } };
  if (error instanceof OperationalError) return { failed: { kind: "operational", message: error.message } };
  return { failed: { kind: "other", message: error instanceof Error ? error.message : String(error) } };
}

/** The kinds of task, by name. */
export const tasks = { validateFiles, artifactBatch, updateDatasets, diffPairs };
export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;

/** The modules of a kind of task that loads its own (the others load little). */
const MODULES: Partial<Record<TaskName, () => Promise<unknown>>> = {
  updateDatasets: () => import("./update-dataset.js"),
  diffPairs: () => import("./diff.js"),
};

// A pool told which kind of task its run sends (pool.ts, `warm`) has each worker load that kind's modules as it
// starts, while the main thread still prepares the first tasks. Awaited here, before Piscina hears the worker is ready:
// a ready worker waits for its first task in Atomics.wait, which would hold a load left running.
const { warm, outsideAllowed } = (workerData ?? {}) as { warm?: TaskName; outsideAllowed?: boolean };
// Reads outside the repository as the run allows them (`--allow-outside-repository`; regular-file.ts).
if (outsideAllowed === true) (await import("./regular-file.js")).allowReadsOutsideRepository(true);
if (warm !== undefined) await MODULES[warm]?.().catch(() => undefined); // a failure shows when the first task loads them

export { validateFiles, artifactBatch, updateDatasets, diffPairs };
