import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { REPO_DIR } from './web-build';

export interface RunningApi {
  url: string;
  stop(): Promise<void>;
}

export interface TestDatabase {
  /** undefined: let the API start its embedded PostgreSQL under DATA_DIR (what `npm start` does). */
  url?: string;
  drop(): Promise<void>;
}

const API_DIR = join(REPO_DIR, 'api');

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** With TEST_DATABASE_URL (CI): a fresh database `mixcrate_e2e_<random>` in that server, dropped afterwards. */
export async function createTestDatabase(baseUrl = process.env.TEST_DATABASE_URL): Promise<TestDatabase> {
  if (!baseUrl) return { url: undefined, drop: async () => undefined };
  const name = `mixcrate_e2e_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the real API (`api/src/main.ts` under tsx, as `npm run dev` does) in a child process on a free port.
 * It serves web/dist at /, so the browser sees exactly the production build.
 */
export async function startApi(databaseUrl: string | undefined): Promise<RunningApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-e2e-'));
  // As root the embedded PostgreSQL runs as the OS user `postgres`, which must be able to enter DATA_DIR.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl ?? '',
    EMBEDDED_PG_PORT: String(await freePort()),
    REDIS_URL: '',
    SMTP_URL: '',
    // Journeys make the members and mixes they need; the demo world would only slow every run.
    DEMO: '0',
    // Journeys make members over REST from one machine: each call says it comes from its own address.
    TRUST_PROXY: '1',
    // One test-mode subscription's 70% (699 cents) is a payable balance in the creators' journey.
    PAYOUT_MINIMUM_CENTS: '500',
  };
  // tsx reads api/tsconfig.json (legacy decorators) from the working directory.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: API_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 20_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await rm(dataDir, { recursive: true, force: true });
      throw new Error(`the API exited before it was ready (code ${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    const ready = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await stop();
  throw new Error(`the API did not answer on ${url} within 120 s:\n${output}`);
}
