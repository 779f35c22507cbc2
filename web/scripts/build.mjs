// The web app's three builds at once, since each keeps about one core busy (8.4 s one after another, about 4.5 s
// together on two cores): the app into dist/, the server renderer into dist-server/, and the explorer and embed pages
// (vite.pages.config.ts) into dist-pages/, moved into dist/ beside the app once both are done.
import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// Wherever npm placed vite (hoisted to the root's node_modules, or the web app's own).
const vite = join(dirname(require.resolve('vite/package.json')), 'bin/vite.js');

function viteBuild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn', ...args], {
      cwd: web,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build ${args.join(' ')} failed (exit code ${code})`))));
  });
}

const pagesOut = join(web, 'dist-pages');
try {
  await Promise.all([
    viteBuild([]),
    viteBuild(['--ssr', 'src/server/render.tsx', '--outDir', 'dist-server']),
    viteBuild(['-c', 'vite.pages.config.ts', '--outDir', 'dist-pages', '--emptyOutDir']),
  ]);
  cpSync(pagesOut, join(web, 'dist'), { recursive: true });
} finally {
  rmSync(pagesOut, { recursive: true, force: true });
}
