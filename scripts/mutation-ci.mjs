// The mutation job of `npm test` and CI (README "Mutation testing"): Stryker over the rule files (api/stryker.config.mjs
// RULE_FILES) that changed since the base, and nothing else, so a change that weakens a rule's tests fails here while a
// change that touches no rule costs nothing. The base: MUTATION_BASE, else where this branch left main, else (on main
// itself, as in CI's clone) the commit before the last one, so a merge is judged by everything it brought. Uncommitted
// changes count too. Below MUTATION_BREAK (default 85) percent on those files the job fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULE_FILES } from '../api/stryker.config.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const api = join(root, 'api');

const git = (...args) => {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
};

function base() {
  if (process.env.MUTATION_BASE) return process.env.MUTATION_BASE;
  const head = git('rev-parse', 'HEAD');
  const main = git('rev-parse', '--verify', '--quiet', 'main') ?? git('rev-parse', '--verify', '--quiet', 'origin/main');
  if (main && main !== head) return git('merge-base', 'HEAD', main);
  return git('rev-parse', '--verify', '--quiet', 'HEAD^1');
}

/** A glob of RULE_FILES ('**' any folders, '*' within a name) as a regular expression over api/-relative paths. */
const globPattern = (glob) =>
  new RegExp(
    `^${glob
      .split('**/')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*'))
      .join('(?:.*/)?')}$`,
  );
const patterns = RULE_FILES.map(globPattern);

const from = base();
if (!from) {
  process.stdout.write('mutation: no base commit to compare with; nothing to mutate\n');
  process.exit(0);
}
const changed = (git('diff', '--name-only', '--diff-filter=d', from, '--', 'api/src') ?? '')
  .split('\n')
  .filter(Boolean)
  .map((path) => path.slice('api/'.length))
  .filter((path) => !path.endsWith('.test.ts') && patterns.some((pattern) => pattern.test(path)) && existsSync(join(api, path)));

if (changed.length === 0) {
  process.stdout.write(`mutation: no rule file changed since ${from.slice(0, 12)}; nothing to mutate\n`);
  process.exit(0);
}
process.stdout.write(`mutation: ${changed.length} rule file(s) changed since ${from.slice(0, 12)}: ${changed.join(', ')}\n`);
const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', '--mutate', changed.join(',')], {
  cwd: api,
  stdio: 'inherit',
  env: { ...process.env, MUTATION_REPORTS: '../reports/mutation/changed', MUTATION_BREAK: process.env.MUTATION_BREAK ?? '85' },
});
process.exit(run.status ?? 1);
