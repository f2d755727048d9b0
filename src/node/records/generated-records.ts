/**
 * What `generate` writes for a dataset, made for validate's `lock-generated` rule from the artifact bytes
 * validate has just read and found matching their pinned digests (docs/spec.md, rule `lock-generated`):
 * the same derivation (generateRecordsFrom) and the one serialiser, so that "differs from what generate
 * writes" means exactly that.
 */
import type { LockManifest } from "../../core/lock/manifest.js";
import type { LockContext } from "../../core/lock/lock-context.js";
import { DatasetError } from "../../core/errors.js";
import { generateRecordsFrom } from "../../core/records/generate.js";
import { parseArtifactBytes } from "../../core/records/parse-artifact.js";
import { GeneratedWindow, generatedWindows } from "../../core/records/generated-window.js";

/**
 * Fills `context.generated` (citationAddress → the record generate writes, and its place) from the
 * artifacts' bytes, every one of which matched its pin; or `context.generateFailed` with generate's own reason when it
 * refuses the dataset. Nothing when the manifest's datasetDigest is stale: lock-manifest-digest says so, once. An
 * artifact whose bytes `bytesOf` does not keep is read again (`reread`), and then the records are made as the caller reads
 * the file (`windowed`): a window (generated-window.ts), which fills the map this way should it give up.
 */
export async function fillGenerated(
  context: LockContext,
  manifest: LockManifest,
  bytesOf: Map<string, Uint8Array | undefined>,
  notUtf8: ReadonlySet<string>,
  reread?: (artifact: LockManifest["artifacts"][number]) => Uint8Array,
  windowed = reread !== undefined,
): Promise<void> {
  // The manifest's digest as openLockContext computed it (computeDatasetDigest), not canonicalised and digested again.
  if (context.computedDigest !== manifest.datasetDigest) return;
  // `notUtf8`: the artifacts gatherFacts found not UTF-8 as it read them (isUtf8), not scanned again; the first in the
  // manifest's order is named, as generate names it.
  for (const artifact of manifest.artifacts) {
    if (notUtf8.has(artifact.path)) {
      context.generateFailed = `${artifact.path}: not valid UTF-8`;
      return;
    }
  }
  const generated = new Map<string, { record: Readonly<Record<string, unknown>>; order: number }>();
  // The bytes are those whose digests were just checked against the manifest (checked: not digested again).
  const source = async (position: number) => {
    const artifact = manifest.artifacts[position]!;
    const bytes = bytesOf.get(artifact.path) ?? reread!(artifact);
    return parseArtifactBytes(artifact, bytes, {}, true, manifest.units === true);
  };
  if (windowed) {
    const records = generateRecordsFrom(manifest, source);
    const whole = () => fillGenerated(context, manifest, bytesOf, notUtf8, reread, false);
    generatedWindows.set(context, new GeneratedWindow(records, whole));
    return;
  }
  try {
    let order = 0;
    // The records as built: serializeRecord writes each member as it is, so comparing members compares the lines.
    for await (const record of generateRecordsFrom(manifest, source))
      generated.set(record.citationAddress as string, { record, order: order++ });
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    context.generateFailed = error.problems.join("; ");
    return;
  }
  context.generated = generated;
}
