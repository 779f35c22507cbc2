import { createClient } from 'graphql-ws';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Topics } from '../src/graphql/topics.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, publishedMix } from './support/mixes.js';
import { socketUrl, subscribed, watch } from './support/sockets.js';
import { waitFor } from './support/wait.js';

const JWT_SECRET = 'realtime-test-secret-realtime-test-secret';
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ JWT_SECRET });
  url = await socketUrl(t.app);
});
afterAll(() => t.close());

const COUNT = 'subscription ($id: ID!) { mixListenerCount(mixId: $id) }';
const FOLLOW_EVENTS =
  'subscription { followEvents { kind unreadCount follower { userName displayName imageUrl userType distanceKm } notification { id kind readAt actor { userName } } } }';
const bearer = (member: Member) => ({ authorization: `Bearer ${member.token}` });
const post = (url: string, member: Member) => t.app.inject({ method: 'POST', url, headers: { 'x-auth-token': member.token } });
const countOf = (message: { data?: Record<string, unknown> | null }) => message.data?.mixListenerCount;

describe('listening now', () => {
  test('Mix.listeningNow and the subscription start from the current count, for anyone, then follow each change', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(t.app, t.services, dj);
    const [ana, ben] = [await signUpMember(t.app), await signUpMember(t.app)];
    await post(`/api/mix/add-new-listen/${mixId}`, ana);
    const query = 'query ($id: ID!) { mix(id: $id) { listeningNow } }';
    expect((await gql(t.app, query, { id: mixId })).data).toEqual({ mix: { listeningNow: 1 } });

    // Anonymous, on a socket: the count there is already, before anything changes.
    const live = watch(url, COUNT, { id: mixId });
    try {
      expect(countOf(await live.next())).toBe(1);
      await post(`/api/mix/add-new-listen/${mixId}`, ben);
      expect(countOf(await live.next())).toBe(2);
      await post(`/api/mix/pause-listen/${mixId}`, ana);
      expect(countOf(await live.next())).toBe(1);
      // A second pause changes nothing and sends nothing; the next change is the next message.
      await post(`/api/mix/pause-listen/${mixId}`, ana);
      await post(`/api/mix/pause/${mixId}`, ben);
      expect(countOf(await live.next())).toBe(0);
      expect((await gql(t.app, query, { id: mixId })).data).toEqual({ mix: { listeningNow: 0 } });
    } finally {
      await live.stop();
    }
  });

  test('count messages go straight to each socket: text frames as graphql-ws makes them, each with its own id; a completed subscription hears no more', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(t.app, t.services, dj);
    const topic = `${Topics.ListenerCount}:${mixId}`;
    // Messages under 126 bytes, under 64 KB and over it: each of a frame's three length encodings.
    const ids = ['a', 'b-1', 'c"3', 'd'.repeat(120), 'e'.repeat(70_000)];
    const frames = new Map<string, { text: string; binary: boolean }[]>(ids.map((id) => [id, []]));
    const sockets = await Promise.all(
      ids.map(
        (id) =>
          new Promise<WebSocket>((resolve, reject) => {
            const socket = new WebSocket(url, 'graphql-transport-ws');
            socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
            socket.on('error', reject);
            socket.on('message', (data, binary) => {
              const text = String(data);
              if (text.includes('connection_ack')) {
                socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: COUNT, variables: { id: mixId } } }));
                resolve(socket);
              } else frames.get(id)?.push({ text, binary });
            });
          }),
      ),
    );
    const next = (id: string, count: number) => ({
      text: JSON.stringify({ id, type: 'next', payload: { data: { mixListenerCount: count } } }),
      binary: false,
    });
    try {
      await waitFor('every socket’s current count', () => ids.every((id) => frames.get(id)?.length === 1), { until: Boolean });
      for (const id of ids) expect(frames.get(id)).toEqual([next(id, 0)]);
      sockets[0].send(JSON.stringify({ id: 'a', type: 'complete' }));
      await waitFor('the completed subscription to stop listening', () => t.app.subscriptionListeners(topic), {
        until: (listening) => listening === ids.length - 1,
      });
      await post(`/api/mix/add-new-listen/${mixId}`, await signUpMember(t.app));
      await waitFor('the others to hear the change', () => ids.slice(1).every((id) => frames.get(id)?.length === 2), { until: Boolean });
      for (const id of ids.slice(1)) expect(frames.get(id)).toEqual([next(id, 0), next(id, 1)]);
      expect(frames.get('a')).toEqual([next('a', 0)]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  test('the graphql-ws client reads each pushed count as the message graphql-ws would send, its own long id included', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(t.app, t.services, dj);
    const id = `sub-${'x'.repeat(200)}`;
    const messages: unknown[] = [];
    const counts: unknown[] = [];
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      generateID: () => id,
      on: { message: (message) => messages.push(message) },
    });
    const ended = new Promise((resolve, reject) =>
      client.subscribe(
        { query: COUNT, variables: { id: mixId } },
        { next: (result) => counts.push(result), error: reject, complete: () => resolve(undefined) },
      ),
    );
    try {
      await waitFor('the current count', () => counts.length, { until: (length) => length === 1 });
      await post(`/api/mix/add-new-listen/${mixId}`, await signUpMember(t.app));
      await waitFor('the change', () => counts.length, { until: (length) => length === 2 });
      const next = (count: number) => ({ id, type: 'next', payload: { data: { mixListenerCount: count } } });
      expect(messages.filter((message) => (message as { type: string }).type === 'next')).toEqual([next(0), next(1)]);
      expect(counts).toEqual([{ data: { mixListenerCount: 0 } }, { data: { mixListenerCount: 1 } }]);
    } finally {
      await client.dispose();
      await ended;
    }
  });

  test('a page of mixes asks for its counts at once; an unknown mix cannot be watched', async () => {
    const dj = await signUpMember(t.app);
    const ids = [await publishedMix(t.app, t.services, dj), await publishedMix(t.app, t.services, dj)];
    await post(`/api/mix/add-new-listen/${ids[1]}`, await signUpMember(t.app));
    const page = await gql<{ mixesByUser: { nodes: { id: string; listeningNow: number }[] } }>(
      t.app,
      'query ($name: String!) { mixesByUser(userName: $name, first: 10) { nodes { id listeningNow } } }',
      { name: dj.userName },
      dj.token,
    );
    expect(Object.fromEntries(page.data?.mixesByUser.nodes.map((node) => [node.id, node.listeningNow]) ?? [])).toEqual({
      [ids[0]]: 0,
      [ids[1]]: 1,
    });
    const unknown = watch(url, COUNT, { id: '00000000-0000-4000-8000-000000000000' });
    expect((await unknown.next()).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    await unknown.stop();
  });

  test('heartbeats need an open listen: without one they are 404s (the player starts a new listen)', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(t.app, t.services, dj);
    const member = await signUpMember(t.app);
    expect((await post(`/api/mix/heartbeat-listen/${mixId}`, member)).statusCode).toBe(404);
    const started = (await post(`/api/mix/add-new-listen/${mixId}`, member)).json();
    const beat = await post(`/api/mix/heartbeat-listen/${mixId}`, member);
    expect(beat.statusCode).toBe(200);
    expect(beat.json()._id).toBe(started._id);
    const graph = await gql(t.app, 'mutation ($id: ID!) { heartbeatListen(mixId: $id) { id } }', { id: mixId }, member.token);
    expect(graph.data).toEqual({ heartbeatListen: { id: started._id } });
    await post(`/api/mix/pause/${mixId}`, member);
    const after = await gql(t.app, 'mutation ($id: ID!) { heartbeatListen(mixId: $id) { id } }', { id: mixId }, member.token);
    expect(after.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('a listen that goes silent', () => {
  // Its own server with a short expiry (and its own database, so no other server sweeps with another expiry).
  let quick: TestApp;
  let quickUrl: string;
  beforeAll(async () => {
    quick = await createTestApp({ LISTEN_EXPIRY_MS: '800' });
    quickUrl = await socketUrl(quick.app);
  });
  afterAll(() => quick.close());
  const quickPost = (path: string, member: Member) =>
    quick.app.inject({ method: 'POST', url: path, headers: { 'x-auth-token': member.token } });

  test('stops counting after the expiry, subscribers are told, and a heartbeat brings it back', async () => {
    const dj = await signUpMember(quick.app);
    const mixId = await publishedMix(quick.app, quick.services, dj);
    const [steady, silent] = [await signUpMember(quick.app), await signUpMember(quick.app)];
    const live = watch(quickUrl, COUNT, { id: mixId });
    try {
      expect(countOf(await live.next())).toBe(0);
      await quickPost(`/api/mix/add-new-listen/${mixId}`, steady);
      expect(countOf(await live.next())).toBe(1);
      await quickPost(`/api/mix/add-new-listen/${mixId}`, silent);
      expect(countOf(await live.next())).toBe(2);
      // The steady listener's player keeps sending heartbeats; the silent one's sends nothing.
      const beats = setInterval(() => void quickPost(`/api/mix/heartbeat-listen/${mixId}`, steady), 150);
      try {
        expect(countOf(await live.next())).toBe(1);
      } finally {
        clearInterval(beats);
      }
      const query = 'query ($id: ID!) { mix(id: $id) { listeningNow } }';
      const now = (await gql<{ mix: { listeningNow: number } }>(quick.app, query, { id: mixId })).data?.mix.listeningNow;
      expect(now).toBeLessThanOrEqual(1);
      // The silent player wakes up: its heartbeat makes it count again.
      expect((await quickPost(`/api/mix/heartbeat-listen/${mixId}`, silent)).statusCode).toBe(200);
      const revived = countOf(await live.next());
      expect([1, 2]).toContain(revived);
      // Its listen is still open: a pause ends it with a real end time.
      const ended = await quickPost(`/api/mix/pause/${mixId}`, silent);
      expect(ended.json().timestamps.end).not.toBeNull();
    } finally {
      await live.stop();
    }
  });

  test('two servers sweeping at once announce a silent listen once between them', async () => {
    const dj = await signUpMember(quick.app);
    const mixId = await publishedMix(quick.app, quick.services, dj);
    const member = await signUpMember(quick.app);
    await quickPost(`/api/mix/add-new-listen/${mixId}`, member);
    await quick.services.orm.em.fork().execute(`update listen set alive_at = now() - interval '1 hour' where mix_id = ?`, [mixId]);
    const swept = await Promise.all([
      quick.services.listens.sweepSilentListens(),
      quick.services.listens.sweepSilentListens(),
      quick.services.listens.sweepSilentListens(),
    ]);
    expect(swept.flat().filter((id) => id === mixId)).toEqual([mixId]);
  });
});

describe('the REST shape of a mix and its listens', () => {
  test('the owner’s GET /api/mix/{id} carries listeners and saved_by; nobody else gets either', async () => {
    const dj = await signUpMember(t.app);
    const fan = await signUpMember(t.app);
    const mixId = await publishedMix(t.app, t.services, dj);
    await post(`/api/user/save-mix/${mixId}`, fan);
    await post(`/api/mix/add-new-listen/${mixId}`, fan);
    const own = (await t.app.inject({ method: 'GET', url: `/api/mix/${mixId}`, headers: { 'x-auth-token': dj.token } })).json();
    expect(own.saved_by).toEqual([fan.id]);
    expect(own.listeners).toEqual([
      { _id: expect.any(String), user: fan.id, user_name: fan.userName, timestamps: { start: expect.any(String), end: null } },
    ]);
    const seen = (await t.app.inject({ method: 'GET', url: `/api/mix/${mixId}`, headers: { 'x-auth-token': fan.token } })).json();
    expect(seen).not.toHaveProperty('listeners');
    expect(seen).not.toHaveProperty('saved_by');
    expect(seen.savedByMe).toBe(true);
    const listed = await t.app.inject({ method: 'GET', url: `/api/mix/by-user/${dj.userName}/0`, headers: { 'x-auth-token': fan.token } });
    expect(listed.json().mixes[0]).not.toHaveProperty('saved_by');
  });
});

describe('follow notifications', () => {
  test('the followed member hears each follow and unfollow with the follower’s summary, and keeps them as notifications', async () => {
    const star = await signUpMember(t.app, { ...CITIES.london, userType: 'dj' });
    const fan = await signUpMember(t.app, { ...CITIES.paris, userType: 'promoter' });
    await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { 'x-auth-token': fan.token },
      payload: { display_name: 'Fan Club' },
    });
    const events = watch(url, FOLLOW_EVENTS, {}, bearer(star));
    const profile = watch(url, 'subscription ($name: String!) { profileUpdated(userName: $name) { followerCount } }', {
      name: star.userName,
    });
    try {
      // Neither subscription sends anything first: the follow must wait until the server listens on both.
      await subscribed(t.app, `${Topics.FollowEvent}:${star.id}`);
      await subscribed(t.app, Topics.ProfileUpdated);
      await t.app.inject({ method: 'GET', url: `/api/user/follow/${star.id}`, headers: { 'x-auth-token': fan.token } });
      const followed = (await events.next()).data?.followEvents as Record<string, unknown> & {
        follower: { distanceKm: number };
        notification: { id: string };
      };
      expect(followed).toMatchObject({
        kind: 'FOLLOWED',
        unreadCount: 1,
        follower: { userName: fan.userName, displayName: 'Fan Club', imageUrl: null, userType: 'PROMOTER' },
        notification: { kind: 'FOLLOWED', readAt: null, actor: { userName: fan.userName } },
      });
      expect(followed.follower.distanceKm).toBeGreaterThan(330);
      expect(followed.follower.distanceKm).toBeLessThan(350);
      expect((await profile.next()).data).toEqual({ profileUpdated: { followerCount: 1 } });

      await gql(t.app, 'mutation ($id: ID!) { toggleFollow(userId: $id) }', { id: star.id }, fan.token);
      expect((await events.next()).data?.followEvents).toMatchObject({ kind: 'UNFOLLOWED', unreadCount: 2 });
      expect((await profile.next()).data).toEqual({ profileUpdated: { followerCount: 0 } });

      const list =
        'query ($first: Int!, $after: String) { notifications(first: $first, after: $after) { totalCount unreadCount nodes { id kind readAt } pageInfo { hasNextPage endCursor } } }';
      type Page = {
        notifications: {
          totalCount: number;
          unreadCount: number;
          nodes: { id: string; kind: string; readAt: string | null }[];
          pageInfo: { hasNextPage: boolean; endCursor: string };
        };
      };
      const first = (await gql<Page>(t.app, list, { first: 1 }, star.token)).data?.notifications;
      expect(first).toMatchObject({
        totalCount: 2,
        unreadCount: 2,
        nodes: [{ kind: 'UNFOLLOWED', readAt: null }],
        pageInfo: { hasNextPage: true },
      });
      const second = (await gql<Page>(t.app, list, { first: 1, after: first?.pageInfo.endCursor }, star.token)).data?.notifications;
      expect(second?.nodes).toEqual([{ id: followed.notification.id, kind: 'FOLLOWED', readAt: null }]);
      expect(second?.pageInfo.hasNextPage).toBe(false);

      // Someone else's notification reads as not found; one's own is marked, twice is the same.
      const markOne = 'mutation ($id: ID!) { markNotificationRead(id: $id) { id readAt } }';
      expect((await gql(t.app, markOne, { id: followed.notification.id }, fan.token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
      const marked = await gql<{ markNotificationRead: { readAt: string } }>(t.app, markOne, { id: followed.notification.id }, star.token);
      expect(marked.data?.markNotificationRead.readAt).toEqual(expect.any(String));
      expect((await gql(t.app, markOne, { id: followed.notification.id }, star.token)).data).toEqual(marked.data);
      expect((await gql(t.app, '{ unreadNotificationCount }', {}, star.token)).data).toEqual({ unreadNotificationCount: 1 });
      expect((await gql(t.app, 'mutation { markAllNotificationsRead }', {}, star.token)).data).toEqual({ markAllNotificationsRead: 1 });
      expect((await gql(t.app, '{ unreadNotificationCount }', {}, star.token)).data).toEqual({ unreadNotificationCount: 0 });
      expect((await gql(t.app, '{ unreadNotificationCount }')).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect((await gql(t.app, list, { first: 1, after: 'nope' }, star.token)).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    } finally {
      await events.stop();
      await profile.stop();
    }
  });
});

describe('socket authentication', () => {
  const signed = (secret: string, subject: string, expiresAt: number, sessionId?: string) =>
    new SignJWT(sessionId ? { sid: sessionId } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuer('mixcrate')
      .setIssuedAt(expiresAt - 3600)
      .setExpirationTime(expiresAt)
      .sign(new TextEncoder().encode(secret));

  test('a malformed, forged or expired token closes the socket with 4403 Forbidden', async () => {
    const member = await signUpMember(t.app);
    const now = Math.floor(Date.now() / 1000);
    const refused: Record<string, unknown>[] = [
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { token: 42 },
      { token: 'not a token' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: `Bearer ${await signed('some-other-secret-some-other-secret', member.id, now + 3600)}` },
      { token: await signed(JWT_SECRET, member.id, now - 60) },
    ];
    for (const params of refused) {
      const socket = watch(url, FOLLOW_EVENTS, {}, params);
      expect(await socket.closed, JSON.stringify(params)).toBe(4403);
      await socket.stop();
    }
    // The same token as over HTTP, either way, is accepted.
    // (A member each, so each socket's subscription is told apart from the last one's, which may still be closing.)
    for (const paramsOf of [bearer, (someone: Member) => ({ token: someone.token })]) {
      const followed = await signUpMember(t.app);
      const socket = watch(url, FOLLOW_EVENTS, {}, paramsOf(followed));
      await subscribed(t.app, `${Topics.FollowEvent}:${followed.id}`);
      await gql(t.app, 'mutation ($id: ID!) { toggleFollow(userId: $id) }', { id: followed.id }, (await signUpMember(t.app)).token);
      expect((await socket.next()).data?.followEvents).toMatchObject({ kind: 'FOLLOWED' });
      await socket.stop();
    }
  });

  test('a socket signed in with a token closes with 4403 when the token expires', async () => {
    const member = await signUpMember(t.app);
    const fan = await signUpMember(t.app);
    // The member's own session, in a token that expires before it does: long enough for the socket to subscribe and
    // hear one follow on a busy machine; the close is awaited, not timed.
    const shortLived = await signed(JWT_SECRET, member.id, Math.floor(Date.now() / 1000) + 6, decodeJwt(member.token).sid as string);
    const socket = watch(url, FOLLOW_EVENTS, {}, { token: shortLived });
    // Accepted while valid: a follow reaches it.
    await subscribed(t.app, `${Topics.FollowEvent}:${member.id}`);
    await gql(t.app, 'mutation ($id: ID!) { toggleFollow(userId: $id) }', { id: member.id }, fan.token);
    expect((await socket.next()).data?.followEvents).toMatchObject({ kind: 'FOLLOWED' });
    expect(await socket.closed).toBe(4403);
    await socket.stop();
  });

  test('a private subscription on an anonymous socket is UNAUTHENTICATED; socket errors carry codes as over HTTP', async () => {
    const anonymous = watch(url, FOLLOW_EVENTS);
    expect((await anonymous.next()).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    await anonymous.stop();
    const invalid = watch(url, 'subscription { followEvents { nope } }');
    const error = (await invalid.ended) as { extensions?: { code?: string } }[];
    expect(error[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    await invalid.stop();
    const badArgument = watch(url, COUNT, { id: 'not-an-id' });
    expect((await badArgument.next()).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    await badArgument.stop();
  });
});
