import { readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import { DatasetError, parseArtifactBytes } from "../core/generate.js";
import type { ManifestArtifact } from "../core/manifest.js";
import { resolveArtifact } from "./manifest-io.js";

// One worker of `generate`: reads, verifies and parses the artifacts the main thread asks for, and
// sends back each one's text and cuts (without the body, which is a slice of the text).
const port = parentPort!;
const { root } = workerData as { root: string };

port.on("message", (message: { position: number; artifact: ManifestArtifact } | null) => {
  if (message === null) {
    port.close();
    return;
  }
  const { position, artifact } = message;
  resolveArtifact(root, artifact.path)
    .then((file) => readFile(file))
    .then((bytes) => {
      const { text, parsed } = parseArtifactBytes(artifact, bytes);
      const { body: _body, ...cuts } = parsed;
      port.postMessage({ position, text, cuts });
    })
    .catch((error: unknown) => {
      const problems = error instanceof DatasetError ? error.problems : [`${artifact.path}: ${error instanceof Error ? error.message : String(error)}`];
      port.postMessage({ position, problems, operational: !(error instanceof DatasetError) });
    });
});
