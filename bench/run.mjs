// `npm run bench`: runs each scenario in bench/ with tsx (the API's tsconfig: its decorators need the legacy transform).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const all = [
  'bench/feed.ts',
  'bench/media-upload.ts',
  'bench/media-range.ts',
  'bench/lighthouse.ts',
  'bench/tracklist.ts',
  'bench/recognition.ts',
  'bench/soak.ts',
  'bench/payments.ts',
  'bench/startup.ts',
  'bench/realtime.ts',
  'bench/realtime-write-floor.ts',
  'bench/recommendations.ts',
  'bench/search.ts',
];
// `npm run bench -- lighthouse feed` runs only the named scenarios; options (`--scale 0.1`) go to each of them.
const args = process.argv.slice(2);
const options = args.flatMap((arg, index) => (arg.startsWith('--') ? [arg, args[index + 1] ?? ''] : []));
const chosen = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const scenarios = chosen.length > 0 ? all.filter((file) => chosen.some((name) => file.includes(name))) : all;
let failed = false;
for (const scenario of scenarios) {
  const run = spawnSync(join(root, 'node_modules/.bin/tsx'), ['--tsconfig', 'api/tsconfig.json', scenario, ...options], {
    cwd: root,
    stdio: 'inherit',
    // Measured as production runs: graphql-js skips its development-mode checks.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
