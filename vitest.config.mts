import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // What a failed e2e test's page showed, in the log (it does nothing in the node tests).
    setupFiles: ['test/setup/e2e-failures.ts'],
    // expect.poll gives up after 5 s, not 1 s: a page on a loaded machine (CI, the other core busy)
    // may take longer than a second to open a palette. A poll that succeeds returns at once.
    expect: { poll: { timeout: 5_000 } },
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
