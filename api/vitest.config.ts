import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // type-graphql loads graphql's CommonJS build; the tests must share that one instance.
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
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
