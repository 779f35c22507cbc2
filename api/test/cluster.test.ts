import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, dropTestDatabase } from './support/app.js';

const API_DIR = join(import.meta.dirname, '..');

let databaseUrl: string;
let dataDir: string;
let child: ChildProcess;
let url: string;

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
  for await (const line of createInterface({ input: child.stdout ?? process.stdin })) {
    const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
    if (listening?.[1]) url = listening[1];
    if (line.includes('mixcrate is ready')) break;
  }
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

  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  await expect(fetch(`${url}/api/mix/public/none`)).rejects.toThrow();
}, 60_000);
