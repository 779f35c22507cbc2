import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/** Component tests in jsdom. The browser journeys in e2e/ run separately (vitest.e2e.config.ts). */
export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
      setupFiles: ['src/test/setup.ts'],
      // The default report, then the ten slowest files with their times.
      reporters: ['default', '../scripts/vitest-slowest-files.mjs'],
      css: { modules: { classNameStrategy: 'non-scoped' } },
    },
  }),
);
