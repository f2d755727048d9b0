import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { artifactLines, DatasetError, parseArtifactBytes } from "../core/generate.js";
import type { LockManifest } from "../core/manifest.js";
import type { ArtifactLimits } from "../core/markdown.js";
import { resolveArtifact } from "./manifest-io.js";

// One worker of `generate`: reads, verifies and parses the artifacts the main thread asks for, and
// sends back each one's targets already serialised (ArtifactLines), so that the main thread only
// joins strings in document order.
const port = parentPort!;
const { root, manifest, limits } = workerData as { root: string; manifest: LockManifest; limits: ArtifactLimits };

port.on("message", (message: { position: number } | null) => {
  if (message === null) {
    port.close();
    return;
  }
  const { position } = message;
  const artifact = manifest.artifacts[position]!;
  try {
    // Synchronous: this thread does nothing else, and the files are small and many.
    const { parsed } = parseArtifactBytes(artifact, readFileSync(resolveArtifact(root, artifact.path)), limits);
    port.postMessage({ position, lines: artifactLines(manifest, artifact, parsed) });
  } catch (error) {
    const problems = error instanceof DatasetError ? error.problems : [`${artifact.path}: ${error instanceof Error ? error.message : String(error)}`];
    port.postMessage({ position, problems, operational: !(error instanceof DatasetError) });
  }
});
