// Loaded before every test file (vitest.config.ts, setupFiles). In CI (CI set) every property test
// runs from one fixed seed, so that CI is deterministic: a rare counterexample cannot turn one run
// red and the next green. FC_SEED chooses another seed; outside CI the seeds are random, so that
// local runs (and `npm run fuzz`) keep exploring. A property test that fixes its own seed keeps it.
import fc from "fast-check";

const chosen = process.env.FC_SEED ?? (process.env.CI ? "20261124" : undefined);
if (chosen !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(chosen) });
