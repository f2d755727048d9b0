import { defineConfig } from "vitest/config";

// `npm run test:browser`: the HTML pages in Debian's Chromium (test/browser/); not part of `npm test`.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
