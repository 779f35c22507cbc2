import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { Track } from '../src/modules/tracks/track.entity.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, publishedDaysAgo, statementsDuring, typedTracks } from './support/mixes.js';

/**
 * Issue 15 in both skins: the upload's track lookup, the tracklist's chosen tracks and times, the public catalogue
 * (tracks, track) and where a track is played (Track.mixes, /api/track/:id/mixes/:page).
 */

let t: TestApp;
let dj: Member;
let listener: Member;
const ids: Record<string, string> = {};

const CATALOGUE = [
  {
    key: 'kora',
    title: 'Night Bloom (Extended Mix)',
    creators: [{ id: 'a-kora', name: 'Kora Vale' }],
    label: { id: 'l-1', name: 'Deep Root' },
  },
  { key: 'zoe', title: 'Lumière', creators: [{ id: 'a-zoe', name: 'Zoë Lefèvre' }], label: null, newRelease: true, buy: false },
  { key: 'rhodes', title: 'Warehouse Sunrise', creators: [{ id: null, name: 'Rhodes & Rye' }], label: { id: null, name: 'Tall Order' } },
  { key: 'rhodes2', title: 'Sunrise Dub', creators: [{ id: null, name: 'Rhodes & Rye' }], label: null },
  { key: 'other', title: 'Basement Tape', creators: [{ id: null, name: 'Omar Kettle' }], label: null },
];

beforeAll(async () => {
  t = await createTestApp();
  dj = await signUpMember(t.app);
  listener = await signUpMember(t.app);
  const catalogue = new CatalogueService(t.services.orm);
  await catalogue.write(
    CATALOGUE.map((track) => ({
      source: 'test',
      externalId: track.key,
      title: track.title,
      creators: track.creators,
      label: track.label,
      cover: `https://covers.example.com/${track.key}.jpg`,
      releaseDate: null,
      buy: track.buy ?? true,
      newRelease: track.newRelease ?? false,
    })),
  );
  const rows = await t.services.orm.em
    .fork()
    .execute<{ id: string; external_id: string }[]>(`select id, external_id from track where external_source = 'test'`);
  for (const row of rows) ids[row.external_id] = row.id;
}, 60_000);
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST' | 'PATCH', url: string, member?: Member, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: member ? { 'x-auth-token': member.token } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const rows = (...pairs: [string, string][]) => pairs.map(([artist, title]) => ({ artist, title }));
const LONG = 'x'.repeat(10_000);
const LONE_SURROGATE = 'Kora \uD800 Vale';

