import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { formatHours } from '../src/modules/listens/listen-stats.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { publishedMix } from './support/mixes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const auth = (member: Member) => ({ 'x-auth-token': member.token });
const post = (url: string, member?: Member, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: member ? auth(member) : {}, payload });
const at = (iso: string) => new Date(iso).toISOString();
/** Moves a mix's publishing back to `iso`, so listens from then on are plausible. */
const publishedOn = (mixId: string, iso: string) =>
  t.services.orm.em.fork().execute('update mix set published_at = ? where id = ?', [iso, mixId]);

test('hours are h:mm', () => {
  expect(formatHours(0)).toBe('0:00');
  expect(formatHours(59)).toBe('0:00');
  expect(formatHours(8100)).toBe('2:15');
  expect(formatHours(36_000 + 61)).toBe('10:01');
});

describe('listens and stats', () => {
  let dj: Member;
  let mixId: string;
  beforeAll(async () => {
    dj = await signUpMember(t.app);
    mixId = await publishedMix(t.app, t.services, dj);
    await publishedOn(mixId, '2025-12-01T00:00:00Z');
  });

  test('stats arithmetic: two members, three listens, two ended (1h30 and 45 min), one save', async () => {
    const [ana, ben] = [await signUpMember(t.app), await signUpMember(t.app)];
    expect((await post(`/api/mix/add-new-listen/${mixId}`, ana, { start: at('2026-01-01T10:00:00Z') })).statusCode).toBe(200);
    const ended = await post(`/api/mix/pause/${mixId}`, ana, { end: at('2026-01-01T11:30:00Z') });
    expect(ended.json().timestamps).toEqual({ start: '2026-01-01T10:00:00.000Z', end: '2026-01-01T11:30:00.000Z' });
    await post(`/api/mix/add-new-listen/${mixId}`, ben, { start: Date.parse('2026-01-02T10:00:00Z') });
    await post(`/api/mix/pause/${mixId}`, ben, { end: Date.parse('2026-01-02T10:45:00Z') });
    await post(`/api/mix/add-new-listen/${mixId}`, ben);
    await post(`/api/user/save-mix/${mixId}`, ana);

    const stats = await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mixId}` });
    expect(stats.json()).toMatchObject({ Listeners: 2, Listens: 3, Hours: '2:15', Saves: 1 });
    const graph = await gql(t.app, `query ($id: ID!) { mixStats(mixId: $id) { listeners listens hours saves } }`, { id: mixId });
    expect(graph.data).toEqual({ mixStats: { listeners: 2, listens: 3, hours: '2:15', saves: 1 } });
  });

  test('GraphQL takes the times too: startListen and endListen with DateTimeISO values', async () => {
    const member = await signUpMember(t.app);
    const started = await gql(
      t.app,
      `mutation ($id: ID!, $start: DateTimeISO) { startListen(mixId: $id, start: $start) { id } }`,
      {
        id: mixId,
        start: '2026-01-03T10:00:00Z',
      },
      member.token,
    );
    expect(started.errors).toBeUndefined();
    const ended = await gql(
      t.app,
      `mutation ($id: ID!, $end: DateTimeISO) { endListen(mixId: $id, end: $end) { id } }`,
      {
        id: mixId,
        end: '2026-01-03T10:20:00Z',
      },
      member.token,
    );
    expect(ended.errors).toBeUndefined();
    const early = await gql(
      t.app,
      `mutation ($id: ID!, $start: DateTimeISO) { startListen(mixId: $id, start: $start) { id } }`,
      {
        id: mixId,
        start: '1999-01-03T10:00:00Z',
      },
      member.token,
    );
    expect(early.errors?.[0]).toMatchObject({
      message: 'start must be a date between 2000 and 2200',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  test('one open listen per member per mix: starting again closes the earlier one with no length', async () => {
    const member = await signUpMember(t.app);
    const mix = await publishedMix(t.app, t.services, dj);
    await publishedOn(mix, '2026-01-01T00:00:00Z');
    await post(`/api/mix/add-new-listen/${mix}`, member, { start: at('2026-02-01T10:00:00Z') });
    await post(`/api/mix/add-new-listen/${mix}`, member, { start: at('2026-02-01T12:00:00Z') });
    const ended = await post(`/api/mix/pause/${mix}`, member, { end: at('2026-02-01T12:30:00Z') });
    expect(ended.json().timestamps.start).toBe('2026-02-01T12:00:00.000Z');
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mix}` })).json()).toMatchObject({ Listens: 2, Hours: '0:30' });
    // Players send a pause twice: the second answers the ended listen and changes nothing.
    const again = await post(`/api/mix/pause-listen/${mix}`, member);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(ended.json());
    expect((await post(`/api/mix/pause/${mix}`, member, { end: at('2026-02-01T12:45:00Z') })).json()).toEqual(ended.json());
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mix}` })).json()).toMatchObject({ Listens: 2, Hours: '0:30' });
    const never = await signUpMember(t.app);
    expect((await post(`/api/mix/pause-listen/${mix}`, never)).statusCode).toBe(404);
  });

  test('bad timestamps are 400s: not a date, in the future, an end before the start', async () => {
    const member = await signUpMember(t.app);
    for (const start of [
      'yesterday-ish',
      '2000-02-30T10:00:00Z',
      '0001-01-01T00:00:00Z',
      '2026-03-01',
      -8_640_000_000_000_000,
      1.5,
      true,
    ]) {
      const refused = await post(`/api/mix/add-new-listen/${mixId}`, member, { start });
      expect(refused.statusCode, JSON.stringify(start)).toBe(400);
      expect(refused.json().error).toMatch(/^start must be a date/);
    }
    expect((await post(`/api/mix/add-new-listen/${mixId}`, member, { start: Date.now() + 3_600_000 })).json().error).toBe(
      'start cannot be in the future',
    );
    await post(`/api/mix/add-new-listen/${mixId}`, member, { start: at('2026-03-01T10:00:00Z') });
    const backwards = await post(`/api/mix/pause/${mixId}`, member, { end: at('2026-03-01T09:00:00Z') });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error).toBe('end cannot be before the start of the listen');
  });

  test('a listen is plausible by construction: it starts after publishing and lasts at most the mix', async () => {
    const mix = await publishedMix(t.app, t.services, dj);
    const member = await signUpMember(t.app);
    const before = await post(`/api/mix/add-new-listen/${mix}`, member, { start: 0 });
    expect(before.statusCode).toBe(400);
    expect((await post(`/api/mix/add-new-listen/${mix}`, member, { start: at('2026-01-01T00:00:00Z') })).json().error).toBe(
      'start cannot be before the mix was published',
    );
    await publishedOn(mix, '2026-01-01T00:00:00Z');
    await t.services.orm.em.fork().execute('update mix set duration_seconds = 3600 where id = ?', [mix]);
    await post(`/api/mix/add-new-listen/${mix}`, member, { start: at('2026-01-02T10:00:00Z') });
    const ended = await post(`/api/mix/pause/${mix}`, member, { end: at('2026-01-05T10:00:00Z') });
    expect(ended.json().timestamps).toEqual({ start: '2026-01-02T10:00:00.000Z', end: '2026-01-02T11:00:00.000Z' });
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mix}` })).json()).toMatchObject({ Hours: '1:00' });
  });

  test('the same start eight times at once makes one open listen and no error', async () => {
    const mix = await publishedMix(t.app, t.services, dj);
    const member = await signUpMember(t.app);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(`/api/mix/add-new-listen/${mix}`, member)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.json()._id)).size).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mix}` })).json()).toMatchObject({ Listens: 1 });
  });

  test('plays count for everyone; anonymous plays are listens without a member and add no hours', async () => {
    const mix = await publishedMix(t.app, t.services, dj);
    const member = await signUpMember(t.app);
    expect((await post(`/api/mix/play/${mix}`, member)).json()).toEqual({ play_count: 1 });
    expect((await post(`/api/mix/play/${mix}`)).json()).toEqual({ play_count: 2 });
    expect((await gql(t.app, `mutation ($id: ID!) { playMix(mixId: $id) }`, { id: mix })).data).toEqual({ playMix: 3 });
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mix}` })).json()).toEqual({
      Listeners: 0,
      Listens: 2,
      Hours: '0:00',
      Saves: 0,
      plays: 3,
    });
  });

  test('the listen records are for the owner only', async () => {
    const stranger = await signUpMember(t.app);
    const own = await t.app.inject({ method: 'GET', url: `/api/mix/listeners/${mixId}`, headers: auth(dj) });
    expect(own.statusCode).toBe(200);
    expect(own.json().listeners.length).toBeGreaterThanOrEqual(3);
    expect(own.json().listeners[0]).toEqual({
      _id: expect.any(String),
      user: expect.any(String),
      user_name: expect.any(String),
      timestamps: expect.any(Object),
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/listeners/${mixId}`, headers: auth(stranger) })).statusCode).toBe(403);
    expect(
      (await gql(t.app, `query ($id: ID!) { mixListens(mixId: $id) { id } }`, { id: mixId }, stranger.token)).errors?.[0].extensions?.code,
    ).toBe('FORBIDDEN');
  });

  test('listening needs a token; deactivated and unknown mixes are 404s', async () => {
    const mix = await publishedMix(t.app, t.services, dj);
    const member = await signUpMember(t.app);
    expect((await post(`/api/mix/add-new-listen/${mix}`)).statusCode).toBe(401);
    await t.app.inject({ method: 'PATCH', url: `/api/user/deactivate-mix/${mix}`, headers: auth(dj) });
    for (const url of [`/api/mix/add-new-listen/${mix}`, `/api/mix/play/${mix}`, '/api/mix/play/nope']) {
      expect((await post(url, member)).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/mix/stats/${mix}` })).statusCode).toBe(404);
  });
});

test('the live listener count is pushed over graphql-ws: the current count first, then each start and stop', async () => {
  const dj = await signUpMember(t.app);
  const mixId = await publishedMix(t.app, t.services, dj);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket });
  const counts: number[] = [];
  let heard: () => void = () => undefined;
  const nextCount = () => new Promise<void>((resolve) => (heard = resolve));
  const first = nextCount();
  const done = new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: `subscription ($id: ID!) { mixListenerCount(mixId: $id) }`, variables: { id: mixId } },
      {
        next: (value) => {
          counts.push((value.data as { mixListenerCount: number }).mixListenerCount);
          heard();
        },
        error: reject,
        complete: resolve,
      },
    );
  });
  try {
    await first;
    const [a, b] = [await signUpMember(t.app), await signUpMember(t.app)];
    for (const [mutation, member] of [
      ['startListen', a],
      ['startListen', b],
      ['endListen', a],
    ] as const) {
      const heardIt = nextCount();
      await gql(t.app, `mutation ($id: ID!) { ${mutation}(mixId: $id) { id } }`, { id: mixId }, member.token);
      await heardIt;
    }
    expect(counts).toEqual([0, 1, 2, 1]);
  } finally {
    await client.dispose();
    await done.catch(() => undefined);
  }
});
