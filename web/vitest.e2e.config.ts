import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: Debian's Chromium (playwright-core) against the production build served by the real API on a real
 * PostgreSQL. e2e/global-setup.ts builds web/dist when it is missing or stale and starts the server once for the run.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    // Generous for a machine running two suites at once; a passing journey never waits them out.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The default report, then the ten slowest files with their times.
    reporters: ['default', '../scripts/vitest-slowest-files.mjs'],
    // One browser per file; files may run in parallel against the one server.
    pool: 'forks',
  },
});