describe('the track lookup (acquire-track-information, lookupTracks)', () => {
  const typedRows = rows(
    ['kora vale', 'night bloom'],
    ['Nobody Known', 'Qwxz Vvvv'],
    ['zoe lefevre', 'lumiere'],
    ['Rhodes and Rye', 'Warehouse Sunrise'],
  );

  test('REST answers success and one candidate list per row, in row order, best first, with the REST track fields', async () => {
    const response = await rest('POST', '/api/track/acquire-track-information', dj, { tracks_array: typedRows });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.status).toBe('success');
    expect(body.data).toHaveLength(4);
    expect(body.data.every((list: unknown[]) => list.length <= 5)).toBe(true);
    expect(body.data[0][0]).toEqual({
      _id: ids.kora,
      track: ids.kora,
      title: 'Night Bloom (Extended Mix)',
      cover: 'https://covers.example.com/kora.jpg',
      creators: [{ id: 'a-kora', name: 'Kora Vale' }],
      label: { id: 'l-1', name: 'Deep Root' },
      buy: true,
      is_manual: false,
    });
    // "No options found".
    expect(body.data[1]).toEqual([]);
    expect(body.data[2][0]).toMatchObject({ _id: ids.zoe, new_release: true, buy: false, label: null });
    expect(body.data[3][0]).toMatchObject({ _id: ids.rhodes, title: 'Warehouse Sunrise' });
  });

  test('GraphQL lookupTracks gives the same candidates', async () => {
    const result = await gql<{ lookupTracks: { id: string; title: string; isManual: boolean; newRelease: boolean }[][] }>(
      t.app,
      'query ($rows: [TrackLookupRowInput!]!) { lookupTracks(tracks: $rows) { id title isManual newRelease creators { id name } } }',
      { rows: typedRows },
      dj.token,
    );
    expect(result.errors).toBeUndefined();
    const lists = result.data?.lookupTracks ?? [];
    expect(lists.map((list) => list[0]?.id ?? null)).toEqual([ids.kora, null, ids.zoe, ids.rhodes]);
    expect(lists[2][0]).toMatchObject({ title: 'Lumière', newRelease: true, isManual: false });
  });

  test('a row missing artist or title is a 400 "Missing: Empty fields"; members only', async () => {
    for (const bad of [rows(['Kora Vale', '']), rows(['  ', 'Night Bloom']), [{ artist: 'Kora Vale' }], [{ title: 'x', artist: {} }], []]) {
      const response = await rest('POST', '/api/track/acquire-track-information', dj, { tracks_array: bad });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().message).toBe('Missing: Empty fields');
    }
    const missing = await gql(t.app, 'query { lookupTracks(tracks: [{ artist: "Kora", title: " " }]) { id } }', {}, dj.token);
    expect(missing.errors?.[0]).toMatchObject({ message: 'Missing: Empty fields', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await rest('POST', '/api/track/acquire-track-information', undefined, { tracks_array: typedRows })).statusCode).toBe(401);
    const anonymous = await gql(t.app, 'query { lookupTracks(tracks: [{ artist: "Kora", title: "Bloom" }]) { id } }');
    expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  test('hostile input is a 400, never a 500: NUL, lone surrogates, 10 KB text, 31 rows, wrong types', async () => {
    const hostile: unknown[] = [
      { tracks_array: rows(['Kora\u0000Vale', 'Night Bloom']) },
      { tracks_array: rows([LONE_SURROGATE, 'Night Bloom']) },
      { tracks_array: rows(['Kora Vale', LONG]) },
      { tracks_array: Array.from({ length: 31 }, () => ({ artist: 'Kora Vale', title: 'Night Bloom' })) },
      { tracks_array: 'Kora Vale - Night Bloom' },
      { tracks_array: { artist: 'Kora Vale', title: 'Night Bloom' } },
      { tracks_array: [null, 1, 'x'] },
      {},
      [1, 2, 3],
    ];
    for (const payload of hostile) {
      const response = await rest('POST', '/api/track/acquire-track-information', dj, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    for (const variables of [
      { rows: rows(['Kora\u0000Vale', 'Night Bloom']) },
      { rows: rows([LONE_SURROGATE, 'x']) },
      { rows: rows([LONG, 'x']) },
      { rows: Array.from({ length: 31 }, () => ({ artist: 'a', title: 'b' })) },
      { rows: [{ artist: 1, title: 2 }] },
    ]) {
      const result = await gql(t.app, 'query ($rows: [TrackLookupRowInput!]!) { lookupTracks(tracks: $rows) { id } }', variables, dj.token);
      expect(result.status).toBeLessThan(500);
      expect(result.errors?.[0].extensions?.code ?? result.status, JSON.stringify(variables).slice(0, 60)).toMatch(/BAD_USER_INPUT|400/);
    }
  });
});

describe('the tracklist: chosen tracks, manual tracks and times (update-mix, setTracklist)', () => {
  const withDuration = async (seconds: number) => {
    const id = await draftMix(t.services, dj);
    await t.services.orm.em.fork().execute('update mix set duration_seconds = ? where id = ?', [seconds, id]);
    return id;
  };
  const entries = () => [
    { uuid: ids.kora, is_manual: false, name: 'kora vale night bloom', creators: 'kora', start_time: 0, end_time: 290.5 },
    { name: 'My Own Edit', creators: 'DJ Me', is_manual: true, start_time: 290.5 },
    { track: ids.zoe, name: 'Lumière', creators: 'Zoë', start_time: 600, end_time: 900 },
    ...typedTracks(2, 'Typed').map((entry, index) => ({ ...entry, start_time: 900 + index * 300 })),
  ];

  test('REST: chosen tracks, manual tracks and start/end times are kept, and the mix shows them with the REST fields', async () => {
    const id = await withDuration(1800);
    const response = await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: entries() });
    expect(response.statusCode, response.body).toBe(200);
    const answered = response.json().tracks;
    expect(answered[0]).toEqual({
      _id: ids.kora,
      track: ids.kora,
      title: 'Night Bloom (Extended Mix)',
      cover: 'https://covers.example.com/kora.jpg',
      creators: [{ id: 'a-kora', name: 'Kora Vale' }],
      label: { id: 'l-1', name: 'Deep Root' },
      buy: true,
      is_manual: false,
      start_time: 0,
      end_time: 290.5,
    });
    expect(answered[1]).toMatchObject({
      title: 'My Own Edit',
      is_manual: true,
      creators: [{ id: null, name: 'DJ Me' }],
      start_time: 290.5,
      end_time: null,
    });
    expect(answered[2]).toMatchObject({ _id: ids.zoe, new_release: true, start_time: 600, end_time: 900 });
    const mix = await rest('GET', `/api/mix/${id}`, dj);
    expect(mix.json().tracks).toEqual(answered);
  });

  test('GraphQL: the same rules, and Mix.tracks carries the REST fields', async () => {
    const id = await withDuration(1800);
    const tracks = [
      { catalogueTrackId: ids.kora, title: 'x', creators: ['y'], startTime: 0, endTime: 290.5 },
      { title: 'My Own Edit', creators: ['DJ Me'], isManual: true, startTime: 290.5 },
      { catalogueTrackId: ids.zoe, title: 'x', creators: ['y'], startTime: 600, endTime: 900 },
      { title: 'Typed 1', creators: ['A'], isManual: true },
      { title: 'Typed 2', creators: ['B'], startTime: 1200 },
    ];
    const fields = 'position startTime endTime track { id title coverUrl creators { id name } label { id name } buy newRelease isManual }';
    const result = await gql<{ setTracklist: unknown[] }>(
      t.app,
      `mutation ($id: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $id, tracks: $tracks) { ${fields} } }`,
      { id, tracks },
      dj.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.setTracklist[0]).toEqual({
      position: 1,
      startTime: 0,
      endTime: 290.5,
      track: {
        id: ids.kora,
        title: 'Night Bloom (Extended Mix)',
        coverUrl: 'https://covers.example.com/kora.jpg',
        creators: [{ id: 'a-kora', name: 'Kora Vale' }],
        label: { id: 'l-1', name: 'Deep Root' },
        buy: true,
        newRelease: false,
        isManual: false,
      },
    });
    expect(result.data?.setTracklist[1]).toMatchObject({
      startTime: 290.5,
      endTime: null,
      track: { isManual: true, title: 'My Own Edit' },
    });
    expect(result.data?.setTracklist[2]).toMatchObject({ track: { id: ids.zoe, newRelease: true } });
    const mix = await gql<{ mix: { tracks: unknown[] } }>(
      t.app,
      `query ($id: ID!) { mix(id: $id) { tracks { ${fields} } } }`,
      { id },
      dj.token,
    );
    expect(mix.data?.mix.tracks).toEqual(result.data?.setTracklist);
  });

  test('REST refuses, with a 400 and nothing changed: unknown tracks, times outside the mix or out of order, hostile input', async () => {
    const id = await withDuration(1800);
    await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: entries() });
    const changed = (index: number, change: Record<string, unknown>) =>
      entries().map((entry, at) => (at === index ? { ...entry, ...change } : entry));
    const cases: [unknown, string | RegExp][] = [
      [changed(0, { uuid: randomUUID() }), /^Track 1: no such catalogue track/],
      [changed(0, { uuid: 'abc' }), /^Track 1: no such catalogue track/],
      [changed(4, { start_time: 1801 }), 'Track 5: its times must be inside the mix, which lasts 1800 seconds'],
      [changed(2, { end_time: 1900 }), 'Track 3: its times must be inside the mix, which lasts 1800 seconds'],
      [changed(2, { end_time: 600 }), 'Track 3: the end time must come after the start time'],
      [changed(3, { start_time: 100 }), 'Track 4 starts before the track above it: start times must not go back'],
      [changed(1, { start_time: '290' }), 'Track 2: the start time must be a number of seconds from 0'],
      [changed(1, { start_time: -5 }), 'Track 2: the start time must be a number of seconds from 0'],
      [changed(1, { end_time: [1] }), 'Track 2: the end time must be a number of seconds from 0'],
      [changed(1, { name: 'a\u0000b' }), /./],
      [changed(1, { name: LONE_SURROGATE }), /./],
      [changed(1, { name: LONG }), /./],
      [changed(1, { creators: LONG }), /./],
      [[...entries(), ...typedTracks(26)], 'A tracklist needs 5 to 30 tracks; this one has 31'],
      [entries().slice(0, 4), 'A tracklist needs 5 to 30 tracks; this one has 4'],
      [{ 0: entries()[0] }, /./],
      ['five tracks', /./],
    ];
    for (const [tracks, message] of cases) {
      const response = await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks });
      expect(response.statusCode, `${JSON.stringify(tracks).slice(0, 100)}: ${response.body}`).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    const after = (await rest('GET', `/api/mix/${id}`, dj)).json().tracks;
    expect(after.map((track: { start_time: number | null }) => track.start_time)).toEqual([0, 290.5, 600, 900, 1200]);
  });

  test('GraphQL refuses the same with BAD_USER_INPUT', async () => {
    const id = await withDuration(600);
    const five = (change: Record<string, unknown>) =>
      Array.from({ length: 5 }, (_, index) => ({ title: `T${index}`, creators: ['A'], ...(index === 4 ? change : {}) }));
    for (const [change, message] of [
      [{ catalogueTrackId: randomUUID() }, /^Track 5: no such catalogue track/],
      [{ startTime: 601 }, 'Track 5: its times must be inside the mix, which lasts 600 seconds'],
      [{ startTime: 10, endTime: 5 }, 'Track 5: the end time must come after the start time'],
      [{ startTime: -1 }, 'Track 5: the start time must be a number of seconds from 0'],
      [{ title: 'a\u0000b' }, /./],
      [{ title: LONG }, /./],
    ] as [Record<string, unknown>, string | RegExp][]) {
      const result = await gql(
        t.app,
        'mutation ($id: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $id, tracks: $tracks) { position } }',
        { id, tracks: five(change) },
        dj.token,
      );
      expect(result.errors?.[0], JSON.stringify(change).slice(0, 60)).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      expect(result.errors?.[0].message).toMatch(message);
    }
    const wrongType = await gql(
      t.app,
      'mutation ($id: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $id, tracks: $tracks) { position } }',
      { id, tracks: five({ startTime: 'soon' }) },
      dj.token,
    );
    expect(wrongType.status).toBe(400);
    // Only the owner.
    const stranger = await gql(
      t.app,
      'mutation ($id: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $id, tracks: $tracks) { position } }',
      { id, tracks: five({}) },
      listener.token,
    );
    expect(stranger.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});

describe('the public catalogue (tracks, track) and where a track is played (Track.mixes)', () => {
  test('tracks pages through the catalogue in order (manual tracks aside); search folds case, accents and punctuation', async () => {
    const em = t.services.orm.em.fork();
    em.create(Track, { title: 'Manual Sunrise', creators: [{ id: null, name: 'Rhodes & Rye' }], isManual: true });
    await em.flush();
    const page = (variables: Record<string, unknown>) =>
      gql<{
        tracks: {
          edges: { cursor: string; node: { id: string; title: string } }[];
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      }>(
        t.app,
        'query ($search: String, $first: Int, $after: String) { tracks(search: $search, first: $first, after: $after) { edges { cursor node { id title isManual } } pageInfo { hasNextPage endCursor } } }',
        variables,
      );
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const result = await page({ first: 2, after });
      expect(result.errors).toBeUndefined();
      const connection = result.data?.tracks;
      seen.push(...(connection?.edges.map((edge) => edge.node.title) ?? []));
      if (!connection?.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(expect.arrayContaining(CATALOGUE.map((track) => track.title)));
    expect(seen).not.toContain('Manual Sunrise');
    expect(new Set(seen).size).toBe(seen.length);

    const titles = async (search: string) => {
      const result = await page({ search });
      expect(result.errors).toBeUndefined();
      return result.data?.tracks.edges.map((edge) => edge.node.title);
    };
    expect(await titles('SUNRISE')).toEqual(['Warehouse Sunrise', 'Sunrise Dub']);
    expect(await titles('rhodes & rye, warehouse')).toEqual(['Warehouse Sunrise']);
    // Words that only name a version are in no index: alone they find nothing.
    expect(await titles('dub')).toEqual([]);
    expect(await titles('zoe lumiere')).toEqual(['Lumière']);
    expect(await titles('no such words')).toEqual([]);
    expect(await titles('   ')).toHaveLength(Math.min(20, seen.length));
  });

  test('tracks and track refuse hostile input with a 400 or BAD_USER_INPUT, never a 500', async () => {
    for (const variables of [
      { search: 'a\u0000b' },
      { search: LONE_SURROGATE },
      { search: LONG },
      { first: 0 },
      { first: 51 },
      { after: 'bogus' },
      { after: LONG },
    ]) {
      const result = await gql(
        t.app,
        'query ($search: String, $first: Int, $after: String) { tracks(search: $search, first: $first, after: $after) { nodes { id } } }',
        variables,
      );
      expect(result.errors?.[0].extensions?.code, JSON.stringify(variables).slice(0, 60)).toBe('BAD_USER_INPUT');
    }
    const wrongType = await gql(t.app, 'query ($first: Int) { tracks(first: $first) { nodes { id } } }', { first: 'ten' });
    expect(wrongType.status).toBe(400);
    for (const id of [randomUUID(), 'nope', 'a\u0000b', LONG]) {
      const result = await gql<{ track: null }>(t.app, 'query ($id: ID!) { track(id: $id) { id } }', { id });
      expect(result.errors).toBeUndefined();
      expect(result.data?.track).toBeNull();
    }
    for (const id of [randomUUID(), 'nope', '%ED%A0%80', 'x'.repeat(2000)]) {
      // A path that is no UTF-8 is refused before any route (400).
      expect([400, 404]).toContain((await rest('GET', `/api/track/${id}`)).statusCode);
      expect([400, 404]).toContain((await rest('GET', `/api/track/${id}/mixes/0`)).statusCode);
    }
    expect((await rest('GET', `/api/track/${ids.kora}/mixes/-1`)).statusCode).toBe(400);
    expect((await rest('GET', `/api/track/${ids.kora}/mixes/abc`)).statusCode).toBe(400);
  });

  test('a track (GraphQL track, REST /api/track/:id) with the REST fields, manual ones too', async () => {
    const result = await gql<{ track: unknown }>(
      t.app,
      'query ($id: ID!) { track(id: $id) { id title coverUrl creators { id name } label { id name } buy newRelease isManual } }',
      { id: ids.zoe },
    );
    expect(result.data?.track).toEqual({
      id: ids.zoe,
      title: 'Lumière',
      coverUrl: 'https://covers.example.com/zoe.jpg',
      creators: [{ id: 'a-zoe', name: 'Zoë Lefèvre' }],
      label: null,
      buy: false,
      newRelease: true,
      isManual: false,
    });
    const response = await rest('GET', `/api/track/${ids.zoe}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      _id: ids.zoe,
      track: ids.zoe,
      title: 'Lumière',
      cover: 'https://covers.example.com/zoe.jpg',
      creators: [{ id: 'a-zoe', name: 'Zoë Lefèvre' }],
      label: null,
      buy: false,
      new_release: true,
      is_manual: false,
    });
  });

  test('a cover kept as a file name (the demo references) is answered as its storage address; URLs stay as they are', async () => {
    const em = t.services.orm.em.fork();
    const reference = em.create(Track, { title: 'Reference', creators: [{ id: null, name: 'Synth' }], cover: 'reference-1.jpg' });
    await em.flush();
    const result = await gql<{ track: { coverUrl: string } }>(t.app, 'query ($id: ID!) { track(id: $id) { coverUrl } }', {
      id: reference.id,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.track.coverUrl).toMatch(/^(https?:\/\/[^/]+)?\/.*app-assets\/track-covers\/reference-1\.jpg$/);
    expect((await rest('GET', `/api/track/${reference.id}`)).json().cover).toBe(result.data?.track.coverUrl);
    expect((await rest('GET', `/api/track/${ids.kora}`)).json().cover).toBe('https://covers.example.com/kora.jpg');
  });

  test('Track.mixes: the published, visible mixes holding the track, newest first, with its start time; paged', async () => {
    const trackId = ids.other;
    const publish = async (title: string, startTime: number | null, daysAgo = 0) => {
      const id = await draftMix(t.services, dj, { title });
      const tracks = [...typedTracks(2), { uuid: trackId, name: 'x', creators: 'y', start_time: startTime }, ...typedTracks(2, 'More')];
      const updated = await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks });
      expect(updated.statusCode, updated.body).toBe(200);
      const published = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: 'free-mix' });
      expect(published.statusCode, published.body).toBe(200);
      if (daysAgo) await publishedDaysAgo(t.services, id, daysAgo);
      return id;
    };
    const oldest = await publish('Oldest', 120, 3);
    const middle = await publish('Middle', null, 2);
    const newest = await publish('Newest', 3600.5, 1);
    const expired = await publish('Expired', 10, 400);
    const deactivated = await publish('Deactivated', 10, 1);
    expect((await rest('PATCH', `/api/user/deactivate-mix/${deactivated}`, dj)).statusCode).toBe(200);
    const draft = await draftMix(t.services, dj);
    await rest('POST', '/api/mix/update-mix', dj, {
      mix_id: draft,
      tracks: [{ uuid: trackId, name: 'x', creators: 'y' }, ...typedTracks(4)],
    });
    expect(expired && draft).toBeTruthy();

    type Page = {
      track: {
        mixes: {
          edges: { cursor: string; startTime: number | null; node: { id: string; title: string } }[];
          pageInfo: { hasNextPage: boolean; endCursor: string };
          totalCount: number;
        };
      };
    };
    const query =
      'query ($id: ID!, $first: Int, $after: String) { track(id: $id) { mixes(first: $first, after: $after) { edges { cursor startTime node { id title } } pageInfo { hasNextPage endCursor } totalCount } } }';
    const all = await gql<Page>(t.app, query, { id: trackId });
    expect(all.errors).toBeUndefined();
    expect(all.data?.track.mixes.edges.map((edge) => [edge.node.id, edge.startTime])).toEqual([
      [newest, 3600.5],
      [middle, null],
      [oldest, 120],
    ]);
    expect(all.data?.track.mixes.totalCount).toBe(3);
    const first = await gql<Page>(t.app, query, { id: trackId, first: 2 }, listener.token);
    expect(first.data?.track.mixes.pageInfo.hasNextPage).toBe(true);
    const second = await gql<Page>(t.app, query, { id: trackId, first: 2, after: first.data?.track.mixes.pageInfo.endCursor });
    expect(second.data?.track.mixes.edges.map((edge) => edge.node.id)).toEqual([oldest]);
    expect(second.data?.track.mixes.pageInfo.hasNextPage).toBe(false);

    const restPage = await rest('GET', `/api/track/${trackId}/mixes/0`);
    expect(restPage.statusCode, restPage.body).toBe(200);
    expect(restPage.json().count).toBe(3);
    expect(restPage.json().mixes.map((mix: { _id: string; start_time: number | null }) => [mix._id, mix.start_time])).toEqual([
      [newest, 3600.5],
      [middle, null],
      [oldest, 120],
    ]);
    expect(restPage.json().mixes[0].tracks[2]).toMatchObject({ _id: trackId, start_time: 3600.5 });
    expect((await rest('GET', `/api/track/${trackId}/mixes/1`)).json()).toEqual({ mixes: [], count: 3 });
  });

  test('Track.mixes is served by mix_track_track_idx, not a scan of every tracklist', async () => {
    const [index] = await t.services.orm.em
      .fork()
      .execute<{ indexdef: string }[]>(
        `select indexdef from pg_indexes where tablename = 'mix_track' and indexname = 'mix_track_track_idx'`,
      );
    expect(index?.indexdef).toMatch(/\(track_id\)/);
    // The statement the service sends, planned as if tracklists were many (no sequential scans where an index serves).
    const statements = await statementsDuring(t.services, () => t.services.mixes.byTrack(ids.other, { first: 20 }, null));
    const page = statements.find((statement) => statement.includes('with page as materialized'));
    expect(page).toBeDefined();
    const plan = await t.services.orm.em.fork().transactional(async (em) => {
      await em.execute('set local enable_seqscan = off');
      return em.execute<{ 'QUERY PLAN': string }[]>(`explain ${page}`);
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('mix_track_track_idx');
    expect(text).not.toMatch(/Seq Scan on mix_track/);
  });
});
