// `npm run bench`: runs each scenario in bench/ with tsx (the API's tsconfig: its decorators need the legacy transform).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scenarios = ['bench/feed.ts', 'bench/media-upload.ts', 'bench/media-range.ts'];
let failed = false;
for (const scenario of scenarios) {
  const run = spawnSync(join(root, 'node_modules/.bin/tsx'), ['--tsconfig', 'api/tsconfig.json', scenario], {
    cwd: root,
    stdio: 'inherit',
    // Measured as production runs: graphql-js skips its development-mode checks.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
