import { decodeJwt, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestApp, freshIp, gql, type Member, STRONG_PASSWORD, signUpMember, type TestApp } from './support/app.js';
import { statementsDuring } from './support/mixes.js';
import { resetLinkIn, startSmtpReceiver } from './support/smtp.js';
import { socketUrl, type Watch, watch } from './support/sockets.js';

// Sessions that end (issue 26): the session table decides whether a token still counts, on every request and socket.
const JWT_SECRET = 'sessions-test-secret-sessions-test-secret';
const SIGNED_OUT = 'You have been signed out, please sign in again';
const EXPIRED = 'Your session has expired, please sign in again';
const FOLLOW_EVENTS = 'subscription { followEvents { kind } }';
/** Generous, for a loaded machine: what is awaited normally takes milliseconds. */
const BOUND_MS = 20_000;

let t: TestApp;
let url: string;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ JWT_SECRET, SMTP_URL: smtp.url });
  url = await socketUrl(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Every socket a test opened, stopped after it (a failing test too, so closing the app does not wait on them). */
const opened: Watch[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((socket) => socket.stop()));
});
const watchSocket = (...args: Parameters<typeof watch>) => {
  const socket = watch(...args);
  opened.push(socket);
  return socket;
};

/** Waits for what a promise means, for at most BOUND_MS, and says what it was waiting for when the bound passes. */
async function waitFor<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${BOUND_MS / 1000} s for ${what}`)), BOUND_MS);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const post = (app: TestApp, path: string, token?: string, payload: object = {}) =>
  app.app.inject({ method: 'POST', url: path, headers: token ? { 'x-auth-token': token } : {}, payload, remoteAddress: freshIp() });
/** A further sign-in of the member: another device, another session. */
const signIn = async (member: Member, password = STRONG_PASSWORD) => {
  const answer = await post(t, '/api/auth', undefined, { email: member.email, password });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().token as string;
};
const me = (token: string, app = t) =>
  app.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': token }, remoteAddress: freshIp() });
const statusOf = async (token: string, app = t) => (await me(token, app)).statusCode;
const sessionIdOf = (token: string) => decodeJwt(token).sid as string;

/** A signed-in socket watching the member's follow events, once the server has accepted it. */
async function openSocket(token: string, socketUrlOf = url): Promise<Watch> {
  const live = watchSocket(socketUrlOf, FOLLOW_EVENTS, {}, { authorization: `Bearer ${token}` });
  await waitFor('the server to accept the socket', live.connected);
  return live;
}

describe('what ends a session', () => {
  test('a password change ends the member’s other sessions and closes their sockets; the current one stays signed in', async () => {
    const member = await signUpMember(t.app);
    const [other, third] = [await signIn(member), await signIn(member)];
    const otherSocket = await openSocket(other);
    const current = { 'x-auth-token': member.token };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/check-password', headers: current, payload: { password: STRONG_PASSWORD } }))
        .statusCode,
    ).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/user/update-password',
      headers: current,
      payload: { newPassword: 'Changed1!now' },
    });
    expect(changed.statusCode).toBe(200);

    expect(await statusOf(member.token)).toBe(200);
    for (const token of [other, third]) {
      const answer = await me(token);
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error).toBe(SIGNED_OUT);
    }
    expect(await waitFor('the other session’s socket to close', otherSocket.closed)).toBe(4403);

    // The same over GraphQL, with the old password in the call.
    const again = await signIn(member, 'Changed1!now');
    const graph = await gql(
      t.app,
      'mutation { changePassword(input: { oldPassword: "Changed1!now", newPassword: "Changed2!now" }) }',
      {},
      member.token,
    );
    expect(graph.data).toEqual({ changePassword: 'Password updated' });
    expect(await statusOf(again)).toBe(401);
    expect(await statusOf(member.token)).toBe(200);
  });

  test('a password reset by email ends every session and closes their sockets', async () => {
    const member = await signUpMember(t.app);
    const other = await signIn(member);
    const socket = await openSocket(member.token);
    const before = smtp.inbox.length;
    expect((await post(t, '/api/user/reset-password', undefined, { email: member.email })).statusCode).toBe(200);
    const link = resetLinkIn(smtp.inbox[before]);
    const reset = await post(t, '/api/auth/update-password', undefined, {
      email: member.email,
      token: link.searchParams.get('token'),
      newPassword: 'Reset1!fresh',
    });
    expect(reset.statusCode).toBe(200);

    for (const token of [member.token, other]) expect((await me(token)).json().error).toBe(SIGNED_OUT);
    expect(await waitFor('the socket to close', socket.closed)).toBe(4403);
    expect(await statusOf(await signIn(member, 'Reset1!fresh'))).toBe(200);
  });

  test('REST logout and GraphQL signOut end the session they came with, and its sockets, and no other', async () => {
    const member = await signUpMember(t.app);
    const [second, third] = [await signIn(member), await signIn(member)];
    const socket = await openSocket(member.token);
    const secondSocket = await openSocket(second);

    const out = await post(t, '/api/auth/logout', member.token);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Signed out' });
    expect((await me(member.token)).json().error).toBe(SIGNED_OUT);
    expect(await waitFor('the signed-out session’s socket to close', socket.closed)).toBe(4403);
    expect((await post(t, '/api/auth/logout', member.token)).statusCode).toBe(401);
    expect((await post(t, '/api/auth/logout')).statusCode).toBe(401);

    expect((await gql(t.app, 'mutation { signOut }', {}, second)).data).toEqual({ signOut: 'Signed out' });
    expect(await statusOf(second)).toBe(401);
    expect(await waitFor('the second session’s socket to close', secondSocket.closed)).toBe(4403);
    expect((await gql(t.app, 'mutation { signOut }', {}, second)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

    expect(await statusOf(third)).toBe(200);
  });

  test('signing out everywhere ends every session of the member, on both skins, and nobody else’s', async () => {
    const member = await signUpMember(t.app);
    const someoneElse = await signUpMember(t.app);
    const second = await signIn(member);
    const socket = await openSocket(second);
    expect((await gql(t.app, 'mutation { signOutEverywhere }', {}, member.token)).data).toEqual({ signOutEverywhere: 2 });
    for (const token of [member.token, second]) expect(await statusOf(token)).toBe(401);
    expect(await waitFor('the other device’s socket to close', socket.closed)).toBe(4403);
    expect(await statusOf(someoneElse.token)).toBe(200);

    const [third, fourth] = [await signIn(member), await signIn(member)];
    const everywhere = await post(t, '/api/auth/logout-everywhere', third);
    expect(everywhere.json()).toEqual({ message: 'Signed out on every device', sessions_ended: 2 });
    for (const token of [third, fourth]) expect(await statusOf(token)).toBe(401);
  });

  test('a session unused for SESSION_IDLE_TTL (14 days) ends; each use moves its end on', async () => {
    const member = await signUpMember(t.app);
    const db = t.services.orm.em.fork().getConnection();
    /** Whether the session's row says it was used within the last hour; undefined when there is no row. */
    const seenLately = async (token: string) =>
      (
        await db.execute<{ lately: boolean }[]>(
          `select last_seen_at > now() - interval '1 hour' as lately from member_session where id = ?`,
          [sessionIdOf(token)],
        )
      )[0]?.lately;

    const idle = await signIn(member);
    await db.execute(`update member_session set last_seen_at = now() - interval '15 days' where id = ?`, [sessionIdOf(idle)]);
    const refused = await me(idle);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe(EXPIRED);
    expect(await seenLately(idle)).toBeUndefined();

    const used = await signIn(member);
    await db.execute(`update member_session set last_seen_at = now() - interval '13 days' where id = ?`, [sessionIdOf(used)]);
    expect(await statusOf(used)).toBe(200);
    expect(await seenLately(used)).toBe(true);
  });

  test('an ending missed while the instance was not listening still closes the socket once it listens again', async () => {
    const member = await signUpMember(t.app);
    const socket = await openSocket(member.token);
    const db = t.services.orm.em.fork().getConnection();
    // The instance's listening connection drops; the session ends before it is back, so its notification is lost.
    await db.execute(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'mixcrate-cache-sessions_ended' and datname = current_database()`,
    );
    await db.execute('delete from member_session where id = ?', [sessionIdOf(member.token)]);
    expect(await waitFor('the socket to close once listening resumed', socket.closed)).toBe(4403);
    expect((await me(member.token)).json().error).toBe(SIGNED_OUT);
  });

  test('a token that names no session (as before sessions existed), or another member’s, is refused', async () => {
    const member = await signUpMember(t.app);
    const someoneElse = await signUpMember(t.app);
    const key = new TextEncoder().encode(JWT_SECRET);
    const sign = (claims: object, subject: string) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setIssuer('mixcrate')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    const sessionless = await me(await sign({}, member.id));
    expect(sessionless.statusCode).toBe(401);
    expect(sessionless.json().error).toBe(SIGNED_OUT);
    expect(await statusOf(await sign({ sid: sessionIdOf(someoneElse.token) }, member.id))).toBe(401);
    expect(await statusOf(await sign({ sid: sessionIdOf(member.token) }, member.id))).toBe(200);
  });
});

