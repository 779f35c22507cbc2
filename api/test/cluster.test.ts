import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createTestDatabase, dropTestDatabase } from './support/app.js';

const API_DIR = join(import.meta.dirname, '..');

let databaseUrl: string;
let dataDir: string;
let child: ChildProcess;
let url: string;
/** Every JSON log record the product printed, from all of its processes. */
const records: { pid: number; msg: string; request?: { url: string; status: number } }[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-cluster-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      WEB_CONCURRENCY: '2',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '0',
      REDIS_URL: '',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Workers log where they listen; the primary logs when all are ready.
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`mixcrate exited (code ${code}) before it was ready`)));
    createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
      // Only log records are expected on stdout; anything else (a stray write) is no record.
      if (!line.startsWith('{')) return;
      const record = JSON.parse(line);
      records.push(record);
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(record.msg);
      if (listening?.[1]) url = listening[1];
      if (record.msg === 'mixcrate is ready') resolve();
    });
  });
  await ready;
}, 120_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
});

test('WEB_CONCURRENCY=2 serves one port from two processes, and a stop ends them all', async () => {
  expect(url).toBeDefined();
  const health = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ me { id } }' }),
  });
  expect(await health.json()).toEqual({ data: { me: null } });

  const signUps = await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      fetch(`${url}/api/user/create-user`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ email: `cluster_${index}_${Date.now()}@example.com`, password: 'Mixcrate1!', has_opted_in: false }),
      }).then((response) => response.status),
    ),
  );
  expect(signUps).toEqual([201, 201, 201, 201, 201, 201]);
  // Each process logs the requests it answered (with its pid): both workers answered some, the primary none.
  const signUpLogs = () => records.filter((record) => record.request?.url === '/api/user/create-user');
  await vi.waitFor(() => expect(signUpLogs()).toHaveLength(6));
  const servingProcesses = new Set(signUpLogs().map((record) => record.pid));
  expect(servingProcesses.size).toBe(2);
  expect(servingProcesses.has(child.pid ?? 0)).toBe(false);

  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  await expect(fetch(`${url}/api/mix/public/none`)).rejects.toThrow();
}, 60_000);
