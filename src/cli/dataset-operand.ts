/** One dataset named on the command line (generate, view): as the commands show it. */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { displayPath } from "../node/files/files.js";

/**
 * The lock manifest of the one dataset an operand names (dataset-operands.ts): a manifest as given; otherwise the
 * manifest found, as shown from `cwd`.
 */
export async function datasetManifestOperand(operand: string, cwd: string): Promise<string> {
  const { DatasetOperands } = await import("../node/dataset/dataset-operands.js");
  const operands = await DatasetOperands.create(cwd);
  const resolved = operands.resolve(operand);
  if (resolved.manifests.length !== 1) {
    const { resolveOneDataset } = await import("../node/dataset/dataset-operands.js");
    await resolveOneDataset(operand, cwd); // names the datasets
  }
  return resolved.kind === "manifest" ? operand : displayPath(resolved.manifests[0]!, cwd);
}

/**
 * The JSONL of the one dataset an operand names: an existing file that is neither a manifest nor markdown as given (a
 * JSONL); otherwise the JSONL of the dataset found, as shown from `cwd`.
 */
export async function datasetJsonlOperand(operand: string, cwd: string): Promise<string> {
  const info = statSync(resolve(cwd, operand), { throwIfNoEntry: false });
  if (info !== undefined && !info.isDirectory() && !/\.(md|markdown|lock\.json)$/i.test(operand)) return operand;
  const { resolveOneDataset } = await import("../node/dataset/dataset-operands.js");
  return displayPath((await resolveOneDataset(operand, cwd)).jsonl, cwd);
}
