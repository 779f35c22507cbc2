// `npm run build` (with `--force`): the API and the web app, each only when its sources changed since its last build
// (see builds.mjs). `npm start` runs the same builds through start.mjs, the web app's beside the server's start.
import { apiBuild, webBuild } from './builds.mjs';

const force = process.argv.includes('--force');
try {
  await apiBuild(force);
  await webBuild(force)?.done;
} catch (error) {
  process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
