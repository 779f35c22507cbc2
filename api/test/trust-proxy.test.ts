import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, signUpMember, type TestApp } from './support/app.js';
import { socketUrl } from './support/sockets.js';

/**
 * Issue 26, finding 8: TRUST_PROXY believes only the hops it is told to (a count of proxies, or their addresses), so a
 * client behind the proxy cannot step past a per-address limit by writing its own X-Forwarded-For. Real sockets: the
 * proxy here is the test, on loopback, appending the address it "saw" last, as nginx's $proxy_add_x_forwarded_for does.
 */

const LIMITS = { RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_GRAPHQL_COST: '50', RATE_LIMIT_WINDOW_SECONDS: '60' };

let first: TestApp;
const apps: TestApp[] = [];
beforeAll(async () => {
  first = await createTestApp({ ...LIMITS, TRUST_PROXY: '1' });
  apps.push(first);
}, 60_000);
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
});

/** Another instance on the same database (the rate limits are counted there, so each case uses addresses of its own). */
async function appWith(trustProxy: string): Promise<TestApp> {
  const app = await createTestApp({ ...LIMITS, TRUST_PROXY: trustProxy }, { databaseUrl: first.databaseUrl });
  apps.push(app);
  return app;
}

async function baseUrl(app: TestApp): Promise<string> {
  return (await socketUrl(app.app)).replace('ws://', 'http://').replace('/graphql', '');
}

/** A REST read through the "proxy": what the client wrote in X-Forwarded-For, then the address the proxy saw. */
async function readAs(url: string, clientWrote: string | null, proxySaw: string): Promise<number> {
  const forwarded = clientWrote ? `${clientWrote}, ${proxySaw}` : proxySaw;
  const response = await fetch(`${url}/api/user/by-user-name/nobody`, { headers: { 'x-forwarded-for': forwarded } });
  await response.arrayBuffer();
  return response.status;
}

let rotation = 0;
const forgedAddress = () => `192.0.2.${++rotation % 250}`;

describe('REST requests behind the proxy', () => {
  test('TRUST_PROXY=1 (one proxy in front): a client that rotates its own X-Forwarded-For still gets a 429 on its fourth request', async () => {
    const url = await baseUrl(first);
    const statuses = [];
    for (let index = 0; index < 5; index++) statuses.push(await readAs(url, forgedAddress(), '198.51.100.7'));
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429]);
    // Another client behind the same proxy has a budget of its own.
    expect(await readAs(url, forgedAddress(), '198.51.100.8')).not.toBe(429);
  });

  test('TRUST_PROXY naming the proxy (loopback here): the same', async () => {
    const url = await baseUrl(await appWith('127.0.0.1'));
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push(await readAs(url, forgedAddress(), '198.51.100.17'));
    expect(statuses.at(-1)).toBe(429);
    expect(await readAs(url, null, '198.51.100.18')).not.toBe(429);
  });

  test('a peer that is not a listed proxy is its own client: whatever it writes in X-Forwarded-For is not believed', async () => {
    const url = await baseUrl(await appWith('10.9.9.9'));
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push(await readAs(url, forgedAddress(), `198.51.100.${30 + index}`));
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the GraphQL socket behind the proxy', () => {
  /** graphql-ws's client, through the "proxy": the upgrade request carries the X-Forwarded-For the proxy would send. */
  const forwardedAs = (forwarded: string) =>
    class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { 'x-forwarded-for': forwarded } });
      }
    };

  const subscribeAs = async (url: string, forwarded: string, userName: string): Promise<string> => {
    const client = createClient({ url, webSocketImpl: forwardedAs(forwarded), retryAttempts: 0 });
    try {
      return await new Promise((resolve) => {
        const stop = client.subscribe(
          { query: `subscription { profileUpdated(userName: "${userName}") { displayName } }` },
          {
            next: () => undefined,
            error: (error) => resolve(JSON.stringify(error).includes('TOO_MANY_REQUESTS') ? 'refused' : JSON.stringify(error)),
            complete: () => resolve('complete'),
          },
        );
        setTimeout(() => {
          stop();
          resolve('listening');
        }, 400);
      });
    } finally {
      await client.dispose();
    }
  };

  test('subscriptions spend the budget of the address the proxy saw: rotating X-Forwarded-For does not renew it, another client has its own', async () => {
    const url = await socketUrl(first.app);
    const member = await signUpMember(first.app);
    // Each subscription costs 21 of the 50 points: two fit, a third does not, whatever the client writes.
    const outcomes = [];
    for (let index = 0; index < 3; index++) outcomes.push(await subscribeAs(url, `${forgedAddress()}, 198.51.100.50`, member.userName));
    expect(outcomes).toEqual(['listening', 'listening', 'refused']);
    expect(await subscribeAs(url, `${forgedAddress()}, 198.51.100.51`, member.userName)).toBe('listening');
  });
});
