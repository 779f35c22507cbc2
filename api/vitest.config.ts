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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
