import { connect, type Socket } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestApp, freshIp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { WAIT_MS, waitForEvent } from './support/wait.js';

let t: TestApp;
let member: Member;
beforeAll(async () => {
  t = await createTestApp();
  member = await signUpMember(t.app);
});
afterAll(() => t.close());

const rowCounts = async () =>
  (
    await t.services.orm.em
      .fork()
      .execute<{ mixes: number; tracks: number; users: number }[]>(
        'select (select count(*) from mix)::int as mixes, (select count(*) from track)::int as tracks, (select count(*) from app_user)::int as users',
      )
  )[0];

describe('malformed multipart is a 400 and leaves nothing', () => {
  const field = '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nhi\r\n--x--\r\n';
  const bodies: [string, string, string][] = [
    ['no boundary', 'multipart/form-data', field],
    ['a wrong boundary', 'multipart/form-data; boundary=y', field],
    ['garbage', 'multipart/form-data; boundary=x', 'garbage garbage'],
    [
      'a truncated file',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="cover"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff',
    ],
    ['a truncated field', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nhi'],
  ];
  for (const [method, url] of [
    ['POST', '/api/mix/create-mix'],
    ['PATCH', '/api/user/update-user'],
  ] as const) {
    test(`${method} ${url}`, async () => {
      const before = await rowCounts();
      for (const [name, type, payload] of bodies) {
        const response = await t.app.inject({ method, url, headers: { 'x-auth-token': member.token, 'content-type': type }, payload });
        expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, name).toBeLessThan(500);
      }
      expect(await rowCounts()).toEqual(before);
    });
  }
});

describe('text PostgreSQL cannot store is a 400 naming the field, in both skins', () => {
  test('NUL bytes and lone surrogates in paths, searches, credentials, profiles and titles', async () => {
    const headers = { 'x-auth-token': member.token };
    const before = await rowCounts();
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/user/by-user-name/a%00b' }),
      await t.app.inject({ method: 'POST', url: '/api/user/search', headers, payload: { searchString: 'a\u0000b' } }),
      await t.app.inject({
        method: 'POST',
        url: '/api/user/create-user',
        payload: { email: 'a\u0000b@example.com', password: 'Mixcrate1!' },
        remoteAddress: freshIp(),
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth',
        payload: { email: 'a\u0000b@example.com', password: 'x' },
        remoteAddress: freshIp(),
      }),
      await t.app.inject({ method: 'POST', url: '/api/user/reset-password', payload: { email: 'a\u0000@b.co' }, remoteAddress: freshIp() }),
      await t.app.inject({ method: 'PATCH', url: '/api/user/update-user', headers, payload: { display_name: 'x\u0000y' } }),
      await t.app.inject({ method: 'PATCH', url: '/api/user/update-user', headers, payload: { bio: '\ud800' } }),
      await t.app.inject({ method: 'PATCH', url: '/api/user/add-username', headers, payload: { user_name: 'ab\u0000c' } }),
    ];
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(400);
    const graph = await gql(
      t.app,
      'mutation ($p: ProfileInput!) { updateProfile(input: $p) { displayName } }',
      { p: { displayName: 'a\u0000' } },
      member.token,
    );
    expect(graph.errors?.[0].extensions?.code, JSON.stringify(graph)).toBe('BAD_USER_INPUT');
    expect(await rowCounts()).toEqual(before);
  });
});

describe('numbers past every bound are 400s', () => {
  test('huge page numbers', async () => {
    const headers = { 'x-auth-token': member.token };
    for (const url of [
      `/api/mix/by-user/${member.userName}/1e300`,
      '/api/user/saved-mixes-by-me?page=1e300',
      `/api/user/get-following/${member.userName}/1e300`,
    ]) {
      const answer = await t.app.inject({ method: 'GET', url, headers });
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(400);
    }
    const feed = await t.app.inject({ method: 'POST', url: '/api/mix/get-mixes-by-genre-and-distance', headers, payload: { page: 1e18 } });
    expect(feed.statusCode, feed.body).toBe(400);
  });
});

describe('tokens', () => {
  test('a signed token whose subject is no member id is a 401, not a 500', async () => {
    const secret = t.config.JWT_SECRET ?? (await import('node:fs/promises')).readFile(`${t.config.DATA_DIR}/secrets/jwt-secret`, 'utf8');
    const key = new TextEncoder().encode(String(await secret).trim());
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('not-a-uuid')
      .setIssuer('mixcrate')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    const answer = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': token } });
    expect(answer.statusCode).toBe(401);
  });
});

