import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Topics } from '../src/graphql/topics.js';
import { createTestApp, freshIp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { subscribed } from './support/sockets.js';
import { waitForEvent } from './support/wait.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMITS = {
  JWT_SECRET: 'rate-limits-test-secret-shared-by-both-instances',
  RATE_LIMIT_REQUESTS: '3',
  RATE_LIMIT_GRAPHQL_COST: '100',
  RATE_LIMIT_WINDOW_SECONDS: '60',
};
const FEED = '{ feed(first: 5) { edges { node { id title } } } }';

/** Two instances of the API on one database (and, in the Redis case, one Redis), as behind a load balancer. */
for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`rate limits counted in ${store}, shared by every instance`, () => {
    let a: TestApp;
    let b: TestApp;
    let member: Member;
    beforeAll(async () => {
      const env = { ...LIMITS, ...(store === 'Redis' ? { REDIS_URL } : {}) };
      a = await createTestApp(env);
      b = await createTestApp(env, { databaseUrl: a.databaseUrl });
      member = await signUpMember(a.app);
    }, 60_000);
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    test('REST: headers count down across instances, then 429 with Retry-After', async () => {
      const remoteAddress = freshIp();
      const read = (app: TestApp) => app.app.inject({ method: 'GET', url: `/api/user/by-user-name/${member.userName}`, remoteAddress });
      const first = await read(a);
      expect(first.statusCode).toBe(200);
      expect(first.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2' });
      expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect((await read(b)).headers['ratelimit-remaining']).toBe('1');
      expect((await read(a)).headers['ratelimit-remaining']).toBe('0');
      const refused = await read(b);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.json().message).toMatch(/Rate limit reached.*3 requests/);
      // Another address has its own budget.
      expect(
        (await a.app.inject({ method: 'GET', url: `/api/user/by-user-name/${member.userName}`, remoteAddress: freshIp() })).statusCode,
      ).toBe(200);
    });

    test('REST: a member counts by token wherever the requests come from', async () => {
      const other = await signUpMember(a.app);
      const headers = { 'x-auth-token': other.token };
      // Sign-up's own steps spent some of the budget: count down from whatever they left, from a new address each time.
      const answers = [];
      for (let index = 0; index < 4; index++) {
        const app = index % 2 ? b : a;
        const answer = await app.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers, remoteAddress: freshIp() });
        answers.push({ status: answer.statusCode, remaining: Number(answer.headers['ratelimit-remaining']) });
        if (answer.statusCode === 429) break;
      }
      const last = answers.at(-1);
      expect(last).toEqual({ status: 429, remaining: 0 });
      const allowed = answers.slice(0, -1);
      expect(allowed.length).toBeGreaterThan(0);
      expect(allowed).toEqual(allowed.map((_, index) => ({ status: 200, remaining: allowed.length - 1 - index })));
    });

    test('GraphQL counts by cost: a feed page of 5 costs 40 of the 100 points (a lookup 20 + 5 × (edges 1 + node 1 + 2 fields))', async () => {
      const remoteAddress = freshIp();
      const ask = (app: TestApp) => gql(app.app, FEED, {}, undefined, { remoteAddress });
      const first = await a.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json' },
        payload: { query: FEED },
        remoteAddress,
      });
      expect(first.statusCode).toBe(200);
      expect(first.headers).toMatchObject({ 'ratelimit-limit': '100', 'ratelimit-remaining': '60' });
      expect((await ask(b)).status).toBe(200);
      const refused = await b.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json' },
        payload: { query: FEED },
        remoteAddress,
      });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().errors[0]).toMatchObject({ extensions: { code: 'TOO_MANY_REQUESTS' } });
      expect(refused.json().errors[0].message).toMatch(/100 GraphQL cost points/);
      // A cheap query from another address still runs.
      expect((await gql(a.app, '{ __typename }')).status).toBe(200);
    });

    test('an operation refused by a limit spends nothing: nothing ran', async () => {
      const remoteAddress = freshIp();
      const post = (query: string) =>
        a.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json' },
          payload: { query },
          remoteAddress,
        });
      const tooCostly = await post('{ feed(first: 1000000) { edges { node { id } } } }');
      expect(tooCostly.statusCode).toBe(400);
      expect(tooCostly.json().errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
      const tooDeep = await post(
        '{ feed(first: 1) { edges { node { tracks { track { mixes { edges { node { tracks { track { id } } } } } } } } } } }',
      );
      expect(tooDeep.statusCode).toBe(400);
      expect(tooDeep.json().errors[0].message).toMatch(/exceeds maximum operation depth of 8/);
      const next = await post(FEED);
      expect(next.statusCode).toBe(200);
      expect(next.headers['ratelimit-remaining']).toBe('60');
    });

    test('subscriptions over graphql-ws spend the same budget', async () => {
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = b.app.server.address() as { port: number };
      const spender = await signUpMember(a.app);
      // A feed page (40) leaves 60: two subscriptions of 21 (the field, a lookup, and displayName) fit, a third does not.
      expect((await gql(a.app, FEED, {}, spender.token)).status).toBe(200);
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${spender.token}` },
      });
      const subscription = `subscription { profileUpdated(userName: "${spender.userName}") { displayName } }`;
      const answered = (onError: (error: unknown) => void) => ({ next: () => undefined, error: onError, complete: () => undefined });
      try {
        // An accepted subscription sends nothing: it is known accepted once the server listens for it.
        const refusals: unknown[] = [];
        for (let count = 1; count <= 2; count++) {
          client.subscribe(
            { query: subscription },
            answered((error) => refusals.push(error)),
          );
          await subscribed(b.app, Topics.ProfileUpdated, count);
        }
        expect(refusals).toEqual([]);
        const third = new Promise<unknown>((resolve) => client.subscribe({ query: subscription }, answered(resolve)));
        expect(JSON.stringify(await waitForEvent('the third subscription to be refused', third))).toMatch(/TOO_MANY_REQUESTS/);
      } finally {
        await client.dispose();
      }
    });
  });
}
