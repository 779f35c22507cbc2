import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Topics } from '../src/graphql/topics.js';
import { createTestApp, freshIp, signUpMember, type TestApp } from './support/app.js';
import { subscribed } from './support/sockets.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

// Two instances of the API sharing one Redis, as behind a load balancer.
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp({ REDIS_URL });
  b = await createTestApp({ REDIS_URL }, { databaseUrl: a.databaseUrl });
  await b.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

test('a change made through one instance reaches a subscriber on another through Redis', async () => {
  const member = await signUpMember(a.app, { userName: `redis_${Date.now().toString(36)}` });
  const { port } = b.app.server.address() as { port: number };
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket });
  const received = new Promise<unknown>((resolve, reject) => {
    client.subscribe(
      { query: `subscription { profileUpdated(userName: "${member.userName}") { displayName } }` },
      { next: (v) => resolve(v.data), error: reject, complete: () => undefined },
    );
  });
  try {
    await subscribed(b.app, Topics.ProfileUpdated);
    await a.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { 'x-auth-token': member.token },
      payload: { display_name: 'Across Redis' },
    });
    expect(await received).toEqual({ profileUpdated: { displayName: 'Across Redis' } });
  } finally {
    await client.dispose();
  }
});

test('rate limits are shared between instances', async () => {
  const member = await signUpMember(a.app);
  const attempt = (app: TestApp) =>
    app.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { email: member.email, password: 'Wrong1!pass' },
      remoteAddress: freshIp(),
    });
  for (let i = 0; i < 5; i++) await attempt(a);
  for (let i = 0; i < 5; i++) await attempt(b);
  expect((await attempt(a)).statusCode).toBe(429);
});