describe('a second instance sharing the database', () => {
  let b: TestApp;
  let bUrl: string;
  beforeAll(async () => {
    b = await createTestApp({ JWT_SECRET, REDIS_URL: '' }, { databaseUrl: t.databaseUrl });
    bUrl = await socketUrl(b.app);
  });
  afterAll(() => b.close());

  test('hears of a session ended on the first: it stops answering the token it remembered and closes its socket', async () => {
    const member = await signUpMember(t.app);
    const elsewhere = await signIn(member);
    const sessionChecks = async () =>
      (await statementsDuring(b.services, async () => expect(await statusOf(member.token, b)).toBe(200))).filter((sql) =>
        /member_session/.test(sql),
      ).length;
    // The second instance remembers the session: it answers without asking the database.
    await vi.waitFor(async () => expect(await sessionChecks()).toBe(0), { timeout: BOUND_MS });
    const socket = await openSocket(member.token, bUrl);
    const otherSocket = await openSocket(elsewhere, bUrl);

    expect((await post(t, '/api/auth/logout', member.token)).statusCode).toBe(200);
    expect(await waitFor('the second instance to close the ended session’s socket', socket.closed)).toBe(4403);
    await vi.waitFor(async () => expect(await statusOf(member.token, b)).toBe(401), { timeout: BOUND_MS });
    expect(await statusOf(elsewhere, b)).toBe(200);

    // Every session, from the first instance, closes the second's sockets too.
    expect((await gql(t.app, 'mutation { signOutEverywhere }', {}, elsewhere)).data).toEqual({ signOutEverywhere: 1 });
    expect(await waitFor('the second instance to close the last socket', otherSocket.closed)).toBe(4403);
  });
});

