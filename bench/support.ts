/** What the media benchmarks share: a database, the API in a child process, its memory, members and MP3s. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../api/src/db/embedded-postgres.js';
import { sineMp3 } from '../api/test/support/audio.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MB = 1024 * 1024;
export const out = (line = '') => process.stdout.write(`${line}\n`);

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export interface BenchDatabase {
  url: string;
  /** Whether the database was made by this call (false: a kept one, reused). */
  created: boolean;
  close(): Promise<void>;
}

/**
 * A fresh database on BENCH_DATABASE_URL, TEST_DATABASE_URL, the local server on 5432, or an embedded one. With `keep`,
 * the database of that name, made when missing and kept after close (on a server only; an embedded one goes with its
 * run), so a costly seed is paid once.
 */
export async function benchDatabase(keep?: { name: string; fresh?: boolean }): Promise<BenchDatabase> {
  let serverUrl: string | undefined;
  for (const url of [process.env.BENCH_DATABASE_URL, process.env.TEST_DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/postgres']) {
    if (url && (await canConnect(url))) {
      serverUrl = url;
      break;
    }
  }
  let stopEmbedded = async () => undefined;
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-pg-'));
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    const embedded = await startEmbeddedPostgres(dir, 30000 + Math.floor(Math.random() * 10000), quiet);
    serverUrl = embedded.url;
    stopEmbedded = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const name = keep?.name ?? `mixcrate_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  if (keep?.fresh) await admin.query(`drop database if exists ${name} with (force)`);
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    created: !exists,
    async close() {
      if (!keep) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      await stopEmbedded();
    },
  };
}

export interface ApiProcess {
  base: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The API in its own Node process (tsx, the API's tsconfig), on a free loopback port. */
/** The API in its own process; with `processes` > 1, a cluster of that many (WEB_CONCURRENCY), as production runs it. */
/**
 * The API in its own process. `options.dataDir` serves another API's files (that API removes them); `options.env`
 * adds settings (MEDIA_ZERO_COPY, say); `options.root` runs another checkout's API (an earlier commit, to compare).
 */
export async function startApi(
  databaseUrl: string,
  processes = 1,
  options: { dataDir?: string; env?: Record<string, string>; root?: string } = {},
): Promise<ApiProcess> {
  const root = options.root ?? ROOT;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'mixcrate-bench-media-')));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=1 (into /tmp/prof) or =DIR: a V8 CPU profile of the API process, written when it stops.
      ...(process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF === '1' ? '/tmp/prof' : process.env.BENCH_CPU_PROF}`]
        : []),
      '--import',
      'tsx',
      join(root, 'bench/media-server.ts'),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: join(root, 'api/tsconfig.json'),
        BENCH_MEDIA_DATABASE_URL: databaseUrl,
        BENCH_MEDIA_PROCESSES: String(processes),
        BENCH_MEDIA_DATA_DIR: dataDir,
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout ?? process.stdin }), 'line')) as [string];
  const { port } = JSON.parse(line) as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process, from /proc (bytes). */
export async function rssOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Samples a process's RSS while `work` runs: its resident memory before, and the highest it reached (the kernel's peak). */
export async function measureRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; before: number; peak: number }> {
  // Writing 5 to clear_refs resets the kernel's peak (VmHWM) to the current RSS.
  await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
  const before = (await rssOf(pid)).rss;
  let sampled = before;
  const timer = setInterval(() => {
    rssOf(pid).then(
      ({ rss }) => {
        sampled = Math.max(sampled, rss);
      },
      () => undefined,
    );
  }, 10);
  try {
    const result = await work();
    const { peak } = await rssOf(pid);
    return { result, before, peak: Math.max(peak, sampled) };
  } finally {
    clearInterval(timer);
  }
}

export async function signUp(base: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const response = await fetch(`${base}/api/user/create-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Mixcrate1!', has_opted_in: false }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * Real MP3 frames (a 440 Hz tone: the tests' sineMp3 at a steady level) to repeat into a file of any size: the same
 * bitstream a 2-hour set at this bitrate has.
 */
export const mp3Frames = (seconds: number, kbps: number): Buffer => sineMp3({ seconds, kbps, envelope: () => 9000 / 32_767 });

/** A body of `repeats` copies of `unit` between a head and a tail, produced as it is sent, never held whole. */
export async function* repeated(head: Buffer, unit: Buffer, repeats: number, tail: Buffer): AsyncGenerator<Buffer> {
  yield head;
  for (let index = 0; index < repeats; index += 1) yield unit;
  yield tail;
}
