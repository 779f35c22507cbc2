import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const REPO_DIR = join(WEB_DIR, '..');
export const DIST_DIR = join(WEB_DIR, 'dist');
/** The server renderer of shared pages (src/server/render.tsx), built beside dist/. */
const SERVER_RENDERER = join(WEB_DIR, 'dist-server', 'render.js');

/** What the build reads: when any of it is newer than dist/index.html, the build is stale. */
const INPUTS = [
  'index.html',
  'explorer.html',
  'embed.html',
  'vite.config.ts',
  'vite.pages.config.ts',
  'scripts',
  'package.json',
  'public',
  'src',
  '../api/src/shared',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** A build made with NODE_ENV other than production carries React's development runtime (large and slow). */
export function isDevelopmentBuild(): boolean {
  const manifest = join(DIST_DIR, '.vite', 'manifest.json');
  return !existsSync(manifest) || readFileSync(manifest, 'utf8').includes('jsx-dev-runtime');
}

export function webBuildIsFresh(): boolean {
  const built = join(DIST_DIR, 'index.html');
  if (!existsSync(built) || !existsSync(SERVER_RENDERER) || isDevelopmentBuild()) return false;
  const builtAt = statSync(built).mtimeMs;
  return INPUTS.every((input) => newestMtime(join(WEB_DIR, input)) <= builtAt);
}

/** Runs web/'s `npm run build` (the app and its server renderer) unless they are newer than everything they are built from. */
export function ensureWebBuild(): 'fresh' | 'built' {
  if (webBuildIsFresh()) return 'fresh';
  // Vitest runs with NODE_ENV=test, which would make Vite build React's development runtime.
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: WEB_DIR,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    throw new Error(`the web build failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return 'built';
}
