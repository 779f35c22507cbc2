/**
 * Lighthouse (Debian's Chromium) on the landing page and on a shared mix page, mobile and desktop, against the
 * production build served by the real API; and the landing page's JavaScript, gzipped, as a browser downloads it.
 * Targets: performance and accessibility at least 95; landing JavaScript under 150 KB gzipped.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import sharp from 'sharp';
import { benchDatabase, mp3Frames, out, ROOT, signUp } from './support.js';

const WEB_DIST = join(ROOT, 'web', 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_SCORE = 95;
const LANDING_JS_TARGET_KB = 150;
/** Where to keep each run's full Lighthouse report (JSON), when set. */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/**
 * The mobile runs' CPU slowdown (Lighthouse's default is 4). It multiplies the host's own speed, which each run prints
 * as Lighthouse's CPU index: a larger slowdown shows what a slower host or phone would see.
 */
const MOBILE_CPU_SLOWDOWN = Number(process.env.BENCH_LIGHTHOUSE_CPU_SLOWDOWN ?? 4);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The JavaScript the landing page loads before it can run: its module script and the chunks it preloads. */
async function landingJavaScriptKb(): Promise<number> {
  const html = await readFile(join(WEB_DIST, 'index.html'), 'utf8');
  const files = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] as string));
  // The landing screen is its own chunk, fetched by the router on the first visit.
  const landing = (await readFile(join(WEB_DIST, '.vite', 'manifest.json'), 'utf8').catch(() => null)) ?? null;
  if (landing) {
    const manifest = JSON.parse(landing) as Record<string, { file: string; imports?: string[] }>;
    const entry = Object.entries(manifest).find(([source]) => source.endsWith('LandingPage.tsx'));
    if (entry) {
      files.add(entry[1].file);
      for (const imported of entry[1].imports ?? []) {
        const chunk = manifest[imported];
        if (chunk) files.add(chunk.file);
      }
    }
  }
  let bytes = 0;
  for (const file of files) bytes += gzipSync(await readFile(join(WEB_DIST, file))).length;
  return bytes / 1024;
}

async function startProduct(databaseUrl: string): Promise<{ base: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-lh-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(ROOT, 'api'),
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(ROOT, 'api', 'tsconfig.json'),
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DEMO: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (
      await fetch(`${base}/`).then(
        (response) => response.ok,
        () => false,
      )
    ) {
      return {
        base,
        async stop() {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  child.kill('SIGKILL');
  throw new Error('the API did not start');
}

/** One published mix with a cover, an MP3 and a tracklist, made over the REST calls. */
async function publishMix(base: string): Promise<string> {
  const token = await signUp(base);
  const form = new FormData();
  const cover = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#b14dff' } })
    .png()
    .toBuffer();
  form.append('cover', new Blob([new Uint8Array(cover)], { type: 'image/png' }), 'cover.png');
  form.append('title', 'Sunrise Session');
  form.append('mp3', new Blob([new Uint8Array(mp3Frames(30, 128))], { type: 'audio/mpeg' }), 'mix.mp3');
  form.append('genre', 'deep_house');
  const created = await fetch(`${base}/api/mix/create-mix`, { method: 'POST', headers: { 'x-auth-token': token }, body: form });
  const { _id: id } = (await created.json()) as { _id: string };
  const json = { 'content-type': 'application/json', 'x-auth-token': token };
  const tracks = Array.from({ length: 5 }, (_, index) => ({
    title: `Track ${index + 1}`,
    creators: [{ name: `Artist ${index + 1}` }],
    is_manual: true,
  }));
  await fetch(`${base}/api/mix/update-mix`, { method: 'POST', headers: json, body: JSON.stringify({ mix_id: id, tracks }) });
  const published = await fetch(`${base}/api/mix/publish-mix`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ mix_id: id, code: 'free-mix' }),
  });
  if (!published.ok) throw new Error(`publishing failed: ${await published.text()}`);
  return id;
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    out('installing chromium (apt-get install -y chromium) ...');
    spawnSync('sh', ['-c', 'apt-get update && apt-get install -y chromium'], { stdio: 'ignore' });
  }
  // Always a fresh production build: a web/dist left by another tool may be stale or a development build.
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('the web build failed');
  const database = await benchDatabase();
  const product = await startProduct(database.url);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  let failed = false;
  try {
    const mixId = await publishMix(product.base);
    out('lighthouse: landing and a shared mix, mobile and desktop (Debian Chromium, production build served by the API)');
    out();
    out('| page | device | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | host CPU index |');
    out('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const [name, path] of [
      ['landing', '/'],
      ['shared mix', `/shared-mix/${mixId}`],
    ] as const) {
      for (const device of ['mobile', 'desktop'] as const) {
        const result = await lighthouse(
          `${product.base}${path}`,
          {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
            ...(device === 'mobile' && MOBILE_CPU_SLOWDOWN !== 4 ? { throttling: { cpuSlowdownMultiplier: MOBILE_CPU_SLOWDOWN } } : {}),
          },
          device === 'desktop' ? desktopConfig : undefined,
        );
        const categories = result?.lhr.categories ?? {};
        const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
        const metric = (id: string) => result?.lhr.audits[id]?.displayValue ?? '?';
        const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'];
        const hostIndex = Math.round(result?.lhr.environment.benchmarkIndex ?? 0);
        out(`| ${name} | ${device} | ${CATEGORIES.map(score).join(' | ')} | ${metrics.map(metric).join(' | ')} | ${hostIndex} |`);
        if (REPORTS_DIR && result) {
          await writeFile(join(REPORTS_DIR, `${name.replace(/\W+/g, '-')}-${device}.json`), JSON.stringify(result.lhr));
        }
        if (score('performance') < TARGET_SCORE || score('accessibility') < TARGET_SCORE) {
          failed = true;
          const audits = Object.values(result?.lhr.audits ?? {})
            .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
            .map((audit) => audit.id);
          out(`|   below ${TARGET_SCORE}: audits to look at: ${audits.slice(0, 12).join(', ')} | | | | | | | | | | |`);
        }
      }
    }
    const kb = await landingJavaScriptKb();
    out();
    out(
      `landing page JavaScript: ${kb.toFixed(1)} KB gzipped (target < ${LANDING_JS_TARGET_KB} KB): ${kb < LANDING_JS_TARGET_KB ? 'met' : 'MISSED'}`,
    );
    if (kb >= LANDING_JS_TARGET_KB) failed = true;
    out(`performance and accessibility >= ${TARGET_SCORE} on every page and device: ${failed ? 'MISSED (see above)' : 'met'}`);
  } finally {
    chrome.kill();
    await product.stop();
    await database.close();
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
