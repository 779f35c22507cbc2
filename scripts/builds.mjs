// The builds `npm start` and `npm run build` run: the API compiled to JavaScript (api/dist) and the web app (web/dist,
// web/dist-server), each only when its sources changed since its last build. A build leaves a stamp (a SHA-256 of every
// source file's path and bytes) beside its output; the next start hashes the sources again (tens of milliseconds) and
// skips a build whose stamp matches. `force` builds regardless.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every file under `paths` (files or folders), sorted, skipping node_modules and build output. */
function filesUnder(paths) {
  const found = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (['node_modules', 'dist', 'dist-server', 'dist-pages'].includes(entry.name)) continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(full);
    }
  };
  for (const path of paths) {
    const full = join(root, path);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) walk(full);
    else found.push(full);
  }
  return found.sort();
}

function hashOf(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Begins `build` unless the stamp in `stampFile` matches the sources' hash: null when it is skipped, else the build's
 * promise, which writes the stamp once the build worked. The check is synchronous, so the caller knows at once.
 */
function buildWhenChanged(name, sources, stampFile, build, force) {
  const started = Date.now();
  const stamp = hashOf(filesUnder(sources));
  const stampPath = join(root, stampFile);
  if (!force && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === stamp) {
    process.stdout.write(`${name}: unchanged since its last build (${Date.now() - started} ms to check)\n`);
    return null;
  }
  process.stdout.write(`${name}: building ...\n`);
  rmSync(stampPath, { force: true });
  return build().then(() => {
    writeFileSync(stampPath, `${stamp}\n`);
    process.stdout.write(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });
}

const lockfile = ['package-lock.json'];

/**
 * The API, file by file (no bundle: paths resolved from import.meta.url, such as worker threads, the web app's folder
 * and the schema file, stay where they are), TypeScript to ES modules with the API's tsconfig (its legacy decorators).
 * Other files (worker threads written in plain JavaScript, assets) are copied.
 */
async function buildApi() {
  const { build } = await import('esbuild');
  const source = join(root, 'api/src');
  const files = filesUnder(['api/src']).filter((file) => !/\.test\.ts$/.test(file));
  const out = join(root, 'api/dist');
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: files.filter((file) => file.endsWith('.ts')),
    outdir: out,
    outbase: source,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: join(root, 'api/tsconfig.json'),
    logLevel: 'warning',
  });
  for (const file of files.filter((file) => !file.endsWith('.ts'))) cpSync(file, join(out, relative(source, file)));
}

/** The API's build (about a second), or null when its sources are unchanged. */
export const apiBuild = (force) =>
  buildWhenChanged(
    'API (api/dist)',
    ['api/src', 'api/tsconfig.json', 'tsconfig.json', ...lockfile],
    'api/dist/.build-stamp',
    buildApi,
    force,
  );

/**
 * The web app's build (web/scripts/build.mjs: three Vite builds at once, about 6 s of two idle cores), or null when its
 * sources are unchanged. It runs as a process group of its own, so `stop` ends it whole (Vite's children too).
 */
export function webBuild(force) {
  let child = null;
  const done = buildWhenChanged(
    'web app (web/dist)',
    // The web app imports the API's shared modules (validation rules, domain lists, the server renderer's contract).
    [
      'web/src',
      'web/public',
      'web/index.html',
      'web/vite.config.ts',
      'web/vite.pages.config.ts',
      'web/scripts',
      'web/tsconfig.json',
      'web/package.json',
      'api/src/shared',
      ...lockfile,
    ],
    'web/dist/.build-stamp',
    () =>
      new Promise((resolve, reject) => {
        child = spawn(process.execPath, [join(root, 'web/scripts/build.mjs')], {
          cwd: join(root, 'web'),
          stdio: 'inherit',
          detached: true,
        });
        child.on('error', reject);
        child.on('exit', (code, signal) =>
          code === 0 ? resolve() : reject(new Error(`the web build failed (${signal ? `signal ${signal}` : `exit code ${code}`})`)),
        );
      }),
    force,
  );
  if (!done) return null;
  return {
    done,
    stop() {
      if (child?.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
    },
  };
}
