/**
 * The limits of a run's threads (pool.ts), apart from the pool so that what only needs them (the command line's notes,
 * the worker started with the command line: direct-worker.ts) does not load it.
 */
import { availableParallelism } from "node:os";

/** The most threads a run may ask for: four per core (more only costs memory). */
export function maxJobs(): number {
  return 4 * availableParallelism();
}

/**
 * A worker holds what one task needs (a batch of files, a dataset's artifacts): a capped old
 * generation makes V8 collect as it goes instead of growing the heap after the machine's memory,
 * and the young generation is sized for throughput (bench/RESULTS.md). The cap is far above what a
 * task within the size caps needs.
 */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 1024 };

/**
 * The young generation of the workers that parse batches of artifacts for `update` of a few datasets (a statute book as
 * one): a batch's lines leave the worker as bytes, so little survives a scavenge, and half the young generation cost no
 * time measured there while it keeps some 50 MB less in the process (bench/RESULTS.md, peak RSS: the statute book with
 * its units, `update --check` 402–418 → 362–374 MB). Not for `generate`, which it made 5 % slower (7 pairs), nor for the
 * workers that update whole datasets: a dataset's records live through many scavenges there, and 16 MB cost 6,636
 * small datasets a fifth more time.
 */
export const ARTIFACT_BATCH_YOUNG_MB = 16;

/**
 * The young generation of `generate`'s workers for a dataset with units below the heading: a heading's units are made
 * and written as it is, and what they make survives fewer scavenges in a larger young generation (bench/RESULTS.md,
 * "Units": user CPU −2.5 % with units, 6 pairs; peak RSS 302–316 MB either way). Without units it changed neither time
 * nor peak RSS, and stays at WORKER_LIMITS'.
 */
export const UNITS_GENERATE_YOUNG_MB = 48;

/**
 * Below this many bytes of markdown in all, `generate` parses in the main thread, whose heap is not capped, rather than
 * start a capped worker for it (docs/spec.md, section 13, "heap of the threads that parse markdown"): every cost of a
 * parse is bounded by the caps, or grows linearly with its input, so that this much markdown cannot hold more than
 * about 200 MB (the YAML parser's 650 bytes or so per byte of front matter the most of it), below the heap V8 gives
 * the main thread even on a machine of 1 GB (256 MB; 4 GB from 16 GB), and a worker's start (tens of milliseconds)
 * would be most of a small run.
 */
export const MAIN_THREAD_PARSE_BYTES = 128 * 1024;

/**
 * Heap a validating worker may take per byte of the markdown it derives records from. `validate` holds every record
 * `generate` writes for a dataset while it compares the file with them (rule `lock-generated`): about 7 bytes of heap
 * per byte of markdown on the statute book as one dataset with its units (1,040 MB for 150 MB, 620,027 records;
 * bench/RESULTS.md). Room for several times that: with 16 bytes a byte, the book's validate took 55 s against 43 s in
 * the main thread, V8 collecting again and again near the cap; with 40, 44 s.
 */
const VALIDATE_HEAP_PER_BYTE = 40;

/**
 * The old generation, in MiB, of the capped worker that checks a file against a dataset of `bytes` of markdown
 * (validate): WORKER_LIMITS' 1 GiB, or more for a dataset larger than 25.6 MiB, linear in it, so that a large legitimate
 * dataset fits while a small hostile one is held to the 1 GiB every other parse has.
 */
export function validateHeapMb(bytes: number): number {
  return Math.max(WORKER_LIMITS.maxOldGenerationSizeMb, Math.ceil((VALIDATE_HEAP_PER_BYTE * bytes) / 2 ** 20));
}

/**
 * A worker's heap cap as it is: `heapMb`, or less when Node was started with a smaller `--max-old-space-size` (on the
 * command line or in NODE_OPTIONS), which holds for every thread, workers included (measured: a 256 MB flag made a
 * worker given 1 GiB run out at 256 MB).
 */
export function heapCapMb(heapMb: number): number {
  const flags = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  let cap = heapMb;
  for (const match of flags.matchAll(/--max[-_]old[-_]space[-_]size[= ](\d+)/g)) cap = Math.min(cap, Number(match[1]));
  return cap;
}
