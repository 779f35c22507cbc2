import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_TESTS_IN_SRC, resolve, UNIT_TESTS_IN_TEST_DIR } from './vitest.unit.config.js';

/**
 * The integration suites, against real PostgreSQL (one database per file), SMTP and Redis; the unit tests
 * (vitest.unit.config.ts) are left out, so `npm test` runs each test once.
 */
export default defineConfig({
  resolve,
  test: {
    include: ['test/**/*.test.ts', ...DATABASE_TESTS_IN_SRC],
    exclude: [...configDefaults.exclude, ...UNIT_TESTS_IN_TEST_DIR],
    globalSetup: ['test/global-setup.ts'],
    // Bounds for a test that hangs, generous for a machine running two suites at once (a passing test never waits them
    // out); a test waiting on an event uses test/support/wait.ts, whose bound is below these and names the event.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The default report, then the ten slowest files with their times.
    reporters: ['default', '../scripts/vitest-slowest-files.mjs'],
  },
});
