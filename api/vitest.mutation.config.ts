import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_TESTS_IN_SRC, resolve } from './vitest.unit.config.js';

/**
 * The unit tests Stryker runs (stryker.config.mjs): those beside the code, as in vitest.unit.config.ts, without the
 * checks of the tree itself under test/ (imports, ARCHITECTURE.md's paths, the committed schema). Those read files
 * outside api/, which Stryker's copy of the package does not have, and they test no rule. Without the recognition
 * engine's end-to-end test too: it synthesises and recognises whole mixes (tens of seconds a run), which every mutant
 * of the matcher's files would pay; their own unit tests (match-*.test.ts) judge those files.
 */
export default defineConfig({
  resolve,
  test: {
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...DATABASE_TESTS_IN_SRC, 'src/modules/recognition/recognition.test.ts'],
    testTimeout: 30_000,
  },
});
