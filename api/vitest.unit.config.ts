import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** Both API configs resolve graphql the same way: type-graphql loads its CommonJS build, and the tests must share that instance. */
export const resolve = { alias: { graphql: require.resolve('graphql') } };

/**
 * Tests under test/ that need no PostgreSQL, Redis or server: the checks of the tree itself (imports, ARCHITECTURE.md's
 * paths), the configuration and the emitted schema. Every other file under test/ is an integration suite.
 */
export const UNIT_TESTS_IN_TEST_DIR = ['test/architecture*.test.ts', 'test/config.test.ts', 'test/schema.test.ts'];

/** A test in a `commands/` folder runs its command against the database, so it stays with the integration suites. */
export const DATABASE_TESTS_IN_SRC = ['src/**/commands/**/*.test.ts'];

/**
 * `npm run test:unit`: the tests beside the code (policies, inputs, rules, ranking, the recognition engine) and the
 * DB-free ones above, with no global setup: they run without PostgreSQL, in seconds. vitest.config.ts runs the rest.
 */
export default defineConfig({
  resolve,
  test: {
    include: ['src/**/*.test.ts', ...UNIT_TESTS_IN_TEST_DIR],
    exclude: [...configDefaults.exclude, ...DATABASE_TESTS_IN_SRC],
    // The recognition engine's tests and the import-cycle check take seconds each, more on a busy machine.
    testTimeout: 30_000,
  },
});
