/** Types of bench/long-amendment.js for the browser test that opens its page (test/browser/pages.browser.ts). */
export function writeLongAmendment(options: {
  dir: string;
  /** The library's lock and generate (src/node/lock.ts, src/node/generate.ts; dist/index.js in the bench). */
  lock: (options: never) => Promise<unknown>;
  generate: (options: never) => Promise<unknown>;
  articles?: number;
  changed?: number;
  repealed?: number;
}): Promise<{ old: string; new: string; approvals: string }>;