describe('socket sign-in shapes', () => {
  test('the token under authorization, Authorization, token, authToken or headers, with or without Bearer, signs the socket in', async () => {
    const member = await signUpMember(t.app);
    const bearer = `Bearer ${member.token}`;
    const shapes: Record<string, unknown>[] = [
      { authorization: bearer },
      { Authorization: bearer },
      { authorization: member.token },
      { token: member.token },
      { authToken: member.token },
      { authToken: bearer },
      { headers: { Authorization: bearer } },
      { headers: { authorization: member.token } },
      // The same token under several keys is one sign-in.
      { authorization: bearer, token: member.token, authToken: member.token, headers: { Authorization: bearer } },
    ];
    for (const params of shapes) {
      const socket = watchSocket(url, FOLLOW_EVENTS, {}, params);
      await waitFor(`the server to accept ${JSON.stringify(Object.keys(params))}`, socket.connected);
      const follower = await signUpMember(t.app);
      await gql(t.app, 'mutation ($id: ID!) { toggleFollow(userId: $id) }', { id: member.id }, follower.token);
      const message = await waitFor('a follow event', socket.next());
      expect(message.data?.followEvents, JSON.stringify(params)).toEqual({ kind: 'FOLLOWED' });
      await socket.stop();
    }
  });

  test('two different tokens, under any two keys, close the socket with 4403', async () => {
    const member = await signUpMember(t.app);
    const other = await signIn(member);
    const refused: Record<string, unknown>[] = [
      { authorization: `Bearer ${member.token}`, token: other },
      { authToken: member.token, headers: { Authorization: `Bearer ${other}` } },
      { Authorization: member.token, authorization: other },
      { headers: { authorization: member.token, AUTHORIZATION: other } },
    ];
    for (const params of refused) {
      const socket = watchSocket(url, FOLLOW_EVENTS, {}, params);
      expect(await waitFor('the socket to be refused', socket.closed), JSON.stringify(params)).toBe(4403);
      await socket.stop();
    }
  });
});
