import { createClient } from 'graphql-ws';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { AdvisoryLocks } from '../src/db/advisory-locks.js';
import { Topics } from '../src/graphql/topics.js';
import { createTestApp, signUpMember, type TestApp } from './support/app.js';
import { subscribed } from './support/sockets.js';

// Two API instances on one database and no Redis, as the processes of a cluster (WEB_CONCURRENCY) are.
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp({ REDIS_URL: '' });
  b = await createTestApp({ REDIS_URL: '' }, { databaseUrl: a.databaseUrl });
  await b.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

test('a change made through one instance reaches a subscriber on another through PostgreSQL', async () => {
  const member = await signUpMember(a.app, { userName: `pg_${Date.now().toString(36)}` });
  const { port } = b.app.server.address() as { port: number };
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket });
  const received = new Promise<unknown>((resolve, reject) => {
    client.subscribe(
      { query: `subscription { profileUpdated(userName: "${member.userName}") { displayName } }` },
      { next: (value) => resolve(value.data), error: reject, complete: () => undefined },
    );
  });
  try {
    await subscribed(b.app, Topics.ProfileUpdated);
    await a.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { 'x-auth-token': member.token },
      payload: { display_name: 'Across PostgreSQL' },
    });
    expect(await received).toEqual({ profileUpdated: { displayName: 'Across PostgreSQL' } });
  } finally {
    await client.dispose();
  }
});

describe('advisory locks shared by processes', () => {
  const log = pino({ level: 'silent' });
  let first: AdvisoryLocks;
  let second: AdvisoryLocks;
  beforeAll(async () => {
    first = new AdvisoryLocks(a.databaseUrl, log);
    second = new AdvisoryLocks(a.databaseUrl, log);
    await Promise.all([first.start(), second.start()]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  test('a lock held in one process is refused in another until released', async () => {
    const held = await first.tryAcquire('upload:one');
    expect(held).not.toBeNull();
    expect(await second.tryAcquire('upload:one')).toBeNull();
    expect(await second.tryAcquire('upload:two')).not.toBeNull();
    await held?.release();
    const now = await second.tryAcquire('upload:one');
    expect(now).not.toBeNull();
    await now?.release();
  });

  test('a waiting process asks the holder to let go, and gets the lock when it does', async () => {
    let asked = 0;
    const held = await first.tryAcquire('upload:stale', () => {
      asked += 1;
      void held?.release();
    });
    const taken = await second.acquire('upload:stale', { timeoutMs: 5_000 });
    expect(asked).toBe(1);
    expect(taken).not.toBeNull();
    await taken?.release();
  });

  test('waiting ends with nothing after the timeout, or at once when the request is aborted', async () => {
    const held = await first.tryAcquire('upload:busy');
    expect(await second.acquire('upload:busy', { timeoutMs: 300 })).toBeNull();
    const aborted = new AbortController();
    aborted.abort();
    expect(await second.acquire('upload:busy', { timeoutMs: 5_000, signal: aborted.signal })).toBeNull();
    await held?.release();
  });

  test('a process that dies lets go of its locks with its connections', async () => {
    const doomed = new AdvisoryLocks(a.databaseUrl, log);
    await doomed.start();
    expect(await doomed.tryAcquire('upload:orphan')).not.toBeNull();
    await doomed.close();
    const taken = await first.acquire('upload:orphan', { timeoutMs: 5_000 });
    expect(taken).not.toBeNull();
    await taken?.release();
  });
});
