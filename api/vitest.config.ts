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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The default report, then the ten slowest files with their times.
    reporters: ['default', '../scripts/vitest-slowest-files.mjs'],
  },
});
