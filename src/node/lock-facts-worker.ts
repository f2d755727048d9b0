import { parentPort, workerData } from "node:worker_threads";
import type { LockManifest } from "../core/manifest.js";
import { collectArtifactFacts } from "./manifest-io.js";

// Gathers the facts about a lock manifest's artifact files (validate's lock checks) on its own thread,
// so that the main thread checks the JSONL meanwhile.
const { manifest, root, shownRoot, manifestPath } = workerData as { manifest: LockManifest; root: string; shownRoot: string; manifestPath: string };
collectArtifactFacts(manifest, root, shownRoot, manifestPath).then(
  (facts) => parentPort!.postMessage({ facts }),
  (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