describe('password hashing costs an attacker, not us', () => {
  test('a garbage reset token is refused before any hash is spent on the new password', async () => {
    const bcrypt = (await import('bcrypt')).default;
    const hash = vi.spyOn(bcrypt, 'hash');
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-password',
      payload: { email: member.email, token: 'garbage', newPassword: 'Another1!' },
      remoteAddress: freshIp(),
    });
    expect(answer.statusCode).toBe(404);
    expect(hash).not.toHaveBeenCalled();
    hash.mockRestore();
  });

  test('every hashing path is rate limited: new passwords per address, password checks per member', async () => {
    const ip = freshIp();
    const resets = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      resets.push(
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/update-password',
          payload: { email: member.email, token: `garbage${attempt}`, newPassword: 'Another1!' },
          remoteAddress: ip,
        }),
      );
    }
    expect(resets.at(-1)?.statusCode).toBe(429);
    expect(resets.at(-1)?.headers['retry-after']).toBeDefined();
    const checker = await signUpMember(t.app);
    const checks = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      checks.push(
        await t.app.inject({
          method: 'POST',
          url: '/api/user/check-password',
          headers: { 'x-auth-token': checker.token },
          payload: { password: 'Wrong1!x' },
          remoteAddress: freshIp(),
        }),
      );
    }
    expect(checks.slice(0, 10).every((answer) => answer.statusCode === 400)).toBe(true);
    expect(checks.at(-1)?.statusCode).toBe(429);
  });
});

describe('a request that stalls is cut, never held', () => {
  test('headers or a body that stop arriving get a 408 and the connection closes', async () => {
    const stalled = await createTestApp({ REQUEST_BODY_TIMEOUT_MS: '300', REQUEST_HEADERS_TIMEOUT_MS: '500' });
    const address = await stalled.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const exchange = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString();
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        socket.setTimeout(WAIT_MS, () => reject(new Error(`still open after ${WAIT_MS} ms of silence: ${answer}`)));
      });
    for (const path of ['/api/auth', '/graphql']) {
      const answer = await exchange(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`,
      );
      expect(answer, path).toMatch(/^HTTP\/1\.1 408/);
      expect(answer).toContain('the request body stopped arriving');
    }
    expect(await exchange('GET /api/user/logged-in-user HTTP/1.1\r\nHost: x\r\n')).toMatch(/^HTTP\/1\.1 408/);
    await stalled.close();
  });

  test('one address holds a bounded number of connections', async () => {
    const capped = await createTestApp({ MAX_CONNECTIONS_PER_ADDRESS: '3' });
    const address = new URL(await capped.app.listen({ port: 0, host: '127.0.0.1' }));
    const sockets = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(Number(address.port), '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    const closed = new Set<Socket>();
    const firstClosed = Promise.race(
      sockets.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve(void closed.add(socket))))),
    );
    await waitForEvent('the server to close the connection over the cap', firstClosed);
    // The other three are open and served: each answers a request (the closed one is not asked).
    const open = sockets.filter((socket) => !closed.has(socket));
    expect(open).toHaveLength(3);
    const answers = await Promise.all(
      open.map((socket) => {
        const answered = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
        socket.write('GET /api/oembed HTTP/1.1\r\nHost: x\r\n\r\n');
        return waitForEvent('an answer on a connection within the cap', answered);
      }),
    );
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(closed.size).toBe(1);
    for (const socket of sockets) socket.destroy();
    await capped.close();
  });
});

describe('numbers PostgreSQL cannot compute with', () => {
  test('a subnormal coordinate is stored as 0 instead of underflowing earthdistance (REST and GraphQL)', async () => {
    const headers = { 'x-auth-token': member.token };
    const tiny = { latitude: 5e-324, longitude: -1e-320 };
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/user/update-location', headers, payload: { location: tiny } })).statusCode,
    ).toBe(200);
    const feed = await t.app.inject({
      method: 'POST',
      url: '/api/mix/get-mixes-by-genre-and-distance',
      headers,
      payload: { from_point: tiny, search_radius: 100 },
    });
    expect(feed.statusCode, feed.body).toBe(200);
    const graph = await gql(
      t.app,
      'query ($at: LocationInput) { feed(from: $at, radiusKm: 100) { totalCount } }',
      { at: tiny },
      member.token,
    );
    expect(graph.errors).toBeUndefined();
  });
});

describe('the same request many times at once', () => {
  test('40 follow toggles at once all answer, and the pool is free afterwards', async () => {
    const fan = await signUpMember(t.app);
    const star = await signUpMember(t.app);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.app.inject({ method: 'GET', url: `/api/user/follow/${star.id}`, headers: { 'x-auth-token': fan.token } }),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const stats = await t.app.inject({ method: 'GET', url: `/api/user/by-user-name/${star.userName}` });
    expect(stats.statusCode).toBe(200);
  });
});
