// @ts-check
/**
 * Mutation testing of the code that holds the rules (README "Mutation testing"): Stryker changes one thing at a time
 * (a `<=` to `<`, a string to '', a condition to true) and runs the unit tests (vitest.unit.config.ts: no database)
 * that cover the change; a mutant nobody's test notices is a rule no test guards. `npm run test:mutation` runs it;
 * scripts/mutation-ci.mjs runs it on the files a change touches.
 */

/** The files of rules, each mutated whole unless a line range says which part holds the rule. */
export const RULE_FILES = [
  // Who may do what, and what input is accepted.
  'src/modules/**/*.policy.ts',
  'src/modules/**/*.inputs.ts',
  // The shared rules (the web imports them too), their zod schemas and the shared input helpers.
  'src/shared/rules.ts',
  'src/shared/validation.ts',
  'src/shared/inputs.ts',
  // The rate-limit table and how a refusal reads.
  'src/modules/auth/rate-limits.ts',
  // The recognition matcher's decisions: which lines of matches count, which votes, where a track starts, which
  // segments become detections (matcher.ts around them only streams audio and chains windows).
  'src/modules/recognition/match-lines.ts',
  'src/modules/recognition/match-voting.ts',
  'src/modules/recognition/match-onset.ts',
  'src/modules/recognition/peak-history.ts',
  'src/modules/recognition/match-segments.ts',
  // The catalogue's scoring and typo tolerance.
  'src/modules/tracks/catalogue/score.ts',
  'src/modules/tracks/catalogue/typos.ts',
  // HTML escaping of every page and mail the server writes by hand.
  'src/shared/html.ts',
  'src/http/public-api/embed-page.ts',
  'src/http/share-tags.ts',
  'src/modules/mail/templates.ts',
];

/** Where the report and the incremental file go: ../reports/mutation, or MUTATION_REPORTS (a run over part of the files). */
const reports = process.env.MUTATION_REPORTS ?? '../reports/mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: RULE_FILES,
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  checkers: ['typescript'],
  // The rule files and what they import, not the whole package with its tests: a much smaller program to check per mutant.
  tsconfigFile: 'tsconfig.mutation.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // The machine has 2 cores shared with others.
  concurrency: 2,
  timeoutMS: 30_000,
  incremental: true,
  incrementalFile: `${reports}/stryker-incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${reports}/index.html` },
  jsonReporter: { fileName: `${reports}/mutation.json` },
  clearTextReporter: { allowColor: false, allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: true },
  // The job of scripts/mutation-ci.mjs fails below MUTATION_BREAK percent; a whole run only reports.
  thresholds: { high: 90, low: 85, break: process.env.MUTATION_BREAK ? Number(process.env.MUTATION_BREAK) : null },
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'data', '.vitest-pg', 'node_modules'],
};
