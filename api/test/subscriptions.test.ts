import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Topics } from '../src/graphql/topics.js';
import { createTestApp, signUpMember, type TestApp } from './support/app.js';
import { subscribed } from './support/sockets.js';

let t: TestApp;
let wsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  wsUrl = `ws://127.0.0.1:${address.port}/graphql`;
});
afterAll(() => t.close());

test('graphql-ws on the same port and path pushes a profile when it changes', async () => {
  const member = await signUpMember(t.app, { userName: 'live_profile' });
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${member.token}` },
    lazy: false,
  });
  const received: unknown[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const stop = client.subscribe(
      { query: 'subscription { profileUpdated(userName: "LIVE_PROFILE") { userName displayName } }' },
      {
        next: (value) => {
          received.push(value.data);
          stop();
          resolve();
        },
        error: reject,
        complete: () => undefined,
      },
    );
  });
  await subscribed(t.app, Topics.ProfileUpdated);
  await t.app.inject({
    method: 'PATCH',
    url: '/api/user/update-user',
    headers: { 'x-auth-token': member.token },
    payload: { display_name: 'Live Now' },
  });
  await done;
  expect(received).toEqual([{ profileUpdated: { userName: 'live_profile', displayName: 'Live Now' } }]);
  await client.dispose();
});

test('a malformed subscription is answered with an error, not a dropped socket', async () => {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket });
  const error = await new Promise<unknown>((resolve) => {
    client.subscribe(
      { query: 'subscription { profileUpdated(userName: ' },
      { next: () => undefined, error: resolve, complete: () => resolve(null) },
    );
  });
  expect(JSON.stringify(error)).toMatch(/Syntax Error/);
  await client.dispose();
});

test('a socket message over the 1 MiB limit closes the socket with 1009, and the server stays up', async () => {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  await new Promise((resolve) => socket.once('open', resolve));
  // Without the limit the server would read the frame and acknowledge it.
  const answer = new Promise<string>((resolve) => {
    socket.once('close', (code) => resolve(`closed ${code}`));
    socket.once('message', (data) => resolve(`answered ${String(data)}`));
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(1_100_000) } }));
  const answered = await answer;
  socket.terminate();
  expect(answered).toBe('closed 1009');
  const health = await t.app.inject({ method: 'GET', url: '/healthz' });
  expect(health.statusCode).toBe(200);
});
