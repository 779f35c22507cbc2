import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { STRONG_PASSWORD } from './support/app.js';
import { freePort } from './support/ports.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

test('without DATABASE_URL the server runs an embedded PostgreSQL under DATA_DIR, and accounts survive a restart', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-restart-'));
  dirs.push(dataDir);
  // mkdtemp makes a private folder; as root the embedded server runs as 'postgres' and must be able to enter it.
  await chmod(dataDir, 0o755);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    EMBEDDED_PG_PORT: String(await freePort()),
    DEMO: '0',
  });
  const log = pino({ level: 'silent' });

  const first = await startServer(config, log);
  const created = await fetch(`${first.url}/api/user/create-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'kept@example.com', password: STRONG_PASSWORD }),
  });
  expect(created.status).toBe(201);
  await first.stop();

  const second = await startServer(config, log);
  try {
    const signedIn = await fetch(`${second.url}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com', password: STRONG_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    // The token from before the restart is still good: the generated secret lives in DATA_DIR too.
    const me = await fetch(`${second.url}/api/user/logged-in-user`, {
      headers: { 'x-auth-token': ((await created.json()) as { token: string }).token },
    });
    expect(me.status).toBe(200);
  } finally {
    await second.stop();
  }
}, 120_000);
